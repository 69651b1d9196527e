package screw

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFastAtan2 checks the error bound of fastAtan2 against math.Atan2 on a
// dense sweep of the unit circle, random points of all scales and the
// axes.
func TestFastAtan2(t *testing.T) {
	check := func(y, x float64) {
		t.Helper()
		want := math.Atan2(y, x)
		if y == 0 && x == 0 {
			want = 0
		}
		got := fastAtan2(y, x)
		if e := math.Abs(got - want); !(e <= atanErr) {
			t.Fatalf("fastAtan2(%v, %v) = %v, want %v (error %g > %g)", y, x, got, want, e, atanErr)
		}
	}
	const n = 1 << 20
	for i := 0; i <= n; i++ {
		a := 2 * math.Pi * float64(i) / n
		s, c := math.Sincos(a)
		check(s, c)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 100000; i++ {
		sc := math.Pow(10, rng.Float64()*40-20)
		check(sc*(2*rng.Float64()-1), sc*(2*rng.Float64()-1))
	}
	for _, v := range [][2]float64{{0, 0}, {0, 1}, {1, 0}, {0, -1}, {-1, 0}, {1, 1}, {-1, -1}, {1e-300, 1}, {1, 1e-300}, {-1e-300, -1}, {math.Copysign(0, -1), -1}, {math.Copysign(0, -1), 1}} {
		check(v[0], v[1])
	}
}
