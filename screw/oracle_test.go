package screw

// An independent oracle for the detector: the screw trajectory written
// from ../shared/bench/FORMAT.md Sec. 6 with its own quaternion code, and
// every vertex-face and edge-edge contact found by dense sampling of the
// signed distance / coplanarity functions plus bisection. It shares no code
// with the detector (geom types are used only as plain data).

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

var long = flag.Bool("long", false, "run the exhaustive oracle tests")

type oq struct{ w, x, y, z float64 }

func (a oq) mul(b oq) oq {
	return oq{
		a.w*b.w - a.x*b.x - a.y*b.y - a.z*b.z,
		a.w*b.x + a.x*b.w + a.y*b.z - a.z*b.y,
		a.w*b.y - a.x*b.z + a.y*b.w + a.z*b.x,
		a.w*b.z + a.x*b.y - a.y*b.x + a.z*b.w,
	}
}

// rot applies the rotation matrix of FORMAT.md Sec. 2.
func (q oq) rot(v [3]float64) [3]float64 {
	w, x, y, z := q.w, q.x, q.y, q.z
	return [3]float64{
		(1-2*(y*y+z*z))*v[0] + 2*(x*y-w*z)*v[1] + 2*(x*z+w*y)*v[2],
		2*(x*y+w*z)*v[0] + (1-2*(x*x+z*z))*v[1] + 2*(y*z-w*x)*v[2],
		2*(x*z-w*y)*v[0] + 2*(y*z+w*x)*v[1] + (1-2*(x*x+y*y))*v[2],
	}
}

type opose struct {
	p [3]float64
	q oq
}

func toO(p geom.Pose) opose {
	return opose{[3]float64{p.P.X, p.P.Y, p.P.Z}, oq{p.Q.W, p.Q.X, p.Q.Y, p.Q.Z}}
}

func (p opose) apply(v [3]float64) [3]float64 {
	r := p.q.rot(v)
	return [3]float64{r[0] + p.p[0], r[1] + p.p[1], r[2] + p.p[2]}
}

// screwAt is FORMAT.md Sec. 6: the pose at time t of a body moving from
// p0 to p1 by the screw motion.
func screwAt(p0, p1 opose, t float64) opose {
	c := oq{p0.q.w, -p0.q.x, -p0.q.y, -p0.q.z}
	dq := p1.q.mul(c)
	if dq.w < 0 {
		dq = oq{-dq.w, -dq.x, -dq.y, -dq.z}
	}
	n := math.Sqrt(dq.x*dq.x + dq.y*dq.y + dq.z*dq.z)
	th := 2 * math.Atan2(n, dq.w)
	o := [3]float64{p1.p[0] - p0.p[0], p1.p[1] - p0.p[1], p1.p[2] - p0.p[2]}
	if th == 0 || n == 0 {
		return opose{[3]float64{p0.p[0] + t*o[0], p0.p[1] + t*o[1], p0.p[2] + t*o[2]}, p0.q}
	}
	u := [3]float64{dq.x / n, dq.y / n, dq.z / n}
	d := u[0]*o[0] + u[1]*o[1] + u[2]*o[2]
	op := [3]float64{o[0] - d*u[0], o[1] - d*u[1], o[2] - d*u[2]}
	s, cs := math.Sincos(t * th / 2)
	q := oq{cs, s * u[0], s * u[1], s * u[2]}.mul(p0.q)
	hs, hc := math.Sincos((t - 1) * th / 4) // rotation by (t-1) theta/2
	r := oq{hc, hs * u[0], hs * u[1], hs * u[2]}.rot(op)
	k := s / math.Sin(th/2)
	return opose{[3]float64{p0.p[0] + t*d*u[0] + k*r[0], p0.p[1] + t*d*u[1] + k*r[1], p0.p[2] + t*d*u[2] + k*r[2]}, q}
}

func osub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func odot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func ocross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func onorm(a [3]float64) float64 { return math.Sqrt(odot(a, a)) }
func ounit(a [3]float64) [3]float64 {
	n := onorm(a)
	return [3]float64{a[0] / n, a[1] / n, a[2] / n}
}

// oevent is a contact found by the oracle.
type oevent struct {
	kind   contact.PairKind
	fa, fb int32
	t      float64
	proper float64 // properness, recomputed independently
}

// oracle finds every VF, FV and EE contact event of a static body A (pose
// pa) and B moving from b0 to b1, sampling n steps. It returns the entering
// vertex-face events and all edge-edge crossings; crossings where B moves
// away from A get properness -1 (they are not first contacts).
type oracle struct {
	a, b   *mesh.Mesh
	pa     opose
	b0, b1 opose
	n      int
	bv     [][][3]float64 // B's world vertices per sample
	av     [][3]float64
	// twoA, twoB: the faces of A (of B) are two-sided: a vertex crossing
	// one from its back is a contact too (with the normal reversed).
	twoA, twoB bool
}

