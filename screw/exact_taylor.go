package screw

import "math"

// Root finding on the helix by local Taylor models.
//
// Both exact conditions of Sec. 9 are trigonometric polynomials in the
// rotation angle a = t theta with coefficients linear in t: the signed
// distance of a helix point from a plane (vertex-face, Sec. 4) is
//
//	f(t) = F0 + k1 t + k2 cos a + k3 sin a,
//
// and the coplanarity function of two edges (edge-edge, eeFunc) is
//
//	g(t) = k0 + k1 t + (b1 + b2 t) cos a + (b3 + b4 t) sin a + d1 cos 2a + d2 sin 2a.
//
// On an interval [tm - h, tm + h] one sine and cosine at the centre give
// the cubic Taylor polynomial p(x) of the function about tm, and a bound
// m4 of its fourth derivative gives the remainder: |g(tm+x) - p(x)| <=
// m4 h^4 / 24. An interval is refuted when p stays farther from zero than
// that, certified monotone when p' stays farther from zero than its own
// remainder, and otherwise halved (left half first, so roots come in time
// order). A monotone interval with a sign change holds exactly one root: a
// few Newton steps on p give it to within the remainder, and exact Newton
// steps on the function (half-angle form, accurate near t = 0) finish it,
// with a quadratic-convergence bound deciding when to stop (usually after
// one step). So most candidates cost one sine and cosine when refuted and
// two when they have a root, instead of a sine and cosine per bisection or
// Newton step. The models use the trigonometric form above; the exact
// steps use the form of planeRoots and eeFunc in the half angle, which
// keeps its accuracy near t = 0.

// helixFn is one of the two functions, ready for Taylor models.
type helixFn struct {
	ee    bool
	theta float64
	// Trigonometric form: for a vertex F0, k1, k2, k3 in k[0:4]; for an
	// edge pair k0, k1, b1, b2, b3, b4, d1, d2.
	k [8]float64
	// Exact form: for a vertex f0, k1, k2, k3 of planeRoots in c[0:4];
	// for an edge pair the coefficients of eeFunc.
	c [9]float64
	// Bound on the fourth derivative on the window, and the rounding
	// allowances of a model's value and slope.
	m4, rnd, rndD float64
	// The sine and cosine of the angle at the window's centre, when the
	// caller has them (scOK).
	sn0, cs0 float64
	scOK     bool
	// small: the coefficients of cos a - 1 and sin a are large (the
	// screw axis is far, Detector.small) and the trigonometric form
	// cancels; the models are then taken from the exact form.
	small bool
}

// setSmall switches f to the exact-form models of the small-rotation mode,
// with rounding allowances from the sizes of the terms (|cos a - 1| is at
// most theta^2 / 2 and |sin a| at most theta on the step).
func (f *helixFn) setSmall() {
	f.small = true
	th := f.theta
	bS, bC := min(1, th), min(2, th*th/2)
	c := &f.c
	if !f.ee {
		f.rnd = roundRel * (math.Abs(c[0]) + math.Abs(c[1]) + math.Abs(c[2])*bC + math.Abs(c[3])*bS)
		f.rndD = roundRel * (math.Abs(c[1]) + th*(math.Abs(c[2])*bS+math.Abs(c[3])))
		return
	}
	v := math.Abs(c[0]) + math.Abs(c[3]) + (math.Abs(c[1])+math.Abs(c[7]))*bC + (math.Abs(c[2])+math.Abs(c[8]))*bS +
		math.Abs(c[4])*bC*bC + math.Abs(c[5])*bC*bS + math.Abs(c[6])*bS*bS
	dv := math.Abs(c[3]) + math.Abs(c[7]) + math.Abs(c[8]) +
		th*(math.Abs(c[1])+math.Abs(c[2])+math.Abs(c[7])+math.Abs(c[8])+4*(math.Abs(c[4])+math.Abs(c[5])+math.Abs(c[6])))
	f.rnd = roundRel * v
	f.rndD = 4 * roundRel * dv
}

// setVertex prepares f(t) = f0 + k1 t + k2 (cos a - 1) + k3 sin a.
func (f *helixFn) setVertex(f0, k1, k2, k3, theta float64) {
	f.ee = false
	f.theta = theta
	f.c[0], f.c[1], f.c[2], f.c[3] = f0, k1, k2, k3
	f.k[0], f.k[1], f.k[2], f.k[3] = f0-k2, k1, k2, k3
	amp := math.Sqrt(k2*k2 + k3*k3)
	t2 := theta * theta
	f.m4 = t2 * t2 * amp * (1 + boundPad)
	s := math.Abs(f0) + 2*math.Abs(k2) + math.Abs(k3) + math.Abs(k1)
	f.rnd = roundRel * s
	f.rndD = roundRel * (math.Abs(k1) + theta*(math.Abs(k2)+math.Abs(k3)))
}

