package toc

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

// State is a rigid body's placement at the start of a step and its
// velocities, which the step holds constant (Sec. 3.1: "motion free of
// external torques and forces between integration steps", what an explicit
// integrator does). W is the angular velocity and V the linear velocity of
// the reference point Ref (body-local coordinates; the zero value is the
// body frame's origin), both in world coordinates and per unit time. Over
// the step the reference point moves on a straight line and the body turns
// about it at a constant rate:
//
//	c(t) = Pose.P + R(0) Ref + V t,   R(t) = Rot(W t) R(Pose.Q),
//
// and a body point u (local coordinates) is at c(t) + R(t) (u - Ref): a
// helix when V has a component along W, a circle when not. With Ref at the
// origin this is constant linear and angular velocity of the body frame
// (geom.LinearAngular); with Ref on the screw axis and V along W it is the
// screw motion (geom.ScrewMotion). StateOf builds either from two poses.
type State struct {
	Pose geom.Pose
	V, W geom.Vec3
	Ref  geom.Vec3
}

// StateOf returns the state that moves a body from pose p0 at t = 0 to p1
// at t = 1 under the motion model m (velocities per step):
//
//   - geom.LinearAngular: Ref at the origin, V = p1.P - p0.P and W the
//     rotation vector of p1.Q p0.Q* (the shorter way round).
//   - geom.ScrewMotion: W as above, Ref the point of the screw axis nearest
//     to p0.P (in body coordinates) and V the translation along the axis,
//     so that every point moves on a helix about the axis (Buss, Collision
//     Detection with Relative Screw Motion, Sec. 4); a pure translation has
//     Ref at the origin.
//
// The poses at t of the returned state are those of m.PoseAt(p0, p1, t).
func StateOf(p0, p1 geom.Pose, m geom.MotionModel) State {
	dq := p1.Q.Mul(p0.Q.Conj())
	if dq.W < 0 {
		dq = dq.Neg()
	}
	xyz := dq.Vec()
	sn := math.Sqrt(xyz.X*xyz.X + xyz.Y*xyz.Y + xyz.Z*xyz.Z)
	o := p1.P.Sub(p0.P)
	s := State{Pose: p0, V: o}
	if sn == 0 {
		return s
	}
	theta := 2 * math.Atan2(sn, dq.W)
	u := xyz.Scale(1 / sn)
	s.W = u.Scale(theta)
	if m != geom.ScrewMotion {
		return s
	}
	// The axis point a solves (I - Rot(u, theta)) (a - p0) = o', the part
	// of o across the axis; in the plane across u the inverse of I - Rot
	// is (y + cot(theta/2) u x y) / 2.
	d := u.Dot(o)
	perp := o.AddScaled(-d, u)
	off := perp.Add(u.Cross(perp).Scale(1 / math.Tan(theta/2))).Scale(0.5)
	s.V = u.Scale(d)
	s.Ref = p0.Q.Conj().Rotate(off)
	return s
}

// Validate returns an error when a component is not finite or the pose's
// quaternion is not a unit quaternion.
func (s State) Validate() error {
	if err := s.Pose.Validate(); err != nil {
		return err
	}
	if !s.V.IsFinite() {
		return fmt.Errorf("linear velocity is not finite: %v", s.V)
	}
	if !s.W.IsFinite() {
		return fmt.Errorf("angular velocity is not finite: %v", s.W)
	}
	if !s.Ref.IsFinite() {
		return fmt.Errorf("reference point is not finite: %v", s.Ref)
	}
	return nil
}

// origin returns the world position and velocity of the body frame's
// origin at time t: c(t) - R(t) Ref. The offset (I - Rot(W t)) R(0) Ref is
// evaluated by Rodrigues' formula with 1 - cos a = 2 sin^2(a/2), which
// keeps its relative accuracy when Ref is far away and the angle small (a
// screw axis far from the body).
func (s *State) origin(t float64) (x, v geom.Vec3) {
	x = s.Pose.P.AddScaled(t, s.V)
	v = s.V
	if s.Ref == (geom.Vec3{}) || s.W == (geom.Vec3{}) {
		return x, v
	}
	g := s.Pose.Q.Rotate(s.Ref)
	wn := s.W.Norm()
	k := s.W.Scale(1 / wn)
	sa, ca := math.Sincos(wn * t)
	sh := math.Sin(wn * t / 2)
	kg := k.Cross(g)
	kkg := k.Cross(kg)
	// x = P + V t + (I - Rot) g; Rot g = g + sin a k x g + (1 - cos a) k x (k x g).
	x = x.AddScaled(-sa, kg).AddScaled(-2*sh*sh, kkg)
	// v = V - W x (Rot g) = V - Rot (W x g), and W x g = wn kg.
	rg := kg.AddScaled(sa, kkg).AddScaled(1-ca, k.Cross(kkg))
	v = v.AddScaled(-wn, rg)
	return x, v
}

