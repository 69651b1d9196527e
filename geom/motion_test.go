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

// TestClosestTrianglePoint checks against dense sampling of the triangle:
// no sample is closer than the returned point, which lies in the triangle
// and matches its barycentric weights.
func TestClosestTrianglePoint(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	rv := func() Vec3 { return Vec3{r.NormFloat64(), r.NormFloat64(), r.NormFloat64()} }
	for i := 0; i < 300; i++ {
		a, b, c, p := rv(), rv(), rv(), rv().Scale(2)
		if i%50 == 0 {
			c = a.Lerp(b, 0.3) // degenerate
		}
		u, v, q := ClosestTrianglePoint(p, a, b, c)
		d := q.Sub(p).Norm()
		{
			if u < -1e-12 || v < -1e-12 || u+v > 1+1e-12 {
				t.Fatalf("weights %v %v outside the triangle", u, v)
			}
			if w := a.Scale(1 - u - v).Add(b.Scale(u)).Add(c.Scale(v)); w.Sub(q).Norm() > 1e-12 {
				t.Fatalf("weights give %v, point %v", w, q)
			}
		}
		const n = 60
		for s := 0; s <= n; s++ {
			for k := 0; s+k <= n; k++ {
				x := a.Scale(1 - float64(s+k)/n).Add(b.Scale(float64(s) / n)).Add(c.Scale(float64(k) / n))
				if x.Sub(p).Norm() < d-1e-12 {
					t.Fatalf("sample %v at %v is closer than %v at %v", x, x.Sub(p).Norm(), q, d)
				}
			}
		}
	}
}
