package geom

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/internal/enumname"
)

// MaxCoord is the largest coordinate magnitude (length units) that collide
// accepts in a pose's translation or a mesh vertex. Beyond it the spacing of
// float64 values exceeds 0.1, too coarse for collision detection, and the
// narrow phases' error bounds stop holding. Every package checks its input
// against this one limit.
const MaxCoord = 1e15

// MotionModel is how a body moves from its start pose to its end pose over
// a step. Every continuous method answers on the model its caller chose, so
// a contact's Time means the same point of the same trajectory whichever
// method found it.
type MotionModel uint8

const (
	// ScrewMotion (the zero value) rotates the body at a constant rate about
	// a fixed world axis while translating it along that axis at a constant
	// rate: every point moves on a helix (Buss, Collision Detection with
	// Relative Screw Motion, Sec. 4). It is the motion of the collide
	// benchmark format's motions workloads.
	ScrewMotion MotionModel = iota
	// LinearAngular moves the body frame's origin on a straight line at
	// constant speed while the body turns at a constant angular velocity
	// (linear interpolation of the translation, slerp of the rotation), the
	// motion of a rigid body integrated with constant velocities over the
	// step.
	LinearAngular
	numMotionModels
)

var motionModelNames = [numMotionModels]string{"screw", "linear"}

// String returns the model's name: "screw" or "linear".
func (m MotionModel) String() string {
	return enumname.Of(motionModelNames[:], m, "MotionModel")
}

// ParseMotionModel returns the model named s ("screw" or "linear").
func ParseMotionModel(s string) (MotionModel, error) {
	for m := MotionModel(0); m < numMotionModels; m++ {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("motion model %q: want screw or linear", s)
}

// PoseAt returns the pose at time t in [0, 1] of a body moving from p0 (t =
// 0) to p1 (t = 1) under the model. Both poses must have unit quaternions.
func (m MotionModel) PoseAt(p0, p1 Pose, t float64) Pose {
	if m == LinearAngular {
		return p0.Interpolate(p1, t)
	}
	return ScrewPose(p0, p1, t)
}

// ScrewPose returns the pose at time t of a body moving from p0 to p1 by the
// screw motion: with dq = q1 q0* (taken with dq.W >= 0), rotation angle
// theta = 2 atan2(|dq.xyz|, dq.W) about the unit axis u = dq.xyz/|dq.xyz|,
// o = p1 - p0, d = u.o and o' = o - d u,
//
//	q(t) = (cos(t theta/2), sin(t theta/2) u) q0
//	p(t) = p0 + t d u + sin(t theta/2)/sin(theta/2) Rot(u, (t-1) theta/2) o'
//
// and p(t) = p0 + t o when theta = 0. There is no small-angle threshold:
// the formula is evaluated as written for every theta > 0, which is
// accurate since sin is accurate near 0.
func ScrewPose(p0, p1 Pose, t float64) Pose {
	dq := p1.Q.Mul(p0.Q.Conj())
	if dq.W < 0 {
		dq = dq.Neg()
	}
	xyz := dq.Vec()
	sn := xyz.Norm()
	o := p1.P.Sub(p0.P)
	if sn == 0 {
		return Pose{P: p0.P.AddScaled(t, o), Q: p0.Q}
	}
	theta := 2 * math.Atan2(sn, dq.W)
	u := xyz.Scale(1 / sn)
	d := u.Dot(o)
	perp := o.AddScaled(-d, u)
	sh, ch := math.Sincos(t * theta / 2)
	ratio := sh / math.Sin(theta/2)
	rot := QuatAxisAngle(u, (t-1)*theta/2).Rotate(perp)
	q := Quat{W: ch, X: sh * u.X, Y: sh * u.Y, Z: sh * u.Z}.Mul(p0.Q)
	return Pose{P: p0.P.AddScaled(t*d, u).AddScaled(ratio, rot), Q: q}
}