// At returns the body's pose at time t of the step.
func (s State) At(t float64) geom.Pose {
	x, _ := s.origin(t)
	return geom.Pose{P: x, Q: geom.QuatRotationVector(s.W.Scale(t)).Mul(s.Pose.Q)}
}

// rotation returns the matrix of the rotation by |w| t about w (Rodrigues),
// exact for any angle.
func rotation(w geom.Vec3, t float64) geom.Mat3 {
	a := w.Norm() * t
	if a == 0 {
		return geom.Identity()
	}
	k := w.Scale(1 / w.Norm())
	s, c := math.Sincos(a)
	kk := geom.Skew(k)
	return geom.Identity().Add(kk.Scale(s)).Add(kk.Mul(kk).Scale(1 - c))
}

// Relative is the motion of body B seen in the frame of body S (Sec. 3.2),
// both moving with constant velocities over a step. A point u of B
// (B-local coordinates) is, in S-local coordinates,
//
//	q(t) = R_S(t)^T (x_B(t) - x_S(t) + R_B(t) u)
//
// and its velocity in S-local coordinates is
//
//	q'(t) = R_S(t)^T ( v_B - v_S - w_S x (x_B(t) - x_S(t)) + (w_B - w_S) x R_B(t) u ).
//
// The paper takes |q'| constant over the step; it is not in general (it
// varies when v_B is not along w_B, and when S rotates), so Relative also
// gives a Lipschitz constant K of |q'(t)| (see Lipschitz), which keeps the
// trajectory bounds rigorous.
//
// With reference points (State.Ref) the same formulas hold with x the
// reference points, v their velocities and u measured from B's reference
// point; speeds do not depend on where the frames' origins are, so the
// bounds below are taken in those shifted frames.
type Relative struct {
	b, s State
	rb0  geom.Mat3 // R_B(0)
	rs0  geom.Mat3 // R_S(0)
	dw   geom.Vec3 // w_B - w_S
	kc   float64   // |w_S x (v_B - v_S)|
	wbl  geom.Vec3 // w_B in B-local coordinates at t = 0
	dwn  float64   // |w_B - w_S|
	dwu  geom.Vec3 // (w_B - w_S) / |w_B - w_S|, zero when it is zero
	w    geom.Vec3 // v_B - v_S (reference points)
	d0   geom.Vec3 // c_B(0) - c_S(0) (reference points)
	// id numbers the two motions of a query (1: B in A's frame, 2: A in
	// B's) for Scratch's cache of speed bounds; 0 for none.
	id uint8
}

// NewRelative returns the motion of b in the frame of s.
func NewRelative(b, s State) Relative {
	r := Relative{b: b, s: s, rb0: b.Pose.Q.Mat3(), rs0: s.Pose.Q.Mat3()}
	r.dw = b.W.Sub(s.W)
	r.dwn = r.dw.Norm()
	if r.dwn > 0 {
		r.dwu = r.dw.Scale(1 / r.dwn)
	}
	r.kc = s.W.Cross(b.V.Sub(s.V)).Norm()
	r.wbl = r.rb0.MulVecT(b.W)
	r.w = b.V.Sub(s.V)
	r.d0 = b.Pose.P.Add(r.rb0.MulVec(b.Ref)).Sub(s.Pose.P.Add(r.rs0.MulVec(s.Ref)))
	return r
}

// RotationBound returns a bound of |(w_B - w_S) x R_B(t) u| over the step
// for the B-local point u: |w_B x R_B u| (constant in t) when S does not
// rotate, |w_B - w_S| |u| otherwise.
func (r *Relative) RotationBound(u geom.Vec3) float64 {
	u = u.Sub(r.b.Ref)
	if r.s.W == (geom.Vec3{}) {
		return r.wbl.Cross(u).Norm()
	}
	return r.dwn * u.Norm()
}

// SpeedBoundGlobal returns a bound of the speed |q'(t)| during [ta, tb]
// of a point whose RotationBound is rb. The velocity is R_S(t)^T (c(t) +
// (w_B - w_S) x R_B(t) u) with c(t) = v_B - v_S - w_S x (x_B(t) - x_S(t)),
// and the rotational part is perpendicular to w_B - w_S, so with c split
// into its parts along w_B - w_S and across it,
// |q'| <= sqrt(|c_along|^2 + (|c_across| + rb)^2). Both parts are affine
// in t, so their norms are largest at an end. This is exact for a point
// turning about a fixed axis of a non-rotating S, where the Lipschitz bound
// is loose, and for a screw motion (translation along the axis) it is up
// to sqrt(2) below |c| + rb.
func (r *Relative) SpeedBoundGlobal(rb, ta, tb float64) float64 {
	along, across := r.speedParts(ta, tb)
	return r.speedFromParts(along, across, rb)
}

