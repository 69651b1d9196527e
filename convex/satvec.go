package convex

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// The face stage of the separating-axis test for two polytopes of at most
// soaLen vertices, every face evaluated exactly and without a branch: the
// face normals of a polytope are kept in groups of four (the four x, the
// four y, the four z: newFaceGroups), and one kernel call per body
// (minFaces) takes four faces at a time through the other body's vertices
// (B's in A's frame, A's in B's frame, each posed once per query), keeping
// per face the minimum of n.x and the first vertex attaining it. Against
// evaluating only the faces whose lower bound is below the best depth (a
// gather, an unpredictable count and one kernel pass per face) it does
// more arithmetic and no bookkeeping.

// newFaceGroups returns the unit normals of planes in groups of four (12
// numbers per group: four x, four y, four z), the last group padded with
// zero normals.
func newFaceGroups(planes []geom.Plane) []float64 {
	ng := (len(planes) + 3) / 4
	g := make([]float64, 12*ng)
	for i, pl := range planes {
		b := 12*(i/4) + i%4
		g[b], g[b+4], g[b+8] = pl.N.X, pl.N.Y, pl.N.Z
	}
	return g
}

// minFacesGo is minFaces in Go: for each face k of the ngroups groups, the
// minimum over the npts points of pts (a soa of stride st) of n.x (vals[k])
// and the first point attaining it (idx[k], -1 when none does: NaN), with
// the products and sums of geom.Vec3.Dot in its order.
func minFacesGo(groups []float64, ngroups int, pts *soa, st, npts int, vals *[faceSlots]float64, idx *[faceSlots]int64) {
	for g := 0; g < ngroups; g++ {
		gr := groups[12*g : 12*g+12]
		for l := 0; l < 4; l++ {
			nx, ny, nz := gr[l], gr[4+l], gr[8+l]
			lo, at := math.Inf(1), int64(-1)
			for k := 0; k < npts; k++ {
				if x := nx*pts[k] + ny*pts[st+k] + nz*pts[2*st+k]; x < lo {
					lo, at = x, int64(k)
				}
			}
			vals[(4*g+l)&(faceSlots-1)], idx[(4*g+l)&(faceSlots-1)] = lo, at
		}
	}
}

// satFacesAll is satFaces without a cached axis, every face of both
// bodies evaluated by minFaces (both bodies of at most soaLen vertices,
// B's vertices in A's frame in the soa of setB): it keeps the smallest
// depth in best (faces of A, then of B, replacing it only when strictly
// smaller) and sets the pruning data of every face (ga, gda, gb, gdb from
// the centroids cB of B in A's frame and cAB of A in B's frame; the
// deepest vertices jm, jp, im, ip). When a face of A separates the bodies
// by more than tol it stops there (B's faces are not evaluated). It
// returns false when a kernel meets a value it cannot order (NaN).
func (s *Searcher) satFacesAll(f *pairFrame, cB, cAB geom.Vec3, best *satAnswer, tol float64) bool {
	const m = faceSlots - 1
	st := &s.sat
	a, b := f.a, f.b
	plA, plB := a.planes, b.planes
	na, nb := len(a.verts), len(b.verts)
	gen := st.gen
	minFaces(a.faceGroups, (len(plA)+3)/4, &st.bs, st.bst, nb, &st.hv, &st.hi)
	i, h, ok := faceMinima(plA, cB, best.U, &st.hv, &st.hi, &st.bs, st.bst, nb, gen, &st.ga, &st.gda, &st.jm, &st.jp, &st.jg)
	if !ok {
		return false
	}
	if i >= 0 {
		*best = satAnswer{U: h, n: plA[i].N, ax: satCache{axFaceA, int32(i), 0}, ia: -1, ib: st.jm[i&m]}
		if h < -tol {
			return true // a face of A separates the bodies: the test ends
		}
	}
	// A's vertices in B's frame: x -> R^T x - R^T t.
	r := &f.R
	ti := r.mulT(f.t).Neg()
	inv := geom.Transform{R: geom.Mat3{{r.r0.X, r.r1.X, r.r2.X}, {r.r0.Y, r.r1.Y, r.r2.Y}, {r.r0.Z, r.r1.Z, r.r2.Z}}, T: ti}
	poseSoA(&st.as, a.soa, na, &inv)
	minFaces(b.faceGroups, (len(plB)+3)/4, &st.as, soaStride(na), na, &st.hv2, &st.hi2)
	j, h, ok := faceMinima(plB, cAB, best.U, &st.hv2, &st.hi2, a.soa, soaStride(na), na, gen, &st.gb, &st.gdb, &st.im, &st.ip, &st.ig)
	if !ok {
		return false
	}
	if j >= 0 {
		*best = satAnswer{U: h, n: st.bFace(f, int32(j)).Neg(), ax: satCache{axFaceB, 0, int32(j)}, ia: st.im[j&m], ib: -1}
	}
	// The bounds from the points deepest along the best face, tighter
	// than the centroids' for the faces turned towards the contact.
	yB, xAB := s.satDeep(f, best)
	for i := range plA {
		pl := &plA[i]
		st.gda[i&m] = pl.D - pl.N.Dot(yB)
	}
	for j := range plB {
		pl := &plB[j]
		st.gdb[j&m] = pl.D - pl.N.Dot(xAB)
	}
	return true
}

// faceMinima reads minFaces's minima hv and vertices hi for the faces pls
// of one body (the other body's nv points pts, a soa of stride st, in A's
// frame): it sets each face's pruning bounds g and gd (both D - n.c for
// the other body's centroid c in the face's frame: there is no cached
// axis to give a deeper point) and its
// deepest vertex (vm, vp in A's frame, stamp vg = gen), and returns the
// first face whose depth D - min is below U and smallest, with that depth
// (-1 when none), or ok = false when a face has no vertex (NaN).
func faceMinima(pls []geom.Plane, c geom.Vec3, U float64, hv *[faceSlots]float64, hi *[faceSlots]int64, pts *soa, st, nv int, gen uint32,
	g, gd *[faceSlots]float64, vm *[faceSlots]int32, vp *[faceSlots]geom.Vec3, vg *[faceSlots]uint32) (best int, h float64, ok bool) {
	const m = faceSlots - 1
	best, h = -1, U
	for i := range pls {
		pl := &pls[i]
		x := pl.D - pl.N.Dot(c)
		g[i&m], gd[i&m] = x, x
		v := hi[i&m]
		if uint64(v) >= uint64(nv) {
			return -1, 0, false
		}
		vm[i&m], vp[i&m], vg[i&m] = int32(v), pts.at(st, int32(v)), gen
		if x := pl.D - hv[i&m]; x < h {
			best, h = i, x
		}
	}
	return best, h, true
}
