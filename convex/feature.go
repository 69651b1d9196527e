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
// points of those two features with today's poses and accepts them when
// they are interior to the features and the supporting planes along their
// direction certify them: the gap between A's and B's support values along
// the direction (a lower bound on the distance) is within the tolerance of
// the distance of the points (an upper bound). That costs the two features'
// arithmetic and one support per body; otherwise the query runs GJK.

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

// inRange reports whether the record's ids index vertices and faces of a
// and b (a cache may come from another pair).
func (c *featCache) inRange(a, b *Polytope) bool {
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
	// A failed certificate names the vertices that beat the features: the
	// pair with those in place of the failing features is tried next
	// (a step of Lin and Canny's feature walk, towards the closest pair).
	for step := 0; step < 3; step++ {
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

// featureTry is one check of the feature pair c (see featureDistance). When
// only the certificate fails, it returns the next pair to try: each failing
// feature replaced by the supporting vertex found along the direction.
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
		if !(h > 0) || !insideFace(p, fc, pl.N, xl.AddScaled(-h, pl.N), 1e-12*p.radius) {
			return next, false
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
		if !ok || !(ps > 0 && ps < 1 && pu > 0 && pu < 1) {
			return next, false
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
			return next, false
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
	f.ia, f.ib = c.va[0], c.vb[0]
	ia, hA := f.supA(n)
	ib, lB := f.supB(n)
	gap := lB - hA
	if !(gap > 0) || dist-gap > d.Tol {
		if gap > 0 {
			next = c.walk(hA-n.Dot(xa) > d.Tol/2, ia, n.Dot(xb)-lB > d.Tol/2, ib)
		}
		return next, false
	}
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
	ka, kb := n.fa.Kind, n.fb.Kind
	switch {
	case ka == contact.Vertex && kb == contact.Vertex:
		n.kind = fpVV
	case ka == contact.Vertex && kb == contact.Edge:
		n.kind = fpVE
	case ka == contact.Edge && kb == contact.Vertex:
		n.kind = fpEV
	case ka == contact.Vertex && kb == contact.Face:
		n.kind = fpVF
	case ka == contact.Face && kb == contact.Vertex:
		n.kind = fpFV
	default:
		n.kind = fpNone
	}
	return n
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
