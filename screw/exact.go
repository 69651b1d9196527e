package screw

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// insideFace reports whether point p, assumed to lie (nearly) in the plane
// of face f of body bd, is inside the face polygon or within tol of it. It
// projects to the plane's dominant coordinate plane and counts crossings,
// so non-convex faces work too.
func insideFace(bd *body, f int, p geom.Vec3, tol float64) bool {
	loop := bd.m.Face(f)
	n := bd.nrm[f]
	ax := 0 // dropped axis
	an := math.Abs(n.X)
	if math.Abs(n.Y) > an {
		ax, an = 1, math.Abs(n.Y)
	}
	if math.Abs(n.Z) > an {
		ax = 2
	}
	uv := func(q geom.Vec3) (float64, float64) {
		switch ax {
		case 0:
			return q.Y, q.Z
		case 1:
			return q.Z, q.X
		}
		return q.X, q.Y
	}
	px, py := uv(p)
	in := false
	m := len(loop)
	qx, qy := uv(bd.pos[loop[m-1]])
	for _, vi := range loop {
		rx, ry := uv(bd.pos[vi])
		if (ry > py) != (qy > py) {
			x := qx + (py-qy)*(rx-qx)/(ry-qy)
			if x > px {
				in = !in
			}
		}
		qx, qy = rx, ry
	}
	if in || tol <= 0 {
		return in
	}
	// Within tol (in 3D) of the boundary.
	for i, vi := range loop {
		a, b := bd.pos[vi], bd.pos[loop[(i+1)%m]]
		if segPointDist(a, b, p) <= tol {
			return true
		}
	}
	return false
}

// planeRoots returns the times in [0, tmax], ascending, at which
// f(t) = f0 + k1 t + k2 (cos(t theta) - 1) + k3 sin(t theta) crosses zero
// downwards (the distance of a point on a helix from a plane, Sec. 4: a
// vertex entering the other body through the plane). The critical points of
// f are found in closed form, so each monotone piece has at most one root,
// refined by safeguarded Newton iteration (Sec. 9).
func planeRoots(f0, k1, k2, k3, theta, tmax float64) (roots [3]float64, n int) {
	if tmax <= 0 {
		if tmax == 0 && f0 == 0 && k1+theta*k3 < 0 {
			roots[0] = 0
			return roots, 1
		}
		return roots, 0
	}
	ev := func(t float64) float64 {
		h, c := math.Sincos(t * theta / 2)
		return f0 + k1*t - 2*h*h*k2 + 2*k3*h*c
	}
	f1 := ev(tmax)
	bnd := theta * theta * (math.Abs(k2) + math.Abs(k3)) * tmax * tmax / 8
	if min(f0, f1) > bnd || max(f0, f1) < -bnd {
		if !(f0 == 0 && f1 < 0) {
			return roots, 0
		}
	}
	var br [4]float64
	nb := 0
	br[nb] = 0
	nb++
	if theta > 0 {
		// f'(t) = k1 + theta (k3 cos a - k2 sin a) = k1 + R cos(a - beta).
		A, B := theta*k3, -theta*k2
		R := math.Hypot(A, B)
		if R > 0 && math.Abs(k1) < R {
			beta := math.Atan2(B, A)
			g := math.Acos(-k1 / R)
			amax := theta * tmax
			for _, a := range [2]float64{beta + g, beta - g} {
				a = math.Mod(a, 2*math.Pi)
				if a < 0 {
					a += 2 * math.Pi
				}
				if a > 0 && a < amax {
					br[nb] = a / theta
					nb++
				}
			}
			if nb == 3 && br[2] < br[1] {
				br[1], br[2] = br[2], br[1]
			}
		}
	}
	br[nb] = tmax
	nb++
	fa := f0
	for i := 0; i+1 < nb; i++ {
		a, b := br[i], br[i+1]
		fb := f1
		if i+2 < nb {
			fb = ev(b)
		}
		if fa > 0 && fb <= 0 || a == 0 && fa == 0 && fb < 0 {
			roots[n] = refineN(func(t float64) (float64, float64) {
				h, c := math.Sincos(t * theta / 2)
				s, cs := 2*h*c, 1-2*h*h
				return f0 + k1*t - 2*h*h*k2 + k3*s, k1 - theta*k2*s + theta*k3*cs
			}, a, b, fa, fb)
			n++
		}
		fa = fb
	}
	return roots, n
}

