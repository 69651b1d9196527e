//go:build refbench

package main

/*
#cgo LDFLAGS: -lccd -lm
#include <ccd/ccd.h>
#include <stdint.h>

#include "ccdbody.h"

// mpr_frame runs ccdMPRIntersect on np pairs (a, b) of one frame: body i
// has mesh bm[i], whose vertices start at voff[m] (in triples) and number
// nv[m], with centroid cen[3m..]; tf holds 12 doubles per body.
static void mpr_frame(const double *verts, const int32_t *voff, const int32_t *nv, const double *cen,
		const int32_t *bm, const double *tf, const int32_t *pairs, int np, uint8_t *hit) {
	ccd_t ccd;
	ccd_setup(&ccd);
	for (int k = 0; k < np; k++) {
		int a = pairs[2*k], b = pairs[2*k+1], ma = bm[a], mb = bm[b];
		body_t A = { verts + 3*voff[ma], nv[ma], cen + 3*ma, tf + 12*a };
		body_t B = { verts + 3*voff[mb], nv[mb], cen + 3*mb, tf + 12*b };
		hit[k] = ccdMPRIntersect(&A, &B, &ccd) != 0;
	}
}
*/
import "C"

import (
	"unsafe"

	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
)

// mprAlgo is libccd's MPR (ccdMPRIntersect) as a narrow algorithm: support
// points by a scan of the local vertices along the direction turned into the
// body's frame, centres at the transformed centroids. One cgo call per frame
// (TestFrame), so the call's cost is spread over the frame's pairs.
type mprAlgo struct {
	verts []float64        // all meshes' local vertices, x y z
	voff  []int32          // per mesh: first vertex
	nv    []int32          // per mesh: vertex count
	cen   []float64        // per mesh: centroid
	bm    []int32          // per body: mesh
	tf    []geom.Transform // Test's transforms
}

func newMPR(w *bench.Workload) (bench.NarrowAlgo, error) {
	a := &mprAlgo{}
	for _, m := range w.Meshes {
		a.voff = append(a.voff, int32(len(a.verts)/3))
		a.nv = append(a.nv, int32(len(m.Verts)))
		var c geom.Vec3
		for _, v := range m.Verts {
			a.verts = append(a.verts, v.X, v.Y, v.Z)
			c = c.Add(v)
		}
		c = c.Scale(1 / float64(len(m.Verts)))
		a.cen = append(a.cen, c.X, c.Y, c.Z)
	}
	for _, m := range w.BodyMesh {
		a.bm = append(a.bm, int32(m))
	}
	return a, nil
}

func (a *mprAlgo) Reset() {}

func (a *mprAlgo) Test(frame, i, j int, ti, tj *geom.Transform) bool {
	// Only for callers without TestFrame (bench.Run uses TestFrame).
	if len(a.tf) < len(a.bm) {
		a.tf = make([]geom.Transform, len(a.bm))
	}
	a.tf[i], a.tf[j] = *ti, *tj
	hit := []bool{false}
	a.TestFrame(frame, a.tf, []bench.Pair{{A: int32(i), B: int32(j)}}, hit)
	return hit[0]
}

func (a *mprAlgo) TestFrame(_ int, tf []geom.Transform, pairs []bench.Pair, hit []bool) {
	if len(pairs) == 0 {
		return
	}
	// No copies: geom.Transform is 12 float64 (rotation rows, then
	// translation), bench.Pair two int32 and a bool one byte, 0 or 1.
	C.mpr_frame((*C.double)(&a.verts[0]), (*C.int32_t)(&a.voff[0]), (*C.int32_t)(&a.nv[0]), (*C.double)(&a.cen[0]),
		(*C.int32_t)(&a.bm[0]), (*C.double)(unsafe.Pointer(&tf[0])), (*C.int32_t)(unsafe.Pointer(&pairs[0])), C.int(len(pairs)),
		(*C.uint8_t)(unsafe.Pointer(&hit[0])))
}
