package convex

import (
	"math"
	"runtime"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/cputime"
)

// benchWorkload is a sample workload prepared for timing: transforms per
// frame and body, and the AABB-overlapping pairs of every frame in order.
type benchWorkload struct {
	s     *sample
	tf    [][]geom.Transform
	pairs []expectedRow
}

func loadBench(b testing.TB, name string) *benchWorkload {
	s := loadSample(b, name)
	w := &benchWorkload{s: s, pairs: s.expected}
	for _, ps := range s.poses {
		var row []geom.Transform
		for _, p := range ps {
			row = append(row, p.Transform())
		}
		w.tf = append(w.tf, row)
	}
	return w
}

// runPasses times b.N passes over the workload with test, frames in order,
// and reports ns per pair test.
func (w *benchWorkload) runPasses(b *testing.B, reset func(), test func(a, bb int, ta, tb *geom.Transform) bool) {
	pass := func() int {
		reset()
		hits := 0
		for i := range w.pairs {
			e := &w.pairs[i]
			if test(e.a, e.b, &w.tf[e.frame][e.a], &w.tf[e.frame][e.b]) {
				hits++
			}
		}
		return hits
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	pass() // warm-up
	b.ResetTimer()
	c0 := cputime.Thread()
	for i := 0; i < b.N; i++ {
		pass()
	}
	c1 := cputime.Thread()
	q := float64(b.N * len(w.pairs))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/q, "ns/query")
	// CPU time of this thread: less disturbed by other processes on a
	// shared machine than wall time.
	b.ReportMetric(float64(c1-c0)/q, "cpu-ns/query")
}

func benchName(s string) string { return s[len("polytopes-mixed-"):] }

// BenchmarkSepVec: the separating-vector search with per-pair caches
// carried from frame to frame (the "sepvec" bench algorithm).
func BenchmarkSepVec(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			var s Searcher
			var caches PairMap[Cache]
			w.runPasses(b, caches.Reset, func(i, j int, ti, tj *geom.Transform) bool {
				return s.Intersect(w.s.polys[i], ti, w.s.polys[j], tj, caches.Get(i, j)).Status != Separated
			})
		})
	}
}

// BenchmarkSepVecPosed: the search on posed bodies (world vertices
// computed once per body and frame, at the body's first test, inside the
// timed region), with per-pair caches: what the "sepvec" bench algorithm
// does for bodies of at most 16 vertices, except that it poses a frame's
// bodies in one pass before the tests.
func BenchmarkSepVecPosed(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			var s Searcher
			var caches PairMap[Cache]
			posed := make([]Posed, len(w.s.polys))
			stamp := make([]int, len(w.s.polys))
			pose := func(frame, i int) *Posed {
				if stamp[i] != frame+1 {
					stamp[i] = frame + 1
					posed[i].Set(w.s.polys[i], &w.tf[frame][i])
				}
				return &posed[i]
			}
			pass := func() {
				caches.Reset()
				clear(stamp)
				for k := range w.pairs {
					e := &w.pairs[k]
					s.IntersectPosed(pose(e.frame, e.a), pose(e.frame, e.b), caches.Get(e.a, e.b))
				}
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			pass()
			b.ResetTimer()
			c0 := cputime.Thread()
			for i := 0; i < b.N; i++ {
				pass()
			}
			q := float64(b.N * len(w.pairs))
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/q, "ns/query")
			b.ReportMetric(float64(cputime.Thread()-c0)/q, "cpu-ns/query")
		})
	}
}

// BenchmarkSepVecNoCache: the search from scratch every time (centroid
// direction, table start vertices).
func BenchmarkSepVecNoCache(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			var s Searcher
			w.runPasses(b, func() {}, func(i, j int, ti, tj *geom.Transform) bool {
				return s.Intersect(w.s.polys[i], ti, w.s.polys[j], tj, nil).Status != Separated
			})
		})
	}
}

// BenchmarkGJK: GJKIntersect without coherence.
func BenchmarkGJK(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			w.runPasses(b, func() {}, func(i, j int, ti, tj *geom.Transform) bool {
				return GJKIntersect(w.s.polys[i], ti, w.s.polys[j], tj, nil, nil).Status != Separated
			})
		})
	}
}

// BenchmarkGJKWarm: GJKIntersect warm-started per pair.
func BenchmarkGJKWarm(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			var caches PairMap[GJKCache]
			w.runPasses(b, caches.Reset, func(i, j int, ti, tj *geom.Transform) bool {
				return GJKIntersect(w.s.polys[i], ti, w.s.polys[j], tj, caches.Get(i, j), nil).Status != Separated
			})
		})
	}
}

// BenchmarkGJKDistance: full GJK distance with closest points.
func BenchmarkGJKDistance(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			w.runPasses(b, func() {}, func(i, j int, ti, tj *geom.Transform) bool {
				return GJK(w.s.polys[i], ti, w.s.polys[j], tj, nil, nil).Status != Separated
			})
		})
	}
}

