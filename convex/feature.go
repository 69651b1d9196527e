package convex

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// Feature coherence for separated pairs (Lin and Canny, "A Fast Algorithm
// for Incremental Distance Calculation", ICRA 1991; Mirtich, "V-Clip: Fast
// and Robust Polyhedral Collision Detection", ACM TOG 1998): a pair that
// was apart keeps the pair of features that carried its closest points
// (vertex, edge or face of each). The next query computes the closest
// points xa, xb of the two features with today's poses and accepts them
// when each lies in the other feature's Voronoi region, Lin and Canny's
// condition for the closest pair: along n = (xb - xa)/|xb - xa| a vertex
// is not beaten by any neighbour, an edge has n between its two faces'
// normals (within 1e-12 rad) and a face has n as its normal, so each
// feature supports its convex body along n and the planes through xa and
// xb normal to n separate the bodies by exactly the distance of the points.
// Otherwise the pair walks, as V-Clip does, out of the region that no
// longer holds the other body's closest point: a closest point at an
// edge's end gives that vertex; a vertex's foot outside a face gives the
// face's edge it is farthest outside of; a direction leaving a vertex
// along one of its edges gives that edge (against a face, the vertex at
// the edge's other end); a direction beyond an edge's face gives that face
// (against another edge, the end of that edge nearer the face's plane).
// Up to featureSteps pairs (featureStepsBig for big bodies) are tried,
// then the query runs GJK. No step reads more than the features'
// neighbourhoods: no support is computed.
// A record from another pair is checked for consistency (kinds, ids,
// an edge's ends) before it is used, so it only costs time.

// Kinds of cached feature pair.
const (
	fpNone uint8 = iota
	fpVV         // vertex of A, vertex of B
	fpVE         // vertex of A, edge of B
	fpEV         // edge of A, vertex of B
	fpEE         // edge of A, edge of B
	fpVF         // vertex of A, face of B
	fpFV         // face of A, vertex of B
)

// featCache is the closest feature pair of the last query of a separated
// pair: the kind, the vertex ids (a vertex in [0], an edge's ends in [0]
// and [1]) and the features as reported.
type featCache struct {
	kind   uint8
	va, vb [2]int32
	fa, fb contact.Feature
}

// setFeatures records the closest features of a separated answer (na ids
// sa of A, nb ids sb of B, named fa and fb) for the next query, or clears
// the record when they are no vertex, edge or face pair it can check.
func (c *featCache) set(sa, sb []int32, fa, fb contact.Feature) {
	c.kind = fpNone
	c.fa, c.fb = fa, fb
	copy(c.va[:], sa)
	copy(c.vb[:], sb)
	switch {
	case len(sa) == 1 && len(sb) == 1:
		c.kind = fpVV
	case len(sa) == 1 && len(sb) == 2 && fb.Kind == contact.Edge:
		c.kind = fpVE
	case len(sa) == 2 && len(sb) == 1 && fa.Kind == contact.Edge:
		c.kind = fpEV
	case len(sa) == 2 && len(sb) == 2 && fa.Kind == contact.Edge && fb.Kind == contact.Edge:
		c.kind = fpEE
	case len(sa) == 1 && fb.Kind == contact.Face:
		c.kind = fpVF
	case len(sb) == 1 && fa.Kind == contact.Face:
		c.kind = fpFV
	}
}

// fpKinds are the kinds of A's and B's features of each kind of pair.
var fpKinds = [...][2]contact.FeatureKind{
	fpVV: {contact.Vertex, contact.Vertex},
	fpVE: {contact.Vertex, contact.Edge},
	fpEV: {contact.Edge, contact.Vertex},
	fpEE: {contact.Edge, contact.Edge},
	fpVF: {contact.Vertex, contact.Face},
	fpFV: {contact.Face, contact.Vertex},
}

