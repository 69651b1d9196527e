package convex

import (
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// The expanding polytope algorithm (van den Bergen, "Proximity Queries and
// Penetration Depth Computation on 3D Game Objects", GDC 2001) in A's
// local frame: a polytope P inside the Minkowski difference M = A - B (its
// vertices are differences of supporting vertices), containing the origin,
// grows towards its face nearest to the origin until that face's distance
// (a lower bound on the depth, since P is inside M) meets the support
// value of M along the face's normal (an upper bound: every direction's
// support value bounds the depth from above).

type epaVert struct {
	w      geom.Vec3 // point of M (A frame)
	ia, ib int32     // its vertices of A and of B
}

type epaFace struct {
	v     [3]int32 // vertices, counter-clockwise seen from outside
	adj   [3]int32 // face across edge k (from v[k] to v[k+1])
	adjE  [3]int8  // that edge's index in the adjacent face
	n     geom.Vec3
	d     float64 // n.v[0], the distance of the face's plane (signed)
	alive bool
}

type horizonEdge struct {
	face int32
	edge int8
}

// rimEdge is a horizon edge: edge `edge` of the kept face `face`, which
// runs from b to a in that face, so that the new face across it is
// (a, b, w), counter-clockwise from outside.
type rimEdge struct {
	face, a, b int32
	edge       int8
}

type epaState struct {
	verts []epaVert
	faces []epaFace
	// dist[i] is faces[i].d while the face is alive, +Inf once removed:
	// the nearest face is the minimum of one array of numbers.
	dist    []float64
	horizon []rimEdge
	stack   []horizonEdge // edges still to visit, during one expansion
	newAt   []int32       // per vertex: the new face whose edge 1 starts there (+1), during one expansion
}

// epaMaxFaces bounds the polytope's growth; beyond it the search stops
// with its best bounds.
const epaMaxFaces = 1 << 14

// penetration computes the depth, direction, points and features of an
// overlapping pair in d (f is set to the pair; GJK's final simplex is in
// s.gjk).
func (s *Searcher) penetration(f *pairFrame, ta *geom.Transform, d *Distance) {
	e := &s.epa
	g := &s.gjk
	scale := f.a.radius + f.b.radius + math.Sqrt(f.t.Dot(f.t))
	e.verts = e.verts[:0]
	e.faces = e.faces[:0]
	e.dist = e.dist[:0]
	for i := 0; i < g.n; i++ {
		sv := &g.sv[i]
		e.addVert(sv.w, sv.ia, sv.ib)
	}
	if !e.initial(f, scale) {
		// M is flat (no solid has that): the bodies only touch.
		s.touchingAt(f, ta, d)
		return
	}
	stop := 1e-13 * scale
	U := math.Inf(1)
	var Un geom.Vec3
	best := int32(-1)
	L := 0.0
	maxIter := 4 * s.Options.maxIter()
	for it := 0; it < maxIter; it++ {
		fi := e.nearest()
		if fi < 0 {
			break
		}
		fc := &e.faces[fi]
		L = fc.d
		n := fc.n
		if !haveVec || f.a.loc == nil || f.b.loc == nil {
			e.climbStarts(f, fc, n)
		}
		h, ia, ib := f.depthAlong(n)
		if h < U {
			U, Un, best = h, n, fi
		}
		if U-L <= stop {
			best = fi
			break
		}
		// A vertex of the polytope lies below the face's plane (up to
		// rounding): only a support within rounding of it can be one.
		if (h-L <= 1e-9*scale && e.has(ia, ib)) || len(e.faces) > epaMaxFaces {
			break
		}
		w := f.a.at(ia).Sub(f.pb(ib))
		if !e.expand(fi, e.addVert(w, ia, ib)) {
			break
		}
	}
	if best < 0 {
		s.touchingAt(f, ta, d)
		return
	}
	// The facet of M that carries the nearest face: its exact normal.
	depth, n := U, Un
	fa, fb := s.snap(f, best, &depth, &n, scale)
	d.Exact = depth-L <= d.Tol
	// Points: the origin's projection onto the nearest face, by its
	// barycentric weights, gives A's point; B's is depth along -n.
	bf := &e.faces[best]
	p0, p1, p2 := e.verts[bf.v[0]], e.verts[bf.v[1]], e.verts[bf.v[2]]
	l := baryOrigin(p0.w, p1.w, p2.w, bf.n)
	pa := f.a.at(p0.ia).Scale(l[0]).AddScaled(l[1], f.a.at(p1.ia)).AddScaled(l[2], f.a.at(p2.ia))
	pb := pa.AddScaled(-depth, n)
	d.Separation = -depth
	d.Normal = ta.R.MulVec(n)
	if nn := d.Normal.Norm(); nn > 0 {
		d.Normal = d.Normal.Scale(1 / nn)
	}
	d.PointA, d.PointB = ta.Apply(pa), ta.Apply(pb)
	d.FeatureA, d.FeatureB = fa, fb
}

// climbStarts sets the starts of hill climbing (for bodies not scanned
// whole) for the supports along n, the normal of face fc: the face's
// vertices of A and of B that are best along n and -n, supporting
// vertices of directions near n when the face lies near M's boundary.
// From there a climb takes a few steps, against several from the last
// support found, which the search left on another face.
func (e *epaState) climbStarts(f *pairFrame, fc *epaFace, n geom.Vec3) {
	if !haveVec || f.a.loc == nil {
		ia, h := int32(-1), math.Inf(-1)
		for _, vi := range fc.v {
			if x := n.Dot(f.a.verts[e.verts[vi].ia]); x > h {
				ia, h = e.verts[vi].ia, x
			}
		}
		if t := f.a.table[tableIndex(n)]; n.Dot(f.a.verts[t]) > h {
			ia = t
		}
		if ia >= 0 {
			f.ia = ia
		}
	}
	if !haveVec || f.b.loc == nil {
		m := f.R.mulT(n)
		ib, h := int32(-1), math.Inf(1)
		for _, vi := range fc.v {
			if x := m.Dot(f.b.verts[e.verts[vi].ib]); x < h {
				ib, h = e.verts[vi].ib, x
			}
		}
		if t := f.b.table[tableIndex(m.Neg())]; m.Dot(f.b.verts[t]) < h {
			ib = t
		}
		if ib >= 0 {
			f.ib = ib
		}
	}
}

// touchingAt fills d for bodies that touch at GJK's simplex point.
func (s *Searcher) touchingAt(f *pairFrame, ta *geom.Transform, d *Distance) {
	g := &s.gjk
	var pa geom.Vec3
	var v geom.Vec3
	for i := 0; i < g.n; i++ {
		pa = pa.AddScaled(g.lam[i], f.a.at(g.sv[i].ia))
		v = v.AddScaled(g.lam[i], g.sv[i].w)
	}
	n, ok := v.Neg().Normalize()
	if !ok {
		n = f.t.Sub(f.a.centroid)
		if n, ok = n.Normalize(); !ok {
			n = geom.Vec3{Z: 1}
		}
	}
	d.Separation = 0
	d.Normal = ta.R.MulVec(n)
	d.PointA = ta.Apply(pa)
	d.PointB = d.PointA
	d.Exact = true
}

// baryOrigin returns the barycentric weights of the origin's projection
// onto the plane of triangle abc (normal n).
func baryOrigin(a, b, c, n geom.Vec3) [3]float64 {
	p := n.Scale(a.Dot(n))
	wa := b.Sub(p).Cross(c.Sub(p)).Dot(n)
	wb := c.Sub(p).Cross(a.Sub(p)).Dot(n)
	wc := a.Sub(p).Cross(b.Sub(p)).Dot(n)
	sum := wa + wb + wc
	if !(math.Abs(sum) > 0) {
		return [3]float64{1, 0, 0}
	}
	return [3]float64{wa / sum, wb / sum, wc / sum}
}

func (e *epaState) addVert(w geom.Vec3, ia, ib int32) int32 {
	e.verts = append(e.verts, epaVert{w: w, ia: ia, ib: ib})
	return int32(len(e.verts) - 1)
}

func (e *epaState) has(ia, ib int32) bool {
	for i := range e.verts {
		if e.verts[i].ia == ia && e.verts[i].ib == ib {
			return true
		}
	}
	return false
}

// initial makes the starting polytope: GJK's simplex (the origin inside it
// or within the tolerance of it) completed to a tetrahedron by support
// points along directions out of its affine hull. It returns false when
// no such point exists.
func (e *epaState) initial(f *pairFrame, scale float64) bool {
	tiny := 1e-12 * scale
	for len(e.verts) < 4 {
		var dirs [6]geom.Vec3
		nd := 0
		switch len(e.verts) {
		case 1:
			dirs = [6]geom.Vec3{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}, {Z: 1}, {Z: -1}}
			nd = 6
		case 2:
			u := e.verts[1].w.Sub(e.verts[0].w)
			e1, e2 := u.Orthonormal()
			dirs = [6]geom.Vec3{e1, e1.Neg(), e2, e2.Neg()}
			nd = 4
		case 3:
			n, _ := e.verts[1].w.Sub(e.verts[0].w).Cross(e.verts[2].w.Sub(e.verts[0].w)).Normalize()
			dirs = [6]geom.Vec3{n, n.Neg()}
			nd = 2
		}
		added := false
		for _, dir := range dirs[:nd] {
			_, ia, ib := f.depthAlong(dir)
			if e.has(ia, ib) {
				continue
			}
			w := f.a.at(ia).Sub(f.pb(ib))
			if e.offHull(w) > tiny {
				e.addVert(w, ia, ib)
				added = true
				break
			}
		}
		if !added {
			return false
		}
	}
	v := e.verts
	if v[1].w.Sub(v[0].w).Cross(v[2].w.Sub(v[0].w)).Dot(v[3].w.Sub(v[0].w)) > 0 {
		e.verts[1], e.verts[2] = e.verts[2], e.verts[1]
	}
	// The tetrahedron's faces, outward with v3 below face 012, and across
	// each edge k (v[k] to v[k+1]) the adjacent face and that edge's index
	// in it.
	tris := [4][3]int32{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}}
	adj := [4][3]int32{{1, 3, 2}, {2, 3, 0}, {0, 3, 1}, {1, 2, 0}}
	adjE := [4][3]int8{{2, 2, 0}, {2, 0, 0}, {2, 1, 0}, {1, 1, 1}}
	for i, t := range tris {
		fc := e.newFace(t[0], t[1], t[2])
		fc.adj, fc.adjE = adj[i], adjE[i]
	}
	return true
}

