package convex

import (
	"errors"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

// contactRow is a row of a sample's expected/contact.csv (the exact
// reference signed distance of FORMAT.md Sec. 8).
type contactRow struct {
	frame, a, b int
	sd          float64
}

func loadContactRows(t *testing.T, name string) []contactRow {
	t.Helper()
	rows := readCSV(t, filepath.Join(samplesDir, name, "expected", "contact.csv"))
	var out []contactRow
	for _, r := range rows[1:] {
		var c contactRow
		var err error
		for i, p := range []*int{&c.frame, &c.a, &c.b} {
			if *p, err = strconv.Atoi(r[i]); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		if c.sd, err = strconv.ParseFloat(r[4], 64); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, c)
	}
	return out
}

// TestSignedDistancesBatch replays the n10 and n100 samples frame by frame
// through SignedDistances, with per-pair caches carried from frame to frame,
// beside one SignedDistance call per pair with caches of their own: the
// answers must be the same bit for bit (every field), the caches must lead
// to the same answers next frame, and every signed distance must match the
// sample's exact reference within 1e-9 of the radii.
func TestSignedDistancesBatch(t *testing.T) {
	for _, name := range sampleNames[:2] {
		s := loadSample(t, name)
		rows := loadContactRows(t, name)
		var batch, single Searcher
		slot := map[[2]int]int{}
		// Room for every pair, so that the pointers stay valid.
		bc, sc := make([]DistanceCache, 0, len(rows)), make([]DistanceCache, 0, len(rows))
		var qs []PairQuery
		tf := make([]geom.Transform, len(s.polys))
		hits, n := 0, 0
		for lo := 0; lo < len(rows); {
			fr := rows[lo].frame
			hi := lo
			for hi < len(rows) && rows[hi].frame == fr {
				hi++
			}
			for i := range tf {
				tf[i] = s.poses[fr][i].Transform()
			}
			qs = qs[:0]
			for _, r := range rows[lo:hi] {
				k, ok := slot[[2]int{r.a, r.b}]
				if !ok {
					k = len(bc)
					slot[[2]int{r.a, r.b}] = k
					bc, sc = append(bc, DistanceCache{}), append(sc, DistanceCache{})
				}
				qs = append(qs, PairQuery{A: int32(r.a), B: int32(r.b), Cache: &bc[k]})
			}
			if bad := batch.SignedDistances(s.polys, tf, qs); bad != 0 {
				t.Fatalf("%s frame %d: %d queries failed", name, fr, bad)
			}
			for i, r := range rows[lo:hi] {
				q := &qs[i]
				k := slot[[2]int{r.a, r.b}]
				want, err := single.SignedDistance(s.polys[r.a], &tf[r.a], s.polys[r.b], &tf[r.b], &sc[k])
				if err != nil || q.Err != nil {
					t.Fatalf("%s frame %d pair %d-%d: %v, %v", name, fr, r.a, r.b, err, q.Err)
				}
				if q.Out != want {
					t.Fatalf("%s frame %d pair %d-%d: batch %+v, single %+v", name, fr, r.a, r.b, q.Out, want)
				}
				scale := (s.polys[r.a].Radius() + s.polys[r.b].Radius()) / 2
				if math.Abs(q.Out.Separation-r.sd) > 1e-9*scale {
					t.Fatalf("%s frame %d pair %d-%d: separation %.17g, reference %.17g", name, fr, r.a, r.b, q.Out.Separation, r.sd)
				}
				if r.sd <= 0 {
					hits++
				}
				n++
			}
			lo = hi
		}
		rate := float64(hits) / float64(n)
		t.Logf("%s: %d queries, overlap rate %.2f, %d answered from cached features, %d by the separating-axis test", name, n, rate, batch.featureHits, batch.satHits)
		if rate < 0.1 || rate > 0.9 {
			t.Errorf("%s: overlap rate %.2f", name, rate)
		}
		if batch.featureHits != single.featureHits || batch.satHits != single.satHits {
			t.Errorf("%s: batch took other paths than the single queries (feature hits %d, %d; axis test %d, %d)", name, batch.featureHits, single.featureHits, batch.satHits, single.satHits)
		}
	}
}

// TestSignedDistancesErrors: a query naming a body out of range, a nil
// polytope, a translation beyond geom.MaxCoord or a sheared rotation gets
// its own error naming the query's index; the other queries of the batch
// are answered as if alone.
func TestSignedDistancesErrors(t *testing.T) {
	s := loadSample(t, sampleNames[0])
	polys := append([]*Polytope{nil}, s.polys[:4]...) // body 0 is nil
	tf := make([]geom.Transform, len(polys))
	for i := range tf {
		tf[i] = geom.Pose{P: geom.Vec3{X: float64(i)}}.Transform()
	}
	tf[3].T.Y = 2 * geom.MaxCoord
	tf[4].R[0][1] = 0.1 // not a rotation
	qs := []PairQuery{{A: 1, B: 2}, {A: 0, B: 1}, {A: 1, B: 5}, {A: 2, B: 3}, {A: 4, B: 1}, {A: -1, B: 2}, {A: 2, B: 1}}
	var sv Searcher
	if bad := sv.SignedDistances(polys, tf, qs); bad != 5 {
		t.Errorf("%d failed queries, want 5", bad)
	}
	for k, q := range qs {
		wantErr := k != 0 && k != 6
		if (q.Err != nil) != wantErr {
			t.Errorf("query %d: error %v, want an error: %v", k, q.Err, wantErr)
			continue
		}
		if q.Err != nil {
			if want := "query " + strconv.Itoa(k) + ":"; !strings.Contains(q.Err.Error(), want) {
				t.Errorf("query %d: error %q does not name it", k, q.Err)
			}
			if (k == 3 || k == 4) != errors.Is(q.Err, ErrTransform) {
				t.Errorf("query %d: error %q", k, q.Err)
			}
			if q.Out != (Distance{}) {
				t.Errorf("query %d: failed but answered %+v", k, q.Out)
			}
			continue
		}
		want, err := sv.SignedDistance(polys[q.A], &tf[q.A], polys[q.B], &tf[q.B], nil)
		if err != nil || want != q.Out {
			t.Errorf("query %d: %+v, alone %+v (%v)", k, q.Out, want, err)
		}
	}
}

// TestSignedDistancesNoAllocs: a batch allocates nothing once the
// searcher's scratch space has grown.
func TestSignedDistancesNoAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	s := loadSample(t, sampleNames[0])
	caches := make([]DistanceCache, len(s.expected))
	qs := make([]PairQuery, 0, len(s.expected))
	tf := make([]geom.Transform, len(s.polys))
	var sv Searcher
	run := func() {
		for lo := 0; lo < len(s.expected); {
			fr := s.expected[lo].frame
			for i := range tf {
				tf[i] = s.poses[fr][i].Transform()
			}
			qs = qs[:0]
			for ; lo < len(s.expected) && s.expected[lo].frame == fr; lo++ {
				e := s.expected[lo]
				qs = append(qs, PairQuery{A: int32(e.a), B: int32(e.b), Cache: &caches[lo]})
			}
			sv.SignedDistances(s.polys, tf, qs)
		}
	}
	run()
	if n := testing.AllocsPerRun(3, run); n != 0 {
		t.Errorf("%v allocations per pass", n)
	}
}

