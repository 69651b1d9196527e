package convex

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// Contact manifolds by face clipping, as Box2D (Catto, manifold.c,
// b2ClipPolygons) and Bullet (btPolyhedralContactClipping) build them: the
// face of one body most aligned with the contact normal is the reference
// face, the face of the other most opposed to it the incident face; the
// incident face is clipped by the side planes of the reference face
// (Sutherland-Hodgman), and every clipped point at most margin above the
// reference plane is a contact with its own separation.

// clipPoint is a point of the incident polygon during clipping, with the
// features it lies on and the feature of the polygon's side to the next
// point.
type clipPoint struct {
	p        geom.Vec3
	inc, ref contact.Feature // features of the incident and the reference body
	side     int32           // the edge along the side from p to the next point:
	sideRef  bool            // of the reference face when sideRef, else of the incident face
}

type clipState struct {
	poly, next []clipPoint
	out        []contact.Contact
}

// ManifoldPoints is the largest number of contacts Manifold returns.
const ManifoldPoints = 4

// Manifold appends to dst the contacts of polytope a placed by ta and
// polytope b placed by tb when they overlap, touch or come within margin of
// each other (speculative contacts, with positive separations), and
// returns the extended slice: up to ManifoldPoints points of the incident
// face clipped by the reference face, each with its own separation along
// the reference face's normal and the features it lies on, or one point
// (the closest or deepest features) when an edge of each body meets.
//
// Feature ids stay the same from call to call while the same features
// touch, so contact.Contact.ID can key a solver's warm start: a vertex of
// the incident face against the reference face, an incident edge against a
// reference edge where the clipping cuts it, or a reference vertex against
// the incident face. cache may be nil; with one per pair the choice of the
// reference face is kept while it stays within a small tolerance of the
// best (hysteresis), and SignedDistance's warm start is used.
func (s *Searcher) Manifold(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, margin float64, cache *DistanceCache, dst []contact.Contact) ([]contact.Contact, error) {
	var d Distance
	if err := s.signedDistance(a, ta, b, tb, cache, &d); err != nil {
		return dst, err
	}
	if d.Separation > margin && d.Separation > d.Tol {
		return dst, nil
	}
	n := d.Normal
	// The best face of each body along the normal, and the gap along its
	// normal (the separation it would give).
	fa, na := bestFace(a, ta, n)
	fb, nb := bestFace(b, tb, n.Neg())
	sepA := gapAlongWorld(a, ta, b, tb, na)
	sepB := gapAlongWorld(a, ta, b, tb, nb.Neg())
	lin := 1e-3 * (a.radius + b.radius) / 2
	if d.FeatureA.Kind == contact.Edge && d.FeatureB.Kind == contact.Edge && d.Separation > math.Max(sepA, sepB)+lin {
		c, _ := d.Record(math.Inf(1))
		return append(dst, c), nil
	}
	refB := sepB > sepA+lin
	if cache != nil && cache.refFace != 0 && math.Abs(sepA-sepB) <= lin {
		refB = cache.refB // hysteresis: keep the last choice while both are as good
	}
	if cache != nil {
		cache.refB = refB
		cache.refFace = 1
	}
	var out []contact.Contact
	if refB {
		out = s.clipFaces(b, tb, fb, nb, a, ta, n.Neg(), margin, d.Tol)
	} else {
		out = s.clipFaces(a, ta, fa, na, b, tb, n, margin, d.Tol)
	}
	if len(out) == 0 {
		c, _ := d.Record(math.Inf(1))
		return append(dst, c), nil
	}
	for _, c := range out {
		if refB {
			c = c.Flip()
		}
		dst = append(dst, c)
	}
	return dst, nil
}

// bestFace returns the face of p (placed by t) whose world normal is most
// aligned with dir, and that normal: among the faces at the supporting
// vertex along dir, then by climbing to adjacent faces while that
// improves.
func bestFace(p *Polytope, t *geom.Transform, dir geom.Vec3) (int32, geom.Vec3) {
	dl := t.R.MulVecT(dir)
	m := p.mesh
	v, _ := p.Support(dl)
	best, bd := int32(-1), math.Inf(-1)
	for _, ei := range m.VertexEdges(int(v)) {
		e := &m.Edges[ei]
		f := faceLeaving(e.V, e.Left, e.Right, v)
		if x := m.Planes[f].N.Dot(dl); x > bd {
			best, bd = f, x
		}
	}
	for {
		moved := false
		for _, ei := range m.FaceEdgeLoop(int(best)) {
			e := &m.Edges[ei]
			g := e.Left
			if g == best {
				g = e.Right
			}
			if x := m.Planes[g].N.Dot(dl); x > bd {
				best, bd, moved = g, x, true
			}
		}
		if !moved {
			break
		}
	}
	return best, t.R.MulVec(m.Planes[best].N)
}

// gapAlongWorld returns min over B of u.x minus max over A of u.x (world
// direction u).
func gapAlongWorld(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, u geom.Vec3) float64 {
	_, hA := a.Support(ta.R.MulVecT(u))
	_, hB := b.Support(tb.R.MulVecT(u.Neg()))
	return (u.Dot(tb.T) - hB) - (u.Dot(ta.T) + hA)
}

