package convex

import (
	"errors"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

// checkSigned compares a SignedDistance answer with the oracles: the
// separating-axis margin (minus the depth when it is <= 0) and the
// brute-force distance, and checks the normal and points geometrically.
// It returns the reference signed distance.
func checkSigned(t *testing.T, label string, d Distance, a, b body, ra, rb, scale float64) float64 {
	t.Helper()
	margin := satMargin(a, b)
	ref := margin
	if margin > 0 {
		ref = bruteDistance(a, b)
	}
	tol := 1e-9 * scale
	if math.Abs(d.Separation-ref) > tol {
		t.Errorf("%s: separation %.17g, oracle %.17g (margin %.17g)", label, d.Separation, ref, margin)
		return ref
	}
	if math.Abs(d.Normal.Norm()-1) > 1e-12 {
		t.Errorf("%s: normal %v not unit", label, d.Normal)
	}
	// The normal attains the answer: the gap along it (min over B minus
	// max over A) is the separation for an overlap, and for a distance
	// the plane through PointA along it has A behind and B beyond
	// PointB (a separating plane certifying the closest points).
	g := gapAlong(a, b, d.Normal)
	if d.Separation <= 0 && math.Abs(g-d.Separation) > tol {
		t.Errorf("%s: gap along the normal %.17g, separation %.17g", label, g, d.Separation)
	}
	if d.Separation > 0 {
		for _, v := range a.v {
			if x := d.Normal.Dot(v.Sub(d.PointA)); x > tol {
				t.Errorf("%s: vertex of A %g beyond the plane at PointA", label, x)
				break
			}
		}
		for _, v := range b.v {
			if x := d.Normal.Dot(v.Sub(d.PointB)); x < -tol {
				t.Errorf("%s: vertex of B %g before the plane at PointB", label, -x)
				break
			}
		}
		if x := d.PointB.Sub(d.PointA).Norm(); math.Abs(x-ref) > tol {
			t.Errorf("%s: |PointB - PointA| %.17g, distance %.17g", label, x, ref)
		}
	}
	// The points lie on the bodies (within tolerance of every face plane
	// on the inner side).
	for _, x := range []struct {
		p geom.Vec3
		s body
	}{{d.PointA, a}, {d.PointB, b}} {
		for _, f := range x.s.faces {
			n, _ := faceNormal(x.s.v, f).Normalize()
			if h := n.Dot(x.p.Sub(x.s.v[f[0]])); h > tol {
				t.Errorf("%s: point %v outside a face by %g (%+v)", label, x.p, h, d)
				break
			}
		}
	}
	if !d.Exact {
		t.Errorf("%s: not certified exact", label)
	}
	return ref
}

// TestSignedDistanceOracle: seeded random pairs of every kind (random,
// near, touching, coplanar faces, nested), the hit rate held between 30%
// and 70%, every answer within 1e-9 of the oracles' relative to the scale,
// with and without a warm cache.
func TestSignedDistanceOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	n := 1500
	if testing.Short() {
		n = 300
	}
	cases := randomCases(rng, testShapes(t, false), n)
	var s Searcher
	hits := 0
	for i, c := range cases {
		a := body{worldVerts(c.a.v, c.ta), c.a.faces}
		b := body{worldVerts(c.b.v, c.tb), c.b.faces}
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		d, err := s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		label := c.kind + " " + c.a.name + "/" + c.b.name
		ref := checkSigned(t, label, d, a, b, c.a.p.Radius(), c.b.p.Radius(), scale)
		if ref <= 1e-9*scale { // touching counts
			hits++
		}
		var cache DistanceCache
		s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, &cache)
		d2, _ := s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, &cache)
		checkSigned(t, label+" (cached)", d2, a, b, c.a.p.Radius(), c.b.p.Radius(), scale)
		if t.Failed() && i > 20 {
			t.Fatalf("stopping after case %d", i)
		}
	}
	rate := float64(hits) / float64(len(cases))
	t.Logf("%d cases, overlap rate %.2f", len(cases), rate)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f outside [0.3, 0.7]", rate)
	}
}