// offHull returns the distance of w from the affine hull of the current
// vertices (1 to 3 of them).
func (e *epaState) offHull(w geom.Vec3) float64 {
	v := e.verts
	d := w.Sub(v[0].w)
	switch len(v) {
	case 1:
		return d.Norm()
	case 2:
		u, ok := v[1].w.Sub(v[0].w).Normalize()
		if !ok {
			return d.Norm()
		}
		return d.Sub(u.Scale(d.Dot(u))).Norm()
	}
	n, ok := v[1].w.Sub(v[0].w).Cross(v[2].w.Sub(v[0].w)).Normalize()
	if !ok {
		return 0
	}
	return math.Abs(d.Dot(n))
}

// newFace appends the face (a, b, c) with its plane and returns it (its
// adjacency is left for the caller to set).
func (e *epaState) newFace(a, b, c int32) *epaFace {
	vs := e.verts
	fn, d := facePlane(vs[a].w, vs[b].w, vs[c].w)
	e.faces = append(e.faces, epaFace{v: [3]int32{a, b, c}, n: fn, d: d, alive: true})
	e.dist = append(e.dist, d)
	return &e.faces[len(e.faces)-1]
}

// facePlane returns the unit normal of triangle (pa, pb, pc), counter-
// clockwise seen from outside, and its plane's distance from the origin:
// the mean of the three vertices' distances (the least sensitive to which
// vertex), +Inf for a degenerate triangle (never the nearest face). One
// square root and one division: the triangle's face loop creates several
// faces at once, and their planes are independent of each other.
func facePlane(pa, pb, pc geom.Vec3) (geom.Vec3, float64) {
	n := pb.Sub(pa).Cross(pc.Sub(pa))
	q := n.Dot(pa.Add(pb).Add(pc))
	nn := n.Dot(n)
	if !(nn > 0 && nn < math.Inf(1)) {
		return geom.Vec3{}, math.Inf(1)
	}
	inv := 1 / math.Sqrt(nn)
	return n.Scale(inv), q * inv * (1.0 / 3)
}

