package geom

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Pose is a rigid placement: a point x in the body's local frame is at
// Q.Rotate(x) + P in the world. Q must be a unit quaternion.
type Pose struct {
	P Vec3 // translation
	Q Quat // rotation, unit
}

// PoseIdentity returns the identity pose.
func PoseIdentity() Pose { return Pose{Q: QuatIdentity()} }

// Apply returns the world position of the local point x.
func (p Pose) Apply(x Vec3) Vec3 { return p.Q.Rotate(x).Add(p.P) }

// ApplyDir returns the world direction of the local direction d (rotation
// only).
func (p Pose) ApplyDir(d Vec3) Vec3 { return p.Q.Rotate(d) }

// Mul returns the composition p o o: first o, then p. (p.Mul(o)).Apply(x) ==
// p.Apply(o.Apply(x)).
func (p Pose) Mul(o Pose) Pose {
	return Pose{P: p.Q.Rotate(o.P).Add(p.P), Q: p.Q.Mul(o.Q)}
}

// Inverse returns the inverse pose.
func (p Pose) Inverse() Pose {
	qi := p.Q.Conj()
	return Pose{P: qi.Rotate(p.P).Neg(), Q: qi}
}

// Interpolate returns the pose at parameter t between p (t=0) and o (t=1):
// linear in translation, slerp in rotation. (Screw interpolation, which
// moves every point on a helix, is in package screw.)
func (p Pose) Interpolate(o Pose, t float64) Pose {
	return Pose{P: p.P.Lerp(o.P, t), Q: p.Q.Slerp(o.Q, t)}
}

// Transform returns the matrix form of p, faster to apply to many points.
func (p Pose) Transform() Transform { return Transform{R: p.Q.Mat3(), T: p.P} }

// Validate returns an error when the pose has non-finite components or a
// quaternion whose norm differs from 1 by more than 1e-6.
func (p Pose) Validate() error {
	if !p.P.IsFinite() || !p.Q.IsFinite() {
		return fmt.Errorf("pose has a non-finite component: %v", p)
	}
	if n := p.Q.Norm(); math.Abs(n-1) > 1e-6 {
		return fmt.Errorf("pose quaternion has norm %g, want 1", n)
	}
	return nil
}

// String formats p as px,py,pz,qw,qx,qy,qz with full precision; ParsePose
// reads it back.
func (p Pose) String() string {
	f := []float64{p.P.X, p.P.Y, p.P.Z, p.Q.W, p.Q.X, p.Q.Y, p.Q.Z}
	s := make([]string, len(f))
	for i, x := range f {
		s[i] = fmtF(x)
	}
	return strings.Join(s, ",")
}

// ParsePose parses "px,py,pz,qw,qx,qy,qz" (the quaternion is normalised; its
// norm must be within 1e-3 of 1) or "px,py,pz" (identity rotation).
func ParsePose(s string) (Pose, error) {
	parts := strings.Split(s, ",")
	if len(parts) != 7 && len(parts) != 3 {
		return Pose{}, fmt.Errorf("pose %q: want 7 comma-separated numbers px,py,pz,qw,qx,qy,qz (or 3 for a translation), got %d", s, len(parts))
	}
	var f [7]float64
	f[3] = 1
	for i, t := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return Pose{}, fmt.Errorf("pose %q: field %d (%q) is not a finite number", s, i+1, t)
		}
		f[i] = x
	}
	q := Quat{f[3], f[4], f[5], f[6]}
	if n := q.Norm(); math.Abs(n-1) > 1e-3 {
		return Pose{}, fmt.Errorf("pose %q: quaternion norm is %g, want 1", s, n)
	}
	// Renormalise only quaternions that are not unit to rounding, so that
	// String and ParsePose round-trip bit for bit.
	if n := q.Norm(); math.Abs(n-1) > 4e-16 {
		q, _ = q.Normalize()
	}
	return Pose{P: Vec3{f[0], f[1], f[2]}, Q: q}, nil
}

// Transform is a rigid transform in matrix form: x -> R x + T. It is the
// fast form of a Pose for transforming many points.
type Transform struct {
	R Mat3 // rotation
	T Vec3 // translation
}

// TransformIdentity returns the identity transform.
func TransformIdentity() Transform { return Transform{R: Identity()} }

// Apply returns R x + T.
func (t Transform) Apply(x Vec3) Vec3 { return t.R.MulVec(x).Add(t.T) }

// ApplyDir returns R d.
func (t Transform) ApplyDir(d Vec3) Vec3 { return t.R.MulVec(d) }

// ApplyInv returns R^T (x - T), the inverse transform of x.
func (t Transform) ApplyInv(x Vec3) Vec3 { return t.R.MulVecT(x.Sub(t.T)) }

// ApplyDirInv returns R^T d.
func (t Transform) ApplyDirInv(d Vec3) Vec3 { return t.R.MulVecT(d) }

// Mul returns the composition t o o (first o, then t).
func (t Transform) Mul(o Transform) Transform {
	return Transform{R: t.R.Mul(o.R), T: t.R.MulVec(o.T).Add(t.T)}
}

// Inverse returns the inverse of a rigid transform.
func (t Transform) Inverse() Transform {
	rt := t.R.Transpose()
	return Transform{R: rt, T: rt.MulVec(t.T).Neg()}
}

// Pose returns the pose of t (R must be a rotation).
func (t Transform) Pose() Pose { return Pose{P: t.T, Q: t.R.Quat()} }
