package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestDiverged checks diverged's quick sum against a component-by-component
// oracle on seeded random states mixing ordinary values, huge finite ones
// (whose sum overflows), infinities of both signs, NaNs and positions
// beyond geom.MaxCoord.
func TestDiverged(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	// Special values, once each in 70 draws; the rest ordinary.
	special := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 1e308, -1e308, 2e15, geom.MaxCoord}
	pick := func() float64 {
		if k := rng.IntN(70); k < len(special) {
			return special[k]
		}
		return rng.NormFloat64() * 10
	}
	bad := func(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }
	hits := 0
	const n = 20000
	for range n {
		var c [13]float64
		for k := range c {
			c[k] = pick()
		}
		b := body{
			pose: geom.Pose{P: geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, Q: geom.Quat{W: c[3], X: c[4], Y: c[5], Z: c[6]}},
			v:    geom.Vec3{X: c[7], Y: c[8], Z: c[9]},
			w:    geom.Vec3{X: c[10], Y: c[11], Z: c[12]},
		}
		want := false
		for k, x := range c {
			if bad(x) || (k < 3 && math.Abs(x) > geom.MaxCoord) {
				want = true
			}
		}
		if got := diverged(&b); got != want {
			t.Fatalf("state %v: diverged %v, want %v", c, got, want)
		}
		if want {
			hits++
		}
	}
	if r := float64(hits) / n; r < 0.3 || r > 0.7 {
		t.Fatalf("diverged states %.2f of the cases, want 0.3-0.7", r)
	}
}