// setEE prepares the coplanarity function of e (coefficients set by
// eeSetup) on a window ending at thi.
func (f *helixFn) setEE(e *eeFunc, thi float64) {
	f.ee = true
	f.theta = e.theta
	c := &e.c
	f.c = *c
	k := &f.k
	k[0] = c[0] - c[1] + 1.5*c[4] + 0.5*c[6]
	k[1] = c[3] - c[7]
	k[2] = c[1] - 2*c[4]
	k[3] = c[7]
	k[4] = c[2] - c[5]
	k[5] = c[8]
	k[6] = (c[4] - c[6]) / 2
	k[7] = c[5] / 2
	th := e.theta
	t2 := th * th
	b13 := math.Sqrt(k[2]*k[2] + k[4]*k[4])
	b24 := math.Sqrt(k[3]*k[3] + k[5]*k[5])
	dd := math.Sqrt(k[6]*k[6] + k[7]*k[7])
	f.m4 = (4*t2*th*b24 + t2*t2*(b13+math.Abs(thi)*b24) + 16*t2*t2*dd) * (1 + boundPad)
	cs := 0.0
	for _, x := range c {
		cs += math.Abs(x)
	}
	ks := 0.0
	for _, x := range k {
		ks += math.Abs(x)
	}
	f.rnd = roundRel * (cs + ks)
	f.rndD = roundRel * (cs + ks) * (1 + 2*th)
}

// taylor returns the value and first three derivatives at tm, and the sine
// and cosine of tm theta.
func (f *helixFn) taylor(tm float64) (g0, g1, g2, g3, sn, cs float64) {
	sn, cs = math.Sincos(tm * f.theta)
	return f.taylorSC(tm, sn, cs)
}

// taylorSC is taylor given the sine and cosine of tm theta.
func (f *helixFn) taylorSC(tm, sn, cs float64) (g0, g1, g2, g3, sn1, cs1 float64) {
	if f.small {
		return f.taylorExact(tm, sn, cs)
	}
	th := f.theta
	k := &f.k
	if !f.ee {
		x := k[2]*cs + k[3]*sn
		y := k[3]*cs - k[2]*sn
		return k[0] + k[1]*tm + x, k[1] + th*y, -th * th * x, -th * th * th * y, sn, cs
	}
	sn1, cs1 = sn, cs
	p := k[2] + k[3]*tm
	q := k[4] + k[5]*tm
	x := p*cs + q*sn
	y := q*cs - p*sn
	xb := k[3]*cs + k[5]*sn
	yb := k[5]*cs - k[3]*sn
	s2 := 2 * sn * cs
	c2 := (cs - sn) * (cs + sn)
	v := k[6]*c2 + k[7]*s2
	w := k[7]*c2 - k[6]*s2
	t2 := th * th
	g0 = k[0] + k[1]*tm + x + v
	g1 = k[1] + xb + th*y + 2*th*w
	g2 = 2*th*yb - t2*x - 4*t2*v
	g3 = -3*t2*xb - t2*th*y - 8*t2*th*w
	return
}

