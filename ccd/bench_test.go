package ccd

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// BenchmarkQueries runs both methods over every benchmark file (the
// deliberately degenerate set) and over random non-degenerate queries;
// ns/op is per query.
func BenchmarkQueries(b *testing.B) {
	var files []Query
	for _, path := range groundTruthFiles(b) {
		qs, _ := loadFile(b, path)
		files = append(files, qs...)
	}
	r := rand.New(rand.NewPCG(1, 9))
	random := make([]Query, 4096)
	for i := range random {
		random[i].Kind = queryKinds[i%2]
		for j := 0; j < 4; j++ {
			random[i].Start[j] = geom.V(r.Float64()*2-1, r.Float64()*2-1, r.Float64()*2-1)
			random[i].End[j] = random[i].Start[j].Add(geom.V(r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5))
		}
	}
	for _, set := range []struct {
		name string
		qs   []Query
	}{{"files", files}, {"random", random}} {
		for _, m := range []Method{Inclusion, Cubic} {
			b.Run(set.name+"/"+m.String(), func(b *testing.B) {
				opt := Options{Method: m}
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					set.qs[i%len(set.qs)].Test(opt)
				}
			})
		}
	}
}
