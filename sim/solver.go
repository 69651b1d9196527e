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
	a, b     int32
	ima, imb float64 // inverse masses as the solver sees them (zero when fixed)
	// The normal and the two tangents; the tangents are made when the
	// contact first takes an impulse (tan), as most speculative contacts
	// never do.
	n, t1, t2      axis
	tan            bool
	ra, rb         geom.Vec3 // anchors from the centres of mass at the step's start
	baseSep        float64   // separation minus (rb - ra)·n
	sep            float64   // separation at the bodies' poses of the last solver pass
	imp            impulses
	maxImp         float64
	relVel         float64 // normal velocity before the step
	friction, rest float64
	static         bool    // one body is static
	slop           float64 // overlap the position pass leaves alone
	key            warmKey
}

// axis is one direction of a contact's Jacobian at its anchors: the unit
// direction d (from a to b), the lever arms crossed with it (the angular
// velocities' shares of the relative velocity along d), the angular
// velocity change of each body per unit impulse along d, and the
// effective mass.
type axis struct {
	d      geom.Vec3
	ca, cb geom.Vec3 // ra x d, rb x d
	ia, ib geom.Vec3 // invI_a (ra x d), invI_b (rb x d)
	m      float64
}

// makeAxis returns the axis of direction d at anchors ra and rb.
func makeAxis(a, b *body, ra, rb, d geom.Vec3) axis {
	x := axis{d: d, ca: ra.Cross(d), cb: rb.Cross(d)}
	k := a.im() + b.im()
	if !a.fixed {
		x.ia = turned(&a.invI, x.ca)
		k += x.ca.Dot(x.ia)
	}
	if !b.fixed {
		x.ib = turned(&b.invI, x.cb)
		k += x.cb.Dot(x.ib)
	}
	if k > 0 {
		x.m = 1 / k
	}
	return x
}

// vel is the velocity of b's anchor relative to a's along the axis.
func (x *axis) vel(a, b *body) float64 {
	return b.v.Sub(a.v).Dot(x.d) + b.w.Dot(x.cb) - a.w.Dot(x.ca)
}

// push applies impulse p along the axis to b and its opposite to a; ima
// and imb are the inverse masses (zero for a fixed body, whose angular
// responses are zero too).
func (x *axis) push(a, b *body, ima, imb, p float64) {
	a.v = a.v.AddScaled(-p*ima, x.d)
	a.w = a.w.AddScaled(-p, x.ia)
	b.v = b.v.AddScaled(p*imb, x.d)
	b.w = b.w.AddScaled(p, x.ib)
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
	for i := range s.bodies {
		s.bodies[i].solved = false
	}
	for i := range s.raw {
		c := &s.raw[i]
		a, b := &s.bodies[c.A], &s.bodies[c.B]
		ra, rb, base := anchors(c, a, b)
		k := s.newConstraint(c, a, b, ra, rb, base)
		if w, ok := s.warm[k.key]; ok {
			// Stored as forces: the substep may differ (a split step).
			k.imp = impulses{w.n * h, w.t1 * h, w.t2 * h}
		}
		k.relVel = k.n.vel(a, b)
		s.cons = append(s.cons, k)
		a.solved, b.solved = true, true
	}
}

// anchors returns contact c's anchors from the bodies' centres at the
// start of the step (or piece) and its separation less (rb - ra)·n. Each
// body's anchor is its own witness point (half the separation either side
// of the contact point), so that the separation tracked through the
// substeps follows the vertex that may hit, even for a far speculative
// contact of a spinning body.
func anchors(c *Contact, a, b *body) (ra, rb geom.Vec3, base float64) {
	ra = c.Point.AddScaled(-0.5*c.Separation, c.Normal).Sub(a.p0)
	rb = c.Point.AddScaled(0.5*c.Separation, c.Normal).Sub(b.p0)
	return ra, rb, c.Separation - rb.Sub(ra).Dot(c.Normal)
}

