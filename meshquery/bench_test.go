package meshquery

import (
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
)

type sampleBench struct {
	a, b   *Tree
	ta, tb []geom.Transform
}

func loadSampleBench(b *testing.B) *sampleBench {
	env := loadMesh(b, filepath.Join(sampleDir, "meshes/env.obj"))
	rob := loadMesh(b, filepath.Join(sampleDir, "meshes/rob.obj"))
	s := &sampleBench{a: mustTree(b, env), b: mustTree(b, rob)}
	for _, p := range readPlacements(b, filepath.Join(sampleDir, "placements.csv")) {
		s.ta = append(s.ta, p.pa.Transform())
		s.tb = append(s.tb, p.pb.Transform())
	}
	return s
}

// BenchmarkSampleIntersect: Intersect on the 60 env/rob placements (ns
// per placement).
func BenchmarkSampleIntersect(b *testing.B) {
	s := loadSampleBench(b)
	var q Query
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(s.ta)
		if _, err := q.Intersect(s.a, &s.ta[k], s.b, &s.tb[k]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSampleDistance: Distance (intersect, then the branch and
// bound) on the 60 env/rob placements (ns per placement).
func BenchmarkSampleDistance(b *testing.B) {
	s := loadSampleBench(b)
	var q Query
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(s.ta)
		if _, err := q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil); err != nil {
			b.Fatal(err)
		}
	}
}
