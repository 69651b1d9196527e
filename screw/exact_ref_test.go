package screw

// The exact solvers as they were before the Taylor-model root finder
// (cubic-Hermite exclusion, Newton per root, closed-form critical points),
// kept as a second algorithm for the differential tests and benchmarks of
// exact_test.go. Collisions are recorded through the current recorders;
// planeRoots and refineN, unchanged since then, are shared with exact.go.

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

func (d *Detector) refAddVertexHit(c *cand, t float64, near bool) {
	sn, cs := math.Sincos(t * d.theta)
	d.addVertexHit(c, hroot{t, sn, cs}, near, false)
}

func (d *Detector) refAddEEHit(c *cand, t float64, near bool) {
	sn, cs := math.Sincos(t * d.theta)
	r := hroot{t, sn, cs}
	s, u, pa, pb, _ := d.eeAt(c, r)
	d.addEEHit(c, r, s, u, pa, pb, near)
}

func (d *Detector) refVertexAt(k contact.PairKind, x geom.Vec3, t float64) geom.Vec3 {
	sn, cs := math.Sincos(t * d.theta)
	return d.vertexAtSC(k, x, hroot{t, sn, cs})
}

// refSolveAll is solveAll with the reference solvers.
func (d *Detector) refSolveAll(best float64, first bool) float64 {
	cs := d.cands.list
	if first {
		for i := range cs {
			c := &cs[i]
			if c.tlo > best {
				continue
			}
			var t float64
			var ok bool
			if c.kind == contact.EdgeEdge {
				t, ok = d.refSolveEE(c, min(best, 1), true)
			} else {
				t, ok = d.refSolveVertex(c, min(best, 1), true)
			}
			if ok && t < best {
				best = t
			}
		}
		return best
	}
	for i := range cs {
		c := &cs[i]
		if c.kind == contact.EdgeEdge {
			d.refSolveEE(c, 1, false)
		} else {
			d.refSolveVertex(c, 1, false)
		}
	}
	return best
}

type refEEFunc struct {
	c     [9]float64
	theta float64
	m2    float64 // bound on |g''| over [0, 1]
	m4    float64 // bound on |g''''| over [0, 1]
}

func (e *refEEFunc) eval(t float64) float64 {
	h, hc := math.Sincos(t * e.theta / 2)
	C := -2 * h * h
	S := 2 * h * hc
	c := &e.c
	return c[0] + C*(c[1]+C*c[4]+S*c[5]+t*c[7]) + S*(c[2]+S*c[6]+t*c[8]) + t*c[3]
}

// evalD returns g(t) and g'(t).
func (e *refEEFunc) evalD(t float64) (float64, float64) {
	h, hc := math.Sincos(t * e.theta / 2)
	C := -2 * h * h
	S := 2 * h * hc
	C1 := -e.theta * S
	S1 := e.theta * (C + 1)
	c := &e.c
	g := c[0] + C*(c[1]+C*c[4]+S*c[5]+t*c[7]) + S*(c[2]+S*c[6]+t*c[8]) + t*c[3]
	dg := C1*(c[1]+2*C*c[4]+S*c[5]+t*c[7]) + C*(S1*c[5]+c[7]) + S1*(c[2]+2*S*c[6]+t*c[8]) + S*c[8] + c[3]
	return g, dg
}

