package world

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// benchScene is the frames workload of the benchmark (FORMAT.md Sec. 5)
// run through a world: n convex polytopes of nv vertices (ellipsoids, rods
// and plates of radius about 1) bouncing in a box at the samples' density,
// moving 5% of their radius and turning 10 degrees per step.
type benchScene struct {
	w    *World
	ids  []BodyID
	pose []geom.Pose
	vel  []geom.Vec3
	spin []geom.Quat
	side float64
}

func newBenchScene(b testing.TB, n, nv int, kind BodyKind, opt *Options) *benchScene {
	w, err := New(opt)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(uint64(n), uint64(nv)))
	s := &benchScene{w: w, side: 6.18 * math.Cbrt(float64(n)/50)}
	meshes := map[int]*BodyDef{}
	for i := 0; i < n; i++ {
		k := i % 60 // 60 distinct meshes, shared
		def := meshes[k]
		if def == nil {
			m := shapes.RandomPolytope(shapes.PolytopeShape(k%3), nv, 0.65+0.45*r.Float64(), uint64(k+1))
			def = &BodyDef{Mesh: m, Kind: kind}
			meshes[k] = def
		}
		q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		p := geom.Pose{P: geom.Vec3{X: s.side * r.Float64(), Y: s.side * r.Float64(), Z: s.side * r.Float64()}, Q: q}
		d := *def
		d.Pose = p
		id, err := w.Add(d)
		if err != nil {
			b.Fatal(err)
		}
		s.ids = append(s.ids, id)
		s.pose = append(s.pose, p)
		dir, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		s.vel = append(s.vel, dir.Scale(0.05*def.Mesh.Radius()))
		ax, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		s.spin = append(s.spin, geom.QuatAxisAngle(ax, 10*math.Pi/180))
	}
	return s
}

// advance moves every body to its next pose (bouncing off the walls).
func (s *benchScene) advance(b testing.TB) {
	for i, id := range s.ids {
		p := s.pose[i].P.Add(s.vel[i])
		for k := 0; k < 3; k++ {
			if c := p.Get(k); (c < 0 && s.vel[i].Get(k) < 0) || (c > s.side && s.vel[i].Get(k) > 0) {
				s.vel[i] = s.vel[i].Set(k, -s.vel[i].Get(k))
			}
		}
		q, _ := s.spin[i].Mul(s.pose[i].Q).Normalize()
		s.pose[i] = geom.Pose{P: p, Q: q}
		if err := s.w.Move(id, s.pose[i]); err != nil {
			b.Fatal(err)
		}
	}
}

func benchStep(b *testing.B, n, nv int, kind BodyKind, workers int) {
	s := newBenchScene(b, n, nv, kind, &Options{Workers: workers})
	var cs []Contact
	for i := 0; i < 5; i++ {
		s.advance(b)
		cs, _ = s.w.Step(cs[:0])
	}
	b.ResetTimer()
	tests := 0
	var narrow, broadT int64
	for i := 0; i < b.N; i++ {
		s.advance(b)
		var err error
		if cs, err = s.w.Step(cs[:0]); err != nil {
			b.Fatal(err)
		}
		st := s.w.Stats()
		tests += st.Tests
		narrow += st.Narrow.Nanoseconds()
		broadT += st.Broad.Nanoseconds()
	}
	b.ReportMetric(float64(tests)/float64(b.N), "tests/step")
	b.ReportMetric(float64(narrow)/float64(b.N), "narrow-ns/step")
	b.ReportMetric(float64(broadT)/float64(b.N), "broad-ns/step")
	b.ReportMetric(float64(len(cs)), "contacts")
}

// BenchmarkStepConvex: 500 convex polytopes, separating vector per pair.
func BenchmarkStepConvex(b *testing.B) {
	for _, nv := range []int{10, 100} {
		for _, wk := range []int{1, 2} {
			b.Run(fmt.Sprintf("n500/v%d/workers%d", nv, wk), func(b *testing.B) { benchStep(b, 500, nv, Convex, wk) })
		}
	}
}

// BenchmarkStepScrew: 200 polytopes as polyhedra, screw-motion CCD per
// pair.
func BenchmarkStepScrew(b *testing.B) {
	for _, wk := range []int{1, 2} {
		b.Run(fmt.Sprintf("n200/v20/workers%d", wk), func(b *testing.B) { benchStep(b, 200, 20, Polyhedron, wk) })
	}
}
