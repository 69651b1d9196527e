package broad

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// Extent describes a rigid body for swept bounds: a box containing it in
// its local frame and the largest distance of its points from the local
// origin.
type Extent struct {
	Box    geom.AABB // local bounding box
	Radius float64   // max |x| over the body's local points
}

// ExtentOf returns the extent of a body given by its local vertices.
func ExtentOf(pts []geom.Vec3) Extent {
	e := Extent{Box: geom.EmptyAABB()}
	for _, p := range pts {
		e.Box = e.Box.AddPoint(p)
		e.Radius = math.Max(e.Radius, p.Norm())
	}
	return e
}

// SweptOptions tune the swept bounds. The zero value is the default.
type SweptOptions struct {
	// Steps is the number of sub-intervals the step is cut into; the box
	// is the union of one box per sub-interval, so more steps give a
	// tighter box. Zero means adaptive: enough steps that a point turns
	// by at most about 5% of the body's radius within one, between 1
	// and 32.
	Steps int
}

// SweptLinear returns an axis-aligned box containing the body over the
// whole step in which its pose goes from p0 (t = 0) to p1 (t = 1) by
// linear motion: the origin moves on the segment p(t) = p0 + t (p1 - p0)
// and the rotation turns at constant rate about a fixed axis,
// q(t) = slerp(q0, q1, t) along the shorter arc (geom.Quat.Slerp).
//
// The bound: over a sub-interval [t_i, t_i + h] every point x of the body
// moves from its position at t_i by the translation (t - t_i)(p1 - p0) plus
// a rotation by the angle θ(t - t_i) about an axis through the origin's
// position, which displaces it by at most 2 sin(θh/2) |x|. So the body
// stays in its box at t_i, swept along h (p1 - p0) and grown by
// 2 sin(θh/2) Radius. Poses whose components are not finite give an
// empty box.
func SweptLinear(e Extent, p0, p1 geom.Pose, opt *SweptOptions) geom.AABB {
	q0, q1 := unit(p0.Q), unit(p1.Q)
	if q0.Dot(q1) < 0 {
		q1 = q1.Neg()
	}
	theta := 2 * math.Atan2(q0.Conj().Mul(q1).Vec().Norm(), math.Abs(q0.Dot(q1)))
	v := p1.P.Sub(p0.P)
	n := sweptSteps(opt, theta, 0, e.Radius)
	at := func(t float64) geom.Pose {
		return geom.Pose{P: p0.P.Add(v.Scale(t)), Q: q0.Slerp(q1, t)}
	}
	return sweep(e, n, theta, v, 0, at, p0.P.Norm()+p1.P.Norm())
}

// SweptScrew returns an axis-aligned box containing the body over the
// whole step in which its pose goes from p0 to p1 by the screw motion
// (geom.ScrewPose; Buss, Collision Detection with Relative Screw Motion,
// Sec. 4): a constant rotation by θ about a fixed world axis u and a
// constant translation d along it, every point moving on a helix.
//
// The bound: over a sub-interval [t_i, t_i + h] every point turns about the
// screw axis by θ(t - t_i) and slides by (t - t_i) d u; the turn moves it
// by at most 2 sin(θh/2) times its distance to the axis, which is at most
// the origin's (constant) distance r = |o⊥| / (2 sin(θ/2)) plus Radius.
// Poses whose components are not finite give an empty box.
func SweptScrew(e Extent, p0, p1 geom.Pose, opt *SweptOptions) geom.AABB {
	m := newScrew(p0, p1)
	n := sweptSteps(opt, m.Theta, m.r, e.Radius)
	v := m.U.Scale(m.D)
	if m.Theta == 0 {
		v = m.o
	}
	return sweep(e, n, m.Theta, v, m.oPerp, m.at, p0.P.Norm()+p1.P.Norm())
}

// screw is the screw motion between two poses (FORMAT.md Sec. 6).
type screw struct {
	P0    geom.Pose
	U     geom.Vec3 // unit axis direction (unused when Theta is 0)
	Theta float64   // rotation angle in [0, π]
	D     float64   // translation along U over the step

	q0    geom.Quat
	o     geom.Vec3 // p1 - p0
	perp  geom.Vec3 // o⊥, the part of o normal to U
	oPerp float64   // |o⊥|
	r     float64   // distance of the origin's helix from the axis
}