// BenchmarkSupport compares the supporting-vertex searches from scratch.
func BenchmarkSupport(b *testing.B) {
	for _, name := range sampleNames {
		s := loadSample(b, name)
		p := s.polys[0]
		dirs := make([]geom.Vec3, 256)
		for i := range dirs {
			dirs[i] = tableDir(i % (TableRows * TableCols)).Add(geom.Vec3{X: 0.1 * float64(i%7), Y: 0.05 * float64(i%5)})
		}
		b.Run(benchName(name)+"/brute", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.SupportBrute(dirs[i&255])
			}
		})
		b.Run(benchName(name)+"/table", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.Support(dirs[i&255])
			}
		})
		b.Run(benchName(name)+"/dk", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.SupportDK(dirs[i&255])
			}
		})
	}
}

// BenchmarkSepVecBestCase: one separated pair queried again with its cache
// (one iteration, the cached vertices already supporting): the fixed cost
// of a coherent test.
func BenchmarkSepVecBestCase(b *testing.B) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			s := loadSample(b, name)
			for _, e := range s.expected {
				if e.hit {
					continue
				}
				ta, tb := s.poses[e.frame][e.a].Transform(), s.poses[e.frame][e.b].Transform()
				var sv Searcher
				var c Cache
				sv.Intersect(s.polys[e.a], &ta, s.polys[e.b], &tb, &c)
				if r := sv.Intersect(s.polys[e.a], &ta, s.polys[e.b], &tb, &c); r.Iterations != 1 {
					continue
				}
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				b.ResetTimer()
				c0 := cputime.Thread()
				for i := 0; i < b.N; i++ {
					sv.Intersect(s.polys[e.a], &ta, s.polys[e.b], &tb, &c)
				}
				b.ReportMetric(float64(cputime.Thread()-c0)/float64(b.N), "cpu-ns/query")
				return
			}
		})
	}
}

// BenchmarkSignedDistance: SignedDistance with per-pair caches carried from
// frame to frame (the "signed-distance" bench contact algorithm).
func BenchmarkSignedDistance(b *testing.B) { benchSignedDistance(b, true) }

// BenchmarkSignedDistanceNoCache: SignedDistance from scratch (the
// "signed-distance-cold" bench contact algorithm): GJK from the direction
// tables, the expanding polytope from GJK's simplex.
func BenchmarkSignedDistanceNoCache(b *testing.B) { benchSignedDistance(b, false) }

// benchSignedDistance times SignedDistance on every sample, with a cache
// per pair carried from frame to frame when cached, else without.
func benchSignedDistance(b *testing.B, cached bool) {
	for _, name := range sampleNames {
		b.Run(benchName(name), func(b *testing.B) {
			w := loadBench(b, name)
			var s Searcher
			var caches PairMap[DistanceCache]
			cache := func(i, j int) *DistanceCache {
				if !cached {
					return nil
				}
				return caches.Get(i, j)
			}
			w.runPasses(b, caches.Reset, func(i, j int, ti, tj *geom.Transform) bool {
				d, _ := s.SignedDistance(w.s.polys[i], ti, w.s.polys[j], tj, cache(i, j))
				return d.Separation <= 0
			})
		})
	}
}

// BenchmarkSignedDistanceOverlap: SignedDistance on the overlapping pairs
// of the 10-vertex sample only (the separating-axis test, from the cached
// axis after the first frame), per-pair caches carried from frame to
// frame.
func BenchmarkSignedDistanceOverlap(b *testing.B) {
	w := loadBench(b, sampleNames[0])
	var over []expectedRow
	for _, e := range w.pairs {
		if e.hit {
			over = append(over, e)
		}
	}
	w.pairs = over
	var s Searcher
	var caches PairMap[DistanceCache]
	w.runPasses(b, caches.Reset, func(i, j int, ti, tj *geom.Transform) bool {
		d, _ := s.SignedDistance(w.s.polys[i], ti, w.s.polys[j], tj, caches.Get(i, j))
		return d.Separation <= 0
	})
}

// BenchmarkSATFaces times the face stage of the separating-axis test for
// two 10-vertex polytopes of the n10 sample: every face axis of both
// bodies, exactly, by the vector kernel (minDirsVec, one call per body)
// when the processor has it, else the bounded search over the faces.
func BenchmarkSATFaces(b *testing.B) {
	s := loadSample(b, sampleNames[0])
	pa, pb := s.polys[0], s.polys[1]
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.Vec3{X: 0.5, Y: 0.2}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 1}, 0.3)}.Transform()
	var sr Searcher
	f := sr.frameOf(pa, &ta, pb, &tb)
	st := &sr.sat
	st.next()
	st.setB(f)
	cB, cAB := f.pb2(pb.centroid), f.R.mulT(pa.centroid.Sub(f.t))
	fast := st.bvec && pa.soa != nil
	for b.Loop() {
		best := satAnswer{U: math.Inf(1)}
		if fast {
			sr.satFaces(f, cB, cAB, cB, cAB, &best)
		} else {
			sr.satFacesBounded(f, cB, cAB, &best, 0)
		}
	}
}
