package geom

import (
	"fmt"
	"math"
)

// Quat is a quaternion W + X i + Y j + Z k (Hamilton convention, scalar
// first). Rotations are unit quaternions; q and -q are the same rotation.
type Quat struct{ W, X, Y, Z float64 }

// QuatIdentity returns the identity rotation.
func QuatIdentity() Quat { return Quat{W: 1} }

// QuatAxisAngle returns the rotation by angle (radians, right-hand rule)
// about axis. The axis is normalised; a zero axis gives the identity.
func QuatAxisAngle(axis Vec3, angle float64) Quat {
	u, ok := axis.Normalize()
	if !ok {
		return QuatIdentity()
	}
	s, c := math.Sincos(angle / 2)
	return Quat{c, s * u.X, s * u.Y, s * u.Z}
}

// QuatRotationVector returns exp(v/2): the rotation by |v| radians about v.
// It is accurate for tiny |v|.
func QuatRotationVector(v Vec3) Quat {
	a := v.Norm()
	var k float64 // sin(a/2)/a
	if a < 1e-4 {
		k = 0.5 - a*a/48
	} else {
		k = math.Sin(a/2) / a
	}
	return Quat{math.Cos(a / 2), k * v.X, k * v.Y, k * v.Z}
}

// Vec returns the vector part (X, Y, Z).
func (q Quat) Vec() Vec3 { return Vec3{q.X, q.Y, q.Z} }

// Mul returns the Hamilton product q p (apply p first, then q).
func (q Quat) Mul(p Quat) Quat {
	return Quat{
		q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
		q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
	}
}

// Conj returns the conjugate of q (the inverse rotation of a unit q).
func (q Quat) Conj() Quat { return Quat{q.W, -q.X, -q.Y, -q.Z} }

// Neg returns -q (the same rotation).
func (q Quat) Neg() Quat { return Quat{-q.W, -q.X, -q.Y, -q.Z} }

// Dot returns the 4D dot product of q and p.
func (q Quat) Dot(p Quat) float64 { return q.W*p.W + q.X*p.X + q.Y*p.Y + q.Z*p.Z }

// Norm returns |q|.
func (q Quat) Norm() float64 { return math.Sqrt(q.Dot(q)) }

// Normalize returns q / |q| and true, or the identity and false when |q| is
// zero or not finite.
func (q Quat) Normalize() (Quat, bool) {
	n := q.Norm()
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return QuatIdentity(), false
	}
	return Quat{q.W / n, q.X / n, q.Y / n, q.Z / n}, true
}

// IsFinite reports whether all components are finite.
func (q Quat) IsFinite() bool { return Vec3{q.W, q.X, q.Y}.IsFinite() && Vec3{q.Z, 0, 0}.IsFinite() }

// Rotate returns the vector v rotated by the unit quaternion q.
func (q Quat) Rotate(v Vec3) Vec3 {
	// v + 2w (u x v) + 2 u x (u x v), u = vector part.
	u := q.Vec()
	t := u.Cross(v).Scale(2)
	return v.AddScaled(q.W, t).Add(u.Cross(t))
}

// Mat3 returns the rotation matrix of the unit quaternion q
// (as in the collide benchmark format).
func (q Quat) Mat3() Mat3 {
	w, x, y, z := q.W, q.X, q.Y, q.Z
	return Mat3{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// AxisAngle returns the unit rotation axis and the angle in [0, pi] of the
// unit quaternion q. It uses atan2 of the vector and scalar parts, which is
// accurate near 0 and near pi. For (near) identity the axis is the normalised
// vector part when it is nonzero, else (1, 0, 0).
func (q Quat) AxisAngle() (axis Vec3, angle float64) {
	if q.W < 0 {
		q = q.Neg()
	}
	v := q.Vec()
	s := v.Norm()
	angle = 2 * math.Atan2(s, q.W)
	axis, ok := v.Normalize()
	if !ok {
		axis = Vec3{1, 0, 0}
	}
	return axis, angle
}

// RotationVector returns the axis scaled by the angle (the logarithm map),
// with angle in [0, pi].
func (q Quat) RotationVector() Vec3 {
	axis, angle := q.AxisAngle()
	return axis.Scale(angle)
}

// Slerp returns the spherical linear interpolation from q (t=0) to p (t=1)
// along the shorter arc.
func (q Quat) Slerp(p Quat, t float64) Quat {
	if q.Dot(p) < 0 {
		p = p.Neg()
	}
	d := q.Conj().Mul(p) // relative rotation, W >= 0
	return q.Mul(QuatRotationVector(d.RotationVector().Scale(t)))
}

// String formats q with full round-trip precision.
func (q Quat) String() string {
	return fmt.Sprintf("(%s, %s, %s, %s)", fmtF(q.W), fmtF(q.X), fmtF(q.Y), fmtF(q.Z))
}