func newOracle(a, b *mesh.Mesh, pa, b0, b1 geom.Pose, n int) *oracle {
	o := &oracle{a: a, b: b, pa: toO(pa), b0: toO(b0), b1: toO(b1), n: n}
	for _, v := range a.Verts {
		o.av = append(o.av, o.pa.apply([3]float64{v.X, v.Y, v.Z}))
	}
	for i := 0; i <= n; i++ {
		o.bv = append(o.bv, o.bVerts(float64(i)/float64(n)))
	}
	return o
}

func (o *oracle) bVert(t float64, v int) [3]float64 {
	x := o.b.Verts[v]
	return screwAt(o.b0, o.b1, t).apply([3]float64{x.X, x.Y, x.Z})
}

func (o *oracle) bVerts(t float64) [][3]float64 {
	p := screwAt(o.b0, o.b1, t)
	vs := make([][3]float64, len(o.b.Verts))
	for i, v := range o.b.Verts {
		vs[i] = p.apply([3]float64{v.X, v.Y, v.Z})
	}
	return vs
}

// faceGeom returns the plane (unit normal, offset) of face f from vertices vs.
func faceGeom(m *mesh.Mesh, vs [][3]float64, f int) ([3]float64, float64) {
	l := m.Face(f)
	var n [3]float64
	for i := range l {
		a, b := vs[l[i]], vs[l[(i+1)%len(l)]]
		c := ocross(a, b)
		n = [3]float64{n[0] + c[0], n[1] + c[1], n[2] + c[2]}
	}
	n = ounit(n)
	return n, odot(n, vs[l[0]])
}

// inPoly reports whether p (near the plane of face f) is inside the convex
// face polygon, within tol.
func inPoly(m *mesh.Mesh, vs [][3]float64, f int, p [3]float64, n [3]float64, tol float64) bool {
	l := m.Face(f)
	for i := range l {
		a, b := vs[l[i]], vs[l[(i+1)%len(l)]]
		e := osub(b, a)
		if odot(ocross(e, osub(p, a)), n) < -tol*onorm(e) {
			return false
		}
	}
	return true
}

func bisect(f func(float64) float64, a, b float64) float64 {
	fa := f(a)
	for i := 0; i < 60; i++ {
		m := (a + b) / 2
		fm := f(m)
		if (fm > 0) == (fa > 0) {
			a, fa = m, fm
		} else {
			b = m
		}
	}
	return (a + b) / 2
}

