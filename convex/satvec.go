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
// zero normals, followed by the planes' offsets D (4 per group, padded
// with zeros) for faceBounds.
func newFaceGroups(planes []geom.Plane) []float64 {
	ng := (len(planes) + 3) / 4
	g := make([]float64, 16*ng)
	for i, pl := range planes {
		b := 12*(i/4) + i%4
		g[b], g[b+4], g[b+8] = pl.N.X, pl.N.Y, pl.N.Z
		g[12*ng+i] = pl.D
	}
	return g
}

// faceBoundsGo sets, for each face of planes (normal n, offset D), lo to
// D - n.c and lod to D - n.y: the lower bounds of the depth along the
// face's normal from the other body's points c and y (in the face's
// frame), which prune the faces and their edges.
func faceBoundsGo(planes []geom.Plane, c, y geom.Vec3, lo, lod *[faceSlots]float64) {
	const m = faceSlots - 1
	for i := range planes {
		pl := &planes[i]
		lo[i&m], lod[i&m] = pl.D-pl.N.Dot(c), pl.D-pl.N.Dot(y)
	}
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
// smaller). A face that separates the bodies by more than tol ends it
// (after A's faces, B's are not evaluated); otherwise it sets the pruning
// data of every face for the edge stage (ga, gb from the centroids cB of
// B in A's frame and cAB of A in B's frame, gda, gdb from the points
// deepest along the best face; the deepest vertices jm, jp, im, ip). It
// returns false when a kernel meets a value it cannot order (NaN).
func (s *Searcher) satFacesAll(f *pairFrame, cB, cAB geom.Vec3, best *satAnswer, tol float64) bool {
	const m = faceSlots - 1
	st := &s.sat
	a, b := f.a, f.b
	plA, plB := a.planes, b.planes
	na, nb := len(a.verts), len(b.verts)
	minFaces(a.faceGroups, (len(plA)+3)/4, &st.bs, st.bst, nb, &st.hv, &st.hi)
	i, h, ok := faceBest(plA, best.U, &st.hv, &st.hi, nb)
	if !ok {
		return false
	}
	if i >= 0 {
		*best = satAnswer{U: h, n: plA[i].N, ax: satCache{axFaceA, int32(i), 0}, ia: -1, ib: int32(st.hi[i&m])}
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
	j, h, ok := faceBest(plB, best.U, &st.hv2, &st.hi2, na)
	if !ok {
		return false
	}
	if j >= 0 {
		*best = satAnswer{U: h, n: st.bFace(f, int32(j)).Neg(), ax: satCache{axFaceB, 0, int32(j)}, ia: int32(st.hi2[j&m]), ib: -1}
		if h < -tol {
			return true // a face of B separates them
		}
	}
	// The edge stage's pruning data: the bounds from the centroids and
	// from the points deepest along the best face (tighter for the faces
	// turned towards the contact), the faces' deepest vertices.
	gen := st.gen
	yB, xAB := s.satDeep(f, best)
	facePrune(a, cB, yB, &st.hi, &st.bs, st.bst, gen, &st.ga, &st.gda, &st.jm, &st.jp, &st.jg)
	facePrune(b, cAB, xAB, &st.hi2, &st.as, soaStride(na), gen, &st.gb, &st.gdb, &st.im, &st.ip, &st.ig)
	return true
}

// faceBest returns, among the faces pls of one body with minFaces's minima
// hv and vertices hi over the other body's nv points, the first whose
// depth D - min is below U and smallest, with that depth (-1 when none),
// or ok = false when a face has no vertex (NaN).
func faceBest(pls []geom.Plane, U float64, hv *[faceSlots]float64, hi *[faceSlots]int64, nv int) (best int, h float64, ok bool) {
	const m = faceSlots - 1
	best, h = -1, U
	for i := range pls {
		if uint64(hi[i&m]) >= uint64(nv) {
			return -1, 0, false
		}
		if x := pls[i].D - hv[i&m]; x < h {
			best, h = i, x
		}
	}
	return best, h, true
}

// facePrune sets, for the faces of one body, the edge stage's pruning
// data: the bounds g = D - n.c and gd = D - n.y for the other body's
// points c and y (in the face's frame; faceBounds) and the deepest vertex
// hi of minFaces (vm, its point vp from pts, a soa of stride st in the
// face's frame, and the stamp vg = gen).
func facePrune(p *Polytope, c, y geom.Vec3, hi *[faceSlots]int64, pts *soa, st int, gen uint32,
	g, gd *[faceSlots]float64, vm *[faceSlots]int32, vp *[faceSlots]geom.Vec3, vg *[faceSlots]uint32) {
	const m = faceSlots - 1
	faceBounds(p, c, y, g, gd)
	for i := range p.planes {
		v := int32(hi[i&m])
		vm[i&m], vp[i&m], vg[i&m] = v, pts.at(st, v), gen
	}
}