// inRange reports whether the record's ids index vertices and faces of a
// and b and its features are of its kind, a vertex named by its id (a
// cache may come from another pair; featureTry's checks read the
// features' kinds and its geometry the record's kind).
func (c *featCache) inRange(a, b *Polytope) bool {
	if int(c.kind) >= len(fpKinds) || c.fa.Kind != fpKinds[c.kind][0] || c.fb.Kind != fpKinds[c.kind][1] ||
		c.fa.Kind == contact.Vertex && c.fa.Index != c.va[0] || c.fb.Kind == contact.Vertex && c.fb.Index != c.vb[0] {
		return false
	}
	na, nb := uint32(len(a.verts)), uint32(len(b.verts))
	ok := uint32(c.va[0]) < na && uint32(c.vb[0]) < nb
	switch c.kind {
	case fpEV, fpEE:
		ok = ok && uint32(c.va[1]) < na
	case fpFV:
		ok = ok && uint32(c.fa.Index) < uint32(a.mesh.NumFaces())
	case fpVF:
		ok = ok && uint32(c.fb.Index) < uint32(b.mesh.NumFaces())
	}
	if c.kind == fpVE || c.kind == fpEE {
		ok = ok && uint32(c.vb[1]) < nb
	}
	return ok
}

// featureDistance answers from the cached feature pair c (see above) and
// reports whether it could; f is set to the pair in A's frame.
func (s *Searcher) featureDistance(f *pairFrame, ta *geom.Transform, c *featCache, d *Distance) bool {
	steps := featureSteps
	if len(f.a.verts) > bigWalk || len(f.b.verts) > bigWalk {
		steps = featureStepsBig
	}
	for step := 0; step < steps; step++ {
		next, ok := s.featureTry(f, ta, c, d)
		if ok {
			return true
		}
		if next.kind == fpNone {
			return false
		}
		*c = next
	}
	return false
}

// featureSteps bounds the feature pairs featureDistance tries per query;
// featureStepsBig when either body has more than bigWalk vertices, where
// a longer walk still costs less than the GJK and closest-feature search
// it replaces.
const (
	featureSteps    = 8
	featureStepsBig = 16
	bigWalk         = 32
)