func (o *oracle) events() []oevent {
	var ev []oevent
	a, b := o.a, o.b
	tol := 1e-9
	// FV: vertices of B against faces of A (A static).
	for f := 0; f < a.NumFaces(); f++ {
		n, d := faceGeom(a, o.av, f)
		for v := range b.Verts {
			fn := func(t float64) float64 { return odot(n, o.bVert(t, v)) - d }
			for i := 0; i < o.n; i++ {
				x0 := odot(n, o.bv[i][v]) - d
				x1 := odot(n, o.bv[i+1][v]) - d
				back := o.twoA && x0 < 0 && x1 >= 0
				if x0 > 0 && x1 <= 0 || back {
					t := bisect(fn, float64(i)/float64(o.n), float64(i+1)/float64(o.n))
					bv := o.bVerts(t)
					if inPoly(a, o.av, f, bv[v], n, tol) {
						nn := n
						if back {
							nn = [3]float64{-n[0], -n[1], -n[2]}
						}
						ev = append(ev, oevent{contact.FaceVertex, int32(f), int32(v), t, vertexProper(b, bv, v, nn)})
					}
				}
			}
		}
	}
	// VF: vertices of A against faces of B.
	for f := 0; f < b.NumFaces(); f++ {
		for v := range a.Verts {
			fn := func(t float64) float64 {
				bv := o.bVerts(t)
				n, d := faceGeom(b, bv, f)
				return odot(n, o.av[v]) - d
			}
			for i := 0; i < o.n; i++ {
				n0, d0 := faceGeom(b, o.bv[i], f)
				n1, d1 := faceGeom(b, o.bv[i+1], f)
				x0, x1 := odot(n0, o.av[v])-d0, odot(n1, o.av[v])-d1
				back := o.twoB && x0 < 0 && x1 >= 0
				if x0 > 0 && x1 <= 0 || back {
					t := bisect(fn, float64(i)/float64(o.n), float64(i+1)/float64(o.n))
					bv := o.bVerts(t)
					n, _ := faceGeom(b, bv, f)
					if inPoly(b, bv, f, o.av[v], n, tol) {
						if back {
							n = [3]float64{-n[0], -n[1], -n[2]}
						}
						ev = append(ev, oevent{contact.VertexFace, int32(v), int32(f), t, vertexProper(a, o.av, v, n)})
					}
				}
			}
		}
	}
	// EE.
	for ia, ea := range a.Edges {
		p, q := o.av[ea.V[0]], o.av[ea.V[1]]
		p0 := p
		da := osub(q, p)
		for ib, eb := range b.Edges {
			g := func(bv [][3]float64) float64 {
				r, s := bv[eb.V[0]], bv[eb.V[1]]
				return odot(ocross(da, osub(s, r)), osub(r, p))
			}
			for i := 0; i < o.n; i++ {
				g0, g1 := g(o.bv[i]), g(o.bv[i+1])
				if (g0 > 0) == (g1 > 0) {
					continue
				}
				gt := func(t float64) float64 {
					p := screwAt(o.b0, o.b1, t)
					x0, x1 := o.b.Verts[eb.V[0]], o.b.Verts[eb.V[1]]
					r, s := p.apply([3]float64{x0.X, x0.Y, x0.Z}), p.apply([3]float64{x1.X, x1.Y, x1.Z})
					return odot(ocross(da, osub(s, r)), osub(r, p0))
				}
				t := bisect(gt, float64(i)/float64(o.n), float64(i+1)/float64(o.n))
				bv := o.bVerts(t)
				r, s := bv[eb.V[0]], bv[eb.V[1]]
				db := osub(s, r)
				w := osub(p, r)
				aa, bb, cc := odot(da, da), odot(da, db), odot(db, db)
				dd, ee := odot(da, w), odot(db, w)
				den := aa*cc - bb*bb
				if den <= 1e-12*aa*cc {
					continue
				}
				sa := (bb*ee - cc*dd) / den
				sb := (aa*ee - bb*dd) / den
				if sa < 0 || sa > 1 || sb < 0 || sb > 1 {
					continue
				}
				prop, n := o.eeProper(ia, ib, bv)
				if !convexEdge(o.a, ia) || !convexEdge(o.b, ib) {
					// Formula (7) assumes convex edges; at a reflex
					// edge its sign choice is meaningless, so such
					// crossings are not counted as proper.
					prop = -1
				}
				// Only approaching crossings: B's contact point moves
				// against the normal (from A to B). A crossing where B
				// leaves A looks proper with the normal reversed.
				pb := func(t float64) [3]float64 {
					x := o.bVerts(t)
					r, s := x[eb.V[0]], x[eb.V[1]]
					return [3]float64{r[0] + sb*(s[0]-r[0]), r[1] + sb*(s[1]-r[1]), r[2] + sb*(s[2]-r[2])}
				}
				vel := osub(pb(t+1e-6), pb(t-1e-6))
				if odot(vel, n) > 0 {
					prop = -1
				}
				ev = append(ev, oevent{contact.EdgeEdge, int32(ia), int32(ib), t, prop})
			}
		}
	}
	sort.Slice(ev, func(i, j int) bool { return ev[i].t < ev[j].t })
	return ev
}

// convexEdge reports whether edge e of m is convex (the far vertices of
// its right face lie below the plane of its left face).
func convexEdge(m *mesh.Mesh, e int) bool {
	ed := m.Edges[e]
	if ed.Left < 0 || ed.Right < 0 {
		return true // a boundary edge: one face, nothing reflex
	}
	vs := make([][3]float64, len(m.Verts))
	for i, v := range m.Verts {
		vs[i] = [3]float64{v.X, v.Y, v.Z}
	}
	n, d := faceGeom(m, vs, int(ed.Left))
	for _, v := range m.Face(int(ed.Right)) {
		if odot(n, vs[v])-d > 1e-9 {
			return false
		}
	}
	return true
}

// vertexProper is Buss's FV properness: min over the vertex's edges of
// e_i . n.
func vertexProper(m *mesh.Mesh, vs [][3]float64, v int, n [3]float64) float64 {
	best := math.Inf(1)
	for _, e := range m.Edges {
		var w int32 = -1
		if int(e.V[0]) == v {
			w = e.V[1]
		} else if int(e.V[1]) == v {
			w = e.V[0]
		}
		if w >= 0 {
			best = math.Min(best, odot(ounit(osub(vs[w], vs[v])), n))
		}
	}
	return best
}

