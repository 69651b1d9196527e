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
		d.sw = sweep{}
		// The same tables as cullFaces.
		if d.trans {
			for j := range d.sw.c {
				d.sw.c[j] = 1
			}
		} else {
			s1, c1 := math.Sincos(d.theta / cullK)
			d.sw.c[0] = 1
			for j := 1; j <= cullK; j++ {
				d.sw.c[j] = d.sw.c[j-1]*c1 - d.sw.s[j-1]*s1
				d.sw.s[j] = d.sw.s[j-1]*c1 + d.sw.c[j-1]*s1
			}
			d.sw.half = math.Sin(d.theta / (2 * cullK))
		}
		p := geom.Vec3{X: rng.NormFloat64() * 5, Y: rng.NormFloat64() * 5, Z: rng.NormFloat64() * 5}
		for _, inv := range []bool{false, true} {
			var mid [cullK]geom.Vec3
			hc := d.ballsOf(&d.sw, p, inv, &mid)
			for s := 0; s <= 64*cullK; s++ {
				tt := float64(s) / (64 * cullK)
				// The analytic motion, computed independently.
				a := tt * d.theta
				sn, cs := math.Sincos(a)
				var q geom.Vec3
				if inv {
					q = geom.Vec3{X: p.X*cs - p.Z*sn, Y: p.Y - tt*d.g, Z: p.X*sn + p.Z*cs}
				} else {
					q = geom.Vec3{X: p.X*cs + p.Z*sn, Y: p.Y + tt*d.g, Z: -p.X*sn + p.Z*cs}
				}
				k := min(int(tt*cullK), cullK-1)
				for _, kk := range []int{k, k - 1} {
					if kk < 0 || float64(kk+1)/cullK < tt {
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

// TestMaskWindow checks the time window of interval masks.
func TestMaskWindow(t *testing.T) {
	lo, hi := maskWindow(1)
	if lo != 0 || math.Abs(hi-1.0/cullK) > 1e-5 {
		t.Errorf("mask 1: window [%v, %v]", lo, hi)
	}
	lo, hi = maskWindow(1<<3 | 1<<5)
	if math.Abs(lo-3.0/cullK) > 1e-5 || math.Abs(hi-6.0/cullK) > 1e-5 || lo > 3.0/cullK || hi < 6.0/cullK {
		t.Errorf("mask 3,5: window [%v, %v]", lo, hi)
	}
	lo, hi = maskWindow(allIntervals)
	if lo != 0 || hi != 1 {
		t.Errorf("all: window [%v, %v]", lo, hi)
	}
}
