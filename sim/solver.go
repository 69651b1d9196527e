package sim

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// The solver is Catto's soft step as in Box2D v3 (solver.c and
// contact_solver.c): per step the contacts are prepared once; per substep
// the velocities are integrated, the contacts warm started and solved with
// a soft position bias, the positions integrated, and the contacts solved
// again without the bias (relax); after the substeps restitution is applied
// and the impulses stored for the next step's warm start. Each contact's
// separation is recomputed at every substep from the bodies' motion since
// the step began, so a speculative contact (positive separation) lets its
// bodies approach by exactly that gap and no further: a fast body stops at
// the surface it would have passed.

type warmKey struct {
	a, b BodyID
	id   uint64
}

type impulses struct{ n, t1, t2 float64 }

type constraint struct {
	a, b         int32
	n, t1, t2    geom.Vec3
	ra, rb       geom.Vec3 // anchors from the centres of mass at the step's start
	baseSep      float64   // separation minus (rb - ra)·n
	mn, mt1, mt2 float64   // effective masses
	// Angular velocity changes per unit impulse along n, t1 and t2:
	// invI_a (ra x d) and invI_b (rb x d).
	an, at1, at2   geom.Vec3
	bn, bt1, bt2   geom.Vec3
	imp            impulses
	maxImp         float64
	relVel         float64 // normal velocity before the step
	friction, rest float64
	static         bool    // one body is static
	slop           float64 // overlap the position pass leaves alone
	key            warmKey
}

// slopFrac is the overlap, as a fraction of the smaller body's bounding
// radius, that the position pass leaves for the soft contacts to undo.
const slopFrac = 0.002

type soft struct{ biasRate, massScale, impulseScale float64 }

func makeSoft(hertz, zeta, h float64) soft {
	if hertz == 0 {
		return soft{0, 1, 0}
	}
	omega := 2 * math.Pi * hertz
	a1 := 2*zeta + h*omega
	a2 := h * omega * a1
	a3 := 1 / (1 + a2)
	return soft{omega / a1, a2 * a3, a3}
}

func (s *Sim) prepare(h float64) {
	s.cons = s.cons[:0]
	for i := range s.raw {
		c := &s.raw[i]
		a, b := &s.bodies[c.A], &s.bodies[c.B]
		k := constraint{a: int32(c.A), b: int32(c.B), n: c.Normal, friction: s.opt.Friction, rest: s.opt.Restitution}
		k.static = a.fixed || b.fixed
		k.slop = slopFrac * math.Min(a.radius, b.radius)
		k.t1, k.t2 = c.Normal.Orthonormal()
		// Each body's anchor is its own witness point (half the separation
		// either side of the contact point), so that the separation tracked
		// through the substeps follows the vertex that may hit, even for a
		// far speculative contact of a spinning body.
		k.ra = c.Point.AddScaled(-0.5*c.Separation, c.Normal).Sub(a.pose.P)
		k.rb = c.Point.AddScaled(0.5*c.Separation, c.Normal).Sub(b.pose.P)
		k.baseSep = c.Separation - k.rb.Sub(k.ra).Dot(k.n)
		k.mn, k.an, k.bn = s.jacobian(a, b, k.ra, k.rb, k.n)
		k.mt1, k.at1, k.bt1 = s.jacobian(a, b, k.ra, k.rb, k.t1)
		k.mt2, k.at2, k.bt2 = s.jacobian(a, b, k.ra, k.rb, k.t2)
		k.key = warmKey{c.A, c.B, c.ID()}
		if w, ok := s.warm[k.key]; ok {
			// Stored as forces: the substep may differ (a split step).
			k.imp = impulses{w.n * h, w.t1 * h, w.t2 * h}
		}
		dv := velAt(b, k.rb).Sub(velAt(a, k.ra))
		k.relVel = dv.Dot(k.n)
		s.cons = append(s.cons, k)
	}
}

// im is the inverse mass the solver sees: zero for a fixed body.
func (b *body) im() float64 {
	if b.fixed {
		return 0
	}
	return b.invMass
}

func (s *Sim) effMass(a, b *body, ra, rb, n geom.Vec3) float64 {
	k := a.im() + b.im()
	if !a.fixed {
		x := ra.Cross(n)
		k += x.Dot(a.invI.MulVec(x))
	}
	if !b.fixed {
		x := rb.Cross(n)
		k += x.Dot(b.invI.MulVec(x))
	}
	if k <= 0 {
		return 0
	}
	return 1 / k
}

// jacobian returns the effective mass along d at the anchors and the
// angular velocity change of each body per unit impulse.
func (s *Sim) jacobian(a, b *body, ra, rb, d geom.Vec3) (m float64, ia, ib geom.Vec3) {
	k := a.im() + b.im()
	if !a.fixed {
		x := ra.Cross(d)
		ia = a.invI.MulVec(x)
		k += x.Dot(ia)
	}
	if !b.fixed {
		x := rb.Cross(d)
		ib = b.invI.MulVec(x)
		k += x.Dot(ib)
	}
	if k > 0 {
		m = 1 / k
	}
	return m, ia, ib
}

// push applies impulse p along d (unit), with the precomputed angular
// responses ia and ib, to a (negatively) and b.
func push(a, b *body, d geom.Vec3, p float64, ia, ib geom.Vec3) {
	if !a.fixed {
		a.v = a.v.AddScaled(-p*a.invMass, d)
		a.w = a.w.AddScaled(-p, ia)
	}
	if !b.fixed {
		b.v = b.v.AddScaled(p*b.invMass, d)
		b.w = b.w.AddScaled(p, ib)
	}
}

func velAt(b *body, r geom.Vec3) geom.Vec3 { return b.v.Add(b.w.Cross(r)) }

