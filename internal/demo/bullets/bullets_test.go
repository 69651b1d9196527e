package bullets

import (
	"math"
	"testing"

	"github.com/collide-go/collide/toc"
)

// TestNoTunnelling runs the scene with fewer bullets at three step sizes
// with both algorithms: no bullet may end a step on the far side of the
// plane, every bullet reaches the plane, both hits and passes through the
// hole happen, and the two algorithms agree on who hit.
func TestNoTunnelling(t *testing.T) {
	for _, dt := range []float64{0.1, 0.01, 0.001} {
		var hits [2][]bool
		for ai, alg := range []toc.Method{toc.Boxes, toc.Segments} {
			n := 20
			if dt < 0.005 && testing.Short() {
				n = 10
			}
			s, err := New(&Config{Bullets: n, Dt: dt, Algorithm: alg})
			if err != nil {
				t.Fatal(err)
			}
			r, err := s.Run()
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("dt %g %v: %+v", dt, alg, r)
			if r.Tunneled != 0 || r.Penetrated != 0 {
				t.Errorf("dt %g %v: %d tunnelled, %d penetrated", dt, alg, r.Tunneled, r.Penetrated)
			}
			if r.BulletsHit == 0 || r.ThroughHole == 0 || r.Contacts < r.BulletsHit {
				t.Errorf("dt %g %v: %d hit, %d through the hole, %d contacts: the scene tests nothing", dt, alg, r.BulletsHit, r.ThroughHole, r.Contacts)
			}
			if math.Abs(r.SimulatedSeconds-1) > 1e-9 {
				t.Errorf("simulated %v s", r.SimulatedSeconds)
			}
			for i, b := range s.bullets {
				hits[ai] = append(hits[ai], b.hit)
				if !b.hit && !b.through {
					t.Errorf("dt %g %v: bullet %d neither hit the plane nor went through the hole (at %v)", dt, alg, i, b.s.Pose.P)
				}
				// A bullet that hit bounced back: it must be in front.
				if b.hit && b.s.Pose.P.X > 0.2 {
					t.Errorf("dt %g %v: bullet %d hit but ended behind the plane at %v", dt, alg, i, b.s.Pose.P)
				}
			}
		}
		for i := range hits[0] {
			if hits[0][i] != hits[1][i] {
				t.Errorf("dt %g: bullet %d hit with boxes %v, with segments %v", dt, i, hits[0][i], hits[1][i])
			}
		}
	}
}

// TestAuditCatchesTunnelling checks the audit itself: with collision
// detection switched off every bullet aimed at the plane tunnels.
func TestAuditCatchesTunnelling(t *testing.T) {
	s, err := New(&Config{Bullets: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.w.Remove(s.plane); err != nil { // nothing to collide with
		t.Fatal(err)
	}
	r, err := s.Run()
	if err != nil {
		t.Fatal(err)
	}
	if r.Tunneled == 0 || r.Contacts != 0 || r.Tunneled+r.ThroughHole != 10 {
		t.Errorf("detection off: %+v; want every bullet tunnelled or through the hole", r)
	}
}

func TestConfigErrors(t *testing.T) {
	for _, c := range []Config{{Bullets: -1}, {Dt: math.NaN()}, {Seconds: math.Inf(1)}, {Tolerance: -1}, {Algorithm: 9}, {Dt: 1e-9, Seconds: 1}} {
		if _, err := New(&c); err == nil {
			t.Errorf("%+v: no error", c)
		}
	}
}

func BenchmarkScene(b *testing.B) {
	for _, alg := range []toc.Method{toc.Boxes, toc.Segments} {
		b.Run(alg.String(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := New(&Config{Algorithm: alg})
				if err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				r, err := s.Run()
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(r.WallSecondsPerSimulatedSecond, "wall-s/sim-s")
			}
		})
	}
}

// FuzzConfig builds scenes from arbitrary configurations and runs a few
// steps of a handful of bullets: no panic, and no tunnelling.
func FuzzConfig(f *testing.F) {
	f.Add(3, 0.1, 0.3, uint8(0), 1e-5, 0.2, uint64(1))
	f.Add(2, 0.05, 0.2, uint8(1), 0.0, -1.0, uint64(7))
	f.Add(1, math.NaN(), 1.0, uint8(0), 0.0, 0.0, uint64(0))
	f.Add(0, 0.0, 0.0, uint8(2), 1e300, 5.0, uint64(3))
	f.Fuzz(func(t *testing.T, n int, dt, secs float64, alg uint8, tol, rest float64, seed uint64) {
		cfg := Config{Bullets: n % 4, Dt: dt, Seconds: secs, Algorithm: toc.Method(alg % 3), Tolerance: tol, Restitution: rest, Seed: seed}
		s, err := New(&cfg)
		if err != nil {
			return
		}
		for i := 0; i < 3; i++ {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if r := s.Result(); r.Tunneled != 0 || r.Penetrated != 0 {
			t.Fatalf("%+v: %+v", cfg, r)
		}
	})
}