// featureTry is one check of the feature pair c (see featureDistance).
// When it cannot answer, it returns the next pair to try (the walk's step,
// see above) or an empty record.
func (s *Searcher) featureTry(f *pairFrame, ta *geom.Transform, c *featCache, d *Distance) (next featCache, ok bool) {
	if c.kind == fpNone || !c.inRange(f.a, f.b) {
		return next, false
	}
	a := f.a
	var xa, xb, n geom.Vec3
	dist := 0.0
	switch c.kind {
	case fpVF, fpFV:
		// The vertex's foot on the face's plane, inside the face.
		p, onA := f.b, false
		fc := c.fb.Index
		x := a.at(c.va[0])
		if c.kind == fpFV {
			p, onA, fc = f.a, true, c.fa.Index
			x = f.pb(c.vb[0])
		}
		pl := p.mesh.Planes[fc]
		// The vertex in the face's frame, its height over the plane.
		xl := x
		if !onA {
			xl = f.R.mulT(x.Sub(f.t))
		}
		h := pl.N.Dot(xl) - pl.D
		if !(h > 0) {
			return next, false
		}
		if u, w, in := faceExit(p, fc, pl.N, xl.AddScaled(-h, pl.N), 1e-12*p.radius); !in {
			// The foot left the face across the edge uw: the vertex
			// and that edge next (Mirtich's V-Clip, a face's
			// Voronoi region left through an edge's plane).
			if u < 0 {
				return next, false
			}
			return c.toEdge(p, onA, u, w), false
		}
		if onA {
			n, xb, xa, dist = pl.N, x, x.AddScaled(-h, pl.N), h
		} else {
			m := f.R.mul(pl.N)
			n, xa, xb, dist = m.Neg(), x, x.AddScaled(-h, m), h
		}
	case fpEE:
		a0, a1 := a.at(c.va[0]), a.at(c.va[1])
		b0, b1 := f.pb(c.vb[0]), f.pb(c.vb[1])
		ps, pu, pa, pb := geom.ClosestSegmentPoints(a0, a1, b0, b1)
		cr, ok := a1.Sub(a0).Cross(b1.Sub(b0)).Normalize()
		if !ok {
			return next, false
		}
		if !(ps > 0 && ps < 1 && pu > 0 && pu < 1) {
			// A closest point at an end: that vertex next.
			return c.toEnds(ps, pu), false
		}
		if cr.Dot(pb.Sub(pa)) < 0 {
			cr = cr.Neg()
		}
		n, dist = cr, cr.Dot(b0.Sub(a0))
		xa, xb = pa, pa.AddScaled(dist, cr)
	default:
		a0, a1 := a.at(c.va[0]), a.at(c.va[0])
		b0, b1 := f.pb(c.vb[0]), f.pb(c.vb[0])
		if c.kind == fpEV {
			a1 = a.at(c.va[1])
		}
		if c.kind == fpVE {
			b1 = f.pb(c.vb[1])
		}
		ps, pu, pa, pb := geom.ClosestSegmentPoints(a0, a1, b0, b1)
		if c.kind == fpEV && !(ps > 0 && ps < 1) || c.kind == fpVE && !(pu > 0 && pu < 1) {
			return c.toEnds(ps, pu), false
		}
		diff := pb.Sub(pa)
		dist = diff.Norm()
		if !(dist > 0) {
			return next, false
		}
		n, xa, xb = diff.Scale(1/dist), pa, pb
	}
	if !(dist > 0) {
		return next, false
	}
	// A vertex keeps the closest point only while the direction leaves
	// it along none of its edges (its Voronoi region, as in V-Clip): else
	// the edge along which it leaves most is A's (or B's) feature next.
	// (Against a face, where an edge pair is no pair to check, the
	// vertex at the edge's other end.)
	if c.fa.Kind == contact.Vertex {
		if u := vertexExit(a, c.va[0], n); u >= 0 {
			return c.growOrWalk(f, true, u, false, 0), false
		}
	}
	if c.fb.Kind == contact.Vertex {
		if u := vertexExit(f.b, c.vb[0], f.R.mulT(n).Neg()); u >= 0 {
			return c.growOrWalk(f, false, 0, true, u), false
		}
	}
	// An edge keeps it only while the direction lies between its two
	// faces' normals (its Voronoi region): else the face it passed
	// next. A face holds it by construction (n is its normal).
	if c.fa.Kind == contact.Edge {
		if fc := edgeExit(a, c.fa.Index, c.va, n); fc != -1 {
			return c.toFace(f, true, fc), false
		}
	}
	if c.fb.Kind == contact.Edge {
		if fc := edgeExit(f.b, c.fb.Index, c.vb, f.R.mulT(n).Neg()); fc != -1 {
			return c.toFace(f, false, fc), false
		}
	}
	// Both features hold the other's closest point in their Voronoi
	// regions (Lin and Canny's condition): along n, A's feature is A's
	// support and B's feature B's (a vertex maximal among its neighbours,
	// an edge between its faces' normals and a face along its normal
	// support a convex polytope), so the planes through xa and xb normal
	// to n separate the bodies by dist, the distance of xa and xb.
	ia, ib := c.va[0], c.vb[0]
	f.ia, f.ib = ia, ib
	d.Separation = dist
	d.Normal = ta.R.MulVec(n)
	d.PointA, d.PointB = ta.Apply(xa), ta.Apply(xb)
	d.FeatureA, d.FeatureB = c.fa, c.fb
	d.Exact = true
	d.Iterations = f.n
	s.featureHits++
	return next, true
}

// walk returns c with A's feature replaced by vertex ia when newA, B's by
// vertex ib when newB, or an empty record when the result is no pair
// featureTry can check.
func (c *featCache) walk(newA bool, ia int32, newB bool, ib int32) featCache {
	n := *c
	if newA {
		n.va, n.fa = [2]int32{ia, ia}, contact.V(ia)
	}
	if newB {
		n.vb, n.fb = [2]int32{ib, ib}, contact.V(ib)
	}
	n.setKind()
	return n
}

// grow returns c with each vertex feature to move (A's when newA, B's
// when newB) grown into its edge to the neighbour the direction leaves
// it for (ia of A, ib of B), as V-Clip leaves a vertex's Voronoi region
// into an edge's. It returns an empty record when a feature cannot grow
// so or the result is no pair featureTry can check.
func (c *featCache) grow(f *pairFrame, newA bool, ia int32, newB bool, ib int32) featCache {
	n := *c
	if newA && !growFeature(f.a, &n.va, &n.fa, ia) || newB && !growFeature(f.b, &n.vb, &n.fb, ib) {
		return featCache{}
	}
	n.setKind()
	return n
}

// growOrWalk returns c.grow(...), or c.walk(...) when that is no pair
// featureTry can check.
func (c *featCache) growOrWalk(f *pairFrame, newA bool, ia int32, newB bool, ib int32) featCache {
	if n := c.grow(f, newA, ia, newB, ib); n.kind != fpNone {
		return n
	}
	return c.walk(newA, ia, newB, ib)
}