// speedParts returns the parts of SpeedBoundGlobal over [ta, tb] that do
// not depend on the point: the largest |c_along| and |c_across| over the
// ends (without rotation, 0 and the largest |c|).
func (r *Relative) speedParts(ta, tb float64) (along, across float64) {
	ca, cb := r.w, r.w
	if r.s.W != (geom.Vec3{}) {
		ca = r.w.Sub(r.s.W.Cross(r.d0.AddScaled(ta, r.w)))
		cb = r.w.Sub(r.s.W.Cross(r.d0.AddScaled(tb, r.w)))
	}
	if r.dwn == 0 {
		return 0, math.Max(ca.Norm(), cb.Norm())
	}
	along = math.Max(math.Abs(ca.Dot(r.dwu)), math.Abs(cb.Dot(r.dwu)))
	across = math.Max(ca.AddScaled(-ca.Dot(r.dwu), r.dwu).Norm(), cb.AddScaled(-cb.Dot(r.dwu), r.dwu).Norm())
	return along, across
}

// speedFromParts is SpeedBoundGlobal from speedParts and the point's
// rotation bound rb.
func (r *Relative) speedFromParts(along, across, rb float64) float64 {
	if r.dwn == 0 {
		return across + rb
	}
	return math.Hypot(along, across+rb)
}

// Frame is the map from B-local points to S-local positions and velocities
// at one instant: q = A u + B and q' = E u + C.
type Frame struct {
	A geom.Mat3
	B geom.Vec3
	E geom.Mat3
	C geom.Vec3
}

// Pos returns the S-local position of the B-local point u.
func (f *Frame) Pos(u geom.Vec3) geom.Vec3 { return f.A.MulVecAdd(u, f.B) }

// Vel returns the S-local velocity of the B-local point u.
func (f *Frame) Vel(u geom.Vec3) geom.Vec3 { return f.E.MulVecAdd(u, f.C) }

// Frame returns the frame at time t of the step.
func (r *Relative) Frame(t float64) Frame {
	rb := rotation(r.b.W, t).Mul(r.rb0)
	rsT := rotation(r.s.W, t).Mul(r.rs0).Transpose()
	xb, vb := r.b.origin(t)
	xs, vs := r.s.origin(t)
	d := xb.Sub(xs) // x_B - x_S
	c := vb.Sub(vs).Sub(r.s.W.Cross(d))
	return Frame{
		A: rsT.Mul(rb),
		B: rsT.MulVec(d),
		E: rsT.Mul(geom.Skew(r.dw)).Mul(rb),
		C: rsT.MulVec(c),
	}
}

// Lipschitz returns a Lipschitz constant of t -> |q'(t)| for the B-local
// point u: K = |w_S x (v_B - v_S)| + |w_B - w_S| |w_B x R_B u|, the bound on
// the acceleration bound that follows from differentiating q' (|w_B x R_B(t) u| does not
// change with t). It is 0 for a body translating relative to a
// non-rotating S.
func (r *Relative) Lipschitz(u geom.Vec3) float64 {
	return r.kc + r.dwn*r.wbl.Cross(u.Sub(r.b.Ref)).Norm()
}

// SpeedBound returns a bound on the speed of a point during [ta, tb] from
// its speeds sa and sb at the ends and the Lipschitz constant k of its
// speed: (sa + sb + k (tb - ta)) / 2.
func SpeedBound(sa, sb, k, dt float64) float64 { return (sa + sb + k*dt) / 2 }

// TrajectoryOBB returns an oriented box that contains every path of length
// at most ell from pa to pb, hence the trajectory during [ta, tb] when ell
// = L (tb - ta) for a speed bound L (Algorithm 2's box O).
//
// Such paths lie in the ellipsoid with foci pa and pb whose major axis is
// ell: the box's axis along the chord has half length ell/2 = (d + nu)/2,
// as in Algorithm 2, and the two others have half length
// sqrt(nu (2 d + nu)) / 2 = sqrt(ell^2 - d^2) / 2, where d = |pb - pa| and
// nu = ell - d. Algorithm 2 as printed uses nu/2 for these, which is too
// small: a quarter circle of radius 1 has nu = 0.157 but bulges 0.293 from
// its chord (TestPaperBoxTooSmall). pad is added to every half extent (a
// guard against rounding).
func TrajectoryOBB(pa, pb geom.Vec3, ell, pad float64) geom.OBB {
	dv := pb.Sub(pa)
	d := dv.Norm()
	if ell < d {
		ell = d
	}
	perp := math.Sqrt((ell-d)*(ell+d)) / 2
	o := geom.OBB{Center: pa.Add(pb).Scale(0.5), Half: geom.Vec3{X: ell/2 + pad, Y: perp + pad, Z: perp + pad}}
	if d > 0 {
		n := dv.Scale(1 / d)
		u, w := n.Orthonormal()
		o.Axes = geom.MatCols(n, u, w)
	} else {
		o.Axes = geom.Identity()
	}
	return o
}
