//go:build refbench

package main

/*
#include "fcl.h"
*/
import "C"

import (
	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
)

// fclMeshDist is FCL's discrete mesh-mesh queries on BVHModel<OBBRSS>
// (FCL's fastest and default mesh model): collide (one contact, no contact
// details) and, without a collision, distance with rel_err = abs_err = 0
// (the exact triangle-triangle minimum). Models and transforms are made
// before the timed region.
type fclMeshDist struct {
	w        *bench.Workload
	shapes   []*C.fcl_shape
	tfa, tfb []*C.fcl_tf
}

func newFCLMeshDist(w *bench.Workload) (bench.MeshDistAlgo, error) {
	a := &fclMeshDist{w: w}
	for _, m := range w.Meshes {
		var v []float64
		for _, p := range m.Verts {
			v = append(v, p.X, p.Y, p.Z)
		}
		a.shapes = append(a.shapes, newShape(C.FCL_MESH, v, m))
	}
	for _, p := range w.Placements {
		a.tfa = append(a.tfa, newTF(p.A))
		a.tfb = append(a.tfb, newTF(p.B))
	}
	return a, nil
}

func newTF(p geom.Pose) *C.fcl_tf {
	x := [7]C.double{C.double(p.P.X), C.double(p.P.Y), C.double(p.P.Z), C.double(p.Q.W), C.double(p.Q.X), C.double(p.Q.Y), C.double(p.Q.Z)}
	return C.fcl_new_tf(&x[0])
}

func (a *fclMeshDist) Query(i int, _, _ *geom.Transform) (bool, float64) {
	p := &a.w.Placements[i]
	var d C.double
	hit := C.fcl_meshdist(a.shapes[p.MeshA], a.tfa[i], a.shapes[p.MeshB], a.tfb[i], &d)
	return hit != 0, float64(d)
}