// refineN finds the root of a function that changes sign on [a, b] by
// Newton's method safeguarded by bisection (Sec. 9 uses Newton iteration
// for vertex-face times), to about 1e-13.
func refineN(ev func(float64) (float64, float64), a, b, fa, fb float64) float64 {
	if fa == 0 {
		return a
	}
	if fb == 0 {
		return b
	}
	x := (a*fb - b*fa) / (fb - fa)
	if !(x > a && x < b) {
		x = (a + b) / 2
	}
	for it := 0; it < 60; it++ {
		f, df := ev(x)
		if f == 0 {
			return x
		}
		if (f > 0) == (fa > 0) {
			a, fa = x, f
		} else {
			b, fb = x, f
		}
		if b-a <= 1e-13 {
			break
		}
		nx := x - f/df
		if !(nx > a && nx < b) || df == 0 {
			nx = (a + b) / 2
		}
		if math.Abs(nx-x) <= 1e-14 {
			x = nx
			break
		}
		x = nx
	}
	// The end after the crossing, so the time is never early.
	if math.Abs(fa) < math.Abs(fb) {
		return max(a, min(x, b))
	}
	return b
}

// eeFunc is the coplanarity function g(t) = (eA x eB(t)) . (q(t) - p) of an
// edge of A and a moving edge of B, expanded in the basis
// 1, C, S, t, C^2, CS, S^2, tC, tS with C = cos(t theta) - 1, S = sin(t theta).
type eeFunc struct {
	c     [9]float64
	theta float64
	m2    float64 // bound on |g''| over [0, 1]
	m4    float64 // bound on |g''''| over [0, 1]
}

func (e *eeFunc) eval(t float64) float64 {
	h, hc := math.Sincos(t * e.theta / 2)
	C := -2 * h * h
	S := 2 * h * hc
	c := &e.c
	return c[0] + C*(c[1]+C*c[4]+S*c[5]+t*c[7]) + S*(c[2]+S*c[6]+t*c[8]) + t*c[3]
}