// taylorExact is taylorSC from the exact form (small mode): the value and
// first three derivatives at tm of f0 + k1 t + k2 C + k3 S, or of the
// coplanarity function c0 + c3 t + C (c1 + t c7) + S (c2 + t c8) + C^2 c4 +
// C S c5 + S^2 c6, with C = cos a - 1 and S = sin a, a = t theta.
func (f *helixFn) taylorExact(tm, sn, cs float64) (g0, g1, g2, g3, sn1, cs1 float64) {
	th := f.theta
	c := &f.c
	C, S := cosm1(sn, cs), sn
	if !f.ee {
		g0 = c[0] + c[1]*tm + c[2]*C + c[3]*S
		g1 = c[1] + th*(c[3]*cs-c[2]*S)
		g2 = -th * th * (c[2]*cs + c[3]*S)
		g3 = th * th * th * (c[2]*S - c[3]*cs)
		return g0, g1, g2, g3, sn, cs
	}
	t2 := th * th
	C1, C2, C3 := -th*S, -t2*cs, t2*th*S
	S1, S2, S3 := th*cs, -t2*S, -t2*th*cs
	g0 = c[0] + c[3]*tm + C*(c[1]+tm*c[7]) + S*(c[2]+tm*c[8]) + C*C*c[4] + C*S*c[5] + S*S*c[6]
	g1 = c[3] + c[1]*C1 + c[7]*(C+tm*C1) + c[2]*S1 + c[8]*(S+tm*S1) +
		c[4]*2*C*C1 + c[5]*(C1*S+C*S1) + c[6]*2*S*S1
	g2 = c[1]*C2 + c[7]*(2*C1+tm*C2) + c[2]*S2 + c[8]*(2*S1+tm*S2) +
		c[4]*2*(C1*C1+C*C2) + c[5]*(C2*S+2*C1*S1+C*S2) + c[6]*2*(S1*S1+S*S2)
	g3 = c[1]*C3 + c[7]*(3*C2+tm*C3) + c[2]*S3 + c[8]*(3*S2+tm*S3) +
		c[4]*(6*C1*C2+2*C*C3) + c[5]*(C3*S+3*C2*S1+3*C1*S2+C*S3) + c[6]*(6*S1*S2+2*S*S3)
	return g0, g1, g2, g3, sn, cs
}

// evalSC returns the exact value and slope at t and the sine and cosine
// of t theta.
func (f *helixFn) evalSC(t float64) (g, dg, sn, cs float64) {
	th := f.theta
	h, hc := math.Sincos(t * th / 2)
	C := -2 * h * h
	S := 2 * h * hc
	c := &f.c
	if !f.ee {
		g = c[0] + c[1]*t + C*c[2] + S*c[3]
		dg = c[1] - th*c[2]*S + th*c[3]*(C+1)
		return g, dg, S, C + 1
	}
	C1 := -th * S
	S1 := th * (C + 1)
	g = c[0] + C*(c[1]+C*c[4]+S*c[5]+t*c[7]) + S*(c[2]+S*c[6]+t*c[8]) + t*c[3]
	dg = C1*(c[1]+2*C*c[4]+S*c[5]+t*c[7]) + C*(S1*c[5]+c[7]) + S1*(c[2]+2*S*c[6]+t*c[8]) + S*c[8] + c[3]
	return g, dg, S, C + 1
}

// evalD returns the exact value and slope at t.
func (f *helixFn) evalD(t float64) (float64, float64) {
	g, dg, _, _ := f.evalSC(t)
	return g, dg
}

// eval returns the exact value at t.
func (f *helixFn) eval(t float64) float64 {
	g, _, _, _ := f.evalSC(t)
	return g
}

// hroot is a root with the sine and cosine of its rotation angle.
type hroot struct{ t, sn, cs float64 }

// proot is a root found by roots before its final Newton steps (polish):
// t is within e of the root (e = 0: exact), sn and cs are the sine and
// cosine of t theta to rounding, and the root is the only one in [a, b],
// where the function has end values (or their signs) fa and fb and Newton
// steps square the error times q.
type proot struct {
	t, sn, cs, e    float64
	a, b, fa, fb, q float64
}

// maxRoots is the capacity of a roots result.
const maxRoots = 4

// maxModels bounds the Taylor models one roots call may build, for the
// coplanarity function and for a vertex (whose fallback, the closed form
// of planeRoots, is cheap).
const (
	maxModels       = 64
	maxVertexModels = 12
)