// newConstraint returns the solver's row of contact c between bodies a
// and b with the anchors and base separation anchors gives, no impulse yet
// and its separation at the bodies' poses.
func (s *Sim) newConstraint(c *Contact, a, b *body, ra, rb geom.Vec3, base float64) constraint {
	n := c.Normal
	k := constraint{
		a: int32(c.A), b: int32(c.B), ima: a.im(), imb: b.im(),
		n:  makeAxis(a, b, ra, rb, n),
		ra: ra, rb: rb, baseSep: base,
		friction: s.opt.Friction, rest: s.opt.Restitution,
		static: a.fixed || b.fixed, slop: slopFrac * math.Min(a.radius, b.radius),
		key: warmKey{c.A, c.B, c.ID()},
	}
	k.sep = separation(a, b, &k)
	return k
}

// tangents makes contact k's tangent axes, once.
func (k *constraint) tangents(a, b *body) {
	if k.tan {
		return
	}
	t1, t2 := k.n.d.Orthonormal()
	k.t1, k.t2 = makeAxis(a, b, k.ra, k.rb, t1), makeAxis(a, b, k.ra, k.rb, t2)
	k.tan = true
}

// im is the inverse mass the solver sees: zero for a fixed body.
func (b *body) im() float64 {
	if b.fixed {
		return 0
	}
	return b.invMass
}

func (s *Sim) warmStart() {
	for i := range s.cons {
		k := &s.cons[i]
		if k.imp == (impulses{}) {
			continue // nothing to apply
		}
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		k.tangents(a, b)
		// The impulses along the normal and the tangents, at once.
		p := k.n.d.Scale(k.imp.n).Add(k.t1.d.Scale(k.imp.t1)).Add(k.t2.d.Scale(k.imp.t2))
		a.v = a.v.AddScaled(-k.ima, p)
		b.v = b.v.AddScaled(k.imb, p)
		a.w = a.w.Sub(k.n.ia.Scale(k.imp.n).Add(k.t1.ia.Scale(k.imp.t1)).Add(k.t2.ia.Scale(k.imp.t2)))
		b.w = b.w.Add(k.n.ib.Scale(k.imp.n).Add(k.t1.ib.Scale(k.imp.t1)).Add(k.t2.ib.Scale(k.imp.t2)))
	}
}

