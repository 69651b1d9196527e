//go:build refbench

package main

/*
#cgo CXXFLAGS: -std=c++17 -O2 -I/usr/include/eigen3
#cgo LDFLAGS: -lfcl -lccd -lstdc++
#include "fcl.h"
*/
import "C"

import (
	"math"

	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// fclAlgo is FCL's continuous collision by conservative advancement along
// the screw motion (ccd_motion_type CCDM_SCREW, the motion of the
// workloads), toc_err 1e-4, GJK by libccd. Each mesh becomes an fcl::Box
// when it is an axis-aligned box centred at its origin (FCL's fastest
// shape), an fcl::Convex when it is convex, and otherwise a triangle-mesh
// BVH (OBBRSS).
type fclAlgo struct {
	shapes []*C.fcl_shape
}

func newFCL(w *bench.Workload) (bench.CCDAlgo, error) {
	a := &fclAlgo{}
	for _, m := range w.Meshes {
		kind := C.FCL_MESH
		var v []float64
		if x, y, z, ok := boxSides(m); ok {
			kind, v = C.FCL_BOX, []float64{x, y, z}
		} else {
			if m.Convex() {
				kind = C.FCL_CONVEX
			}
			for _, p := range m.Verts {
				v = append(v, p.X, p.Y, p.Z)
			}
		}
		a.shapes = append(a.shapes, newShape(C.int(kind), v, m))
	}
	return a, nil
}

// newShape makes FCL's shape of m: kind, the coordinates v (vertices, or a
// box's sides) and m's faces.
func newShape(kind C.int, v []float64, m *mesh.Mesh) *C.fcl_shape {
	fv := make([]C.int, len(m.FaceVerts)+1)
	for i, x := range m.FaceVerts {
		fv[i] = C.int(x)
	}
	fs := make([]C.int, len(m.FaceStart))
	for i, x := range m.FaceStart {
		fs[i] = C.int(x)
	}
	return C.fcl_new_shape(kind, (*C.double)(&v[0]), C.int(len(m.Verts)), &fv[0], &fs[0], C.int(m.NumFaces()))
}

// boxSides returns the side lengths of m when it is a box of 8 vertices
// at (±x/2, ±y/2, ±z/2).
func boxSides(m *mesh.Mesh) (x, y, z float64, ok bool) {
	if m.NumVerts() != 8 || !m.Convex() {
		return 0, 0, 0, false
	}
	h := m.Verts[0]
	h.X, h.Y, h.Z = math.Abs(h.X), math.Abs(h.Y), math.Abs(h.Z)
	seen := map[[3]bool]bool{}
	for _, v := range m.Verts {
		if math.Abs(v.X) != h.X || math.Abs(v.Y) != h.Y || math.Abs(v.Z) != h.Z {
			return 0, 0, 0, false
		}
		seen[[3]bool{v.X > 0, v.Y > 0, v.Z > 0}] = true
	}
	return 2 * h.X, 2 * h.Y, 2 * h.Z, len(seen) == 8 && h.X > 0 && h.Y > 0 && h.Z > 0
}

func (a *fclAlgo) Query(q *bench.Query) (bool, float64) {
	var p [28]C.double
	for k, x := range [4]geom.Pose{q.A0, q.A1, q.B0, q.B1} {
		copy(p[7*k:], []C.double{C.double(x.P.X), C.double(x.P.Y), C.double(x.P.Z), C.double(x.Q.W), C.double(x.Q.X), C.double(x.Q.Y), C.double(x.Q.Z)})
	}
	var toc C.double
	hit := C.fcl_ccd(a.shapes[q.MeshA], a.shapes[q.MeshB], &p[0], &toc)
	return hit != 0, float64(toc)
}
