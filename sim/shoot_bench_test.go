package sim

import (
	"path/filepath"
	"runtime"
	"testing"

	"github.com/collide-go/collide/simio"
)

// BenchmarkStepShoot times the steps of the shoot sample and of the
// hold-out shoot of seed 11 (12 bodies at 5-20 body sizes per step
// against a 1 cm plate) from the initial state, the simulation built and
// its buffers reserved outside the timer as Run does: "impact" is one op
// of the first 6 steps, in which the bodies strike the plate, "run" one op
// of all 60 steps, the figure collide sim reports for the scene (without
// its cold start: the op repeats in one process). ns/step is per step.
func BenchmarkStepShoot(b *testing.B) {
	for _, sc := range []struct{ name, dir string }{
		{"sample", filepath.Join("..", "testdata", "sim-samples", "shoot-b12-k60-s4")},
		{"seed11", filepath.Join("testdata", "shoot-b12-k60-s11")},
	} {
		scene, err := simio.ReadScene(sc.dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, part := range []struct {
			name  string
			steps int
		}{{"impact", 6}, {"run", scene.Steps}} {
			b.Run(sc.name+"/"+part.name, func(b *testing.B) { benchShoot(b, scene, part.steps) })
		}
	}
}

func benchShoot(b *testing.B, sc *simio.Scene, steps int) {
	// One OS thread for the steps: valgrind --tool=callgrind
	// --toggle-collect counts per thread, and a goroutine that moved
	// between threads within Step would be counted in part.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	contacts, redone := 0, 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := FromScene(sc, &Options{})
		if err != nil {
			b.Fatal(err)
		}
		s.reserve()
		b.StartTimer()
		for k := 0; k < steps; k++ {
			if err := s.Step(); err != nil {
				b.Fatal(err)
			}
			contacts += len(s.Contacts())
		}
		_, splits, rechecks := s.Redone()
		redone += splits + rechecks
	}
	n := float64(b.N * steps)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/step")
	b.ReportMetric(float64(contacts)/n, "contacts/step")
	b.ReportMetric(float64(redone)/n, "redone/step")
}
