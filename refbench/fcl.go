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
		} else if m.Convex() {
			kind = C.FCL_CONVEX
		}
		a.shapes = append(a.shapes, newFCLShape(kind, m, v))
	}
	return a, nil
}

// newFCLShape makes the FCL shape of mesh m: kind FCL_BOX with v its side
// lengths, or FCL_CONVEX or FCL_MESH from m's vertices and faces (v nil).
func newFCLShape(kind int, m *mesh.Mesh, v []float64) *C.fcl_shape {
	if v == nil {
		for _, p := range m.Verts {
			v = append(v, p.X, p.Y, p.Z)
		}
	}
	fv := make([]C.int, len(m.FaceVerts)+1)
	for i, x := range m.FaceVerts {
		fv[i] = C.int(x)
	}
	fs := make([]C.int, len(m.FaceStart))
	for i, x := range m.FaceStart {
		fs[i] = C.int(x)
	}
	return C.fcl_new_shape(C.int(kind), (*C.double)(&v[0]), C.int(len(m.Verts)), &fv[0], &fs[0], C.int(m.NumFaces()))
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

// queryPoses packs a query's poses a0, a1, b0, b1 (px py pz qw qx qy qz
// each) for the C side.
func queryPoses(q *bench.Query) (p [28]C.double) {
	for k, x := range [4]geom.Pose{q.A0, q.A1, q.B0, q.B1} {
		copy(p[7*k:], []C.double{C.double(x.P.X), C.double(x.P.Y), C.double(x.P.Z), C.double(x.Q.W), C.double(x.Q.X), C.double(x.Q.Y), C.double(x.Q.Z)})
	}
	return p
}

func (a *fclAlgo) Query(q *bench.Query) (bool, float64) {
	p := queryPoses(q)
	var toc C.double
	hit := C.fcl_ccd(a.shapes[q.MeshA], a.shapes[q.MeshB], &p[0], &toc)
	return hit != 0, float64(toc)
}
