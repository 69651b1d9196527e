package geom

import (
	"math"
	"math/rand"
	"testing"
)

func randPose(r *rand.Rand, maxAngle float64) Pose {
	axis := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
	return Pose{
		P: Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}.Scale(3),
		Q: QuatAxisAngle(axis, (2*r.Float64()-1)*maxAngle),
	}
}

func poseClose(a, b Pose, tol float64) bool {
	if a.Q.Dot(b.Q) < 0 {
		b.Q = b.Q.Neg()
	}
	return a.P.Sub(b.P).Norm() <= tol && math.Sqrt((a.Q.W-b.Q.W)*(a.Q.W-b.Q.W)+(a.Q.X-b.Q.X)*(a.Q.X-b.Q.X)+(a.Q.Y-b.Q.Y)*(a.Q.Y-b.Q.Y)+(a.Q.Z-b.Q.Z)*(a.Q.Z-b.Q.Z)) <= tol
}

// TestScrewPoseGroup checks ScrewPose against the defining property of a
// screw motion, independent of its formula: the displacement D(t) = P(t)
// P(0)^-1 is a one-parameter group, D(2t) = D(t) D(t), and D(1) takes p0
// to p1. Rotations span 0 (exactly), 1e-12 ... 1e-5 and up to pi.
func TestScrewPoseGroup(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	angles := []float64{0, 1e-12, 1e-9, 1e-7, 1e-5, 0.1, 1, 3, math.Pi - 1e-9}
	for i := 0; i < 2000; i++ {
		p0 := randPose(r, math.Pi)
		ang := angles[i%len(angles)]
		axis := Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}
		d := Pose{P: Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()}, Q: QuatAxisAngle(axis, ang)}
		p1 := d.Mul(p0)
		for _, m := range []MotionModel{ScrewMotion, LinearAngular} {
			if got := m.PoseAt(p0, p1, 0); !poseClose(got, p0, 1e-12) {
				t.Fatalf("%v: PoseAt(0) = %v, want %v", m, got, p0)
			}
			if got := m.PoseAt(p0, p1, 1); !poseClose(got, p1, 1e-11) {
				t.Fatalf("%v: PoseAt(1) = %v, want %v", m, got, p1)
			}
		}
		tt := r.Float64() / 2
		dt := ScrewPose(p0, p1, tt).Mul(p0.Inverse())
		d2 := ScrewPose(p0, p1, 2*tt).Mul(p0.Inverse())
		if !poseClose(dt.Mul(dt), d2, 1e-11) {
			t.Fatalf("angle %g: D(t)^2 = %v, D(2t) = %v", ang, dt.Mul(dt), d2)
		}
	}
}

func TestParseMotionModel(t *testing.T) {
	for _, m := range []MotionModel{ScrewMotion, LinearAngular} {
		got, err := ParseMotionModel(m.String())
		if err != nil || got != m {
			t.Fatalf("ParseMotionModel(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMotionModel("helix"); err == nil {
		t.Fatal("ParseMotionModel(helix) gave no error")
	}
}