// TestSignedDistanceRecord: the record follows the contact conventions.
func TestSignedDistanceRecord(t *testing.T) {
	shs := testShapes(t, false)
	box := shs[len(shs)-2]
	var s Searcher
	ta := geom.TransformIdentity()
	for _, c := range []struct {
		dx   float64
		want contact.Status
	}{{0.9, contact.Penetrating}, {1, contact.Touching}, {1.05, contact.Near}} {
		tb := geom.Transform{R: geom.Identity(), T: geom.Vec3{X: c.dx}}
		d, err := s.SignedDistance(box.p, &ta, box.p, &tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, ok := d.Record(0.1)
		if !ok || r.Status != c.want {
			t.Fatalf("dx %v: record %v ok %v, want %v", c.dx, r, ok, c.want)
		}
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Separation-(c.dx-1)) > 1e-12 || r.Normal.Sub(geom.Vec3{X: 1}).Norm() > 1e-12 {
			t.Fatalf("dx %v: record %v", c.dx, r)
		}
		if _, ok := d.Record(0.01); ok && c.want == contact.Near {
			t.Fatalf("dx %v: a record beyond the margin", c.dx)
		}
	}
}

// TestSignedDistanceCoherent: seeded random pairs moved by small random
// steps over 30 frames with a per-pair cache, every answer checked against
// the oracles; the cached closest features (feature coherence) must answer
// a good share of the separated frames, and the overlap rate stays within
// 30-70%.
func TestSignedDistanceCoherent(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 19))
	n := map[bool]int{false: 50, true: 16}[testing.Short()]
	cases := randomCases(rng, testShapes(t, false), n)
	hits, total, apart := 0, 0, 0
	var s Searcher
	for _, c := range cases {
		var cache DistanceCache
		tb := c.tb
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		step := 1e-3 * scale * math.Pow(10, 2*rng.Float64()) // 1e-3 to 1e-1 of the scale
		axis := randDir(rng)
		for fr := 0; fr < 30; fr++ {
			_, ref, label := checkCachedFrame(t, &s, c, &tb, &cache)
			total++
			if ref <= 1e-9*scale {
				hits++
			} else {
				apart++
			}
			if t.Failed() {
				t.Fatalf("frame %d of case %s", fr, label)
			}
			// A small screw step of B: a turn of up to 1 degree about a
			// slowly drifting axis and a shift along a random direction.
			axis = axis.AddScaled(0.2, randDir(rng))
			if u, ok := axis.Normalize(); ok {
				axis = u
			}
			q := geom.QuatAxisAngle(axis, (rng.Float64()-0.5)*math.Pi/90)
			tb.R = geom.Pose{Q: q}.Transform().R.Mul(tb.R)
			tb.T = tb.T.AddScaled(step, randDir(rng))
		}
	}
	rate := float64(hits) / float64(total)
	t.Logf("%d frames, overlap rate %.2f, %d of %d separated frames answered from cached features", total, rate, s.featureHits, apart)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f outside [0.3, 0.7]", rate)
	}
	if s.featureHits < apart/4 {
		t.Errorf("cached features answered only %d of %d separated frames", s.featureHits, apart)
	}
}

