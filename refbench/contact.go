//go:build refbench

package main

/*
#cgo CXXFLAGS: -DBT_USE_DOUBLE_PRECISION -I/usr/include/bullet
#cgo LDFLAGS: -lBulletCollision-float64 -lLinearMath-float64 -lfcl -lccd
#include "contact.h"
*/
import "C"

import (
	"unsafe"

	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
)

// contactAlgo is an established library's signed distance as a contact
// algorithm, one cgo call per frame:
//
//   - "bullet-gjkepa": Bullet's btGjkEpaSolver2::SignedDistance on
//     btConvexHullShape with margin 0 (GJK distance, else EPA penetration);
//   - "libccd-gjkepa": libccd's ccdGJKPenetration (no distance for
//     separated pairs);
//   - "libccd-mpr-pen": libccd's ccdMPRPenetration (idem);
//   - "fcl-epa-libccd", "fcl-epa-indep": FCL's collide with one contact
//     (penetration depth and normal) and, for separated pairs, distance,
//     with libccd's GJK/EPA or FCL's own (fcl::Convexd shapes).
type contactAlgo struct {
	lib *C.ct_lib
	bm  []int32
	out []C.ct_answer
	tf  []geom.Transform
}

func contactFactory(lib C.int) bench.ContactFactory {
	return func(w *bench.Workload) (bench.ContactAlgo, error) {
		var verts []float64
		var voff, nv, fv, fstart, foff, nf []int32
		for _, m := range w.Meshes {
			voff = append(voff, int32(len(verts)/3))
			nv = append(nv, int32(len(m.Verts)))
			for _, v := range m.Verts {
				verts = append(verts, v.X, v.Y, v.Z)
			}
			foff = append(foff, int32(len(fstart)))
			nf = append(nf, int32(m.NumFaces()))
			for f := 0; f < m.NumFaces(); f++ {
				fstart = append(fstart, int32(len(fv)))
				for _, x := range m.Face(f) {
					fv = append(fv, x)
				}
			}
			fstart = append(fstart, int32(len(fv)))
		}
		a := &contactAlgo{}
		a.lib = C.ct_new(lib, C.int(len(w.Meshes)), (*C.double)(&verts[0]), (*C.int32_t)(&voff[0]), (*C.int32_t)(&nv[0]),
			(*C.int32_t)(&fv[0]), (*C.int32_t)(&fstart[0]), (*C.int32_t)(&foff[0]), (*C.int32_t)(&nf[0]))
		for _, m := range w.BodyMesh {
			a.bm = append(a.bm, int32(m))
		}
		return a, nil
	}
}

func (a *contactAlgo) Reset() {}

func (a *contactAlgo) Contact(frame, i, j int, ti, tj *geom.Transform, out *bench.ContactAnswer) {
	if len(a.tf) < len(a.bm) {
		a.tf = make([]geom.Transform, len(a.bm))
	}
	a.tf[i], a.tf[j] = *ti, *tj
	o := []bench.ContactAnswer{{}}
	a.ContactFrame(frame, a.tf, []bench.Pair{{A: int32(i), B: int32(j)}}, o)
	*out = o[0]
}

func (a *contactAlgo) ContactFrame(_ int, tf []geom.Transform, pairs []bench.Pair, out []bench.ContactAnswer) {
	if len(pairs) == 0 {
		return
	}
	if cap(a.out) < len(pairs) {
		a.out = make([]C.ct_answer, len(pairs))
	}
	o := a.out[:len(pairs)]
	C.ct_frame(a.lib, (*C.int32_t)(&a.bm[0]), (*C.double)(unsafe.Pointer(&tf[0])), (*C.int32_t)(unsafe.Pointer(&pairs[0])), C.int(len(pairs)), &o[0])
	for k := range o {
		x := &o[k]
		out[k] = bench.ContactAnswer{Hit: x.hit != 0, SD: float64(x.sd), N: geom.Vec3{X: float64(x.n[0]), Y: float64(x.n[1]), Z: float64(x.n[2])}, HasSD: x.has_sd != 0, HasN: x.has_sd != 0}
	}
}

// The libraries of contact.h.
const (
	ctBullet    = C.CT_BULLET
	ctCCDGJKEPA = C.CT_CCD_GJK_EPA
	ctCCDMPR    = C.CT_CCD_MPR
	ctFCLCCD    = C.CT_FCL_CCD
	ctFCLIndep  = C.CT_FCL_INDEP
)