// cubicAway reports whether p(x) = a0 + a1 x + a2 x^2 + a3 x^3 stays
// farther than r from zero on [-h, h].
func cubicAway(a0, a1, a2, a3, h, r float64) bool {
	lo := a0 - a1*h + a2*h*h - a3*h*h*h
	hi := a0 + a1*h + a2*h*h + a3*h*h*h
	if lo > hi {
		lo, hi = hi, lo
	}
	if lo <= r && hi >= -r {
		return false
	}
	// Interior extremes: a1 + 2 a2 x + 3 a3 x^2 = 0.
	ext := func(x float64) {
		if x > -h && x < h {
			v := a0 + x*(a1+x*(a2+x*a3))
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if a3 != 0 {
		disc := a2*a2 - 3*a3*a1
		if disc >= 0 {
			s := math.Sqrt(disc)
			// Stable roots of the quadratic.
			q := -(a2 + math.Copysign(s, a2))
			if q != 0 {
				ext(q / (3 * a3))
				ext(a1 / q)
			} else {
				ext(0)
			}
		}
	} else if a2 != 0 {
		ext(-a1 / (2 * a2))
	}
	return lo > r || hi < -r
}

// roots finds the roots of the function in [lo, hi], ascending: with down
// the downward crossings only (a positive value before, non-positive
// after; a zero at lo followed by negative values counts), else every sign
// change or zero. It returns false when it gives up (more than maxRoots
// roots or maxModels models: a function that stays within rounding of
// zero); the caller then falls back to sampling.
func (f *helixFn) roots(lo, hi float64, down bool, out *[maxRoots]proot) (n int, ok bool) {
	// Most windows are settled by one model.
	switch f.model(lo, hi, lo, down, out, &n, f.scOK) {
	case modelDone:
		return n, true
	case modelFull:
		return n, false
	}
	return f.rootsSplit(lo, hi, down, out)
}

// Outcomes of model.
const (
	modelDone  = iota // the interval is settled
	modelSplit        // it must be halved
	modelFull         // out is full
)

// model settles the interval [a, b] of the window starting at lo by one
// Taylor model, appending its root if any to out[*n].
func (f *helixFn) model(a, b, lo float64, down bool, out *[maxRoots]proot, n *int, sc bool) int {
	h := (b - a) / 2
	tm := a + h
	var g0, g1, g2, g3, sn, cs float64
	if sc {
		g0, g1, g2, g3, sn, cs = f.taylorSC(tm, f.sn0, f.cs0)
	} else {
		g0, g1, g2, g3, sn, cs = f.taylor(tm)
	}
	h2 := h * h
	r := f.m4*h2*h2*(1.0/24) + f.rnd
	a2, a3 := g2*0.5, g3*(1.0/6) // p(x) = g0 + g1 x + a2 x^2 + a3 x^3
	if cubicAway(g0, g1, a2, a3, h, r) {
		return modelDone
	}
	dev := math.Abs(g2)*h + math.Abs(g3)*h2*0.5 + f.m4*h2*h*(1.0/6) + f.rndD
	if math.Abs(g1) > dev {
		// Monotone: at most one root.
		if down && g1 > 0 {
			return modelDone
		}
		fa := g0 - g1*h + a2*h2 - a3*h2*h
		fb := g0 + g1*h + a2*h2 + a3*h2*h
		if math.Abs(fa) <= r {
			fa = f.eval(a)
		}
		if math.Abs(fb) <= r {
			fb = f.eval(b)
		}
		var cross bool
		if down {
			cross = fa > 0 && fb <= 0 || a == lo && fa == 0 && fb < 0
		} else {
			cross = fa == 0 || fb == 0 || (fa < 0) != (fb < 0)
		}
		if !cross {
			return modelDone
		}
		if *n == maxRoots {
			return modelFull
		}
		m1 := math.Abs(g1) - dev
		m2 := math.Abs(g2) + math.Abs(g3)*h + f.m4*h2*0.5
		f.approx(&out[*n], a, b, fa, fb, tm, sn, cs, g0, g1, a2, a3, r, m1, m2)
		*n++
		return modelDone
	}
	if h >= minModelHalf {
		return modelSplit
	}
	// A tiny interval that is neither refuted nor monotone: a double root
	// within rounding. Only a sign change of the exact values counts.
	fa, fb := f.eval(a), f.eval(b)
	var cross bool
	if down {
		cross = fa > 0 && fb <= 0
	} else {
		cross = fa == 0 || fb == 0 || (fa < 0) != (fb < 0)
	}
	if cross {
		if *n == maxRoots {
			return modelFull
		}
		t := refineN(f.evalD, a, b, fa, fb)
		sn, cs := math.Sincos(t * f.theta)
		out[*n] = proot{t: t, sn: sn, cs: cs}
		*n++
	}
	return modelDone
}

// rootsSplit is roots for a window that one model does not settle: its
// halves, left first, are settled or halved in turn.
func (f *helixFn) rootsSplit(lo, hi float64, down bool, out *[maxRoots]proot) (n int, ok bool) {
	type iv struct{ a, b float64 }
	var stack [40]iv
	m := lo + (hi-lo)/2
	stack[0] = iv{m, hi}
	stack[1] = iv{lo, m}
	sp := 2
	lim := maxModels
	if !f.ee {
		lim = maxVertexModels
	}
	for models := 1; sp > 0; models++ {
		if models > lim {
			return n, false
		}
		sp--
		a, b := stack[sp].a, stack[sp].b
		switch f.model(a, b, lo, down, out, &n, false) {
		case modelFull:
			return n, false
		case modelSplit:
			if sp+2 > len(stack) {
				return n, false
			}
			m := a + (b-a)/2
			stack[sp] = iv{m, b}
			stack[sp+1] = iv{a, m}
			sp += 2
		}
	}
	return n, true
}

// approx sets pr to the root in [a, b] of a function monotone there, with
// end values (or their signs) fa and fb, from its Taylor model at tm (sine
// and cosine sn, cs; p(x) = g0 + g1 x + a2 x^2 + a3 x^3, remainder bound
// r); on [a, b], m1 bounds the slope's magnitude from below and m2 that of
// the second derivative from above.
func (f *helixFn) approx(pr *proot, a, b, fa, fb, tm, sn, cs, g0, g1, a2, a3, r, m1, m2 float64) {
	*pr = proot{a: a, b: b, fa: fa, fb: fb}
	if fa == 0 || fb == 0 {
		t := a
		if fa != 0 {
			t = b
		}
		pr.t = t
		pr.sn, pr.cs = math.Sincos(t * f.theta)
		return
	}
	// Root of the model by Newton's method from its linear part.
	xa, xb := a-tm, b-tm
	x := -g0 / g1
	var p float64
	for it := 0; it < 4; it++ {
		if x < xa {
			x = xa
		} else if x > xb {
			x = xb
		}
		p = g0 + x*(g1+x*(a2+x*a3))
		dp := g1 + x*(2*a2+x*3*a3)
		dx := p / dp
		x -= dx
		if math.Abs(dx) <= modelNewtonStop {
			break
		}
	}
	if x < xa {
		x = xa
	} else if x > xb {
		x = xb
	}
	p = g0 + x*(g1+x*(a2+x*a3))
	pr.t = tm + x
	// |g(t)| <= |p| + r and |g'| >= m1 on [a, b].
	pr.e = (math.Abs(p) + r) / m1
	pr.q = m2 / (2 * m1 * m1 * m1)
	pr.sn, pr.cs = turn(sn, cs, f.theta*x)
}

// turn returns the sine and cosine of the angle with sine sn and cosine cs
// plus d.
func turn(sn, cs, d float64) (float64, float64) {
	if math.Abs(d) > 0.3 {
		s, c := math.Sincos(d)
		return sn*c + cs*s, cs*c - sn*s
	}
	d2 := d * d
	s := d * (1 - d2*(1.0/6)*(1-d2*(1.0/20)*(1-d2*(1.0/42)*(1-d2*(1.0/72)*(1-d2*(1.0/110))))))
	c := 1 - d2*0.5*(1-d2*(1.0/12)*(1-d2*(1.0/30)*(1-d2*(1.0/56)*(1-d2*(1.0/90)*(1-d2*(1.0/132))))))
	return sn*c + cs*s, cs*c - sn*s
}

// polish finishes root pr by exact Newton steps on the function
// (half-angle form), stopping when the quadratic convergence bound puts the
// error below 1e-16, with a safeguarded iteration on the bracket when
// Newton misbehaves.
func (f *helixFn) polish(pr *proot) hroot {
	t := pr.t
	if pr.e == 0 {
		return hroot{t, pr.sn, pr.cs}
	}
	fa, fb := pr.fa, pr.fb
	ta, tb := pr.a, pr.b
	for it := 0; it < 6; it++ {
		g, dg, sn, cs := f.evalSC(t)
		if g == 0 {
			return hroot{t, sn, cs}
		}
		if (g > 0) == (fa > 0) {
			ta = t
		} else {
			tb = t
		}
		if !(dg != 0) || (dg > 0) != (fb > fa) {
			break
		}
		dt := g / dg
		nt := t - dt
		if !(nt >= ta && nt <= tb) {
			break
		}
		// The error of t is at most |g|/m1; one Newton step squares it
		// times m2/(2 m1).
		if g*g*pr.q <= polishStop || math.Abs(dt) <= polishStop {
			sn, cs = turn(sn, cs, f.theta*(nt-t))
			return hroot{nt, sn, cs}
		}
		t = nt
	}
	// Safeguarded iteration on the bracket left.
	ga, gb := fa, fb
	if ta != pr.a {
		ga = f.eval(ta)
	}
	if tb != pr.b {
		gb = f.eval(tb)
	}
	t = refineN(f.evalD, ta, tb, ga, gb)
	sn, cs := math.Sincos(t * f.theta)
	return hroot{t, sn, cs}
}