// clipFaces clips the incident face of body inc (the face most opposed to
// the reference normal m of face rf of body ref) by the side planes of rf,
// and returns the contacts (ref as A, inc as B, normal m) of the points at
// most margin above the reference plane, at most ManifoldPoints of them.
func (s *Searcher) clipFaces(ref *Polytope, tr *geom.Transform, rf int32, m geom.Vec3, inc *Polytope, ti *geom.Transform, n geom.Vec3, margin, tol float64) []contact.Contact {
	c := &s.clip
	fi, _ := bestFace(inc, ti, m.Neg())
	mi := inc.mesh
	c.poly = c.poly[:0]
	loop, edges := mi.Face(int(fi)), mi.FaceEdgeLoop(int(fi))
	for k, v := range loop {
		c.poly = append(c.poly, clipPoint{p: ti.Apply(inc.verts[v]), inc: contact.V(v), ref: contact.F(rf), side: edges[k]})
	}
	mr := ref.mesh
	rloop, redges := mr.Face(int(rf)), mr.FaceEdgeLoop(int(rf))
	scale := (ref.radius + inc.radius) / 2
	eps := 1e-12 * scale
	for k := range rloop {
		r0 := tr.Apply(ref.verts[rloop[k]])
		r1 := tr.Apply(ref.verts[rloop[(k+1)%len(rloop)]])
		in := m.Cross(r1.Sub(r0)) // points into the face
		if nn := in.Norm(); nn > 0 {
			in = in.Scale(1 / nn)
		}
		c.next = c.next[:0]
		np := len(c.poly)
		for j := 0; j < np; j++ {
			p, q := c.poly[j], c.poly[(j+1)%np]
			dp, dq := in.Dot(p.p.Sub(r0)), in.Dot(q.p.Sub(r0))
			pin, qin := dp >= -eps, dq >= -eps
			if pin {
				c.next = append(c.next, p)
			}
			if pin == qin {
				continue
			}
			x := clipPoint{p: p.p.Add(q.p.Sub(p.p).Scale(dp / (dp - dq)))}
			if !p.sideRef {
				// On an incident edge, cut by a reference edge.
				x.inc, x.ref = contact.E(p.side), contact.E(redges[k])
			} else {
				// On two reference side planes: their common reference
				// vertex over the incident face.
				x.inc, x.ref = contact.F(fi), contact.V(commonVertex(mr.Edges[p.side].V, mr.Edges[redges[k]].V))
			}
			if pin {
				// Leaving: from x the polygon runs along reference edge k.
				x.side, x.sideRef = redges[k], true
			} else {
				// Entering: from x on along p's side.
				x.side, x.sideRef = p.side, p.sideRef
			}
			c.next = append(c.next, x)
		}
		c.poly, c.next = c.next, c.poly
		if len(c.poly) == 0 {
			break
		}
	}
	r0 := tr.Apply(ref.verts[rloop[0]])
	c.out = c.out[:0]
	for _, x := range c.poly {
		sep := m.Dot(x.p.Sub(r0))
		if sep > margin && sep > tol {
			continue
		}
		st := contact.Near
		switch {
		case math.Abs(sep) <= tol:
			st = contact.Touching
		case sep < 0:
			st = contact.Penetrating
		}
		c.out = append(c.out, contact.Contact{
			Status:     st,
			Time:       1,
			Point:      x.p.AddScaled(-sep/2, m),
			Normal:     m,
			Separation: sep,
			FeatureA:   x.ref,
			FeatureB:   x.inc,
		})
	}
	c.out = reduce(c.out, m)
	return c.out
}

// commonVertex returns the vertex shared by two edges (the first end of e
// when they share none).
func commonVertex(e, f [2]int32) int32 {
	if e[0] == f[0] || e[0] == f[1] {
		return e[0]
	}
	return e[1]
}

// reduce keeps at most ManifoldPoints contacts of cs spanning the largest
// area: the deepest, the farthest from it, then the two on either side of
// their line that span the largest triangles (Gregorius, "Robust Contact
// Creation for Physics Simulations", GDC 2015).
func reduce(cs []contact.Contact, m geom.Vec3) []contact.Contact {
	if len(cs) <= ManifoldPoints {
		return cs
	}
	i0 := 0
	for i := range cs {
		if cs[i].Separation < cs[i0].Separation {
			i0 = i
		}
	}
	p0 := cs[i0].Point
	i1, bd := -1, -1.0
	for i := range cs {
		if d := cs[i].Point.Sub(p0).Norm(); i != i0 && d > bd {
			i1, bd = i, d
		}
	}
	p1 := cs[i1].Point
	i2, i3 := -1, -1
	amax, amin := 0.0, 0.0
	for i := range cs {
		if i == i0 || i == i1 {
			continue
		}
		ar := p1.Sub(p0).Cross(cs[i].Point.Sub(p0)).Dot(m)
		if i2 < 0 || ar > amax {
			i2, amax = i, ar
		}
		if i3 < 0 || ar < amin {
			i3, amin = i, ar
		}
	}
	keep := [4]contact.Contact{cs[i0], cs[i1], cs[i2], cs[i3]}
	n := 4
	if i3 == i2 {
		n = 3
	}
	return append(cs[:0], keep[:n]...)
}
