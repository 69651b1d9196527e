package screw

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// Motion is a screw motion (Buss Sec. 4): rotation by Theta radians
// (right-hand rule) about the axis through U with unit direction Axis,
// together with a glide G along Axis. At time t in [0, 1] it maps x to
//
//	U + Rot(Axis, t Theta) (x - U) + t G Axis.
//
// A pure translation has Theta == 0 and moves x to x + t G Axis.
type Motion struct {
	U     geom.Vec3 // a point on the axis (the one closest to the origin)
	Axis  geom.Vec3 // unit axis direction
	Theta float64   // total rotation angle in [0, pi]
	G     float64   // glide distance along Axis
}

// MotionFromTransform returns the screw parameters of the rigid displacement
// x -> q x + p (Sec. 4.1). The rotation angle is taken in [0, pi] (q and -q
// are the same rotation); the axis point is U = t/2 + (Axis x t) cot(Theta/2)/2
// with t the displacement perpendicular to the axis, computed from the
// quaternion so it is accurate near 0 and near pi. Only rotations below
// translationTheta (1e-100 radians, which move no point within MaxCoord of
// the origin by more than 1e-85 length units) are treated as translations;
// for small angles the axis point U is far away (about |p| / Theta), and
// Apply stays accurate because it works with the increment.
func MotionFromTransform(q geom.Quat, p geom.Vec3) Motion {
	if q.W < 0 {
		q = q.Neg()
	}
	xyz := q.Vec()
	sn := xyz.Norm()
	theta := 2 * math.Atan2(sn, q.W)
	if theta < translationTheta || sn == 0 {
		d := p.Norm()
		v, ok := p.Normalize()
		if !ok {
			v = geom.Vec3{Y: 1}
		}
		return Motion{Axis: v, G: d}
	}
	v := xyz.Scale(1 / sn)
	g := v.Dot(p)
	perp := p.AddScaled(-g, v)
	cot := q.W / sn // cot(theta/2)
	u := perp.Scale(0.5).Add(v.Cross(perp).Scale(0.5 * cot))
	return Motion{U: u, Axis: v, Theta: theta, G: g}
}

// Relative returns the screw motion of body B seen from body A (Buss eq. 1,
// Omega = Mf^-1 Nf Ni^-1 Mi) in A's local frame, for A moving from pose a0
// to a1 and B from b0 to b1.
func Relative(a0, a1, b0, b1 geom.Pose) Motion {
	om := a1.Inverse().Mul(b1).Mul(b0.Inverse()).Mul(a0)
	return MotionFromTransform(om.Q, om.P)
}

// IsTranslation reports whether m has no rotation.
func (m Motion) IsTranslation() bool { return m.Theta == 0 }

// Apply returns the position at time t of the point that is at x at time 0.
func (m Motion) Apply(x geom.Vec3, t float64) geom.Vec3 {
	if m.Theta == 0 {
		return x.AddScaled(t*m.G, m.Axis)
	}
	w := x.Sub(m.U)
	a := w.Dot(m.Axis)
	wp := w.AddScaled(-a, m.Axis)
	s := math.Sin(t * m.Theta)
	// x + (c-1) wp + s (V x wp) + t G V, with c-1 = -2 sin^2 written to
	// avoid cancellation when the axis is far away.
	h := math.Sin(t * m.Theta / 2)
	return x.AddScaled(-2*h*h, wp).AddScaled(s, m.Axis.Cross(wp)).AddScaled(t*m.G, m.Axis)
}

// ApplyDir returns the direction d rotated by the motion's rotation at time t.
func (m Motion) ApplyDir(d geom.Vec3, t float64) geom.Vec3 {
	if m.Theta == 0 {
		return d
	}
	return geom.QuatAxisAngle(m.Axis, t*m.Theta).Rotate(d)
}

// Pose returns the motion at time t as a pose (rotation and translation).
func (m Motion) Pose(t float64) geom.Pose {
	if m.Theta == 0 {
		return geom.Pose{P: m.Axis.Scale(t * m.G), Q: geom.QuatIdentity()}
	}
	q := geom.QuatAxisAngle(m.Axis, t*m.Theta)
	return geom.Pose{P: m.Apply(geom.Vec3{}, t), Q: q}
}

// Velocity returns the flow omega(x) = Theta V x (x - U) + G V that
// generates the motion (Sec. 4, eq. 3).
func (m Motion) Velocity(x geom.Vec3) geom.Vec3 {
	return m.Axis.Cross(x.Sub(m.U)).Scale(m.Theta).AddScaled(m.G, m.Axis)
}

// ErrorEstimate returns Buss's estimate (Sec. 4.3, eq. 5) of the relative
// error of assuming screw motion for a step that rotates by theta radians:
// (1 - cos(theta/2)) / theta, the largest distance between a circular arc and
// its chord divided by the arc length. It is 0 for theta = 0.
func ErrorEstimate(theta float64) float64 {
	theta = math.Abs(theta)
	if theta < errEstSeries {
		return theta / 8
	}
	h := math.Sin(theta / 4)
	return 2 * h * h / theta
}