// solve is one pass of sequential impulses over the contacts, with the
// soft position bias when useBias is set (and without it, the relax pass).
// The axes' helpers are written out here: this is the hot loop.
func (s *Sim) solve(h float64, useBias bool) {
	o := &s.opt
	hz := math.Min(o.ContactHertz, 0.25/h)
	contactSoft := makeSoft(hz, o.DampingRatio, h)
	staticSoft := makeSoft(2*hz, o.DampingRatio, h)
	inv := 1 / h
	push := o.PushVelocity
	for i := range s.cons {
		k := &s.cons[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		n := k.n.d
		if !useBias {
			// The bodies moved since the last pass (positions are
			// integrated between the biased pass and this one, and only
			// here): the separation at their poses, kept for the next
			// substep's biased pass.
			k.sep = separation(a, b, k)
		}
		sep := k.sep
		bias, massScale, impScale := 0.0, 1.0, 0.0
		if sep > 0 {
			bias = sep * inv // speculative: may close the gap, no more
		} else if useBias {
			sf := &contactSoft
			if k.static {
				sf = &staticSoft
			}
			if bias = sf.biasRate * sep; bias < -push {
				bias = -push
			}
			massScale, impScale = sf.massScale, sf.impulseScale
		}
		va, wa, vb, wb := a.v, a.w, b.v, b.w
		// The normal points from a to b: separating velocity is vn > 0.
		vn := vb.Sub(va).Dot(n) + wb.Dot(k.n.cb) - wa.Dot(k.n.ca)
		imp := -k.n.m*massScale*(vn+bias) - impScale*k.imp.n
		newImp := max(k.imp.n+imp, 0)
		imp = newImp - k.imp.n
		k.imp.n = newImp
		k.maxImp = max(k.maxImp, imp)
		if newImp == 0 && imp == 0 && k.imp.t1 == 0 && k.imp.t2 == 0 {
			// A speculative contact that does not close: no normal
			// impulse, so no friction either (the disc has radius 0
			// and holds no impulse to take back).
			continue
		}
		va = va.AddScaled(-imp*k.ima, n)
		wa = wa.AddScaled(-imp, k.n.ia)
		vb = vb.AddScaled(imp*k.imb, n)
		wb = wb.AddScaled(imp, k.n.ib)

		// Friction, the two tangents clamped together to the disc.
		k.tangents(a, b)
		dv := vb.Sub(va)
		l1 := k.imp.t1 - k.t1.m*(dv.Dot(k.t1.d)+wb.Dot(k.t1.cb)-wa.Dot(k.t1.ca))
		l2 := k.imp.t2 - k.t2.m*(dv.Dot(k.t2.d)+wb.Dot(k.t2.cb)-wa.Dot(k.t2.ca))
		lim := k.friction * k.imp.n
		if m2 := l1*l1 + l2*l2; m2 > lim*lim {
			if f := lim / math.Sqrt(m2); f < math.Inf(1) {
				l1, l2 = l1*f, l2*f
			} else {
				l1, l2 = 0, 0
			}
		}
		d1, d2 := l1-k.imp.t1, l2-k.imp.t2
		k.imp.t1, k.imp.t2 = l1, l2
		p := k.t1.d.Scale(d1).Add(k.t2.d.Scale(d2))
		a.v = va.AddScaled(-k.ima, p)
		b.v = vb.AddScaled(k.imb, p)
		a.w = wa.Sub(k.t1.ia.Scale(d1).Add(k.t2.ia.Scale(d2)))
		b.w = wb.Add(k.t1.ib.Scale(d1).Add(k.t2.ib.Scale(d2)))
	}
}

// separation returns contact k's separation from the motion of its bodies
// since the step's start (a fixed body has not moved).
func separation(a, b *body, k *constraint) float64 {
	n := k.n.d
	sep := b.dp.Sub(a.dp).Dot(n) + k.baseSep
	if !a.fixed {
		sep -= turned(&a.dR, k.ra).Dot(n)
	} else {
		sep -= k.ra.Dot(n)
	}
	if !b.fixed {
		sep += turned(&b.dR, k.rb).Dot(n)
	} else {
		sep += k.rb.Dot(n)
	}
	return sep
}

func (s *Sim) restitution() {
	th := s.opt.RestitutionThreshold
	for i := range s.cons {
		k := &s.cons[i]
		if k.rest == 0 || k.relVel > -th || k.maxImp == 0 {
			continue
		}
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		vn := k.n.vel(a, b)
		imp := -k.n.m * (vn + k.rest*k.relVel)
		newImp := max(k.imp.n+imp, 0)
		imp = newImp - k.imp.n
		k.imp.n = newImp
		k.n.push(a, b, k.ima, k.imb, imp)
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
// overlap left by a hard impact is undone before the step ends. Each push
// takes beta of the way to a separation of -aim times the slop.
//
// The rounds run on the separations linearized at the bodies' current
// poses: each body's correction is accumulated as a displacement and a
// rotation vector, each contact's separation follows it to first order,
// and the bodies are moved once when the corrections are applied. The
// separations are then measured exactly again at the new poses, and the
// rounds go on from there while any contact is still deeper than the slop
// (the linearization error of a turn θ is about θ²r/2, far below the slop
// for the pushes of a resting contact). iters bounds the rounds in all;
// left reports a contact still more than twice the slop deep after them.
func (s *Sim) project(iters int, beta, aim float64) (left bool) {
	for it := 0; ; {
		deep, left := s.linearize()
		if !deep || it >= iters {
			return left
		}
		for ; it < iters; it++ {
			if !s.projectRound(beta, aim) {
				break
			}
		}
		s.applyCorrections()
	}
}

// The position pass at the end of a step takes half of each push (as
// Box2D v2.4) and stops at the slop: resting contacts the soft step keeps
// near the slop are barely moved, so a resting stack is not lifted from
// step to step and comes to rest. The pass on contacts found afresh at the
// end of a step (recheck) takes whole pushes aimed inside the slop: it
// undoes the overlap a fast body left in a few rounds, where half pushes
// converge slowly on a light body pressed between a heavy one and a static
// one (the pushes of the two contacts undo each other).
const (
	projectBeta = 0.5
	recheckBeta = 1
	recheckAim  = 0.75
)

// projRow is a contact of the position pass linearized at the bodies'
// poses when it was made: the separation then, the anchors turned with
// their bodies, and the normal's axis there.
type projRow struct {
	sep    float64
	ra, rb geom.Vec3
	n      axis
}

// linearize measures every contact's separation exactly at the bodies'
// poses and, when one is deeper than the slop, makes every contact's row
// of the position pass. It reports whether a contact is deeper than the
// slop and whether one is deeper than twice the slop.
func (s *Sim) linearize() (deep, left bool) {
	if cap(s.rows) < len(s.cons) {
		s.rows = make([]projRow, len(s.cons), 2*len(s.cons))
	}
	s.rows = s.rows[:len(s.cons)]
	for i := range s.cons {
		k := &s.cons[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		r := &s.rows[i]
		r.ra, r.rb = turned(&a.dR, k.ra), turned(&b.dR, k.rb)
		r.sep = b.dp.Add(r.rb).Sub(a.dp.Add(r.ra)).Dot(k.n.d) + k.baseSep
		deep = deep || r.sep < -k.slop
		left = left || r.sep < -2*k.slop
	}
	if !deep {
		return false, false
	}
	for i := range s.cons {
		k := &s.cons[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		r := &s.rows[i]
		r.n = makeAxis(a, b, r.ra, r.rb, k.n.d)
	}
	return true, left
}

// projectRound is one Gauss-Seidel round of the position pass on the
// linearized rows: each contact deeper than the slop takes beta of the
// push that would bring it to the slop. It reports whether any contact
// was deeper than the slop.
func (s *Sim) projectRound(beta, aim float64) (any bool) {
	for i := range s.cons {
		k := &s.cons[i]
		r := &s.rows[i]
		a, b := &s.bodies[k.a], &s.bodies[k.b]
		sep := r.sep + b.cp.Sub(a.cp).Dot(k.n.d) + b.cr.Dot(r.n.cb) - a.cr.Dot(r.n.ca)
		if sep >= -k.slop {
			continue
		}
		any = true
		p := -beta * (sep + aim*k.slop) * r.n.m
		if !a.fixed {
			a.cp = a.cp.AddScaled(-p*a.invMass, k.n.d)
			a.cr = a.cr.AddScaled(-p, r.n.ia)
		}
		if !b.fixed {
			b.cp = b.cp.AddScaled(p*b.invMass, k.n.d)
			b.cr = b.cr.AddScaled(p, r.n.ib)
		}
	}
	return any
}

// applyCorrections moves every body by the correction the position pass
// accumulated for it.
func (s *Sim) applyCorrections() {
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.cp != (geom.Vec3{}) || b.cr != (geom.Vec3{}) {
			b.moveBy(b.cp, b.cr)
			b.cp, b.cr = geom.Vec3{}, geom.Vec3{}
		}
	}
}

// turned returns m v; m is passed by reference, which the hot loops need
// (geom.Mat3.MulVec copies the matrix).
func turned(m *geom.Mat3, v geom.Vec3) geom.Vec3 {
	return geom.Vec3{
		X: m[0][0]*v.X + m[0][1]*v.Y + m[0][2]*v.Z,
		Y: m[1][0]*v.X + m[1][1]*v.Y + m[1][2]*v.Z,
		Z: m[2][0]*v.X + m[2][1]*v.Y + m[2][2]*v.Z,
	}
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
