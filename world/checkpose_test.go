package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestCheckPose checks checkPose's quick sum against a component-by-
// component oracle on seeded random poses mixing ordinary values, huge
// finite ones (whose sum overflows), infinities, NaNs, translations beyond
// geom.MaxCoord and zero quaternions: it fails exactly when the oracle
// does (a quaternion of zero length, or one whose length overflows, is
// invalid), and otherwise gives the unit quaternion of the same direction.
func TestCheckPose(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 20))
	// Special values, a few times each in 60 draws; the rest ordinary.
	special := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e308, -1e308, 2e15, 0, 0, 0}
	pick := func() float64 {
		if k := r.IntN(60); k < len(special) {
			return special[k]
		}
		return r.NormFloat64() * 10
	}
	bad := 0
	const n = 20000
	for range n {
		var c [7]float64
		for k := range c {
			c[k] = pick()
		}
		p := geom.Pose{P: geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, Q: geom.Quat{W: c[3], X: c[4], Y: c[5], Z: c[6]}}
		want := true
		for k, x := range c {
			if math.IsNaN(x) || math.IsInf(x, 0) || (k < 3 && math.Abs(x) > geom.MaxCoord) {
				want = false
			}
		}
		// A quaternion whose length is zero or overflows has no direction.
		if n2 := c[3]*c[3] + c[4]*c[4] + c[5]*c[5] + c[6]*c[6]; want && (n2 == 0 || math.IsInf(n2, 0)) {
			want = false
		}
		got, err := checkPose(p)
		if (err == nil) != want {
			t.Fatalf("pose %v: error %v, want valid %v", c, err, want)
		}
		if !want {
			bad++
			continue
		}
		norm := math.Sqrt(c[3]*c[3] + c[4]*c[4] + c[5]*c[5] + c[6]*c[6])
		for k, x := range []float64{got.Q.W - c[3]/norm, got.Q.X - c[4]/norm, got.Q.Y - c[5]/norm, got.Q.Z - c[6]/norm} {
			if math.Abs(x) > 1e-12 {
				t.Fatalf("pose %v: quaternion component %d off by %g", c, k, x)
			}
		}
		if got.P != p.P {
			t.Fatalf("pose %v: translation changed to %v", c, got.P)
		}
	}
	if r := float64(bad) / n; r < 0.3 || r > 0.7 {
		t.Fatalf("invalid poses %.2f of the cases, want 0.3-0.7", r)
	}
}