// TestSignedDistanceSAT: pairs of polytopes small enough for the
// separating-axis test (boxes, 10-vertex samples, tiny, huge and thin
// copies) in the overlap classes of randomCases (coplanar faces touching or
// overlapping slightly, nested, random; edge-on-edge depths among them),
// each answer checked against the oracles without and with a cache, moved
// by a small step; the test must answer most overlaps of each class (the
// others, where the deepest vertex does not give points on both bodies,
// go to the expanding polytope).
func TestSignedDistanceSAT(t *testing.T) {
	small := smallShapes(t)
	rng := rand.New(rand.NewPCG(23, 29))
	n := 600
	if testing.Short() {
		n = 200
	}
	cases := randomCases(rng, small, n)
	var s Searcher
	perKind := map[string][2]int{} // overlaps, answered by the test
	edges := 0
	for _, c := range cases {
		a := body{worldVerts(c.a.v, c.ta), c.a.faces}
		b := body{worldVerts(c.b.v, c.tb), c.b.faces}
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		label := c.kind + " " + c.a.name + "/" + c.b.name
		h0 := s.satHits
		d, err := s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref := checkSigned(t, label, d, a, b, c.a.p.Radius(), c.b.p.Radius(), scale)
		if ref <= 1e-9*scale {
			k := perKind[c.kind]
			k[0]++
			if s.satHits > h0 {
				k[1]++
				if d.FeatureA.Kind == contact.Edge && d.FeatureB.Kind == contact.Edge {
					edges++
				}
			}
			perKind[c.kind] = k
		}
		// The cached axis: the same pose, then a small step of B.
		var cache DistanceCache
		s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, &cache)
		tb := c.tb
		tb.T = tb.T.AddScaled(1e-3*scale, randDir(rng))
		b2 := body{worldVerts(c.b.v, tb), c.b.faces}
		d2, _ := s.SignedDistance(c.a.p, &c.ta, c.b.p, &tb, &cache)
		checkSigned(t, label+" (cached, moved)", d2, a, b2, c.a.p.Radius(), c.b.p.Radius(), scale)
		if t.Failed() {
			t.Fatalf("stopping at %s", label)
		}
	}
	t.Logf("overlaps and those answered by the separating-axis test per kind: %v; edge-edge depths %d", perKind, edges)
	for _, kind := range []string{"random", "coplanar", "nested"} {
		if k := perKind[kind]; k[0] == 0 || k[1] < k[0]/3 {
			t.Errorf("%s: %d overlaps, %d answered by the separating-axis test", kind, k[0], k[1])
		}
	}
	if edges == 0 {
		t.Errorf("no edge-edge depth")
	}
}

// TestSignedDistanceTranslationLimit: a translation with a coordinate
// beyond geom.MaxCoord in magnitude, or not a number, is an error wrapping
// ErrTransform for either body; one at the limit is answered.
func TestSignedDistanceTranslationLimit(t *testing.T) {
	sh := testShapes(t, false)[0]
	var s Searcher
	ok := geom.Transform{R: geom.Identity()}
	for _, c := range []struct {
		x   float64
		bad bool
	}{{geom.MaxCoord, false}, {-geom.MaxCoord, false}, {2 * geom.MaxCoord, true}, {-2 * geom.MaxCoord, true}, {math.NaN(), true}, {math.Inf(1), true}} {
		for k, v := range []geom.Vec3{{X: c.x}, {Y: c.x}, {Z: c.x}} {
			tf := ok
			tf.T = v
			_, errA := s.SignedDistance(sh.p, &tf, sh.p, &ok, nil)
			_, errB := s.SignedDistance(sh.p, &ok, sh.p, &tf, nil)
			for _, err := range []error{errA, errB} {
				if c.bad && !errors.Is(err, ErrTransform) || !c.bad && err != nil {
					t.Errorf("coordinate %d = %g: error %v", k, c.x, err)
				}
			}
		}
	}
}

