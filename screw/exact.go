package screw

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// insideFace reports whether point p, assumed to lie (nearly) in the plane
// of face f of body bd, is inside the face polygon or within tol of it. It
// projects to the plane's dominant coordinate plane and counts crossings,
// so non-convex faces work too.
func insideFace(bd *body, f int, p geom.Vec3, tol float64) bool {
	return insidePoly(bd.m.Face(f), bd.pos, bd.nrm[f], p, tol)
}

// insidePoly is insideFace for the face with vertex loop loop, vertex
// positions pos and unit normal n.
func insidePoly(loop []int32, pos []geom.Vec3, n geom.Vec3, p geom.Vec3, tol float64) bool {
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
	qx, qy := uv(pos[loop[m-1]])
	for _, vi := range loop {
		rx, ry := uv(pos[vi])
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
		a, b := pos[vi], pos[loop[(i+1)%m]]
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
		if b-a <= refineBracket {
			break
		}
		nx := x - f/df
		if !(nx > a && nx < b) || df == 0 {
			nx = (a + b) / 2
		}
		if math.Abs(nx-x) <= refineStep {
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
}

// pj and jj are the parts of the y-rotation: Rot(a) w = w + C pj(w) + S jj(w).
func pj(w geom.Vec3) geom.Vec3 { return geom.Vec3{X: w.X, Z: w.Z} }
func jj(w geom.Vec3) geom.Vec3 { return geom.Vec3{X: w.Z, Z: -w.X} }

func (d *Detector) eeSetup(e *eeFunc, p, ea, q0, eb0 geom.Vec3) {
	n0 := ea.Cross(eb0)
	n1 := ea.Cross(pj(eb0))
	n2 := ea.Cross(jj(eb0))
	d0 := q0.Sub(p)
	w := q0.Sub(d.u) // u = 0 unless small
	d1 := pj(w)
	d2 := jj(w)
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
	e.theta = d.theta
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
			if c.kind == contact.EdgeEdge {
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
		if c.kind == contact.EdgeEdge {
			if _, ok := d.solveEE(c, 1, false); !ok && d.cons {
				d.nearEE(c)
			}
		} else {
			d.solveVertex(c, 1, false)
		}
	}
	return best
}

// solveVertex tests a VF or FV candidate in its time window, clipped to
// tmax. It returns the earliest contact time; unless first, it appends the
// collision records. A two-sided face (Detector.twoSided) is entered from
// either side: its back is tried as a face with the opposite normal.
func (d *Detector) solveVertex(c *cand, tmax float64, first bool) (float64, bool) {
	fb := &d.a
	if c.kind == contact.VertexFace {
		fb = &d.b
	}
	t, ok := d.solveVertexSide(c, tmax, first, false)
	if !fb.two {
		return t, ok
	}
	if ok && first {
		tmax = t
	}
	t2, ok2 := d.solveVertexSide(c, tmax, first, true)
	switch {
	case ok && ok2:
		return min(t, t2), true
	case ok2:
		return t2, true
	}
	return t, ok
}

// solveVertexSide is solveVertex for one side of the face: its front, or
// with back its back (the plane's normal and offset negated).
func (d *Detector) solveVertexSide(c *cand, tmax float64, first, back bool) (float64, bool) {
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
	if back {
		// k1 follows n; k2 and k3 are computed from n below.
		n, off, k1 = n.Neg(), -off, -k1
	}
	lo := max(0, c.tlo-timePad)
	hi := min(tmax, c.thi+timePad)
	if hi < lo {
		return 0, false
	}
	f0 := n.Dot(x) - off
	// The rotation about the axis acts on x - u (u = 0 unless small).
	wx, wz := x.X-d.u.X, x.Z-d.u.Z
	k2 := n.X*wx + n.Z*wz
	k3 := k3s * (n.X*wz - n.Z*wx)
	tol := lenTol * d.scale
	// f changes by at most L per unit time: far above the plane, the
	// vertex cannot reach it before hi.
	L := math.Abs(k1) + d.theta*math.Sqrt(k2*k2+k3*k3)
	var fn helixFn
	var rs [maxRoots]proot
	if !(f0 > hi*L*(1+relPad)+vertexFarAbs*d.scale) {
		tm := lo + (hi-lo)/2
		sn, cs := math.Sincos(tm * d.theta)
		prune := !first && d.thresh > -1 && !back
		if prune && d.vertexImproper(c, hi-tm, sn, cs) {
			// Every contact of the pair in its window is too improper
			// to be reported.
			return 0, false
		}
		nr := d.vertexRoots(&fn, f0, k1, k2, k3, lo, hi, sn, cs, &rs)
		for i := range rs[:nr] {
			pr := &rs[i]
			if prune && !d.cons && i == nr-1 && d.vertexImproper(c, pr.e, pr.sn, pr.cs) {
				// The last root, known to within e, is too improper
				// to be reported whether or not it is in the face
				// (in conservative mode a near contact at another
				// time may follow).
				return 0, false
			}
			r := fn.polish(pr)
			p := d.vertexAtSC(c.kind, x, r)
			if insideFace(fb, f, p, tol) {
				if !first {
					d.addVertexHit(c, r, false, back)
				}
				return r.t, true
			}
		}
	}
	if d.cons && !first {
		tm := lo + (hi-lo)/2
		sn, cs := math.Sincos(tm * d.theta)
		nr := d.vertexRoots(&fn, f0-d.near, k1, k2, k3, lo, hi, sn, cs, &rs)
		for i := range rs[:nr] {
			r := fn.polish(&rs[i])
			p := d.vertexAtSC(c.kind, x, r)
			p = p.AddScaled(-d.near, n)
			if insideFace(fb, f, p, d.near) {
				d.addVertexHit(c, r, true, back)
				return r.t, true
			}
		}
		// Within d.near of the face already at the window's start (for
		// instance at the start of the step): no crossing of the offset
		// plane to find.
		r := d.hrootAt(lo)
		if fl := f0 + k1*lo + k2*(r.cs-1) + k3*r.sn; fl >= 0 && fl <= d.near {
			if p := d.vertexAtSC(c.kind, x, r).AddScaled(-fl, n); insideFace(fb, f, p, d.near) {
				d.addVertexHit(c, r, true, back)
				return lo, true
			}
		}
	}
	return 0, false
}

// vertexRoots returns the downward crossings in [lo, hi] of
// f(t) = f0 + k1 t + k2 (cos(t theta) - 1) + k3 sin(t theta), ascending,
// found on Taylor models of fn (exact_taylor.go) and still to be polished
// by fn; when the models give up, by the closed-form critical points of
// planeRoots (exact roots). sn and cs are the sine and cosine of the angle
// at the window's centre.
func (d *Detector) vertexRoots(fn *helixFn, f0, k1, k2, k3, lo, hi, sn, cs float64, rs *[maxRoots]proot) int {
	fn.setVertex(f0, k1, k2, k3, d.theta)
	if d.small {
		fn.setSmall()
	}
	if hi > lo {
		fn.sn0, fn.cs0, fn.scOK = sn, cs, true
		if n, ok := fn.roots(lo, hi, true, rs); ok {
			return n
		}
	}
	roots, nr := planeRoots(f0, k1, k2, k3, d.theta, hi)
	n := 0
	for _, t := range roots[:nr] {
		if t >= lo {
			sn, cs := math.Sincos(t * d.theta)
			rs[n] = proot{t: t, sn: sn, cs: cs}
			n++
		}
	}
	return n
}

// vertexImproper reports whether the properness of the VF or FV candidate c
// (propFV, propVF: the minimum over the vertex's edges of the unit edge
// direction dotted with the face normal) stays below the threshold at
// every time within h of the time whose rotation angle has sine s and
// cosine co. It is the properness there plus the most it can change, theta
// per unit time (one of the two unit vectors turns at angular speed
// theta), compared without square roots: u.n / |u| < T is u.n < 0 and
// (u.n)^2 > T^2 |u|^2 for T <= 0.
func (d *Detector) vertexImproper(c *cand, h, s, co float64) bool {
	T := d.thresh - d.theta*h - propPad
	var bd *body
	var v int32
	var nn geom.Vec3
	if c.kind == contact.FaceVertex {
		// min over B's vertex edges of R(t) e . n = e . R(-t) n.
		n := d.a.nrm[c.a]
		nn = geom.Vec3{X: n.X*co - n.Z*s, Y: n.Y, Z: n.X*s + n.Z*co}
		bd, v = &d.b, c.b
	} else {
		n := d.b.nrm[c.b]
		nn = geom.Vec3{X: n.X*co + n.Z*s, Y: n.Y, Z: -n.X*s + n.Z*co}
		bd, v = &d.a, c.a
	}
	m := bd.m
	p := bd.pos[v]
	T2 := T * T
	any := false
	for _, e := range m.VertexEdges(int(v)) {
		u := bd.pos[m.Edges[e].Other(v)].Sub(p)
		q := u.Dot(u)
		if !(q > 0) {
			continue
		}
		any = true
		x := u.Dot(nn)
		if T <= 0 {
			if x < 0 && x*x > T2*q {
				return true
			}
		} else if x < 0 || x*x < T2*q {
			return true
		}
	}
	return !any && T > 0 // no edges: the properness is 0
}

// vertexAtSC returns the position at the time of root r of the moving
// vertex in the face's frame: for FV B's vertex moved forward (any point
// of B: nearEE moves B's edge ends with it), for VF A's vertex moved
// backward into B's time-0 frame.
func (d *Detector) vertexAtSC(k contact.PairKind, p geom.Vec3, r hroot) geom.Vec3 {
	return d.moveSC(p, r.t, r.sn, r.cs, k != contact.FaceVertex)
}

// hrootAt returns time t with the sine and cosine of the motion's angle.
func (d *Detector) hrootAt(t float64) hroot {
	sn, cs := math.Sincos(t * d.theta)
	return hroot{t, sn, cs}
}

// solveEE tests an edge-edge candidate in its time window, clipped to tmax.
func (d *Detector) solveEE(c *cand, tmax float64, first bool) (float64, bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	p := d.a.pos[ea.V[0]]
	da := d.a.pos[ea.V[1]].Sub(p)
	q0 := d.b.pos[eb.V[0]]
	db := d.b.pos[eb.V[1]].Sub(q0)
	lo := max(0, c.tlo-timePad)
	hi := min(tmax, c.thi+timePad)
	if hi < lo {
		return 0, false
	}
	var fn eeFunc
	d.eeSetup(&fn, p, da, q0, db)
	// Edges that stay parallel (for instance both parallel to the screw
	// axis) never cross at a single point; their contacts are vertex-face
	// ones (Sec. 5).
	if da.Cross(db).Norm2() <= parallelSin2*da.Norm2()*db.Norm2() {
		par := math.Abs(fn.c[1]) + math.Abs(fn.c[2]) + math.Abs(fn.c[4]) + math.Abs(fn.c[5]) + math.Abs(fn.c[6]) + math.Abs(fn.c[7]) + math.Abs(fn.c[8])
		if par <= parallelCoplanar*math.Sqrt(da.Norm2()*db.Norm2())*d.scale*(1+d.theta) {
			return 0, false
		}
	}
	tm := lo + (hi-lo)/2
	sn, cs := math.Sincos(tm * d.theta)
	// Detect drops collisions below the properness threshold: pairs whose
	// edge-edge properness stays below it in the window (exact_prune.go)
	// need not be solved, unless a contact can be at an edge's end. In
	// windows too long for the ends to be shown away from the other
	// edge, that is decided at the last root instead.
	prune := !first && !d.cons && d.thresh > -1
	improper, known := false, false
	if prune && d.eeEndsLikelyAway(da, q0, db, hi-tm) {
		improper, known = d.eePropUpper(c, da, db, hi-tm, sn, cs) < d.thresh, true
		if improper && d.eeEndsAway(p, da, q0, db, tm, hi-tm, sn, cs) {
			return 0, false
		}
	}
	// The roots of g in time order (exact_taylor.go), each checked for
	// closest points within both edges.
	var hf helixFn
	hf.setEE(&fn, hi)
	if d.small {
		hf.setSmall()
	}
	hf.sn0, hf.cs0, hf.scOK = sn, cs, true
	var rs [maxRoots]proot
	nr, ok := 0, false
	if hi > lo {
		nr, ok = hf.roots(lo, hi, false, &rs)
	}
	if !ok {
		// A degenerate pair (a double root, or edges that stay nearly
		// coplanar): dense sampling.
		return d.eeSample(c, &hf, lo, hi, first)
	}
	for i := range rs[:nr] {
		pr := &rs[i]
		if prune && !known && i == nr-1 {
			improper = d.eePropUpper(c, da, db, pr.e, pr.sn, pr.cs) < d.thresh
		}
		if improper && i == nr-1 && d.eeEndsAway(p, da, q0, db, pr.t, pr.e, pr.sn, pr.cs) {
			// The last root, known to within e, is not at an edge's
			// end: too improper to be reported whether or not the
			// edges meet there.
			return 0, false
		}
		r := hf.polish(pr)
		if d.eeTry(c, r, first) {
			return r.t, true
		}
	}
	return 0, false
}

// eeTry checks root r of the coplanarity function of candidate c and,
// unless first, records the collision; it reports whether the edges meet.
func (d *Detector) eeTry(c *cand, r hroot, first bool) bool {
	s, u, pa, pb, good := d.eeAt(c, r)
	if !good {
		return false
	}
	ok, near := d.eeCheck(c, s, u, pa, pb, first)
	if ok && !first {
		d.addEEHit(c, r, s, u, pa, pb, near)
	}
	return ok
}

// eeSample looks for the first time in [a, b] at which the two edges of a
// degenerate pair cross, by sampling the coplanarity function and refining
// its sign changes.
func (d *Detector) eeSample(c *cand, fn *helixFn, a, b float64, first bool) (float64, bool) {
	const n = 64
	ta, ga := a, fn.eval(a)
	for i := 1; i <= n; i++ {
		tb := a + (b-a)*float64(i)/n
		gb := fn.eval(tb)
		if ga == 0 || gb == 0 || (ga < 0) != (gb < 0) {
			t := refineN(fn.evalD, ta, tb, ga, gb)
			if d.eeTry(c, d.hrootAt(t), first) {
				return t, true
			}
		}
		ta, ga = tb, gb
	}
	return 0, false
}

// eeAt returns the closest-point parameters (s on A's edge, u on B's edge)
// of the two edges' lines at the time of root r, and the closest points;
// ok is false for (nearly) parallel edges.
func (d *Detector) eeAt(c *cand, r hroot) (s, u float64, pa, pb geom.Vec3, ok bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	p := d.a.pos[ea.V[0]]
	da := d.a.pos[ea.V[1]].Sub(p)
	q0, q1 := d.b.pos[eb.V[0]], d.b.pos[eb.V[1]]
	sn, cs := r.sn, r.cs
	q := d.moveSC(q0, r.t, sn, cs, false)
	w := q1.Sub(q0)
	db := geom.Vec3{X: w.X*cs + w.Z*sn, Y: w.Y, Z: -w.X*sn + w.Z*cs}
	rr := p.Sub(q)
	a, b, cc := da.Dot(da), da.Dot(db), db.Dot(db)
	dd, e := da.Dot(rr), db.Dot(rr)
	den := a*cc - b*b
	if !(den > lineDenRel*a*cc) {
		return 0, 0, pa, pb, false
	}
	s = (b*e - cc*dd) / den
	u = (a*e - b*dd) / den
	return s, u, p.AddScaled(s, da), q.AddScaled(u, db), true
}

// eeCheck reports whether the edges really meet at the closest points
// (s, u, pa, pb) of their lines (or, in conservative mode, come within one
// pixel: near).
func (d *Detector) eeCheck(c *cand, s, u float64, pa, pb geom.Vec3, first bool) (ok, near bool) {
	ea := d.a.m.Edges[c.a]
	eb := d.b.m.Edges[c.b]
	la := math.Sqrt(d.a.pos[ea.V[1]].Dist2(d.a.pos[ea.V[0]]))
	lb := math.Sqrt(d.b.pos[eb.V[1]].Dist2(d.b.pos[eb.V[0]]))
	tol := lenTol * d.scale
	dt := eeMeetRel * d.scale
	if s >= -tol/la && s <= 1+tol/la && u >= -tol/lb && u <= 1+tol/lb && pa.Dist2(pb) <= dt*dt {
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