func (s *Sim) warmStart() {
	for i := range s.cons {
		k := &s.cons[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		push(a, b, k.n, k.imp.n, k.an, k.bn)
		push(a, b, k.t1, k.imp.t1, k.at1, k.bt1)
		push(a, b, k.t2, k.imp.t2, k.at2, k.bt2)
	}
}

func (s *Sim) solve(h float64, useBias bool) {
	o := &s.opt
	hz := math.Min(o.ContactHertz, 0.25/h)
	contactSoft := makeSoft(hz, o.DampingRatio, h)
	staticSoft := makeSoft(2*hz, o.DampingRatio, h)
	inv := 1 / h
	for i := range s.cons {
		k := &s.cons[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		// Current separation from the motion since the step's start.
		pa := a.dp.Add(a.dR.MulVec(k.ra))
		pb := b.dp.Add(b.dR.MulVec(k.rb))
		sep := pb.Sub(pa).Dot(k.n) + k.baseSep
		bias, massScale, impScale := 0.0, 1.0, 0.0
		if sep > 0 {
			bias = sep * inv // speculative: may close the gap, no more
		} else if useBias {
			sf := contactSoft
			if k.static {
				sf = staticSoft
			}
			bias = math.Max(sf.biasRate*sep, -o.PushVelocity)
			massScale, impScale = sf.massScale, sf.impulseScale
		}
		dv := velAt(b, k.rb).Sub(velAt(a, k.ra))
		vn := dv.Dot(k.n)
		// The normal points from a to b: separating velocity is vn > 0.
		imp := -k.mn*massScale*(vn+bias) - impScale*k.imp.n
		newImp := math.Max(k.imp.n+imp, 0)
		imp = newImp - k.imp.n
		k.imp.n = newImp
		k.maxImp = math.Max(k.maxImp, imp)
		push(a, b, k.n, imp, k.an, k.bn)

		// Friction, the two tangents clamped together to the disc.
		dv = velAt(b, k.rb).Sub(velAt(a, k.ra))
		l1 := k.imp.t1 - k.mt1*dv.Dot(k.t1)
		l2 := k.imp.t2 - k.mt2*dv.Dot(k.t2)
		lim := k.friction * k.imp.n
		if m := math.Hypot(l1, l2); m > lim {
			if m > 0 {
				l1, l2 = l1*lim/m, l2*lim/m
			} else {
				l1, l2 = 0, 0
			}
		}
		d1, d2 := l1-k.imp.t1, l2-k.imp.t2
		k.imp.t1, k.imp.t2 = l1, l2
		push(a, b, k.t1, d1, k.at1, k.bt1)
		push(a, b, k.t2, d2, k.at2, k.bt2)
	}
}

func (s *Sim) restitution() {
	th := s.opt.RestitutionThreshold
	for i := range s.cons {
		k := &s.cons[i]
		if k.rest == 0 || k.relVel > -th || k.maxImp == 0 {
			continue
		}
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		vn := velAt(b, k.rb).Sub(velAt(a, k.ra)).Dot(k.n)
		imp := -k.mn * (vn + k.rest*k.relVel)
		newImp := math.Max(k.imp.n+imp, 0)
		imp = newImp - k.imp.n
		k.imp.n = newImp
		push(a, b, k.n, imp, k.an, k.bn)
	}
}

func (s *Sim) store(dt float64) {
	subs := float64(s.opt.Substeps)
	inv := subs / dt
	clear(s.nextWarm)
	for i := range s.cons {
		k := &s.cons[i]
		s.nextWarm[k.key] = impulses{k.imp.n * inv, k.imp.t1 * inv, k.imp.t2 * inv}
		s.raw[i].Impulse = k.imp.n * subs
	}
	s.nextWarm, s.warm = s.warm, s.nextWarm
}

// project is a final position pass after the substeps (non-linear
// Gauss-Seidel, as Box2D v2.4's position solver): every contact deeper than
// the slop moves its bodies apart along its normal by pseudo-impulses that
// change positions only, never velocities, so no energy is added and the
// overlap left by a hard impact is undone before the step ends.
func (s *Sim) project(iters int) (left bool) {
	const beta = 0.5
	for it := 0; it <= iters; it++ {
		worst := 0.0
		left = false
		for i := range s.cons {
			k := &s.cons[i]
			a, b := &s.bodies[k.a], &s.bodies[k.b]
			ra, rb := a.dR.MulVec(k.ra), b.dR.MulVec(k.rb)
			sep := b.dp.Add(rb).Sub(a.dp.Add(ra)).Dot(k.n) + k.baseSep
			slop := k.slop
			if sep >= -slop {
				continue
			}
			worst = math.Min(worst, sep+slop)
			if sep < -2*slop {
				left = true // more than twice the slop remains
			}
			if it == iters {
				continue // the last round only measures
			}
			mass := s.effMass(a, b, ra, rb, k.n)
			p := k.n.Scale(-beta * (sep + slop) * mass)
			if !a.fixed {
				a.moveBy(p.Scale(-a.invMass), a.invI.MulVec(ra.Cross(p)).Neg())
			}
			if !b.fixed {
				b.moveBy(p.Scale(b.invMass), b.invI.MulVec(rb.Cross(p)))
			}
		}
		if worst == 0 {
			return false
		}
	}
	return left
}

// moveBy displaces a body by d and rotates it by the rotation vector r.
func (b *body) moveBy(d, r geom.Vec3) {
	b.pose.P = b.pose.P.Add(d)
	b.dp = b.dp.Add(d)
	q := geom.QuatRotationVector(r).Mul(b.pose.Q)
	if qn, ok := q.Normalize(); ok {
		q = qn
	}
	b.pose.Q = q
	b.dR = q.Mul(b.q0.Conj()).Mat3()
}