// FuzzSignedDistances: three bodies placed by arbitrary numbers (a nil
// polytope among them) and four queries naming arbitrary bodies, answered
// twice with caches: no panic, and every query either fails with an error
// naming it or gets what SignedDistance answers for the pair with a cache
// carried the same way.
func FuzzSignedDistances(f *testing.F) {
	seed := func(idx []byte, vals ...float64) []byte { return append(idx, fuzzSeed(vals...)...) }
	f.Add(seed([]byte{0, 1, 1, 0, 0, 2, 1, 2}, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0.8, 0.1, 0, 1, 0, 0, 0, 1.5, 0, 0))
	f.Add(seed([]byte{0, 1, 3, 0, 255, 2, 1, 1}, 1, 0, 0, 0, 0, 0, 0, 0.7, 0.7, 0, 0, 0.3, 0.2, 0.1, 1, 0, 0, 0, 1e300, 0, 0))
	f.Add(seed([]byte{0, 1, 0, 1, 1, 0, 0, 0}, math.NaN(), 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0))
	pa, pb := fuzzBodies(f)
	polys := []*Polytope{pa, pb, pa, nil}
	var batch, single Searcher
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 8 {
			return
		}
		idx, fl := data[:8], floats(data[8:], 21)
		tf := make([]geom.Transform, 4)
		for i := range 3 {
			x := fl[7*i:]
			q, _ := geom.Quat{W: x[0], X: x[1], Y: x[2], Z: x[3]}.Normalize()
			tf[i] = geom.Pose{P: geom.Vec3{X: x[4], Y: x[5], Z: x[6]}, Q: q}.Transform()
		}
		tf[3] = geom.TransformIdentity()
		var bc, sc [4]DistanceCache
		qs := make([]PairQuery, 4)
		for k := range qs {
			qs[k] = PairQuery{A: int32(int8(idx[2*k])) % 5, B: int32(int8(idx[2*k+1])) % 5, Cache: &bc[k]}
		}
		for range 2 {
			bad := batch.SignedDistances(polys, tf, qs)
			n := 0
			for k, q := range qs {
				if q.Err != nil {
					n++
					if !strings.Contains(q.Err.Error(), "query "+strconv.Itoa(k)+":") || q.Out != (Distance{}) {
						t.Fatalf("query %d: error %v with %+v", k, q.Err, q.Out)
					}
					if uint32(q.A) < 4 && uint32(q.B) < 4 {
						if _, err := single.SignedDistance(polys[q.A], &tf[q.A], polys[q.B], &tf[q.B], &sc[k]); err == nil {
							t.Fatalf("query %d: error %v, none alone", k, q.Err)
						}
					}
					continue
				}
				want, err := single.SignedDistance(polys[q.A], &tf[q.A], polys[q.B], &tf[q.B], &sc[k])
				if err != nil || want != q.Out {
					t.Fatalf("query %d: %+v, alone %+v (%v)", k, q.Out, want, err)
				}
			}
			if n != bad {
				t.Fatalf("%d errors, %d reported", n, bad)
			}
		}
	})
}
