package sim

import (
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/simio"
)

// BenchmarkStepShoot times the steps of the shoot sample (12 bodies at 5-20
// body sizes per step against a 1 cm plate) in which the bodies strike the
// plate: one op is the first impactSteps steps from the initial state (the
// simulation is built outside the timer); ns/step is per step. The
// steps after the impacts are timed by BenchmarkStepSample.
func BenchmarkStepShoot(b *testing.B) {
	const impactSteps = 6
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "shoot-b12-k60-s4"))
	if err != nil {
		b.Fatal(err)
	}
	contacts, redone := 0, 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, err := FromScene(sc, &Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		for k := 0; k < impactSteps; k++ {
			if err := s.Step(); err != nil {
				b.Fatal(err)
			}
			contacts += len(s.Contacts())
		}
		_, splits, rechecks := s.Redone()
		redone += splits + rechecks
	}
	n := float64(b.N * impactSteps)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/step")
	b.ReportMetric(float64(contacts)/n, "contacts/step")
	b.ReportMetric(float64(redone)/n, "redone/step")
}
