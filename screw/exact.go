package screw

import (
	"math"
	"slices"

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
			roots[n] = refine(ev, a, b, fa, fb)
			n++
		}
		fa = fb
	}
	return roots, n
}

// refine finds the root of a function that changes sign on [a, b]
// (monotone there) by the Illinois variant of regula falsi, to about 1e-15.
func refine(ev func(float64) float64, a, b, fa, fb float64) float64 {
	if fa == 0 {
		return a
	}
	if fb == 0 {
		return b
	}
	side := 0
	for it := 0; it < 80 && b-a > 1e-15*(1+math.Abs(a)); it++ {
		c := (a*fb - b*fa) / (fb - fa)
		if !(c > a && c < b) {
			c = (a + b) / 2
		}
		fc := ev(c)
		if fc == 0 {
			return c
		}
		if (fc > 0) == (fa > 0) {
			a, fa = c, fc
			if side == -1 {
				fb /= 2
			}
			side = -1
		} else {
			b, fb = c, fc
			if side == 1 {
				fa /= 2
			}
			side = 1
		}
	}
	// Return the end on the far side (after the crossing) so that the
	// reported time is never early.
	if math.Abs(fa) < math.Abs(fb) {
		return a
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
}

func (e *eeFunc) eval(t float64) float64 {
	h, hc := math.Sincos(t * e.theta / 2)
	C := -2 * h * h
	S := 2 * h * hc
	c := &e.c
	return c[0] + C*(c[1]+C*c[4]+S*c[5]+t*c[7]) + S*(c[2]+S*c[6]+t*c[8]) + t*c[3]
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
}

// solveAll tests every candidate exactly and appends the collisions to
// d.hits. In first mode it only looks for the earliest contact before best
// and returns its time (+Inf if none).
func (d *Detector) solveAll(best float64, first bool) float64 {
	cs := d.cands.list
	if first {
		d.order = d.order[:0]
		for i := range cs {
			if cs[i].kind == EE {
				d.order = append(d.order, int32(i))
			}
		}
		slices.SortFunc(d.order, func(x, y int32) int {
			a, b := cs[x].tlo, cs[y].tlo
			if a < b {
				return -1
			}
			if a > b {
				return 1
			}
			return 0
		})
		for _, i := range d.order {
			c := &cs[i]
			if c.tlo > best {
				break
			}
			if t, ok := d.solveEE(c, min(best, 1), true); ok && t < best {
				best = t
			}
		}
		for i := range cs {
			c := &cs[i]
			if c.kind == EE {
				continue
			}
			if t, ok := d.solveVertex(c, min(best, 1), true); ok && t < best {
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
	f0 := n.Dot(x) - off
	k2 := n.X*x.X + n.Z*x.Z
	k3 := k3s * (n.X*x.Z - n.Z*x.X)
	tol := 1e-9 * d.scale
	roots, nr := planeRoots(f0, k1, k2, k3, d.theta, tmax)
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
	// Left-first search of the roots of g on [lo, hi] (at most 48 pending
	// intervals).
	type iv struct{ a, b, ga, gb float64 }
	var stack [48]iv
	sp := 0
	stack[sp] = iv{lo, hi, fn.eval(lo), fn.eval(hi)}
	sp++
	for sp > 0 {
		sp--
		it := stack[sp]
		w := it.b - it.a
		change := it.ga == 0 || it.gb == 0 || (it.ga < 0) != (it.gb < 0)
		if !change && min(math.Abs(it.ga), math.Abs(it.gb)) > fn.m2*w*w/8 {
			continue
		}
		mono := math.Abs(it.gb-it.ga) > fn.m2*w*w
		if change && (mono || w < 1e-9 || sp >= len(stack)-2) {
			t := refine(fn.eval, it.a, it.b, it.ga, it.gb)
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
		gm := fn.eval(m)
		stack[sp] = iv{m, it.b, gm, it.gb}
		stack[sp+1] = iv{it.a, m, it.ga, gm}
		sp += 2
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