// eeProper is formula (7) of Buss Sec. 5, maximized over the normal's sign.
func (o *oracle) eeProper(ia, ib int, bv [][3]float64) (float64, [3]float64) {
	ea, eb := o.a.Edges[ia], o.b.Edges[ib]
	ua := ounit(osub(o.av[ea.V[1]], o.av[ea.V[0]]))
	ub := ounit(osub(bv[eb.V[1]], bv[eb.V[0]]))
	n := ounit(ocross(ua, ub))
	// A boundary edge of an open mesh has one face: its term is left out.
	face := func(m *mesh.Mesh, vs [][3]float64, f int32) ([3]float64, bool) {
		if f < 0 {
			return [3]float64{}, false
		}
		n, _ := faceGeom(m, vs, int(f))
		return n, true
	}
	na1, okA1 := face(o.a, o.av, ea.Left)
	na2, okA2 := face(o.a, o.av, ea.Right)
	nb1, okB1 := face(o.b, bv, eb.Left)
	nb2, okB2 := face(o.b, bv, eb.Right)
	val := func(n [3]float64) float64 {
		xa, xb := ocross(n, ua), ocross(n, ub)
		m := math.Inf(1)
		for _, x := range []struct {
			ok bool
			v  float64
		}{{okA1, odot(xa, na1)}, {okA2, -odot(xa, na2)}, {okB1, -odot(xb, nb1)}, {okB2, odot(xb, nb2)}} {
			if x.ok {
				m = math.Min(m, x.v)
			}
		}
		if math.IsInf(m, 1) {
			return 0
		}
		return m
	}
	nn := [3]float64{-n[0], -n[1], -n[2]}
	if val(nn) > val(n) {
		return val(nn), nn
	}
	return val(n), n
}

// realContact checks a reported collision with the oracle's geometry: at
// its time the two features touch (within tol).
func (o *oracle) realContact(c Collision, tol float64) error {
	bv := o.bVerts(c.Time)
	switch c.Kind {
	case contact.FaceVertex:
		n, d := faceGeom(o.a, o.av, int(c.FeatureA))
		x := bv[c.FeatureB]
		if dist := math.Abs(odot(n, x) - d); dist > tol || !inPoly(o.a, o.av, int(c.FeatureA), x, n, tol) {
			return fmt.Errorf("contact.FaceVertex not touching: plane distance %g", dist)
		}
	case contact.VertexFace:
		n, d := faceGeom(o.b, bv, int(c.FeatureB))
		x := o.av[c.FeatureA]
		if dist := math.Abs(odot(n, x) - d); dist > tol || !inPoly(o.b, bv, int(c.FeatureB), x, n, tol) {
			return fmt.Errorf("contact.VertexFace not touching: plane distance %g", dist)
		}
	case contact.EdgeEdge:
		ea, eb := o.a.Edges[c.FeatureA], o.b.Edges[c.FeatureB]
		if dist := segSegDist(o.av[ea.V[0]], o.av[ea.V[1]], bv[eb.V[0]], bv[eb.V[1]]); dist > tol {
			return fmt.Errorf("contact.EdgeEdge not touching: distance %g", dist)
		}
	}
	if c.Near {
		return nil // apart by up to two pixels: no point or normal to check
	}
	// The point lies on both features at Time (an edge-edge contact at an
	// edge's end is reported as a vertex-face one at the edges' closest
	// points, within endEps of the vertex), and the normal is the face's
	// (outward from A, into B) or perpendicular to both edges, pointing
	// the way of larger properness (formula (7), from A to B).
	p := [3]float64{c.Point.X, c.Point.Y, c.Point.Z}
	n := [3]float64{c.Normal.X, c.Normal.Y, c.Normal.Z}
	ptol := tol + 2e-7*(o.a.Radius()+o.b.Radius())
	far := func(x, y [3]float64, tol float64) bool { return onorm(osub(x, y)) > tol }
	switch c.Kind {
	case contact.FaceVertex:
		fn, d := faceGeom(o.a, o.av, int(c.FeatureA))
		if far(p, bv[c.FeatureB], ptol) || math.Abs(odot(fn, p)-d) > ptol {
			return fmt.Errorf("contact.FaceVertex point %v is not B's vertex %v on A's face", p, bv[c.FeatureB])
		}
		if far(n, fn, 1e-6) && (!o.twoA || far(n, [3]float64{-fn[0], -fn[1], -fn[2]}, 1e-6)) {
			return fmt.Errorf("contact.FaceVertex normal %v, A's face normal %v", n, fn)
		}
	case contact.VertexFace:
		fn, d := faceGeom(o.b, bv, int(c.FeatureB))
		if far(p, o.av[c.FeatureA], ptol) || math.Abs(odot(fn, p)-d) > ptol {
			return fmt.Errorf("contact.VertexFace point %v is not A's vertex %v on B's face", p, o.av[c.FeatureA])
		}
		inward := [3]float64{-fn[0], -fn[1], -fn[2]}
		if far(n, inward, 1e-6) && (!o.twoB || far(n, fn, 1e-6)) {
			return fmt.Errorf("contact.VertexFace normal %v, B's inward face normal %v", n, inward)
		}
	case contact.EdgeEdge:
		ea, eb := o.a.Edges[c.FeatureA], o.b.Edges[c.FeatureB]
		a0, a1 := o.av[ea.V[0]], o.av[ea.V[1]]
		b0, b1 := bv[eb.V[0]], bv[eb.V[1]]
		if segSegDist(p, p, a0, a1) > ptol || segSegDist(p, p, b0, b1) > ptol {
			return fmt.Errorf("contact.EdgeEdge point %v is not on both edges", p)
		}
		ua, ub := ounit(osub(a1, a0)), ounit(osub(b1, b0))
		if onorm(ocross(ua, ub)) > 1e-6 {
			if math.Abs(odot(n, ua)) > 1e-6 || math.Abs(odot(n, ub)) > 1e-6 {
				return fmt.Errorf("contact.EdgeEdge normal %v is not perpendicular to both edges", n)
			}
			prop, on := o.eeProper(int(c.FeatureA), int(c.FeatureB), bv)
			other, _ := o.eeProperSigned(int(c.FeatureA), int(c.FeatureB), bv, [3]float64{-on[0], -on[1], -on[2]})
			if prop-other > 1e-6 && odot(n, on) < 0 {
				return fmt.Errorf("contact.EdgeEdge normal %v points against %v, the side of larger properness", n, on)
			}
		}
	}
	return nil
}