// TestFeatureWalk moves small pairs by large steps (turns of up to 20
// degrees, shifts of 0.1 to 0.5 of the mean radius per frame, as in the
// 500-body benchmark scenes, where bodies move about a radius per frame
// relative to each other) with a cache, every frame checked against the
// oracles. The cached closest features are then rarely still the closest:
// the feature walk (V-Clip's moves out of a vertex's, edge's or face's
// Voronoi region) must still answer most
// separated frames that follow a separated frame; without the walk (only
// the cached pair and its supporting vertices) it answers about half.
func TestFeatureWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	n := map[bool]int{false: 120, true: 40}[testing.Short()]
	cases := randomCases(rng, smallShapes(t), n)
	var s Searcher
	total, overlap, follow := 0, 0, 0
	for _, c := range cases {
		var cache DistanceCache
		tb := c.tb
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		wasApart := false
		for fr := 0; fr < 12; fr++ {
			_, ref, label := checkCachedFrame(t, &s, c, &tb, &cache)
			if t.Failed() {
				t.Fatalf("frame %d of case %s", fr, label)
			}
			total++
			apart := ref > 1e-9*scale
			if !apart {
				overlap++
			}
			if apart && wasApart {
				follow++
			}
			wasApart = apart
			// A large screw step of B, drawn back towards A so that the
			// pair keeps meeting.
			q := geom.QuatAxisAngle(randDir(rng), (rng.Float64()-0.5)*math.Pi/9)
			tb.R = geom.Pose{Q: q}.Transform().R.Mul(tb.R)
			if d := c.ta.T.Sub(tb.T); d.Norm() > 2*scale {
				tb.T = tb.T.AddScaled(0.3, d)
			}
			tb.T = tb.T.AddScaled(scale*(0.1+0.4*rng.Float64()), randDir(rng))
		}
	}
	rate := float64(overlap) / float64(total)
	t.Logf("%d frames, overlap rate %.2f, %d separated frames after a separated one, %d answered by the feature walk", total, rate, follow, s.featureHits)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f outside [0.3, 0.7]", rate)
	}
	if s.featureHits < 3*follow/4 {
		t.Errorf("the feature walk answered %d frames, fewer than 3/4 of the %d separated frames after a separated one", s.featureHits, follow)
	}
}

// TestSignedDistanceForeignCache: a cache warmed on another pair, or whose
// closest-feature record is scrambled (ids that name no feature pair of
// these bodies, edges whose ends are not the ids', indices out of range),
// only costs time: every answer is checked against the oracles.
func TestSignedDistanceForeignCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 53))
	n := map[bool]int{false: 400, true: 120}[testing.Short()]
	cases := randomCases(rng, smallShapes(t), n)
	kinds := []contact.FeatureKind{contact.Vertex, contact.Edge, contact.Face}
	var s Searcher
	var prev DistanceCache
	for k, c := range cases {
		cache := prev
		if k%2 == 1 {
			na, nb := int32(len(c.a.p.verts)), int32(len(c.b.p.verts))
			ne := int32(max(c.a.p.mesh.NumEdges(), c.b.p.mesh.NumEdges()))
			cache.feat = featCache{
				kind: uint8(1 + rng.IntN(6)),
				va:   [2]int32{rng.Int32N(na), rng.Int32N(na)},
				vb:   [2]int32{rng.Int32N(nb), rng.Int32N(nb)},
				fa:   contact.Feature{Kind: kinds[rng.IntN(3)], Index: rng.Int32N(ne)},
				fb:   contact.Feature{Kind: kinds[rng.IntN(3)], Index: rng.Int32N(ne)},
			}
		}
		tb := c.tb
		checkCachedFrame(t, &s, c, &tb, &cache)
		if t.Failed() {
			t.Fatalf("case %d", k)
		}
		prev = cache
	}
}

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

// TestSATComeApart: small pairs that overlapped at the last query (their
// cached axis) and have come apart, B moved along the depth's direction
// by the depth and a gap of 1e-6 to 0.3 of the size (and turned by up to
// a degree): every answer checked against the oracles, and most of them
// given by the feature walk started from the axis that separates them
// (no GJK), the depth's direction being the axis's.
func TestSATComeApart(t *testing.T) {
	small := smallShapes(t)
	rng := rand.New(rand.NewPCG(31, 37))
	n := map[bool]int{false: 600, true: 200}[testing.Short()]
	cases := randomCases(rng, small, n)
	var s Searcher
	apart, walked := 0, 0
	for _, c := range cases {
		var cache DistanceCache
		d, ref, label := checkCachedFrame(t, &s, c, &c.tb, &cache)
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		if ref > 1e-9*scale || cache.sat.kind == axNone {
			continue // apart, or an overlap the axis test did not answer
		}
		tb := c.tb
		tb.T = tb.T.AddScaled(-d.Separation+scale*math.Pow(10, -6+5.5*rng.Float64()), d.Normal)
		q := geom.QuatAxisAngle(randDir(rng), (rng.Float64()-0.5)*math.Pi/90)
		tb.R = geom.Pose{Q: q}.Transform().R.Mul(tb.R)
		h0 := s.featureHits // the cache has no feature pair: a hit is the walk from the axis
		_, ref2, _ := checkCachedFrame(t, &s, c, &tb, &cache)
		if t.Failed() {
			t.Fatalf("case %s", label)
		}
		if ref2 <= 1e-9*scale {
			continue // the turn kept them overlapping
		}
		apart++
		if s.featureHits > h0 {
			walked++
		}
	}
	t.Logf("%d pairs come apart, %d answered by the walk from the separating axis", apart, walked)
	if apart < n/12 || walked < apart*3/4 {
		t.Errorf("%d pairs come apart, %d answered by the walk from the separating axis", apart, walked)
	}
}