func (d *Detector) refEESetup(e *refEEFunc, p, ea, q0, eb0 geom.Vec3) {
	th := d.theta
	n0 := ea.Cross(eb0)
	n1 := ea.Cross(pj(eb0))
	n2 := ea.Cross(jj(eb0))
	d0 := q0.Sub(p)
	d1 := pj(q0)
	d2 := jj(q0)
	g := d.g
	c := &e.c
	c[0] = n0.Dot(d0)
	c[1] = n0.Dot(d1) + n1.Dot(d0)
	c[2] = n0.Dot(d2) + n2.Dot(d0)
	c[3] = n0.Y * g
	c[4] = n1.Dot(d1)
	c[5] = n1.Dot(d2) + n2.Dot(d1)
	c[6] = n2.Dot(d2)
	c[7] = n1.Y * g
	c[8] = n2.Y * g
	e.theta = th
	t2, t3 := th*th, th*th*th
	e.m2 = math.Abs(c[1])*t2 + math.Abs(c[2])*t3 + math.Abs(c[4])*3*t2*t2 +
		math.Abs(c[5])*(3*t3+t3*t2/2) + math.Abs(c[6])*(2*t2+2*t2*t2) +
		math.Abs(c[7])*3*t2 + math.Abs(c[8])*(2*th+t3)
	e.m2 *= 1.01
	t4 := t2 * t2
	e.m4 = 1.01 * (t4*(math.Abs(c[1])+math.Abs(c[2])) + 10*t4*math.Abs(c[4]) + 9*t4*math.Abs(c[5]) +
		8*t4*math.Abs(c[6]) + (4*t3+t4)*(math.Abs(c[7])+math.Abs(c[8])))
}

func (d *Detector) refSolveVertex(c *cand, tmax float64, first bool) (float64, bool) {
	var x, n geom.Vec3
	var off, k1, k3s float64
	var fb *body // body of the face
	var f int
	if c.kind == contact.FaceVertex { // face of A, moving vertex of B
		fb, f = &d.a, int(c.a)
		x, n, off = d.b.pos[c.b], d.a.nrm[c.a], d.a.off[c.a]
		k1, k3s = d.g*n.Y, 1
	} else { // vertex of A, face of B: A's vertex moves by the inverse motion
		fb, f = &d.b, int(c.b)
		x, n, off = d.a.pos[c.a], d.b.nrm[c.b], d.b.off[c.b]
		k1, k3s = -d.g*n.Y, -1
	}
	tmax = min(tmax, c.thi)
	f0 := n.Dot(x) - off
	k2 := n.X*x.X + n.Z*x.Z
	k3 := k3s * (n.X*x.Z - n.Z*x.X)
	tol := 1e-9 * d.scale
	// f changes by at most L per unit time: far above the plane, the
	// vertex cannot reach it before tmax.
	L := math.Abs(k1) + d.theta*math.Hypot(k2, k3)
	nr := 0
	var roots [3]float64
	if !(f0 > tmax*L*(1+1e-9)+1e-15*d.scale) || tmax <= 0 {
		if !first && d.thresh > -1 && d.refPropUpper(c, tmax) < d.thresh {
			// Every contact of the pair in its window is too improper
			// to be reported.
			return 0, false
		}
		roots, nr = planeRoots(f0, k1, k2, k3, d.theta, tmax)
	}
	for i := 0; i < nr; i++ {
		t := roots[i]
		p := d.refVertexAt(c.kind, x, t)
		if insideFace(fb, f, p, tol) {
			if !first {
				d.refAddVertexHit(c, t, false)
			}
			return t, true
		}
	}
	if d.cons && !first {
		roots, nr = planeRoots(f0-d.near, k1, k2, k3, d.theta, tmax)
		for i := 0; i < nr; i++ {
			t := roots[i]
			p := d.refVertexAt(c.kind, x, t)
			p = p.AddScaled(-d.near, n)
			if insideFace(fb, f, p, d.near) {
				d.refAddVertexHit(c, t, true)
				return t, true
			}
		}
		// Within the band above the face at the window's start.
		lo := max(0, c.tlo-1e-9)
		if fl := f0 + k1*lo + k2*(math.Cos(lo*d.theta)-1) + k3*math.Sin(lo*d.theta); fl >= 0 && fl <= d.near && lo <= tmax {
			if insideFace(fb, f, d.refVertexAt(c.kind, x, lo).AddScaled(-fl, n), d.near) {
				d.refAddVertexHit(c, lo, true)
				return lo, true
			}
		}
	}
	return 0, false
}