// growFeature grows the vertex feature ft of p (ids v) into its edge to
// vertex x (see grow) and reports whether it could.
func growFeature(p *Polytope, v *[2]int32, ft *contact.Feature, x int32) bool {
	switch ft.Kind {
	case contact.Vertex:
		if e := p.edgeBetween(v[0], x); e >= 0 {
			*v, *ft = [2]int32{v[0], x}, contact.E(e)
			return true
		}
	}
	return false
}

// toEdge returns c with its face (on A when onA, else on B) replaced by
// the face's edge uw (see featureTry).
func (c *featCache) toEdge(p *Polytope, onA bool, u, w int32) featCache {
	n := *c
	e := p.edgeBetween(u, w)
	if e < 0 {
		return featCache{}
	}
	if onA {
		n.va, n.fa = [2]int32{u, w}, contact.E(e)
	} else {
		n.vb, n.fb = [2]int32{u, w}, contact.E(e)
	}
	n.setKind()
	return n
}

// toEnds returns c with each edge whose closest point is at an end (the
// segment parameter ps on A's edge, pu on B's: 0 or 1) replaced by that
// end's vertex.
func (c *featCache) toEnds(ps, pu float64) featCache {
	n := *c
	if n.fa.Kind == contact.Edge && !(ps > 0 && ps < 1) {
		v := n.va[0]
		if ps >= 1 {
			v = n.va[1]
		}
		n.va, n.fa = [2]int32{v, v}, contact.V(v)
	}
	if n.fb.Kind == contact.Edge && !(pu > 0 && pu < 1) {
		v := n.vb[0]
		if pu >= 1 {
			v = n.vb[1]
		}
		n.vb, n.fb = [2]int32{v, v}, contact.V(v)
	}
	n.setKind()
	return n
}

// setKind sets c's kind from its features' kinds (fpNone for a pair
// featureTry cannot check).
func (c *featCache) setKind() {
	ka, kb := c.fa.Kind, c.fb.Kind
	switch {
	case ka == contact.Vertex && kb == contact.Vertex:
		c.kind = fpVV
	case ka == contact.Vertex && kb == contact.Edge:
		c.kind = fpVE
	case ka == contact.Edge && kb == contact.Vertex:
		c.kind = fpEV
	case ka == contact.Edge && kb == contact.Edge:
		c.kind = fpEE
	case ka == contact.Vertex && kb == contact.Face:
		c.kind = fpVF
	case ka == contact.Face && kb == contact.Vertex:
		c.kind = fpFV
	default:
		c.kind = fpNone
	}
}

// vertexExit returns the neighbour u of p's vertex v (p's frame) along
// whose edge the direction n leaves v most, (u - v).n / |u - v| > 0, or
// -1 when n leaves it along none (v's Voronoi region holds n).
func vertexExit(p *Polytope, v int32, n geom.Vec3) int32 {
	vs := p.verts
	hx := n.Dot(vs[v])
	best, bu := 0.0, int32(-1)
	lo, hi := p.slots(v)
	for _, u := range p.adj[lo:hi] {
		if h := n.Dot(vs[u]) - hx; h > 0 {
			e := vs[u].Sub(vs[v])
			if h *= h / e.Dot(e); h > best {
				best, bu = h, u
			}
		}
	}
	return bu
}

// edgeExit returns the face of p's edge e (ends v, as the cache names them)
// that the direction n (p's frame, outward, normal to the edge) has passed
// beyond, leaving the edge's Voronoi region: -1 when n lies between the
// two faces' normals (within 1e-12 rad), -2 when e is no edge of p with
// those ends.
func edgeExit(p *Polytope, e int32, v [2]int32, n geom.Vec3) int32 {
	m := p.mesh
	if uint32(e) >= uint32(len(m.Edges)) {
		return -2
	}
	ed := &m.Edges[e]
	if !(ed.V == v || ed.V[0] == v[1] && ed.V[1] == v[0]) || ed.Right < 0 {
		return -2
	}
	n1, n2 := m.Planes[ed.Left].N, m.Planes[ed.Right].N
	c12 := n1.Cross(n2)
	eps := 1e-24 * c12.Dot(c12)
	if h := n1.Cross(n).Dot(c12); h < 0 && h*h > eps {
		return ed.Left
	}
	if h := n2.Cross(n).Dot(c12); h > 0 && h*h > eps {
		return ed.Right
	}
	return -1
}