// eeProperSigned is formula (7) for the given unit normal n (no sign
// choice).
func (o *oracle) eeProperSigned(ia, ib int, bv [][3]float64, n [3]float64) (float64, [3]float64) {
	ea, eb := o.a.Edges[ia], o.b.Edges[ib]
	ua := ounit(osub(o.av[ea.V[1]], o.av[ea.V[0]]))
	ub := ounit(osub(bv[eb.V[1]], bv[eb.V[0]]))
	xa, xb := ocross(n, ua), ocross(n, ub)
	m := math.Inf(1)
	if ea.Left >= 0 {
		f, _ := faceGeom(o.a, o.av, int(ea.Left))
		m = math.Min(m, odot(xa, f))
	}
	if ea.Right >= 0 {
		f, _ := faceGeom(o.a, o.av, int(ea.Right))
		m = math.Min(m, -odot(xa, f))
	}
	if eb.Left >= 0 {
		f, _ := faceGeom(o.b, bv, int(eb.Left))
		m = math.Min(m, -odot(xb, f))
	}
	if eb.Right >= 0 {
		f, _ := faceGeom(o.b, bv, int(eb.Right))
		m = math.Min(m, odot(xb, f))
	}
	return m, n
}

// touchingAt reports whether the bodies touch at time t within tol, by
// brute force over every vertex-face and edge-edge pair.
func (o *oracle) touchingAt(t, tol float64) bool {
	bv := o.bVerts(t)
	vf := func(m *mesh.Mesh, fvs [][3]float64, pts [][3]float64) bool {
		for f := 0; f < m.NumFaces(); f++ {
			n, d := faceGeom(m, fvs, f)
			for _, x := range pts {
				if s := odot(n, x) - d; math.Abs(s) <= tol && inPoly(m, fvs, f, x, n, tol) {
					return true
				}
			}
		}
		return false
	}
	if vf(o.a, o.av, bv) || vf(o.b, bv, o.av) {
		return true
	}
	for _, ea := range o.a.Edges {
		for _, eb := range o.b.Edges {
			if segSegDist(o.av[ea.V[0]], o.av[ea.V[1]], bv[eb.V[0]], bv[eb.V[1]]) <= tol {
				return true
			}
		}
	}
	return false
}

// segSegDist is the distance between two segments, by dense sampling of one
// and exact projection on the other (enough for a tolerance check).
func segSegDist(p0, p1, q0, q1 [3]float64) float64 {
	best := math.Inf(1)
	proj := func(x [3]float64) float64 {
		d := osub(q1, q0)
		t := math.Max(0, math.Min(1, odot(osub(x, q0), d)/odot(d, d)))
		return onorm(osub(x, [3]float64{q0[0] + t*d[0], q0[1] + t*d[1], q0[2] + t*d[2]}))
	}
	// Golden-section search on the convex function of the first segment's
	// parameter.
	f := func(s float64) float64 {
		return proj([3]float64{p0[0] + s*(p1[0]-p0[0]), p0[1] + s*(p1[1]-p0[1]), p0[2] + s*(p1[2]-p0[2])})
	}
	a, b := 0.0, 1.0
	for i := 0; i < 100; i++ {
		m1, m2 := a+(b-a)*0.382, a+(b-a)*0.618
		if f(m1) < f(m2) {
			b = m2
		} else {
			a = m1
		}
	}
	best = math.Min(best, math.Min(f((a+b)/2), math.Min(f(0), f(1))))
	return best
}

