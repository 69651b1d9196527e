package screw

import (
	"math"
	"math/rand"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestSweepBalls checks the geometry the culling relies on: over each of
// the cullK intervals a point on a helix stays in the ball on the chord of
// the interval (centre the chord midpoint, radius half its length), for the
// motion and its inverse, by dense sampling of the analytic motion.
func TestSweepBalls(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for it := 0; it < 2000; it++ {
		d := &Detector{theta: rng.Float64() * math.Pi, g: rng.NormFloat64() * 3}
		if it%10 == 0 {
			d.theta, d.trans = 0, true
		}
		// A random window of the step, or the whole step.
		t0, dt := 0.0, 1.0
		if it%3 != 0 {
			t0 = rng.Float64()
			dt = (1 - t0) * rng.Float64()
		}
		d.setWindow(t0, dt)
		p := geom.Vec3{X: rng.NormFloat64() * 5, Y: rng.NormFloat64() * 5, Z: rng.NormFloat64() * 5}
		for _, inv := range []bool{false, true} {
			var mid [cullK]geom.Vec3
			hc := d.ballsOf(&d.sw, p, inv, &mid)
			for s := 0; s <= 64*cullK; s++ {
				u := float64(s) / (64 * cullK)
				tt := t0 + u*dt
				// The analytic motion, computed independently.
				a := tt * d.theta
				sn, cs := math.Sincos(a)
				var q geom.Vec3
				if inv {
					q = geom.Vec3{X: p.X*cs - p.Z*sn, Y: p.Y - tt*d.g, Z: p.X*sn + p.Z*cs}
				} else {
					q = geom.Vec3{X: p.X*cs + p.Z*sn, Y: p.Y + tt*d.g, Z: -p.X*sn + p.Z*cs}
				}
				k := min(int(u*cullK), cullK-1)
				for _, kk := range []int{k, k - 1} {
					if kk < 0 || t0+float64(kk+1)*dt/cullK < tt || t0+float64(kk)*dt/cullK > tt {
						continue
					}
					if dist := q.Dist(mid[kk]); dist > hc*(1+1e-12)+1e-12 {
						t.Fatalf("theta %v g %v p %v inv %v t %v: %v from the centre of ball %d, radius %v",
							d.theta, d.g, p, inv, tt, dist, kk, hc)
					}
				}
			}
		}
	}
}

// TestMaskWindow checks the time window of interval masks, on the whole
// step and on a window of it.
func TestMaskWindow(t *testing.T) {
	for _, w := range [][2]float64{{0, 1}, {0.5, 0.25}} {
		sw := sweep{t0: w[0], dt: w[1]}
		at := func(k float64) float64 { return w[0] + k*w[1]/cullK }
		near := func(x, want float64) bool { return math.Abs(x-want) <= 1e-5 }
		lo, hi := sw.window(1)
		if !near(lo, at(0)) || !near(hi, at(1)) || lo > at(0) || hi < at(1) {
			t.Errorf("window %v, mask 1: [%v, %v]", w, lo, hi)
		}
		lo, hi = sw.window(1<<3 | 1<<5)
		if !near(lo, at(3)) || !near(hi, at(6)) || lo > at(3) || hi < at(6) {
			t.Errorf("window %v, mask 3,5: [%v, %v]", w, lo, hi)
		}
		lo, hi = sw.window(allIntervals)
		if lo > at(0) || hi < at(cullK) || lo < 0 || hi > 1 {
			t.Errorf("window %v, all: [%v, %v]", w, lo, hi)
		}
	}
}
