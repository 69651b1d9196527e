package convex

import (
	"math"
	"math/bits"
	"unsafe"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// The penetration depth of two small polytopes by the separating-axis
// test over the facet normals of the Minkowski difference M = A - B
// (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC
// 2013; Bullet's btPolyhedralContactClipping::findSeparatingAxis): the face
// normals of A and of B, and the cross products of the edge pairs whose
// arcs cross on the Gauss map. The depth is the smallest support value of
// M over them, exact by construction. The cached axis of the last query
// gives the first bound U, and an axis is only evaluated when a cheap lower
// bound on its support value is below U: along a face normal of A, the
// support of B is bounded by B's centroid; for an edge of A, every axis on
// its Gauss arc has a support value at least that of the centroid of B
// against the edge along either adjacent face normal (when both are above
// U >= 0, no pair with that edge can give the minimum), and likewise for
// the edges of B.

// satMax is the largest vertex count for which both polytopes of an
// overlapping pair are handled by the separating-axis test instead of the
// expanding polytope algorithm (its edge pairs grow with the product of the
// sizes).
const satMax = 32

// faceSlots is the length of the separating-axis test's per-face arrays:
// a power of two at least 2*satMax-4 (the most faces of a polytope with
// satMax vertices), so that an index masked with faceSlots-1 needs no
// bounds check.
const faceSlots = 64

// Kinds of cached axis.
const (
	axNone uint8 = iota
	axFaceA
	axFaceB
	axEdges
)

// satCache is the axis of the last overlap found by the separating-axis
// test: a face of A (i), a face of B (j) or an edge pair (i of A, j of B).
type satCache struct {
	kind uint8
	i, j int32
}

// inRange reports whether c's ids index faces and edges of a and b (a
// cache may come from another pair).
func (c *satCache) inRange(a, b *Polytope) bool {
	switch c.kind {
	case axFaceA:
		return uint32(c.i) < uint32(len(a.planes))
	case axFaceB:
		return uint32(c.j) < uint32(len(b.planes))
	}
	return uint32(c.i) < uint32(len(a.satEdges)) && uint32(c.j) < uint32(len(b.satEdges))
}

// satState is the separating-axis test's scratch space. B's vertices are
// turned into A's frame once per query (bw), so that every support of B
// along a face normal of A is a straight loop over them; B's face normals
// and plane offsets in A's frame are set where needed. Entries of the
// per-face arrays are valid for this query where their stamp equals gen
// (no clearing per query).
type satState struct {
	gen uint32
	// B's vertices in A's frame: in soa layout (bs, stride bst) when B
	// has one (at most soaLen vertices), bvec when the vector kernels may
	// scan it; else as points (bw).
	bs   soa
	bst  int
	bsoa bool
	bvec bool
	bw   [satMax]geom.Vec3
	bn   [faceSlots]geom.Vec3
	bd   [faceSlots]float64
	bg   [faceSlots]uint32  // stamps of bn, bd
	hv   [faceSlots]float64 // the vector kernel's minima (satFaces)
	// satFacesAll: A's vertices in B's frame (as), the minima and the
	// vertices attaining them over B's vertices for A's faces (hv, hi)
	// and over A's for B's faces (hv2, hi2).
	as      soa
	hi, hi2 [faceSlots]int64
	hv2     [faceSlots]float64
	// D - n.c for each face of A (n, D its plane, c B's centroid in A's
	// frame) and of B (A's centroid in B's frame): the pruning bound of
	// the faces and of their edges.
	ga, gb [faceSlots]float64
	// The same with the other body's point deepest along the cached axis
	// instead of its centroid (the centroid where there is none).
	gda, gdb [faceSlots]float64
	// The other body's vertex deepest along each face's axis, where
	// evaluated (stamps jg, ig): the deepest vertex of B below each face
	// of A (jm, and jp that vertex in A's frame) and of A beyond each face
	// of B (im, and ip that vertex in B's frame), read by the pruning of
	// every edge of the face (in the face's own frame, so that an edge is
	// pruned before anything of it is turned into the other frame).
	jm, im [faceSlots]int32
	jg, ig [faceSlots]uint32
	jp, ip [faceSlots]geom.Vec3
	// The face normals a kernel call evaluates (dn, in A's frame), their
	// faces (di) and the deepest vertices it returns (jm2).
	dn  [faceSlots]geom.Vec3
	di  [faceSlots]int32
	jm2 [faceSlots]int32
	// The edges left by the faces' values (edgesLeft), then the edges of
	// A kept by the pruning, with their data gathered.
	cand [128]int32
	kept [3*satMax - 6]keptEdge
	// The axis that ended the last test with the bodies apart (when
	// apart is set).
	sep   satAnswer
	apart bool
}

// keptEdge is an edge of A that may give an edge-pair axis: x = n2 x n1
// for its face normals n1, n2 (its ends are read from the polytope for
// the few pairs whose arcs cross).
type keptEdge struct {
	x, n1, n2 geom.Vec3
	i         int32 // index into satEdges
}

// next starts a query: a new stamp (the arrays cleared when it wraps).
func (st *satState) next() {
	st.gen++
	if st.gen == 0 {
		clear(st.bg[:])
		clear(st.jg[:])
		clear(st.ig[:])
		st.gen = 1
	}
}

// satAnswer is the best axis found: the depth U along the unit axis n (A's
// frame, from A towards B), its kind and ids, and the vertices attaining
// the supports for a face axis.
type satAnswer struct {
	U      float64
	n      geom.Vec3
	ax     satCache
	ia, ib int32
}

// satOK reports whether the pair is small enough for satPenetration.
func satOK(a, b *Polytope) bool {
	return a.satEdges != nil && b.satEdges != nil
}

// satPenetration computes the depth of an overlapping pair (f set to the
// pair) by the separating-axis test, starting from the cached axis c (may
// be nil). It returns false, leaving d's depth alone, when some axis
// separates the bodies by more than the tolerance (then they are apart) or
// when the points cannot be placed (satFill).
func (s *Searcher) satPenetration(f *pairFrame, ta *geom.Transform, d *Distance, c *satCache) bool {
	a, b := f.a, f.b
	st := &s.sat
	st.next()
	plA := a.planes
	st.setB(f)
	cB := f.pb2(b.centroid)
	cA := a.centroid
	cAB := f.R.mulT(cA.Sub(f.t)) // A's centroid in B's frame
	tol := d.Tol
	best := satAnswer{U: math.Inf(1)}
	// Both bodies small enough for the vector kernels: every face axis
	// of both, exactly (two kernel calls); else the cached axis first and
	// only the faces whose lower bounds are below the best depth so far.
	st.apart = false
	// An axis separating the bodies by more than tol ends the test; it
	// is kept (st.sep) for the feature walk that starts from it.
	sep := func() bool {
		st.sep, st.apart = best, best.U < -tol
		return false
	}
	if st.bvec && a.soa != nil {
		yB, xAB := cB, cAB
		if c != nil && c.kind != axNone && c.inRange(a, b) {
			s.satAxis(f, c.kind, c.i, c.j, &best)
			if best.U < -tol {
				return sep()
			}
			if best.U < math.Inf(1) {
				yB, xAB = s.satDeep(f, &best)
			}
		}
		// Without an axis to bound them, every face is evaluated: four
		// faces per kernel step.
		ok := false
		if best.U == math.Inf(1) {
			ok = s.satFacesAll(f, cB, cAB, &best, tol) // yB, xAB are the centroids
		} else {
			ok = s.satFaces(f, cB, cAB, yB, xAB, &best)
		}
		if !ok {
			return false
		}
		if best.U < -tol {
			return sep()
		}
	} else {
		if c != nil && c.kind != axNone && c.inRange(a, b) {
			s.satAxis(f, c.kind, c.i, c.j, &best)
			if best.U < -tol {
				return sep()
			}
		}
		if !s.satFacesBounded(f, cB, cAB, &best, tol) {
			return sep()
		}
	}
	if best.U < 0 {
		best.U = 0 // within tol: touching
	}
	// Edge pairs, after pruning each edge by its Gauss arc; the arcs'
	// crossing test (gaussArcsCross) with the data of the kept edges of A
	// gathered.
	U := best.U
	gen := st.gen
	nk := 0
	// n.(p - y) = D - n.y for p on the face (y B's centroid or its deep
	// point): the faces' values, the edges left gathered without a branch.
	nc := edgesLeft(&a.satFaceEdges, st.ga[:len(plA)], st.gda[:], U, &st.cand)
	for _, i := range st.cand[:nc] {
		e := &a.satEdges[i]
		n1, n2 := plA[e.f[0]].N, plA[e.f[1]].N
		f0, f1 := e.f[0]&(faceSlots-1), e.f[1]&(faceSlots-1)
		// Tighter: B's vertices deepest along the edge's face normals.
		if g0, g1 := st.jg[f0] == gen, st.jg[f1] == gen; g0 || g1 {
			ep := a.verts[e.v[0]]
			if g0 && edgePruned(ep.Sub(st.jp[f0]), n1, n2, U) {
				continue
			}
			if g1 && edgePruned(ep.Sub(st.jp[f1]), n1, n2, U) {
				continue
			}
		}
		st.kept[nk] = keptEdge{x: e.x, n1: n1, n2: n2, i: i}
		nk++
	}
	kept := st.kept[:nk]
	if nk > 0 {
		nc = edgesLeft(&b.satFaceEdges, st.gb[:len(b.planes)], st.gdb[:], U, &st.cand)
	} else {
		nc = 0
	}
	for _, j := range st.cand[:nc] {
		e := &b.satEdges[j]
		// The pruning in B's frame: B's own face normals and vertex, A's
		// deepest vertices beyond the faces turned into it (ip).
		f0, f1 := e.f[0]&(faceSlots-1), e.f[1]&(faceSlots-1)
		if g0, g1 := st.ig[f0] == gen, st.ig[f1] == gen; g0 || g1 {
			n1, n2 := b.planes[e.f[0]].N, b.planes[e.f[1]].N
			ep := b.verts[e.v[0]]
			if g0 && edgePruned(ep.Sub(st.ip[f0]), n1, n2, U) {
				continue
			}
			if g1 && edgePruned(ep.Sub(st.ip[f1]), n1, n2, U) {
				continue
			}
		}
		b1, b2 := st.bFace(f, f0), st.bFace(f, f1)
		pb := st.bpt(e.v[0])
		// The arc of B's edge on M's Gauss map: from -b1 to -b2, with
		// (-b2) x (-b1) = R (n2 x n1).
		dxc := f.R.mul(e.x)
		db := f.R.mul(b.verts[e.v[1]].Sub(b.verts[e.v[0]]))
		for k := range kept {
			ka := &kept[k]
			cba, dba := -b1.Dot(ka.x), -b2.Dot(ka.x)
			if cba*dba >= 0 {
				continue
			}
			adc, bdc := ka.n1.Dot(dxc), ka.n2.Dot(dxc)
			if !(adc*bdc < 0 && cba*bdc > 0) {
				continue
			}
			ea := &a.satEdges[ka.i]
			kp := a.verts[ea.v[0]]
			// c = cr.Normalize(), its common case (a squared length well
			// within range, as geom.Vec3.Norm tests it) inlined: the same
			// vector bit for bit.
			cr := a.verts[ea.v[1]].Sub(kp).Cross(db)
			var c geom.Vec3
			if n2 := cr.Dot(cr); n2 > 1e-290 && n2 < 1e290 {
				c = cr.Scale(1 / math.Sqrt(n2))
			} else if u, ok := cr.Normalize(); ok {
				c = u
			} else {
				continue
			}
			if c.Dot(ka.n1.Add(ka.n2)) < 0 {
				c = c.Neg()
			}
			if h := c.Dot(kp.Sub(pb)); h < best.U {
				best = satAnswer{U: h, n: c, ax: satCache{axEdges, ka.i, j}, ia: -1, ib: -1}
			}
		}
	}
	if !s.satFill(f, ta, d, &best) {
		return false
	}
	if c != nil {
		*c = best.ax
	}
	s.satHits++
	return true
}

// satFacesBounded evaluates the face axes of A and of B whose lower bounds
// are below the best depth so far (best), and sets ga and gb (cB: B's
// centroid in A's frame, cAB: A's centroid in B's frame). Along the normal
// n of a face of A (plane offset D) the depth D - min over B of n.x is at
// least D - n.y for every point y of B: the centroid, and the deepest
// vertex of B found last (B's vertices near the contact are the deepest
// for most faces facing B). Likewise for a face of B (normal m outward of
// B, axis -m; in B's frame the bound is D - m.y for y of A). It returns
// false when an axis separates the bodies by more than tol.
func (s *Searcher) satFacesBounded(f *pairFrame, cB, cAB geom.Vec3, best *satAnswer, tol float64) bool {
	st := &s.sat
	for side := range 2 {
		pls, cen, g, gd, kind := f.a.planes, cB, st.ga[:], st.gda[:], axFaceA
		if side == 1 {
			pls, cen, g, gd, kind = f.b.planes, cAB, st.gb[:], st.gdb[:], axFaceB
		}
		y := cen
		for i := range pls {
			pl := &pls[i]
			gi := pl.D - pl.N.Dot(cen)
			g[i], gd[i] = gi, gi
			if gi >= best.U || pl.D-pl.N.Dot(y) >= best.U {
				continue
			}
			if side == 0 {
				s.satAxis(f, kind, int32(i), 0, best)
				y = st.jp[i]
			} else {
				s.satAxis(f, kind, 0, int32(i), best)
				y = st.ip[i]
			}
			if best.U < -tol {
				return false
			}
		}
	}
	return true
}

// satFaces evaluates the face axes of A and of B with the vector kernels
// (B's vertices in A's frame in the soa of setB, A's own soa; both
// finite), keeps the smallest depth in best and sets the pruning data of
// the faces (ga, gb from the centroids cB of B in A's frame and cAB of A
// in B's frame; the deepest vertices jm, jp, im, ip of the faces
// evaluated). Only the faces whose lower bound ga or gb is below the best
// depth so far (the cached axis's, when there is one) are evaluated: their
// normals are gathered into one array for each kernel call. It returns
// false when a kernel meets a value it cannot order (NaN).
func (s *Searcher) satFaces(f *pairFrame, cB, cAB, yB, xAB geom.Vec3, best *satAnswer) bool {
	const m = faceSlots - 1
	st := &s.sat
	a, b := f.a, f.b
	plA, plB := a.planes, b.planes
	gen := st.gen
	U0 := best.U
	n := 0
	faceBounds(a, cB, yB, &st.ga, &st.gda)
	for i := range plA {
		// Gathered without a branch (the outcome is unpredictable).
		st.dn[n&m], st.di[n&m] = plA[i].N, int32(i)
		n += bothBelow(st.ga[i&m], st.gda[i&m], U0)
	}
	minDirsVec(&st.bs, st.bst>>2, &st.dn[0].X, int(unsafe.Sizeof(st.dn[0])), n, &st.hv[0], &st.jm2[0])
	for k := range n {
		i, jm := st.di[k&m], st.jm2[k&m]
		if uint32(jm) >= uint32(len(b.verts)) {
			return false
		}
		st.jm[i&m], st.jp[i&m], st.jg[i&m] = jm, st.bs.at(st.bst, jm), gen
		pl := &plA[i]
		if h := pl.D - st.hv[k&m]; h < best.U {
			*best = satAnswer{U: h, n: pl.N, ax: satCache{axFaceA, i, 0}, ia: -1, ib: jm}
		}
	}
	n = 0
	faceBounds(b, cAB, xAB, &st.gb, &st.gdb)
	for j := range plB {
		st.dn[n&m], st.di[n&m] = plB[j].N, int32(j)
		n += bothBelow(st.gb[j&m], st.gdb[j&m], U0)
	}
	for k := range n {
		j := st.di[k&m] & m
		r := f.R.mul(st.dn[k&m])
		st.bn[j], st.bd[j], st.bg[j] = r, plB[j].D+r.Dot(f.t), gen
		st.dn[k&m] = r
	}
	minDirsVec(a.soa, soaStride(len(a.verts))>>2, &st.dn[0].X, int(unsafe.Sizeof(st.dn[0])), n, &st.hv[0], &st.jm2[0])
	for k := range n {
		j, im := st.di[k&m]&m, st.jm2[k&m]
		if uint32(im) >= uint32(len(a.verts)) {
			return false
		}
		st.im[j], st.ip[j], st.ig[j] = im, f.R.mulT(a.verts[im].Sub(f.t)), gen
		if h := st.bd[j] - st.hv[k&m]; h < best.U {
			*best = satAnswer{U: h, n: st.bn[j].Neg(), ax: satCache{axFaceB, 0, j}, ia: im, ib: -1}
		}
	}
	return true
}

// edgesLeft writes into out, in increasing order, the indices of the
// edges not pruned by their faces' values g and gd (the lower bounds of the
// face's depth from two points of the other body; fe the bit sets of each
// face's edges, newFaceEdges): an edge is pruned when both its faces'
// values from the same point are above U (NaN is not), that is unless one
// of its faces has g not above U and one has gd not above U. Only the
// edges left are visited; it returns their number.
func edgesLeft(fe *[2][]uint64, g, gd []float64, U float64, out *[128]int32) int {
	var left [2]uint64
	for k, w := range fe {
		if w != nil {
			c, d := faceUnion(w, g, gd, U)
			left[k] = c & d
		}
	}
	n := 0
	for k, w := range left {
		for ; w != 0; w &= w - 1 {
			out[n&127] = int32(64*k + bits.TrailingZeros64(w))
			n++
		}
	}
	return n
}

// faceUnionGo returns the union of the edge sets fe[i] (one word of
// newFaceEdges) over the faces i with g[i] not above U, and over those
// with gd[i] not above U, without a branch per face (the outcomes are
// unpredictable). faceUnion is this, with a vector kernel where there is
// one.
func faceUnionGo(fe []uint64, g, gd []float64, U float64) (c, d uint64) {
	gd, fe = gd[:len(g)], fe[:len(g)]
	for i, x := range g {
		w := fe[i]
		c |= w & -uint64(b2i(!(x > U)))
		d |= w & -uint64(b2i(!(gd[i] > U)))
	}
	return c, d
}

// bothBelow returns 1 when x < U and y < U, else 0, without a branch.
func bothBelow(x, y, U float64) int {
	return b2i(x < U) & b2i(y < U)
}

// b2i returns 1 for true and 0 for false (compiled to a flag set, no
// branch).
func b2i(b bool) int {
	k := 0
	if b {
		k = 1
	}
	return k
}

// satDeep returns, for the axis of best (just evaluated by satAxis), a
// point of B attaining its support along the axis (the point of B deepest
// in A, in A's frame) and one of A (the deepest in B, in B's frame): along
// a face normal n of A with plane offset D, the depth D - min over B of
// n.x is at least D - n.y for every point y of B, and those points bound
// the faces facing the contact more tightly than the centroids.
func (s *Searcher) satDeep(f *pairFrame, best *satAnswer) (yB, xAB geom.Vec3) {
	a, b := f.a, f.b
	var xA geom.Vec3
	switch best.ax.kind {
	case axFaceA:
		yB = s.sat.bpt(best.ib)
		m := a.mesh
		xA = a.verts[m.FaceVerts[m.FaceStart[best.ax.i]]]
	case axFaceB:
		xA = a.verts[best.ia]
		m := b.mesh
		yB = s.sat.bpt(m.FaceVerts[m.FaceStart[best.ax.j]])
	default:
		xA = a.verts[a.satEdges[best.ax.i].v[0]]
		yB = s.sat.bpt(b.satEdges[best.ax.j].v[0])
	}
	return yB, f.R.mulT(xA.Sub(f.t))
}

// bFace returns B's face j's outward normal in A's frame, setting it and
// its plane offset in the scratch space at the first call of a query.
func (st *satState) bFace(f *pairFrame, j int32) geom.Vec3 {
	if st.bg[j] != st.gen {
		st.setBFace(f, j)
	}
	return st.bn[j]
}

// setBFace sets B's face j's normal and plane offset in A's frame (bFace).
func (st *satState) setBFace(f *pairFrame, j int32) {
	pl := &f.b.planes[j]
	m := f.R.mul(pl.N)
	st.bn[j], st.bd[j], st.bg[j] = m, pl.D+m.Dot(f.t), st.gen
}

// edgePruned reports whether every axis on the Gauss arc of an edge (face
// normals n1, n2, outward of its body) has a support value above U >= 0,
// given v = p - y for a point p of the edge and a point y of the other
// body: along an axis c between n1 and n2 the support value is at least
// c.v, and c.v >= min(n1.v, n2.v) when both are positive.
func edgePruned(v, n1, n2 geom.Vec3, U float64) bool {
	return n1.Dot(v) > U && n2.Dot(v) > U
}

// satAxis evaluates one candidate axis (kind, ids i of A and j of B) and
// keeps it in best when its depth is smaller.
func (s *Searcher) satAxis(f *pairFrame, kind uint8, i, j int32, best *satAnswer) {
	st := &s.sat
	a, b := f.a, f.b
	switch kind {
	case axFaceA:
		pl := &a.planes[i]
		jm, lo := st.minB(pl.N, len(b.verts))
		st.jm[i], st.jp[i], st.jg[i] = jm, st.bpt(jm), st.gen
		if h := pl.D - lo; h < best.U {
			*best = satAnswer{U: h, n: pl.N, ax: satCache{axFaceA, i, 0}, ia: -1, ib: jm}
		}
	case axFaceB:
		m := st.bFace(f, j)
		im, lo := minA(a, m)
		st.im[j], st.ip[j], st.ig[j] = im, f.R.mulT(a.verts[im].Sub(f.t)), st.gen
		if h := st.bd[j] - lo; h < best.U {
			*best = satAnswer{U: h, n: m.Neg(), ax: satCache{axFaceB, 0, j}, ia: im, ib: -1}
		}
	case axEdges:
		e, g := &a.satEdges[i], &b.satEdges[j]
		n1, n2 := a.planes[e.f[0]].N, a.planes[e.f[1]].N
		if !gaussArcsCross(n1, n2, st.bFace(f, g.f[0]).Neg(), st.bFace(f, g.f[1]).Neg()) {
			return
		}
		ep, pb := a.verts[e.v[0]], s.sat.bpt(g.v[0])
		c, ok := a.verts[e.v[1]].Sub(ep).Cross(f.R.mul(b.verts[g.v[1]].Sub(b.verts[g.v[0]]))).Normalize()
		if !ok {
			return
		}
		if c.Dot(n1.Add(n2)) < 0 {
			c = c.Neg()
		}
		if h := c.Dot(ep.Sub(pb)); h < best.U {
			*best = satAnswer{U: h, n: c, ax: satCache{axEdges, i, j}, ia: -1, ib: -1}
		}
	}
}

// setB turns B's vertices into A's frame (f): x -> R x + t, as f.pb.
func (st *satState) setB(f *pairFrame) {
	b := f.b
	if b.soa != nil {
		r := &f.R
		t := geom.Transform{R: geom.Mat3{{r.r0.X, r.r0.Y, r.r0.Z}, {r.r1.X, r.r1.Y, r.r1.Z}, {r.r2.X, r.r2.Y, r.r2.Z}}, T: f.t}
		st.bst, st.bsoa = soaStride(len(b.verts)), true
		st.bvec = poseSoA(&st.bs, b.soa, len(b.verts), &t)
		return
	}
	st.bsoa, st.bvec = false, false
	for k, v := range b.verts {
		st.bw[k] = f.R.mul(v).Add(f.t)
	}
}

// bpt returns B's vertex i in A's frame (setB).
func (st *satState) bpt(i int32) geom.Vec3 {
	if st.bsoa {
		return st.bs.at(st.bst, i)
	}
	return st.bw[i]
}

// minB returns a vertex of B (nb vertices) minimising n.x over B's
// vertices x in A's frame (setB), and the minimum.
func (st *satState) minB(n geom.Vec3, nb int) (int32, float64) {
	if st.bvec {
		nblk := st.bst >> 2
		if _, ib, _, hb := scan2Vec(&st.bs, &st.bs, &n, nblk, nblk); ib >= 0 {
			return int32(ib), hb
		}
	}
	if st.bsoa {
		i, h := scanSoA(&st.bs, nb, n.Neg())
		return i, -h
	}
	return minAlong(n, st.bw[:nb])
}

// minA returns a vertex of a minimising n.x over its local vertices x,
// and the minimum.
func minA(a *Polytope, n geom.Vec3) (int32, float64) {
	if i, h, ok := a.supportLoc(n.Neg()); ok {
		return i, -h
	}
	return minAlong(n, a.verts)
}

// minAlong returns the index of a point of vs (not empty) minimising n.x,
// and the minimum.
func minAlong(n geom.Vec3, vs []geom.Vec3) (int32, float64) {
	nx, ny, nz := n.X, n.Y, n.Z
	best, lo := 0, nx*vs[0].X+ny*vs[0].Y+nz*vs[0].Z
	for k := 1; k < len(vs); k++ {
		if x := nx*vs[k].X + ny*vs[k].Y + nz*vs[k].Z; x < lo {
			best, lo = k, x
		}
	}
	return int32(best), lo
}

// satFill writes the answer of the separating-axis test into d: the depth
// along the best axis and the points and features that attain it. It
// returns false when the supporting vertex found does not give points on
// both bodies (the other body's support set is an edge or a face parallel
// to the axis's feature: the expanding polytope finds the points then).
func (s *Searcher) satFill(f *pairFrame, ta *geom.Transform, d *Distance, best *satAnswer) bool {
	a, b := f.a, f.b
	U, n := best.U, best.n
	eps := 1e-10 * (a.radius + b.radius)
	var xa, xb geom.Vec3
	switch best.ax.kind {
	case axFaceA:
		xb = s.sat.bpt(best.ib)
		xa = xb.AddScaled(U, n)
		if !insideFace(a, best.ax.i, n, xa, -eps) {
			return false
		}
		d.FeatureA, d.FeatureB = contact.F(best.ax.i), contact.V(best.ib)
	case axFaceB:
		xa = a.verts[best.ia]
		xb = xa.AddScaled(-U, n)
		if !insideFace(b, best.ax.j, b.planes[best.ax.j].N, f.R.mulT(xb.Sub(f.t)), -eps) {
			return false
		}
		d.FeatureA, d.FeatureB = contact.V(best.ia), contact.F(best.ax.j)
	default:
		e, g := &a.satEdges[best.ax.i], &b.satEdges[best.ax.j]
		var pb geom.Vec3
		_, _, xa, pb = geom.ClosestSegmentPoints(a.verts[e.v[0]], a.verts[e.v[1]], s.sat.bpt(g.v[0]), s.sat.bpt(g.v[1]))
		xb = xa.AddScaled(-U, n)
		if xb.Sub(pb).Norm() > eps {
			return false
		}
		d.FeatureA, d.FeatureB = contact.E(e.id), contact.E(g.id)
	}
	d.Separation = -U
	// Into world coordinates as geom.Transform.Apply, with the rotation
	// in rows (inlined: the same products and sums).
	r := rowsOf(&ta.R)
	d.Normal = r.mul(n)
	d.PointA, d.PointB = r.mul(xa).Add(ta.T), r.mul(xb).Add(ta.T)
	d.Exact = true
	return true
}

// hullEdge is a mesh edge as the separating-axis test reads it: its ends
// v, its faces f (left, right), x = n2 x n1 for their unit normals n1, n2,
// and its index (48 bytes: the ends and normals are read from the
// polytope, which keeps a body's data small in the cache).
type hullEdge struct {
	x    geom.Vec3
	v, f [2]int32
	id   int32
}

// newHullEdges lists p's edges for the separating-axis test.
func newHullEdges(p *Polytope) []hullEdge {
	m := p.mesh
	es := make([]hullEdge, len(m.Edges))
	for i, e := range m.Edges {
		n1, n2 := m.Planes[e.Left].N, m.Planes[e.Right].N
		es[i] = hullEdge{x: n2.Cross(n1), v: e.V, f: [2]int32{e.Left, e.Right}, id: int32(i)}
	}
	return es
}

// newFaceEdges returns, for each face of p, the bit set of its edges among
// p's edges es for edgesLeft: bit i of word [0][f] for edge i < 64, bit
// i-64 of word [1][f] for the others ([1] is nil when there are at most 64
// edges; a polytope of the test has at most 3*satMax-6 < 128). An odd
// number of faces is padded with a zero word (for faceUnion's pairs).
func newFaceEdges(p *Polytope, es []hullEdge) [2][]uint64 {
	var fe [2][]uint64
	for i, e := range es {
		k := i >> 6
		if fe[k] == nil {
			fe[k] = make([]uint64, (len(p.planes)+1)&^1)
		}
		for _, f := range e.f {
			fe[k][f] |= 1 << (i & 63)
		}
	}
	return fe
}