// randRotDir returns generators of random rotations and unit vectors.
func randRotDir(r *rand.Rand) (func() geom.Quat, func() geom.Vec3) {
	rq := func() geom.Quat {
		q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		return q
	}
	dir := func() geom.Vec3 {
		v, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		return v
	}
	return rq, dir
}

// randomCase returns a static pose of A and a screw motion of B that
// passes near or through A, with B disjoint from A at t = 0 (bounding
// spheres apart).
func randomCase(r *rand.Rand, ra, rb float64) (pa, b0, b1 geom.Pose) {
	rq, dir := randRotDir(r)
	pa = geom.Pose{P: dir().Scale(0.2 * r.Float64()), Q: rq()}
	d := dir()
	start := d.Scale((ra + rb) * (1.05 + 0.6*r.Float64()))
	end := d.Scale(-(ra + rb) * (2*r.Float64() - 0.3)).Add(dir().Scale(1.6 * (ra + rb) * r.Float64()))
	q0 := rq()
	ang := r.Float64() * math.Pi / 4
	q1 := geom.QuatAxisAngle(dir(), ang).Mul(q0)
	return pa, geom.Pose{P: pa.P.Add(start), Q: q0}, geom.Pose{P: pa.P.Add(end), Q: q1}
}

// pivotCase returns a static pose of A and a motion of B that turns by up
// to 2.5 radians about an axis passing through A or B (or between them),
// with little glide: the screw axis crosses the bodies, so the projection
// needs the azimuth cut and edges near the axis sweep far in azimuth.
func pivotCase(r *rand.Rand, ra, rb float64) (pa, b0, b1 geom.Pose) {
	rq, dir := randRotDir(r)
	pa = geom.Pose{Q: rq()}
	ax := dir()
	// B starts apart from A, perpendicular to the axis.
	side, _ := dir().AddScaled(-dir().Dot(ax), ax).Normalize()
	side, _ = side.AddScaled(-side.Dot(ax), ax).Normalize()
	cb := side.Scale((ra + rb) * (1.02 + 0.2*r.Float64()))
	// The pivot: near the middle of the segment between the centres, so
	// that B swings into A.
	pivot := cb.Scale(0.4 + 0.2*r.Float64()).Add(dir().Scale(0.3 * rb * r.Float64()))
	ang := 1 + 1.5*r.Float64()
	if r.IntN(2) == 0 {
		ang = -ang
	}
	rot := geom.QuatAxisAngle(ax, ang)
	glide := ax.Scale(0.2 * (ra + rb) * r.NormFloat64())
	q0 := rq()
	b0 = geom.Pose{P: cb, Q: q0}
	b1 = geom.Pose{P: pivot.Add(rot.Rotate(cb.Sub(pivot))).Add(glide), Q: rot.Mul(q0)}
	return pa, b0, b1
}

type oracleStats struct {
	cases, hits, proper, found, reported, firstBad int
	maxFirst                                       float64
}

// add accumulates the counts of st and the larger maxFirst.
func (s *oracleStats) add(st oracleStats) {
	s.cases += st.cases
	s.hits += st.hits
	s.proper += st.proper
	s.found += st.found
	s.reported += st.reported
	s.firstBad += st.firstBad
	s.maxFirst = max(s.maxFirst, st.maxFirst)
}

// runOracle compares the detector with the oracle on random cases.
func runOracle(t *testing.T, name string, ma, mb *mesh.Mesh, cases, samples int, seed uint64, opt *Options) oracleStats {
	return runOracleGen(t, name, ma, mb, cases, samples, seed, opt, randomCase)
}

