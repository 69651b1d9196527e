package meshquery

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
)

type sampleBench struct {
	a, b   *Tree
	ta, tb []geom.Transform
}

func loadSampleBench(b testing.TB) *sampleBench {
	env := testutil.ReadMesh(b, filepath.Join(sampleDir, "meshes/env.obj"))
	rob := testutil.ReadMesh(b, filepath.Join(sampleDir, "meshes/rob.obj"))
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
	runDistance(b, s, func(q *Scratch, k int) {
		if _, err := q.Intersect(s.a, &s.ta[k], s.b, &s.tb[k]); err != nil {
			b.Fatal(err)
		}
	})
}

// BenchmarkSampleDistance: Distance (intersect, then the branch and
// bound) on the 60 env/rob placements (ns per placement).
func BenchmarkSampleDistance(b *testing.B) {
	s := loadSampleBench(b)
	runDistance(b, s, func(q *Scratch, k int) {
		if _, err := q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil); err != nil {
			b.Fatal(err)
		}
	})
}

// duckBunny returns the trees of the duck and the bunny and n placements
// of the bunny around the duck (the duck at the identity), about half of
// them intersecting.
func duckBunny(b testing.TB, n int) *sampleBench {
	duck := testutil.ReadMesh(b, "../testdata/meshes/bullet/duck.obj")
	bunny := testutil.ReadMesh(b, "../testdata/meshes/parry/low_poly_bunny.obj")
	s := &sampleBench{a: mustTree(b, duck), b: mustTree(b, bunny)}
	r := rand.New(rand.NewPCG(21, 1))
	cb, dc := bunny.Bounds().Center(), duck.Bounds().Center()
	reach := s.a.Scale() + s.b.Scale()
	for i := 0; i < n; i++ {
		pb := placeAround(r, dc, cb, reach)
		s.ta = append(s.ta, geom.TransformIdentity())
		s.tb = append(s.tb, pb.Transform())
	}
	return s
}

// BenchmarkDuckBunnyIntersect: Intersect of the bunny placed around the
// duck (ns per placement).
func BenchmarkDuckBunnyIntersect(b *testing.B) {
	s := duckBunny(b, 40)
	runDistance(b, s, func(q *Scratch, k int) { q.Intersect(s.a, &s.ta[k], s.b, &s.tb[k]) })
}

// BenchmarkDuckBunnyDistance: Distance (intersect, then the branch and
// bound) of the bunny placed around the duck (ns per placement).
func BenchmarkDuckBunnyDistance(b *testing.B) {
	s := duckBunny(b, 40)
	runDistance(b, s, func(q *Scratch, k int) { q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil) })
}

// workloadBench loads the placements workload named by MESHQUERY_BENCH
// (skipped when unset; mesh files as named in placements.csv under
// meshes/) and splits its placements by whether Intersect finds a hit.
func workloadBench(b *testing.B) (hits, misses *sampleBench) {
	dir := os.Getenv("MESHQUERY_BENCH")
	if dir == "" {
		b.Skip("MESHQUERY_BENCH not set")
	}
	trees := map[string]*Tree{}
	tree := func(name string) *Tree {
		if t, ok := trees[name]; ok {
			return t
		}
		t := mustTree(b, testutil.ReadMesh(b, filepath.Join(dir, "meshes", name+".obj")))
		trees[name] = t
		return t
	}
	hits, misses = &sampleBench{}, &sampleBench{}
	var q Scratch
	for _, p := range readPlacements(b, filepath.Join(dir, "placements.csv")) {
		a, t := tree(p.meshA), tree(p.meshB)
		ta, tb := p.pa.Transform(), p.pb.Transform()
		s := misses
		if hit, _ := q.Intersect(a, &ta, t, &tb); hit {
			s = hits
		}
		s.a, s.b = a, t
		s.ta, s.tb = append(s.ta, ta), append(s.tb, tb)
	}
	return hits, misses
}

// BenchmarkWorkloadIntersect: Intersect on the hit placements of the
// workload named by MESHQUERY_BENCH (ns per placement).
func BenchmarkWorkloadIntersect(b *testing.B) {
	s, _ := workloadBench(b)
	runDistance(b, s, func(q *Scratch, k int) { q.Intersect(s.a, &s.ta[k], s.b, &s.tb[k]) })
}

// BenchmarkWorkloadDistance: Distance on the placements without a hit
// of the workload named by MESHQUERY_BENCH (ns per placement).
func BenchmarkWorkloadDistance(b *testing.B) {
	_, s := workloadBench(b)
	runDistance(b, s, func(q *Scratch, k int) { q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil) })
}

// BenchmarkWorkloadDistanceHits: Distance on the hit placements of the
// workload named by MESHQUERY_BENCH (ns per placement).
func BenchmarkWorkloadDistanceHits(b *testing.B) {
	s, _ := workloadBench(b)
	runDistance(b, s, func(q *Scratch, k int) { q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil) })
}

// runDistance times f over the placements of s, round robin.
func runDistance(b *testing.B, s *sampleBench, f func(q *Scratch, k int)) {
	if len(s.ta) == 0 {
		b.Skip("no placements")
	}
	var q Scratch
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f(&q, i%len(s.ta))
	}
}