func (d *Detector) refSolveEE(c *cand, tmax float64, first bool) (float64, bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	p := d.a.pos[ea.V[0]]
	da := d.a.pos[ea.V[1]].Sub(p)
	q0 := d.b.pos[eb.V[0]]
	db := d.b.pos[eb.V[1]].Sub(q0)
	var fn refEEFunc
	d.refEESetup(&fn, p, da, q0, db)
	lo := max(0, c.tlo-1e-9)
	hi := min(tmax, c.thi+1e-9)
	if hi < lo {
		return 0, false
	}
	// Edges that stay parallel (for instance both parallel to the screw
	// axis) never cross at a single point; their contacts are vertex-face
	// ones (Sec. 5).
	par := math.Abs(fn.c[1]) + math.Abs(fn.c[2]) + math.Abs(fn.c[4]) + math.Abs(fn.c[5]) + math.Abs(fn.c[6]) + math.Abs(fn.c[7]) + math.Abs(fn.c[8])
	if da.Cross(db).Norm2() <= 1e-24*da.Norm2()*db.Norm2() && par <= 1e-12*math.Sqrt(da.Norm2()*db.Norm2())*d.scale*(1+d.theta) {
		return 0, false
	}
	evals := 0
	// Left-first search of the roots of g on [lo, hi] (at most 48 pending
	// intervals). On each interval g is compared with its cubic Hermite
	// interpolant from the values and derivatives at the ends, which it
	// follows within m4 w^4 / 384: intervals where the interpolant keeps
	// its sign by more than that have no root, and intervals where its
	// slope keeps its sign have exactly one.
	type iv struct{ a, b, ga, gb, da, db float64 }
	var stack [48]iv
	sp := 0
	g0, d0 := fn.evalD(lo)
	g1, d1 := fn.evalD(hi)
	stack[sp] = iv{lo, hi, g0, g1, d0, d1}
	sp++
	for sp > 0 {
		sp--
		it := stack[sp]
		w := it.b - it.a
		evals++
		if evals > 64 {
			// A degenerate pair (a double root, or edges that stay
			// nearly coplanar): finish the window by dense sampling.
			return d.refEESample(c, &fn, it.a, hi, first)
		}
		change := it.ga == 0 || it.gb == 0 || (it.ga < 0) != (it.gb < 0)
		hmin, hmax, smin, smax := refHermiteRange(it.ga, it.gb, it.da*w, it.db*w)
		e := fn.m4 * w * w * w * w / 384
		if !change && (hmin > e || hmax < -e) {
			continue
		}
		es := fn.m4 * w * w * w * w / 24 // bound on |w g' - H'|
		mono := smin > es || smax < -es
		if change && (mono || w < 1e-9 || sp >= len(stack)-2) {
			t := refineN(fn.evalD, it.a, it.b, it.ga, it.gb)
			if ok, near := d.refEECheck(c, t, first); ok {
				if !first {
					d.refAddEEHit(c, t, near)
				}
				return t, true
			}
			if mono || w < 1e-9 {
				continue
			}
		}
		if w < 1e-9 || sp >= len(stack)-2 {
			continue
		}
		m := (it.a + it.b) / 2
		gm, dm := fn.evalD(m)
		stack[sp] = iv{m, it.b, gm, it.gb, dm, it.db}
		stack[sp+1] = iv{it.a, m, it.ga, gm, it.da, dm}
		sp += 2
	}
	return 0, false
}

func refHermiteRange(ga, gb, da, db float64) (hmin, hmax, smin, smax float64) {
	// H(s) = ga + da s + c2 s^2 + c3 s^3.
	c2 := 3*(gb-ga) - 2*da - db
	c3 := 2*(ga-gb) + da + db
	hmin, hmax = min(ga, gb), max(ga, gb)
	smin, smax = min(da, db), max(da, db)
	// Critical points: da + 2 c2 s + 3 c3 s^2 = 0.
	h := func(s float64) {
		if s > 0 && s < 1 {
			v := ga + s*(da+s*(c2+s*c3))
			hmin, hmax = min(hmin, v), max(hmax, v)
		}
	}
	if c3 != 0 {
		disc := c2*c2 - 3*c3*da
		if disc >= 0 {
			r := math.Sqrt(disc)
			h((-c2 + r) / (3 * c3))
			h((-c2 - r) / (3 * c3))
		}
		// Slope extreme at s = -c2 / (3 c3).
		if s := -c2 / (3 * c3); s > 0 && s < 1 {
			v := da + s*(2*c2+3*c3*s)
			smin, smax = min(smin, v), max(smax, v)
		}
	} else if c2 != 0 {
		h(-da / (2 * c2))
	}
	return
}