// newScrew returns the screw motion taking pose p0 (t = 0) to p1 (t = 1).
func newScrew(p0, p1 geom.Pose) screw {
	q0, q1 := unit(p0.Q), unit(p1.Q)
	dq := q1.Mul(q0.Conj())
	if dq.W < 0 {
		dq = dq.Neg()
	}
	m := screw{P0: geom.Pose{P: p0.P, Q: q0}, q0: q0, o: p1.P.Sub(p0.P)}
	s := dq.Vec().Norm()
	m.Theta = 2 * math.Atan2(s, dq.W)
	if s == 0 || m.Theta == 0 {
		m.Theta = 0
		return m
	}
	m.U = dq.Vec().Scale(1 / s)
	m.D = m.U.Dot(m.o)
	m.perp = m.o.Sub(m.U.Scale(m.D))
	m.oPerp = m.perp.Norm()
	m.r = m.oPerp / (2 * math.Sin(m.Theta/2))
	return m
}

// at returns the pose at time t: q(t) = (cos(tθ/2), sin(tθ/2) u) q0 and
// p(t) = p0 + t d u + (sin(tθ/2)/sin(θ/2)) Rot(u, (t-1)θ/2) o⊥.
func (m screw) at(t float64) geom.Pose {
	if m.Theta == 0 {
		return geom.Pose{P: m.P0.P.Add(m.o.Scale(t)), Q: m.q0}
	}
	h := t * m.Theta / 2
	q := geom.Quat{W: math.Cos(h), X: math.Sin(h) * m.U.X, Y: math.Sin(h) * m.U.Y, Z: math.Sin(h) * m.U.Z}.Mul(m.q0)
	k := math.Sin(h) / math.Sin(m.Theta/2)
	rot := geom.QuatAxisAngle(m.U, (t-1)*m.Theta/2)
	p := m.P0.P.Add(m.U.Scale(t * m.D)).Add(rot.Rotate(m.perp).Scale(k))
	return geom.Pose{P: p, Q: q}
}

func unit(q geom.Quat) geom.Quat {
	if u, ok := q.Normalize(); ok {
		return u
	}
	return geom.QuatIdentity()
}

// sweptSteps picks the number of sub-intervals.
func sweptSteps(opt *SweptOptions, theta, r, radius float64) int {
	if opt != nil && opt.Steps > 0 {
		return min(opt.Steps, 1<<16)
	}
	if !(theta > 0) || !(radius > 0) {
		return 1
	}
	n := math.Ceil(20 * theta * (r + radius) / radius)
	if !(n < 32) {
		return 32
	}
	return max(int(n), 1)
}

// sweep unions, over n sub-intervals, the body's box at the start of each
// grown by the sub-interval's translation v h and rotational slack; oPerp
// is the chord of the origin's circle about a screw axis (0 for linear
// motion, whose rotation is about the moving origin). mag is a scale of
// the coordinates, for the rounding pad.
func sweep(e Extent, n int, theta float64, v geom.Vec3, oPerp float64, at func(float64) geom.Pose, mag float64) geom.AABB {
	if e.Box.IsEmpty() {
		return e.Box
	}
	h := 1 / float64(n)
	// Rotational slack per sub-interval: 2 sin(θh/2) (r + Radius), with
	// 2 r sin(θh/2) = |o⊥| sin(θh/2) / sin(θ/2) for a screw.
	slack := 2 * math.Sin(theta*h/2) * e.Radius
	if oPerp > 0 && theta > 0 {
		slack += oPerp * math.Sin(theta*h/2) / math.Sin(theta/2)
	}
	dv := v.Scale(h)
	lo := geom.Vec3{X: math.Min(0, dv.X), Y: math.Min(0, dv.Y), Z: math.Min(0, dv.Z)}
	hi := geom.Vec3{X: math.Max(0, dv.X), Y: math.Max(0, dv.Y), Z: math.Max(0, dv.Z)}
	// Rounding: every coordinate computed is at most about mag + Radius +
	// |v| in size; a relative 1e-12 of that covers the few roundings of
	// the pose evaluation and the box transform.
	pad := 1e-12 * (mag + e.Radius + v.Norm() + e.Box.Min.Abs().MaxAbs() + e.Box.Max.Abs().MaxAbs())
	g := slack + pad
	out := geom.EmptyAABB()
	for i := 0; i < n; i++ {
		b := e.Box.Transform(at(float64(i) * h).Transform())
		b.Min = b.Min.Add(lo).Sub(geom.Vec3{X: g, Y: g, Z: g})
		b.Max = b.Max.Add(hi).Add(geom.Vec3{X: g, Y: g, Z: g})
		out = out.Union(b)
	}
	if !out.Min.IsFinite() || !out.Max.IsFinite() {
		return geom.EmptyAABB()
	}
	return out
}