// toFace returns c with its edge (on A when onA, else on B) replaced by
// face fc of that body (fc < 0: an empty record). When the other feature
// is an edge too, that edge's end nearer to the face's plane replaces it
// (an edge-face pair is no pair featureTry checks).
func (c *featCache) toFace(f *pairFrame, onA bool, fc int32) featCache {
	if fc < 0 {
		return featCache{}
	}
	n := *c
	if onA {
		n.fa = contact.F(fc)
		if n.fb.Kind == contact.Edge {
			pl := &f.a.mesh.Planes[fc]
			v := n.vb[0]
			if pl.N.Dot(f.pb(n.vb[1])) < pl.N.Dot(f.pb(v)) {
				v = n.vb[1]
			}
			n.vb, n.fb = [2]int32{v, v}, contact.V(v)
		}
	} else {
		n.fb = contact.F(fc)
		if n.fa.Kind == contact.Edge {
			pl := &f.b.mesh.Planes[fc]
			v := n.va[0]
			// A's points in B's frame: R^T (x - t).
			if pl.N.Dot(f.R.mulT(f.a.at(n.va[1]).Sub(f.t))) < pl.N.Dot(f.R.mulT(f.a.at(v).Sub(f.t))) {
				v = n.va[1]
			}
			n.va, n.fa = [2]int32{v, v}, contact.V(v)
		}
	}
	n.setKind()
	return n
}

// faceExit reports whether the point x (p's frame) on the plane of face
// fc (unit normal nrm) lies inside the face's loop, at least eps from
// every edge (as insideFace); when it does not, u and w are the ends of
// the edge it is farthest outside of (-1 when a value is NaN).
func faceExit(p *Polytope, fc int32, nrm, x geom.Vec3, eps float64) (u, w int32, in bool) {
	loop := p.mesh.Face(int(fc))
	u, w, in = -1, -1, true
	worst := 0.0
	prev := loop[len(loop)-1]
	pu := p.at(prev)
	for _, vi := range loop {
		pw := p.at(vi)
		e := pw.Sub(pu)
		l := math.Sqrt(e.Dot(e))
		if h := e.Cross(x.Sub(pu)).Dot(nrm); !(h > eps*l) {
			in = false
			if q := h / l; q < worst || u < 0 && q == q {
				u, w, worst = prev, vi, q
			}
		}
		prev, pu = vi, pw
	}
	return u, w, in
}

// insideFace reports whether the point x (p's frame) on the plane of face
// fc (unit normal nrm) lies inside the face's loop, at least eps from every
// edge (eps < 0: at most -eps outside).
func insideFace(p *Polytope, fc int32, nrm, x geom.Vec3, eps float64) bool {
	loop := p.mesh.Face(int(fc))
	u := p.at(loop[len(loop)-1])
	for _, vi := range loop {
		w := p.at(vi)
		e := w.Sub(u)
		if !(e.Cross(x.Sub(u)).Dot(nrm) > eps*math.Sqrt(e.Dot(e))) {
			return false
		}
		u = w
	}
	return true
}

// walkStart sets c to the feature pair of the separating axis b (a face
// of one body and the other body's vertex deepest along its normal, or an
// edge of each) for the walk to start from; it reports whether b names
// such a pair.
func (b *satAnswer) walkStart(f *pairFrame, c *featCache) bool {
	switch b.ax.kind {
	case axFaceA:
		m := f.a.mesh
		v := m.FaceVerts[m.FaceStart[b.ax.i]]
		*c = featCache{kind: fpFV, va: [2]int32{v, v}, vb: [2]int32{b.ib, b.ib}, fa: contact.F(b.ax.i), fb: contact.V(b.ib)}
	case axFaceB:
		m := f.b.mesh
		v := m.FaceVerts[m.FaceStart[b.ax.j]]
		*c = featCache{kind: fpVF, va: [2]int32{b.ia, b.ia}, vb: [2]int32{v, v}, fa: contact.V(b.ia), fb: contact.F(b.ax.j)}
	case axEdges:
		e, g := &f.a.satEdges[b.ax.i], &f.b.satEdges[b.ax.j]
		*c = featCache{kind: fpEE, va: e.v, vb: g.v, fa: contact.E(e.id), fb: contact.E(g.id)}
	default:
		return false
	}
	return c.inRange(f.a, f.b)
}