// evalD returns g(t) and g'(t).
func (e *eeFunc) evalD(t float64) (float64, float64) {
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

// pj and jj are the parts of the y-rotation: Rot(a) w = w + C pj(w) + S jj(w).
func pj(w geom.Vec3) geom.Vec3 { return geom.Vec3{X: w.X, Z: w.Z} }
func jj(w geom.Vec3) geom.Vec3 { return geom.Vec3{X: w.Z, Z: -w.X} }

func (d *Detector) eeSetup(e *eeFunc, p, ea, q0, eb0 geom.Vec3) {
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

// tbuckets is the number of time buckets used to order candidates.
const tbuckets = 64

func tbucket(t float64) int {
	k := int(t * tbuckets)
	return max(0, min(k, tbuckets))
}

// solveAll tests every candidate exactly and appends the collisions to
// d.hits. In first mode it only looks for the earliest contact before best
// and returns its time (+Inf if none).
func (d *Detector) solveAll(best float64, first bool) float64 {
	cs := d.cands.list
	if first {
		// Bucket the candidates by the start of their time window
		// (counting sort), so the search can stop at the first bucket
		// that starts after the best time found.
		var cnt [tbuckets + 2]int32
		for i := range cs {
			cnt[tbucket(cs[i].tlo)+1]++
		}
		for k := 1; k < len(cnt); k++ {
			cnt[k] += cnt[k-1]
		}
		d.order = grow(d.order, len(cs))
		for i := range cs {
			k := tbucket(cs[i].tlo)
			d.order[cnt[k]] = int32(i)
			cnt[k]++
		}
		for _, i := range d.order {
			c := &cs[i]
			if float64(tbucket(c.tlo))/tbuckets > best {
				break
			}
			if c.tlo > best {
				continue
			}
			var t float64
			var ok bool
			if c.kind == EE {
				t, ok = d.solveEE(c, min(best, 1), true)
			} else {
				t, ok = d.solveVertex(c, min(best, 1), true)
			}
			if ok && t < best {
				best = t
			}
		}
		return best
	}
	for i := range cs {
		c := &cs[i]
		if c.kind == EE {
			d.solveEE(c, 1, false)
		} else {
			d.solveVertex(c, 1, false)
		}
	}
	return best
}

// solveVertex tests a VF or FV candidate on [0, tmax]. It returns the
// earliest contact time; unless first, it appends the collision records.
func (d *Detector) solveVertex(c *cand, tmax float64, first bool) (float64, bool) {
	var x, n geom.Vec3
	var off, k1, k3s float64
	var fb *body // body of the face
	var f int
	if c.kind == FV { // face of A, moving vertex of B
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
		if !first && d.thresh > -1 && d.propUpper(c, tmax) < d.thresh {
			// Every contact of the pair in its window is too improper
			// to be reported.
			return 0, false
		}
		roots, nr = planeRoots(f0, k1, k2, k3, d.theta, tmax)
	}
	for i := 0; i < nr; i++ {
		t := roots[i]
		p := d.vertexAt(c.kind, x, t)
		if insideFace(fb, f, p, tol) {
			if !first {
				d.addVertexHit(c, t, false)
			}
			return t, true
		}
	}
	if d.cons && !first {
		roots, nr = planeRoots(f0-d.near, k1, k2, k3, d.theta, tmax)
		for i := 0; i < nr; i++ {
			t := roots[i]
			p := d.vertexAt(c.kind, x, t)
			p = p.AddScaled(-d.near, n)
			if insideFace(fb, f, p, d.near) {
				d.addVertexHit(c, t, true)
				return t, true
			}
		}
	}
	return 0, false
}

// propUpper returns an upper bound of the properness of the VF or FV
// candidate c at any time of its window clipped to tmax: the properness at
// the middle of the window plus the most it can change, theta per unit time
// (a minimum of dot products of unit vectors of which one turns at angular
// speed theta).
func (d *Detector) propUpper(c *cand, tmax float64) float64 {
	lo, hi := c.tlo, min(c.thi, tmax)
	if hi < lo {
		lo, hi = 0, tmax
	}
	tm := (lo + hi) / 2
	var s, co float64 = 0, 1
	if !d.trans {
		s, co = math.Sincos(tm * d.theta)
	}
	best := math.Inf(1)
	if c.kind == FV {
		// min over B's vertex edges of R(t) e . n = e . R(-t) n.
		n := d.a.nrm[c.a]
		nn := geom.Vec3{X: n.X*co - n.Z*s, Y: n.Y, Z: n.X*s + n.Z*co}
		m := d.b.m
		p := d.b.pos[c.b]
		for _, e := range m.VertexEdges(int(c.b)) {
			u := d.b.pos[m.Edges[e].Other(c.b)].Sub(p)
			if l := math.Sqrt(u.Dot(u)); l > 0 {
				best = min(best, u.Dot(nn)/l)
			}
		}
	} else {
		n := d.b.nrm[c.b]
		nb := geom.Vec3{X: n.X*co + n.Z*s, Y: n.Y, Z: -n.X*s + n.Z*co}
		m := d.a.m
		p := d.a.pos[c.a]
		for _, e := range m.VertexEdges(int(c.a)) {
			u := d.a.pos[m.Edges[e].Other(c.a)].Sub(p)
			if l := math.Sqrt(u.Dot(u)); l > 0 {
				best = min(best, u.Dot(nb)/l)
			}
		}
	}
	if math.IsInf(best, 1) {
		best = 0
	}
	return best + d.theta*(hi-lo)/2 + 1e-9
}

// vertexAt returns the position at time t of the moving vertex in the face's
// frame: for FV B's vertex moved forward, for VF A's vertex moved backward
// into B's time-0 frame.
func (d *Detector) vertexAt(k Kind, x geom.Vec3, t float64) geom.Vec3 {
	if k == FV {
		return d.move(x, t)
	}
	return d.moveInv(x, t)
}

// moveInv applies the inverse motion at time t.
func (d *Detector) moveInv(p geom.Vec3, t float64) geom.Vec3 {
	if d.trans {
		return geom.Vec3{X: p.X, Y: p.Y - t*d.g, Z: p.Z}
	}
	s, c := math.Sincos(t * d.theta)
	y := p.Y - t*d.g
	return geom.Vec3{X: p.X*c - p.Z*s, Y: y, Z: p.X*s + p.Z*c}
}

// solveEE tests an edge-edge candidate in its time window, clipped to tmax.
func (d *Detector) solveEE(c *cand, tmax float64, first bool) (float64, bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	p := d.a.pos[ea.V[0]]
	da := d.a.pos[ea.V[1]].Sub(p)
	q0 := d.b.pos[eb.V[0]]
	db := d.b.pos[eb.V[1]].Sub(q0)
	var fn eeFunc
	d.eeSetup(&fn, p, da, q0, db)
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
			return d.eeSample(c, &fn, it.a, hi, first)
		}
		change := it.ga == 0 || it.gb == 0 || (it.ga < 0) != (it.gb < 0)
		hmin, hmax, smin, smax := hermiteRange(it.ga, it.gb, it.da*w, it.db*w)
		e := fn.m4 * w * w * w * w / 384
		if !change && (hmin > e || hmax < -e) {
			continue
		}
		es := fn.m4 * w * w * w * w / 24 // bound on |w g' - H'|
		mono := smin > es || smax < -es
		if change && (mono || w < 1e-9 || sp >= len(stack)-2) {
			t := refineN(fn.evalD, it.a, it.b, it.ga, it.gb)
			if ok, near := d.eeCheck(c, t, first); ok {
				if !first {
					d.addEEHit(c, t, near)
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

// hermiteRange returns the range of the cubic Hermite interpolant on
// [0, 1] with end values ga, gb and end slopes da, db, and the range of its
// slope.
func hermiteRange(ga, gb, da, db float64) (hmin, hmax, smin, smax float64) {
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

// eeSample looks for the first time in [a, b] at which the two edges of a
// degenerate pair cross, by sampling the coplanarity function and refining
// its sign changes.
func (d *Detector) eeSample(c *cand, fn *eeFunc, a, b float64, first bool) (float64, bool) {
	const n = 64
	ta, ga := a, fn.eval(a)
	for i := 1; i <= n; i++ {
		tb := a + (b-a)*float64(i)/n
		gb := fn.eval(tb)
		if ga == 0 || gb == 0 || (ga < 0) != (gb < 0) {
			t := refineN(fn.evalD, ta, tb, ga, gb)
			if ok, near := d.eeCheck(c, t, first); ok {
				if !first {
					d.addEEHit(c, t, near)
				}
				return t, true
			}
		}
		ta, ga = tb, gb
	}
	return 0, false
}

// eeAt returns the closest-point parameters (s on A's edge, u on B's edge)
// of the two edges' lines at time t, and the closest points; ok is false
// for (nearly) parallel edges.
func (d *Detector) eeAt(c *cand, t float64) (s, u float64, pa, pb geom.Vec3, ok bool) {
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

// eeCheck reports whether the edges really meet at time t (or, in
// conservative mode, come within one pixel: near).
func (d *Detector) eeCheck(c *cand, t float64, first bool) (ok, near bool) {
	s, u, pa, pb, good := d.eeAt(c, t)
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
