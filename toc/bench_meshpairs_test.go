package toc_test

import (
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/toc"
)

// BenchmarkMeshPairs is one first-contact query (screw motion, the
// default options) of `collide bench meshpairs` workloads made from the
// real meshes committed in testdata/meshes, cycling through their 60
// motions: FCL's rob in env (FCL's scenario, seed 21) and Bullet's duck
// approaching parry's low-poly bunny (seed 22), over all queries and over
// the hits and the misses apart. Making a workload (and its reference
// answers) is not timed.
func BenchmarkMeshPairs(b *testing.B) {
	meshes := filepath.Join("..", "testdata", "meshes")
	for _, c := range []struct {
		name string
		spec bench.MeshPairsSpec
	}{
		{"rob-in-env", bench.MeshPairsSpec{A: filepath.Join(meshes, "fcl", "env.obj"), B: filepath.Join(meshes, "fcl", "rob.obj"), Scenario: "fcl", Seed: 21}},
		{"duck-bunny", bench.MeshPairsSpec{A: filepath.Join(meshes, "parry", "low_poly_bunny.obj"), B: filepath.Join(meshes, "bullet", "duck.obj"), Seed: 22}},
	} {
		b.Run(c.name, func(b *testing.B) {
			w, err := bench.GenerateMeshPairs(c.spec, b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			shapes := make([]*toc.Shape, len(w.Meshes))
			for i, m := range w.Meshes {
				if shapes[i], err = toc.ShapeOf(m); err != nil {
					b.Fatal(err)
				}
			}
			var q toc.Scratch
			var cs []toc.Contact
			opt := &toc.Options{Motion: geom.ScrewMotion}
			var hits, misses []int
			for i, wq := range w.Queries {
				if cs, err = q.Between(shapes[wq.MeshA], wq.A0, wq.A1, shapes[wq.MeshB], wq.B0, wq.B1, opt, cs[:0]); err != nil {
					b.Fatal(err)
				}
				if len(cs) > 0 {
					hits = append(hits, i)
				} else {
					misses = append(misses, i)
				}
			}
			if len(hits) == 0 || len(misses) == 0 {
				b.Fatalf("%d of %d queries hit: the workload tests nothing", len(hits), len(w.Queries))
			}
			// All queries, then the hits and the misses apart (a hit's
			// search stops at the contact; a miss proves the whole step
			// free).
			for _, set := range []struct {
				name string
				idx  []int
			}{{"all", nil}, {"hits", hits}, {"misses", misses}} {
				b.Run(set.name, func(b *testing.B) {
					b.ReportAllocs()
					for i := 0; b.Loop(); i++ {
						k := i % len(w.Queries)
						if set.idx != nil {
							k = set.idx[i%len(set.idx)]
						}
						wq := &w.Queries[k]
						cs, _ = q.Between(shapes[wq.MeshA], wq.A0, wq.A1, shapes[wq.MeshB], wq.B0, wq.B1, opt, cs[:0])
					}
				})
			}
		})
	}
}