// kill removes face i.
func (e *epaState) kill(i int32) {
	e.faces[i].alive = false
	e.dist[i] = math.Inf(1)
}

// nearest returns the live face nearest to the origin (the first of equally
// near ones; -1 when none is at a finite distance).
func (e *epaState) nearest() int32 {
	if haveVec && len(e.dist) > 0 {
		return int32(minFirst(&e.dist[0], len(e.dist)))
	}
	best, bd := -1, math.Inf(1)
	for i, d := range e.dist {
		if d < bd {
			best, bd = i, d
		}
	}
	return int32(best)
}

// expand removes the faces that see vertex wi, starting with face fi, and
// closes the hole with faces from its horizon to wi. It returns false when
// the horizon does not close (rounding made the polytope non-convex).
//
// The faces seeing wi are found depth first from fi (Ericson's and
// Bullet's order, which lists the horizon as one loop): a face reached
// across its edge k from a removed face is removed when it sees wi, and
// its two other edges are visited next, else edge k is on the horizon.
func (e *epaState) expand(fi, wi int32) bool {
	w := e.verts[wi].w
	faces, dist := e.faces, e.dist
	first := int32(len(faces))
	hz := e.horizon[:0]
	e.kill(fi)
	f0 := &faces[fi]
	st := append(e.stack[:0], horizonEdge{f0.adj[2], f0.adjE[2]}, horizonEdge{f0.adj[1], f0.adjE[1]}, horizonEdge{f0.adj[0], f0.adjE[0]})
	for len(st) > 0 {
		he := st[len(st)-1]
		st = st[:len(st)-1]
		fc := &faces[he.face]
		if !fc.alive {
			continue
		}
		k := he.edge
		if fc.n.Dot(w)-fc.d <= 0 {
			// A horizon edge: the new face across it is the next one.
			hz = append(hz, rimEdge{face: he.face, a: fc.v[next3[k]], b: fc.v[k], edge: k})
			fc.adj[k], fc.adjE[k] = first+int32(len(hz)-1), 0
			continue
		}
		fc.alive = false
		dist[he.face] = math.Inf(1)
		k1, k2 := next3[k], next3[k+1]
		st = append(st, horizonEdge{fc.adj[k2], fc.adjE[k2]}, horizonEdge{fc.adj[k1], fc.adjE[k1]})
	}
	e.stack, e.horizon = st, hz
	nh := len(hz)
	if nh < 3 {
		return false
	}
	// The new faces (a, b, w), one per horizon edge; their planes four
	// at a time by the vector kernel where the processor has it. Face
	// j's edge 2 (w -> a) meets edge 1 (b' -> w) of the new face
	// with b' = a. The depth-first order lists the horizon as a loop, so
	// that face is the one before j (cyclically); when it is not, a table
	// from b' to its face finds it.
	faces = slices.Grow(faces, nh)[:int(first)+nh]
	dist = slices.Grow(dist, nh)[:int(first)+nh]
	e.faces, e.dist = faces, dist
	nw := faces[first:]
	nd := dist[first : nh+int(first)]
	vs := e.verts
	if haveVec {
		facePlanesVec(&vs[0], &hz[0], nh, &w, &nw[0], &nd[0])
	}
	loop := true
	prev, prevB := first+int32(nh)-1, hz[nh-1].b
	for j := range nw {
		r := &hz[j]
		nf := &nw[j]
		nf.v = [3]int32{r.a, r.b, wi}
		nf.adj = [3]int32{r.face, first + int32(j) + 1, prev}
		nf.adjE = [3]int8{r.edge, 2, 1}
		if !haveVec {
			nf.n, nf.d = facePlane(vs[r.a].w, vs[r.b].w, w)
			nd[j] = nf.d
		}
		nf.alive = true
		loop = loop && r.a == prevB
		prev, prevB = first+int32(j), r.b
	}
	nw[nh-1].adj[1] = first
	if !loop {
		return e.linkByTable(first)
	}
	return true
}