// TestSATFresh: small pairs of every kind of placement queried without a
// cache: each answer checked against the oracles, and most pairs apart
// answered by the feature walk started from the axis the separating-axis
// test found separating them, most overlapping ones by that test itself
// (neither after GJK).
func TestSATFresh(t *testing.T) {
	small := smallShapes(t)
	rng := rand.New(rand.NewPCG(41, 43))
	n := map[bool]int{false: 600, true: 200}[testing.Short()]
	var s Searcher
	apart, walked, over, tested := 0, 0, 0, 0
	for _, c := range randomCases(rng, small, n) {
		h0, a0 := s.featureHits, s.satHits
		_, ref, label := checkCachedFrame(t, &s, c, &c.tb, nil)
		if t.Failed() {
			t.Fatalf("case %s", label)
		}
		if ref > 1e-9*(c.a.p.Radius()+c.b.p.Radius())/2 {
			apart++
			if s.featureHits > h0 {
				walked++
			}
		} else {
			over++
			if s.satHits > a0 {
				tested++
			}
		}
	}
	t.Logf("%d apart, %d answered by the walk from the separating axis; %d overlapping, %d by the separating-axis test", apart, walked, over, tested)
	if apart < n/5 || walked < apart/2 || over < n/5 || tested < over/2 {
		t.Errorf("%d apart, %d answered by the walk; %d overlapping, %d by the separating-axis test", apart, walked, over, tested)
	}
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

// TestVertexExit checks vertexExit, the feature walk's step out of a
// vertex, against the exit computed from the mesh's own edge lists and
// vertices: the neighbour u maximising ((u - v).n)^2 / |u - v|^2 over
// those with (u - v).n > 0, or none, for random directions near the
// vertex's outward direction on hulls of 8 to 103 vertices (both answers
// occurring).
func TestVertexExit(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	exits, stays := 0, 0
	for trial := 0; trial < 16; trial++ {
		n := 8 + rng.IntN(96)
		pts := make([]geom.Vec3, n)
		for i := range pts {
			v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			pts[i] = v.Scale(1 / v.Norm())
		}
		p, err := FromPoints(pts)
		if err != nil {
			t.Fatal(err)
		}
		m := p.Mesh()
		nv := m.NumVerts()
		for k := 0; k < 200; k++ {
			v := int32(rng.IntN(nv))
			x := m.Verts[v]
			d := x.Add(geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(0.15))
			want, best := int32(-1), 0.0
			for _, e := range m.VertexEdges(int(v)) {
				u := m.Edges[e].Other(v)
				du := m.Verts[u].Sub(x)
				if h := d.Dot(m.Verts[u]) - d.Dot(x); h > 0 && h*h/du.Dot(du) > best {
					want, best = u, h*h/du.Dot(du)
				}
			}
			if got := vertexExit(p, v, d); got != want {
				t.Fatalf("trial %d vertex %d direction %v: exit %d, mesh %d", trial, v, d, got, want)
			}
			if want < 0 {
				stays++
			} else {
				exits++
			}
		}
	}
	if r := float64(exits) / float64(exits+stays); r < 0.3 || r > 0.7 {
		t.Fatalf("%d exits and %d stays: exit rate %.2f outside [0.3, 0.7]", exits, stays, r)
	}
}
