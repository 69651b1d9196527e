package sim

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/simio"
)

// benchScene runs a scene for warm steps and then times single steps.
func benchScene(b *testing.B, sc *simio.Scene, opt *Options, warm int) {
	s, err := FromScene(sc, opt)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < warm; i++ {
		if err := s.Step(); err != nil {
			b.Fatal(err)
		}
	}
	contacts := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := s.Step(); err != nil {
			b.Fatal(err)
		}
		contacts += len(s.Contacts())
	}
	b.ReportMetric(float64(contacts)/float64(b.N), "contacts/step")
}

// BenchmarkStepPile times one step of a built-in pile of 100 and 1000 bodies
// after 60 steps of falling (the bodies meet each other and the bin), with
// 1 and 2 workers.
func BenchmarkStepPile(b *testing.B) {
	for _, n := range []int{100, 1000} {
		sc, err := PileScene(n, 1000, 1)
		if err != nil {
			b.Fatal(err)
		}
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("bodies=%d/workers=%d", n, w), func(b *testing.B) { benchScene(b, sc, &Options{Workers: w}, 60) })
		}
	}
}

// BenchmarkStepSample times one step of each sample scene after a third of
// its steps.
func BenchmarkStepSample(b *testing.B) {
	for _, name := range []string{"pile-b24-k180-s1", "tower-b8-k240-s2", "chain-b6-k240-s3", "shoot-b12-k60-s4"} {
		sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) { benchScene(b, sc, &Options{Workers: 1}, sc.Steps/3) })
	}
}

// BenchmarkStepTower times one step of the sample tower of 8 boxes on a
// slab while it is awake (sleeping off, after 10 steps): the fixed cost of
// a step of a small resting scene, the contact search, 8 substeps of the
// solver and the position pass on its 33 contacts. (With sleeping on, the
// tower sleeps after about 35 of its 240 steps; BenchmarkRunSample times
// the whole scene.)
func BenchmarkStepTower(b *testing.B) {
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "tower-b8-k240-s2"))
	if err != nil {
		b.Fatal(err)
	}
	benchScene(b, sc, &Options{Workers: 1, NoSleep: true}, 10)
}

// BenchmarkRunSample runs each sample scene from its first step to its last
// (one op is the whole scene; ns/step is what collide sim reports).
func BenchmarkRunSample(b *testing.B) {
	for _, name := range []string{"pile-b24-k180-s1", "tower-b8-k240-s2", "chain-b6-k240-s3", "shoot-b12-k60-s4"} {
		sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				s, err := FromScene(sc, &Options{})
				if err != nil {
					b.Fatal(err)
				}
				for k := 0; k < sc.Steps; k++ {
					if err := s.Step(); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*sc.Steps), "ns/step")
		})
	}
}