// linkByTable links the new faces from first on (each (a, b, w)) along
// their edges at w: face j's edge 2 (w -> a) to edge 1 (b' -> w) of the
// new face with b' = a, found by a table indexed by b'. It returns false
// when a face has no such neighbour (the horizon is not a loop).
func (e *epaState) linkByTable(first int32) bool {
	if cap(e.newAt) < len(e.verts) {
		e.newAt = make([]int32, len(e.verts), 2*len(e.verts))
	}
	newAt := e.newAt[:len(e.verts)]
	e.newAt = newAt
	faces := e.faces
	for j := first; j < int32(len(faces)); j++ {
		newAt[faces[j].v[1]] = j + 1
	}
	ok := true
	for j := first; j < int32(len(faces)); j++ {
		fj := &faces[j]
		k := newAt[fj.v[0]] - 1
		if k < first {
			ok = false
			break
		}
		fj.adj[2], fj.adjE[2] = k, 1
		fk := &faces[k]
		fk.adj[1], fk.adjE[1] = j, 2
	}
	for j := first; j < int32(len(faces)); j++ {
		newAt[faces[j].v[1]] = 0
	}
	return ok
}

// next3[k] is (k + 1) mod 3 for k in 0..3.
var next3 = [4]int8{1, 2, 0, 1}

