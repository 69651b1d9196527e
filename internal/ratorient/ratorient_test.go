package ratorient

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/internal/exact"
)

// TestOrient3 checks the sign against internal/exact.Orient3 (a different
// rational expansion behind a float filter) on seeded random points, points
// made coplanar by construction (d on the plane through a, b, c with
// coordinates exact in float64), and tiny and huge exponents, and asserts
// that every sign occurs.
func TestOrient3(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 3))
	pt := func(scale float64) [3]float64 {
		return [3]float64{scale * (rng.Float64()*2 - 1), scale * (rng.Float64()*2 - 1), scale * (rng.Float64()*2 - 1)}
	}
	var seen [3]int
	for i := range 3000 {
		scale := []float64{1, 1e-200, 1e200}[i%3]
		a, b, c, d := pt(scale), pt(scale), pt(scale), pt(scale)
		if i%4 == 0 {
			// Integer points with d = a + (b-a) + (c-a): exactly coplanar.
			for _, p := range []*[3]float64{&a, &b, &c} {
				for k := range 3 {
					p[k] = float64(rng.IntN(2001) - 1000)
				}
			}
			for k := range 3 {
				d[k] = b[k] + c[k] - a[k]
			}
		}
		got, want := Orient3(a, b, c, d), exact.Orient3(a, b, c, d)
		if got != want {
			t.Fatalf("case %d: Orient3(%v, %v, %v, %v) = %d, want %d", i, a, b, c, d, got, want)
		}
		seen[got+1]++
	}
	for s, n := range seen {
		if n < 300 {
			t.Errorf("sign %d seen %d times in 3000 cases, want at least 300", s-1, n)
		}
	}
}
