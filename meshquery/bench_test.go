package meshquery

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
)

type sampleBench struct {
	a, b   *Tree
	ta, tb []geom.Transform
}

func loadSampleBench(b testing.TB) *sampleBench {
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

// duckBunny returns the trees of the duck and the bunny and n placements
// of the bunny around the duck (the duck at the identity), about half of
// them intersecting.
func duckBunny(b testing.TB, n int) *sampleBench {
	duck := loadMesh(b, "../testdata/meshes/bullet/duck.obj")
	bunny := loadMesh(b, "../testdata/meshes/parry/low_poly_bunny.obj")
	s := &sampleBench{a: mustTree(b, duck), b: mustTree(b, bunny)}
	r := rand.New(rand.NewPCG(21, 1))
	cb, dc := bunny.Bounds().Center(), duck.Bounds().Center()
	reach := s.a.Scale() + s.b.Scale()
	for i := 0; i < n; i++ {
		qb := randQuat(r)
		d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		d, _ = d.Normalize()
		pb := geom.Pose{P: dc.Sub(qb.Rotate(cb)).Add(d.Scale(reach * (0.4 + 0.4*r.Float64()))), Q: qb}
		s.ta = append(s.ta, geom.TransformIdentity())
		s.tb = append(s.tb, pb.Transform())
	}
	return s
}

// BenchmarkDuckBunnyIntersect: Intersect of the bunny placed around the
// duck (ns per placement).
func BenchmarkDuckBunnyIntersect(b *testing.B) {
	s := duckBunny(b, 40)
	var q Query
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(s.ta)
		q.Intersect(s.a, &s.ta[k], s.b, &s.tb[k])
	}
}

// BenchmarkDuckBunnyDistance: Distance (intersect, then the branch and
// bound) of the bunny placed around the duck (ns per placement).
func BenchmarkDuckBunnyDistance(b *testing.B) {
	s := duckBunny(b, 40)
	var q Query
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(s.ta)
		q.Distance(s.a, &s.ta[k], s.b, &s.tb[k], nil)
	}
}