// snap replaces the depth and normal found by the expanding polytope by
// those of the facet of M = A - B that carries its nearest face: the face
// of A, the face of B, or the pair of edges of A and B that the face's
// vertices span. The facet's normal is computed from the meshes (a face
// normal or a cross product of edge directions), and its support value is
// an upper bound on the depth like any direction's; it replaces the
// polytope's when it is no larger (up to rounding). It returns the
// features.
func (s *Searcher) snap(f *pairFrame, fi int32, depth *float64, n *geom.Vec3, scale float64) (fa, fb contact.Feature) {
	e := &s.epa
	fc := &e.faces[fi]
	var sa, sb [4]int32
	na, nb := 0, 0
	for _, vi := range fc.v {
		na = addID(&sa, na, e.verts[vi].ia)
		nb = addID(&sb, nb, e.verts[vi].ib)
	}
	tolEq := 1e-12 * scale
	try := func(c geom.Vec3, ffa, ffb contact.Feature) bool {
		if c.Dot(*n) < 0.9 {
			return false
		}
		h, _, _ := f.depthAlong(c)
		if h <= *depth+tolEq {
			*depth, *n, fa, fb = h, c, ffa, ffb
			return true
		}
		return false
	}
	ma, mb := f.a.mesh, f.b.mesh
	switch {
	case na >= 3:
		if fA := f.a.faceWith(sa[:na]); fA >= 0 {
			if try(ma.Planes[fA].N, contact.F(fA), featureOf(f.b, sb[:nb])) {
				return fa, fb
			}
		}
	case nb >= 3:
		if fB := f.b.faceWith(sb[:nb]); fB >= 0 {
			if try(f.R.mul(mb.Planes[fB].N).Neg(), featureOf(f.a, sa[:na]), contact.F(fB)) {
				return fa, fb
			}
		}
	}
	if na == 2 && nb == 2 {
		da := f.a.at(sa[1]).Sub(f.a.at(sa[0]))
		db := f.R.mul(f.b.at(sb[1]).Sub(f.b.at(sb[0])))
		if c, ok := da.Cross(db).Normalize(); ok {
			if c.Dot(*n) < 0 {
				c = c.Neg()
			}
			if try(c, featureOf(f.a, sa[:2]), featureOf(f.b, sb[:2])) {
				return fa, fb
			}
		}
	}
	// The face's vertices name no single facet (a sliver of a facet, or
	// rounding): try every face of A and of B and every crossing edge pair
	// at them whose normal is near n.
	if s.snapAround(f, sa[:na], sb[:nb], depth, n, &fa, &fb, tolEq) {
		return fa, fb
	}
	return featureOf(f.a, sa[:na]), featureOf(f.b, sb[:nb])
}