func (d *Detector) refEESample(c *cand, fn *refEEFunc, a, b float64, first bool) (float64, bool) {
	const n = 64
	ta, ga := a, fn.eval(a)
	for i := 1; i <= n; i++ {
		tb := a + (b-a)*float64(i)/n
		gb := fn.eval(tb)
		if ga == 0 || gb == 0 || (ga < 0) != (gb < 0) {
			t := refineN(fn.evalD, ta, tb, ga, gb)
			if ok, near := d.refEECheck(c, t, first); ok {
				if !first {
					d.refAddEEHit(c, t, near)
				}
				return t, true
			}
		}
		ta, ga = tb, gb
	}
	return 0, false
}

func (d *Detector) refEEAt(c *cand, t float64) (s, u float64, pa, pb geom.Vec3, ok bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	p := d.a.pos[ea.V[0]]
	da := d.a.pos[ea.V[1]].Sub(p)
	q := d.move(d.b.pos[eb.V[0]], t)
	db := d.move(d.b.pos[eb.V[1]], t).Sub(q)
	r := p.Sub(q)
	a, b, cc := da.Dot(da), da.Dot(db), db.Dot(db)
	dd, e := da.Dot(r), db.Dot(r)
	den := a*cc - b*b
	if !(den > 1e-12*a*cc) {
		return 0, 0, pa, pb, false
	}
	s = (b*e - cc*dd) / den
	u = (a*e - b*dd) / den
	return s, u, p.AddScaled(s, da), q.AddScaled(u, db), true
}

func (d *Detector) refEECheck(c *cand, t float64, first bool) (ok, near bool) {
	s, u, pa, pb, good := d.refEEAt(c, t)
	if !good {
		return false, false
	}
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	la := d.a.pos[ea.V[1]].Dist(d.a.pos[ea.V[0]])
	lb := d.b.pos[eb.V[1]].Dist(d.b.pos[eb.V[0]])
	tol := 1e-9 * d.scale
	if s >= -tol/la && s <= 1+tol/la && u >= -tol/lb && u <= 1+tol/lb && pa.Dist(pb) <= 1e-6*d.scale {
		return true, false
	}
	if d.cons && !first {
		tn := d.near
		if s >= -tn/la && s <= 1+tn/la && u >= -tn/lb && u <= 1+tn/lb {
			return true, true
		}
	}
	return false, false
}

// refMinEdgeCos is the least cosine between n and the edges of body b
// leaving vertex v (+Inf for a vertex without edges of positive length).
func refMinEdgeCos(b *body, v int32, n geom.Vec3) float64 {
	best := math.Inf(1)
	p := b.pos[v]
	for _, e := range b.m.VertexEdges(int(v)) {
		u := b.pos[b.m.Edges[e].Other(v)].Sub(p)
		if l := math.Sqrt(u.Dot(u)); l > 0 {
			best = min(best, u.Dot(n)/l)
		}
	}
	return best
}

func (d *Detector) refPropUpper(c *cand, tmax float64) float64 {
	lo, hi := c.tlo, min(c.thi, tmax)
	if hi < lo {
		lo, hi = 0, tmax
	}
	tm := (lo + hi) / 2
	var s, co float64 = 0, 1
	if !d.trans {
		s, co = math.Sincos(tm * d.theta)
	}
	var best float64
	if c.kind == contact.FaceVertex {
		// min over B's vertex edges of R(t) e . n = e . R(-t) n.
		n := d.a.nrm[c.a]
		best = refMinEdgeCos(&d.b, c.b, geom.Vec3{X: n.X*co - n.Z*s, Y: n.Y, Z: n.X*s + n.Z*co})
	} else {
		n := d.b.nrm[c.b]
		best = refMinEdgeCos(&d.a, c.a, geom.Vec3{X: n.X*co + n.Z*s, Y: n.Y, Z: -n.X*s + n.Z*co})
	}
	if math.IsInf(best, 1) {
		best = 0
	}
	return best + d.theta*(hi-lo)/2 + 1e-9
}
