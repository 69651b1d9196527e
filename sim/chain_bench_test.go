package sim

import (
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/simio"
)

// BenchmarkStepChain times the steps of the sample chain (6 linked tori on
// a bar, 240 steps), one worker: each op is one step, from the first on
// and around again from the start when the scene's steps are done, so the
// mean covers the whole swing. It reports the contacts per step and the
// end-of-step rechecks and split steps per step (the extra contact
// searches of a step).
func BenchmarkStepChain(b *testing.B) {
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "chain-b6-k240-s3"))
	if err != nil {
		b.Fatal(err)
	}
	var s *Sim
	contacts, rechecks, splits, k := 0, 0, 0, 0
	b.ReportAllocs()
	for b.Loop() {
		if s == nil || k == sc.Steps {
			b.StopTimer()
			if s != nil {
				_, sp, rc := s.Redone()
				rechecks, splits = rechecks+rc, splits+sp
			}
			if s, err = FromScene(sc, &Options{Workers: 1}); err != nil {
				b.Fatal(err)
			}
			k = 0
			b.StartTimer()
		}
		if err := s.Step(); err != nil {
			b.Fatal(err)
		}
		contacts += len(s.Contacts())
		k++
	}
	_, sp, rc := s.Redone()
	rechecks, splits = rechecks+rc, splits+sp
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/step")
	b.ReportMetric(float64(rechecks)/float64(b.N), "rechecks/step")
	b.ReportMetric(float64(splits)/float64(b.N), "splits/step")
}