// snapAround tries the faces of A at the vertices sa, the faces of B at
// sb, and the edge pairs at them that form facets of A - B (their arcs
// cross on the Gauss map), keeping the smallest support value.
func (s *Searcher) snapAround(f *pairFrame, sa, sb []int32, depth *float64, n *geom.Vec3, fa, fb *contact.Feature, tolEq float64) bool {
	ma, mb := f.a.mesh, f.b.mesh
	found := false
	n0 := *n
	const cosMin = 0.999
	try := func(c geom.Vec3, ffa, ffb contact.Feature) {
		if c.Dot(n0) < cosMin {
			return
		}
		h, ia, ib := f.depthAlong(c)
		if h <= *depth+tolEq && (!found || h < *depth) {
			if ffa.Kind == contact.NoFeature {
				ffa = contact.V(ia)
			}
			if ffb.Kind == contact.NoFeature {
				ffb = contact.V(ib)
			}
			*depth, *n, *fa, *fb = h, c, ffa, ffb
			found = true
		}
	}
	for _, v := range sa {
		lo, hi := f.a.slots(v)
		for _, in := range f.a.inc[lo:hi] {
			try(in.n, contact.F(in.face), contact.Feature{})
		}
	}
	for _, v := range sb {
		lo, hi := f.b.slots(v)
		for _, in := range f.b.inc[lo:hi] {
			try(f.R.mul(in.n).Neg(), contact.Feature{}, contact.F(in.face))
		}
	}
	for _, v := range sa {
		for _, ei := range ma.VertexEdges(int(v)) {
			ea := &ma.Edges[ei]
			a1, a2 := ma.Planes[ea.Left].N, ma.Planes[ea.Right].N
			if a1.Add(a2).Dot(n0) < 0 {
				continue
			}
			da := f.a.verts[ea.V[1]].Sub(f.a.verts[ea.V[0]])
			for _, w := range sb {
				for _, ej := range mb.VertexEdges(int(w)) {
					eb := &mb.Edges[ej]
					b1, b2 := f.R.mul(mb.Planes[eb.Left].N).Neg(), f.R.mul(mb.Planes[eb.Right].N).Neg()
					if !gaussArcsCross(a1, a2, b1, b2) {
						continue
					}
					db := f.R.mul(f.b.verts[eb.V[1]].Sub(f.b.verts[eb.V[0]]))
					c, ok := da.Cross(db).Normalize()
					if !ok {
						continue
					}
					if c.Dot(a1.Add(a2)) < 0 {
						c = c.Neg()
					}
					try(c, contact.E(ei), contact.E(ej))
				}
			}
		}
	}
	return found
}

// gaussArcsCross reports whether the great arcs a-b and c-d (each shorter
// than a half circle) cross: the edges with those face normals form a
// facet of the Minkowski difference (Gregorius, "The Separating Axis
// Test", GDC 2013).
func gaussArcsCross(a, b, c, d geom.Vec3) bool {
	bxa := b.Cross(a)
	dxc := d.Cross(c)
	cba, dba := c.Dot(bxa), d.Dot(bxa)
	adc, bdc := a.Dot(dxc), b.Dot(dxc)
	return cba*dba < 0 && adc*bdc < 0 && cba*bdc > 0
}