// runOracleGen is runOracle with the cases drawn by gen.
func runOracleGen(t *testing.T, name string, ma, mb *mesh.Mesh, cases, samples int, seed uint64, opt *Options, gen func(r *rand.Rand, ra, rb float64) (pa, b0, b1 geom.Pose)) oracleStats {
	r := rand.New(rand.NewPCG(seed, 7))
	d := NewDetector()
	var st oracleStats
	o := *opt
	o.Properness = AllProperness
	for c := 0; c < cases; c++ {
		pa, b0, b1 := gen(r, ma.Radius(), mb.Radius())
		orc := newOracle(ma, mb, pa, b0, b1, samples)
		ev := orc.events()
		got, err := d.Detect(ma, mb, pa, pa, b0, b1, &o, nil)
		if err != nil {
			t.Fatal(err)
		}
		st.cases++
		where := func() string {
			return fmt.Sprintf("%s case %d: pa=%v b0=%v b1=%v", name, c, pa, b0, b1)
		}
		tol := 1e-7 * (ma.Radius() + mb.Radius())
		for _, g := range got {
			st.reported++
			if err := orc.realContact(g, tol); err != nil {
				t.Errorf("%s: reported %v is not real: %v", where(), g, err)
			}
		}
		// Recall of proper contacts.
		for _, e := range ev {
			if e.proper < 1e-9 {
				continue
			}
			st.proper++
			ok := false
			for _, g := range got {
				if g.Kind == e.kind && g.FeatureA == e.fa && g.FeatureB == e.fb && math.Abs(g.Time-e.t) < 1e-6 {
					ok = true
					break
				}
			}
			if ok {
				st.found++
			} else if *long || st.proper-st.found < 5 {
				t.Logf("%s: missed proper %v A%d B%d t=%v properness %v", where(), e.kind, e.fa, e.fb, e.t, e.proper)
			}
		}
		// First contact.
		hit, toc, err := d.FirstContact(ma, mb, pa, pa, b0, b1, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(ev) > 0 {
			st.hits++
			if !hit {
				st.firstBad++
				t.Errorf("%s: FirstContact missed the contact at %v", where(), ev[0].t)
			} else if e := math.Abs(toc - ev[0].t); e > 1e-6 {
				// The oracle can miss two crossings within one sample;
				// accept an earlier toc only if the bodies touch there.
				st.maxFirst = math.Max(st.maxFirst, e)
				if toc > ev[0].t {
					st.firstBad++
					t.Errorf("%s: first contact %v, oracle %v", where(), toc, ev[0].t)
				} else if !orc.touchingAt(toc, tol) {
					st.firstBad++
					t.Errorf("%s: first contact %v before the oracle's %v, and the bodies do not touch then", where(), toc, ev[0].t)
				}
			}
		} else if hit && !orc.touchingAt(toc, tol) {
			// Must be a real contact the sampling missed.
			st.firstBad++
			t.Errorf("%s: FirstContact %v without a contact", where(), toc)
		}
	}
	return st
}

func oracleShapes(t *testing.T) []struct {
	name string
	m    *mesh.Mesh
	n    int
} {
	n := func(x int) int {
		if *long {
			return x * 10
		}
		return x
	}
	return []struct {
		name string
		m    *mesh.Mesh
		n    int
	}{
		{"cube", shapes.Cube(1), n(40)},
		{"box", shapes.Box(geom.Vec3{X: 0.7, Y: 0.2, Z: 0.4}), n(40)},
		{"polytope", shapes.RandomPolytope(shapes.Ellipsoid, 12, 0.8, 3), n(16)},
		{"car", shapes.Car(), n(5)},
		{"torus8x6", shapes.Torus(1, 0.35, 8, 6), n(1)},
	}
}

// TestOracle checks, on seeded random screw motions, that every reported
// collision is a real contact, that the proper contacts of the oracle are
// reported (recall), and that the first contact agrees.
func TestOracle(t *testing.T) {
	for _, ppe := range []float64{6, 12, 24} {
		var tot oracleStats
		for i, s := range oracleShapes(t) {
			st := runOracle(t, fmt.Sprintf("%s px%v", s.name, ppe), s.m, s.m, s.n, 200, uint64(100*i)+uint64(ppe), &Options{PixelsPerEdge: ppe})
			tot.add(st)
			t.Logf("px%v %-9s cases %4d hits %4d proper contacts %5d found %5d reported %6d first-contact errors %d", ppe, s.name, st.cases, st.hits, st.proper, st.found, st.reported, st.firstBad)
		}
		recall := float64(tot.found) / float64(max(tot.proper, 1))
		t.Logf("px%v: recall of proper contacts %.4f (%d/%d), first-contact errors %d", ppe, recall, tot.found, tot.proper, tot.firstBad)
		if recall < 0.99 {
			t.Errorf("px%v: recall %.4f below 0.99", ppe, recall)
		}
		if tot.hits < tot.cases/5 || tot.hits > tot.cases*9/10 {
			t.Errorf("px%v: %d of %d cases hit; the cases do not exercise the detector", ppe, tot.hits, tot.cases)
		}
	}
}

// TestOracleAxisThrough is TestOracle on motions whose screw axis passes
// through the bodies (pivotCase), where the projection splits edges at the
// azimuth cut and doppels A's points.
func TestOracleAxisThrough(t *testing.T) {
	var tot oracleStats
	ppes := []float64{12}
	if *long {
		ppes = []float64{6, 12}
	}
	for _, ppe := range ppes {
		for i, s := range oracleShapes(t) {
			st := runOracleGen(t, fmt.Sprintf("%s px%v axis", s.name, ppe), s.m, s.m, s.n, 300, uint64(100*i)+uint64(ppe)+5, &Options{PixelsPerEdge: ppe}, pivotCase)
			tot.add(st)
			t.Logf("px%v %-9s axis cases %4d hits %4d proper contacts %5d found %5d first-contact errors %d", ppe, s.name, st.cases, st.hits, st.proper, st.found, st.firstBad)
		}
	}
	if recall := float64(tot.found) / float64(max(tot.proper, 1)); recall < 0.99 {
		t.Errorf("axis through: recall %.4f (%d/%d) below 0.99", recall, tot.found, tot.proper)
	}
	if tot.hits < tot.cases/5 || tot.hits > tot.cases*9/10 {
		t.Errorf("axis through: %d of %d cases hit; the cases do not exercise the detector", tot.hits, tot.cases)
	}
}

// threadCase returns two coils wound into each other (the screw threads of
// Sec. 9.1), B half a pitch above A and turned about the axis, pushed along
// the axis by up to a pitch while turning by up to 0.6 rad either way.
func threadCase(r *rand.Rand, pitch float64) (pa, b0, b1 geom.Pose) {
	z := geom.Vec3{Z: 1}
	// Turning a coil by a0 about its axis moves its helix by pitch a0 / 2 pi
	// along the axis: B is moved back by as much.
	a0 := 2 * math.Pi * r.Float64()
	z0 := pitch/2 + pitch*a0/(2*math.Pi)
	b0 = geom.Pose{P: geom.Vec3{Z: z0}, Q: geom.QuatAxisAngle(z, a0)}
	push := pitch * (r.Float64() - 0.3)
	turn := 0.6 * (2*r.Float64() - 1)
	if r.IntN(4) == 0 {
		turn = 0 // a pure translation
	}
	b1 = geom.Pose{P: geom.Vec3{X: 0.02 * r.NormFloat64(), Y: 0.02 * r.NormFloat64(), Z: z0 + push}, Q: geom.QuatAxisAngle(z, a0+turn)}
	return geom.PoseIdentity(), b0, b1
}

// TestOracleThreads is TestOracle on coils wound into each other and
// pushed along their axis (threadCase): every turn of both coils projects to
// the same ring of the screen, so the pairs are told apart by time
// (cellSweep) and many contacts happen at nearly the same time (dedupe).
func TestOracleThreads(t *testing.T) {
	const pitch = 0.5
	m := shapes.Coil(1, 0.1, pitch, 1.5, 8, 4)
	n := 4
	if *long {
		n = 60
	}
	gen := func(r *rand.Rand, _, _ float64) (pa, b0, b1 geom.Pose) { return threadCase(r, pitch) }
	st := runOracleGen(t, "threads", m, m, n, 300, 99, &Options{PixelsPerEdge: 12}, gen)
	t.Logf("threads: cases %d hits %d proper contacts %d found %d reported %d first-contact errors %d", st.cases, st.hits, st.proper, st.found, st.reported, st.firstBad)
	if st.found < st.proper*99/100 {
		t.Errorf("threads: recall %d/%d below 0.99", st.found, st.proper)
	}
	if st.hits < st.cases/4 {
		t.Errorf("threads: %d of %d cases hit; the cases do not exercise the detector", st.hits, st.cases)
	}
}

// TestOracleRows runs the oracle comparison with the paper's rows of one
// pixel (Options.PixelRows: Sec. 9's row records, sorted and scanned), which
// the default mode replaces by a direct or grid pair search.
func TestOracleRows(t *testing.T) {
	var tot oracleStats
	for i, s := range oracleShapes(t) {
		st := runOracle(t, s.name+" rows", s.m, s.m, max(s.n/3, 10), 200, uint64(100*i)+77, &Options{PixelsPerEdge: 12, PixelRows: true})
		tot.add(st)
		t.Logf("rows %-9s cases %4d hits %4d proper contacts %5d found %5d first-contact errors %d", s.name, st.cases, st.hits, st.proper, st.found, st.firstBad)
	}
	if recall := float64(tot.found) / float64(max(tot.proper, 1)); recall < 0.99 {
		t.Errorf("rows: recall %.4f (%d/%d) below 0.99", recall, tot.found, tot.proper)
	}
	if tot.hits < tot.cases/5 {
		t.Errorf("rows: %d of %d cases hit; the cases do not exercise the detector", tot.hits, tot.cases)
	}
}
