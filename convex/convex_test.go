package convex

import (
	"flag"
	"fmt"
	"github.com/collide-go/collide/contact"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

var long = flag.Bool("long", false, "run the exhaustive variants (more random pairs, 1000-vertex oracle)")

var sampleNames = []string{
	"polytopes-mixed-n10-b50-f40-s1",
	"polytopes-mixed-n100-b40-f40-s2",
	"polytopes-mixed-n1000-b10-f20-s3",
}

// narrowAlgo is one way of answering a pair test, with per-pair state.
type narrowAlgo struct {
	name string
	test func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane)
}

func algos() []narrowAlgo {
	var s Searcher
	sv := map[[2]int]*Cache{}
	svp := map[[2]int]*Cache{}
	svs := map[[2]int]*Cache{}
	svps := map[[2]int]*Cache{}
	gw := map[[2]int]*GJKCache{}
	return []narrowAlgo{
		{"sepvec", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			c := sv[[2]int{a, b}]
			if c == nil {
				c = new(Cache)
				sv[[2]int{a, b}] = c
			}
			r := s.Intersect(pa, ta, pb, tb, c)
			return r.Status, r.Plane
		}},
		{"sepvec-posed", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			c := svp[[2]int{a, b}]
			if c == nil {
				c = new(Cache)
				svp[[2]int{a, b}] = c
			}
			var xa, xb Posed
			xa.Set(pa, ta)
			xb.Set(pb, tb)
			r := s.IntersectPosed(&xa, &xb, c)
			return r.Status, r.Plane
		}},
		{"sepvec-status", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			c := svs[[2]int{a, b}]
			if c == nil {
				c = new(Cache)
				svs[[2]int{a, b}] = c
			}
			st := s.IntersectStatus(pa, ta, pb, tb, c)
			if s.res.Status != st {
				panic("the result disagrees with IntersectStatus")
			}
			return st, s.res.Plane
		}},
		{"sepvec-posed-status", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			c := svps[[2]int{a, b}]
			if c == nil {
				c = new(Cache)
				svps[[2]int{a, b}] = c
			}
			var xa, xb Posed
			xa.Set(pa, ta)
			xb.Set(pb, tb)
			st := s.IntersectPosedStatus(&xa, &xb, c)
			if s.res.Status != st {
				panic("the result disagrees with IntersectPosedStatus")
			}
			return st, s.res.Plane
		}},
		{"sepvec-nocache", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			r := s.Intersect(pa, ta, pb, tb, nil)
			return r.Status, r.Plane
		}},
		{"gjk", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			r := GJKIntersect(pa, ta, pb, tb, nil, nil)
			return r.Status, r.Plane
		}},
		{"gjk-warm", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			c := gw[[2]int{a, b}]
			if c == nil {
				c = new(GJKCache)
				gw[[2]int{a, b}] = c
			}
			r := GJKIntersect(pa, ta, pb, tb, c, nil)
			return r.Status, r.Plane
		}},
		{"gjk-distance", func(a, b int, pa, pb *Polytope, ta, tb *geom.Transform) (Status, geom.Plane) {
			r := GJK(pa, ta, pb, tb, nil, nil)
			return r.Status, r.Plane
		}},
	}
}

// TestSamples runs every algorithm over the sample workloads, frames in
// order, and compares with the reference answers: no disagreement where
// |margin| > 1e-9 x mean bounding radius, and every "separated" answer
// carries a plane that separates the world vertices.
func TestSamples(t *testing.T) {
	for _, name := range sampleNames {
		s := loadSample(t, name)
		for _, al := range algos() {
			wrong, unjudged, witnessBad := 0, 0, 0
			for _, e := range s.expected {
				ta, tb := s.poses[e.frame][e.a].Transform(), s.poses[e.frame][e.b].Transform()
				pa, pb := s.polys[e.a], s.polys[e.b]
				st, pl := al.test(e.a, e.b, pa, pb, &ta, &tb)
				eps := 1e-9 * (pa.Radius() + pb.Radius()) / 2
				hit := st == Intersecting
				if st == Separated {
					a := body{worldVerts(s.verts[e.a], ta), s.faces[e.a]}
					b := body{worldVerts(s.verts[e.b], tb), s.faces[e.b]}
					if err := checkWitness(pl, a, b, 10); err != nil {
						witnessBad++
						if witnessBad < 3 {
							t.Errorf("%s %s frame %d pair %d,%d: %v", name, al.name, e.frame, e.a, e.b, err)
						}
					}
				}
				if hit != e.hit {
					if math.Abs(e.margin) <= eps {
						unjudged++
						continue
					}
					wrong++
					if wrong < 4 {
						t.Errorf("%s %s frame %d pair %d,%d: got %v, want hit=%v (margin %v)\nA pose %v\nB pose %v",
							name, al.name, e.frame, e.a, e.b, st, e.hit, e.margin, s.poses[e.frame][e.a], s.poses[e.frame][e.b])
					}
				}
			}
			t.Logf("%s %-15s %d pairs, %d wrong, %d unjudged disagreements, %d bad witnesses", name, al.name, len(s.expected), wrong, unjudged, witnessBad)
		}
	}
}

// TestSupport compares hill climbing from random starts, the table start
// and the Dobkin-Kirkpatrick hierarchy with a scan of all vertices.
func TestSupport(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range sampleNames {
		s := loadSample(t, name)
		for i, p := range s.polys {
			if i > 8 {
				break
			}
			for k := 0; k < 300; k++ {
				d := randDir(rng)
				if k%10 == 0 { // axis-aligned and repeated directions
					d = geom.Vec3{X: float64(k % 3), Y: 1, Z: 0}
				}
				_, want := p.SupportBrute(d)
				check := func(how string, v int32, h float64) {
					if h != d.Dot(p.Vertex(int(v))) || h < want-1e-15*p.Radius() {
						t.Fatalf("%s mesh %d %s support along %v: vertex %d value %v, brute force %v", name, i, how, d, v, h, want)
					}
				}
				v, h := p.SupportFrom(d, int32(rng.IntN(p.NumVerts())))
				check("hill", v, h)
				v, h = p.Support(d)
				check("table", v, h)
				v, h = p.SupportDK(d)
				check("DK", v, h)
			}
		}
	}
	b, err := New(shapes.Box(geom.Vec3{X: 1, Y: 2, Z: 3}))
	if err != nil {
		t.Fatal(err)
	}
	if v, h := b.Support(geom.Vec3{X: 1, Y: 1, Z: 1}); h != 6 {
		t.Errorf("box support: vertex %d value %v, want 6", v, h)
	}
}

// TestHierarchyDepth checks that the Dobkin-Kirkpatrick hierarchy is
// logarithmic and its top small.
func TestHierarchyDepth(t *testing.T) {
	for _, name := range sampleNames {
		s := loadSample(t, name)
		p := s.polys[0]
		lv, top := p.HierarchyLevels()
		t.Logf("%s: n=%d, %d levels, top %d vertices", name, p.NumVerts(), lv, top)
		if lv > 4*int(math.Log2(float64(p.NumVerts())))+2 || top > 64 {
			t.Errorf("%s: hierarchy of %d levels with %d top vertices for n=%d", name, lv, top, p.NumVerts())
		}
	}
}

func randDir(rng *rand.Rand) geom.Vec3 {
	for {
		d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		if u, ok := d.Normalize(); ok {
			return u
		}
	}
}

func randRot(rng *rand.Rand) geom.Quat {
	q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	return q
}

// shape is a polytope with its local vertices and faces for the oracle.
type shape struct {
	name  string
	p     *Polytope
	v     []geom.Vec3
	faces [][]int
}

func shapeFrom(t testing.TB, name string, vs []geom.Vec3, fs [][]int) shape {
	m, err := mesh.New(vs, fs, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	p, err := New(m)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return shape{name, p, vs, fs}
}

func scaled(vs []geom.Vec3, s geom.Vec3) []geom.Vec3 {
	out := make([]geom.Vec3, len(vs))
	for i, v := range vs {
		out[i] = v.Mul(s)
	}
	return out
}

// testShapes: sample meshes (10 and 100 vertices, ellipsoids, rods and
// plates), boxes, a tiny and a huge copy, and very thin plates.
func testShapes(t testing.TB, withBig bool) []shape {
	var out []shape
	names := sampleNames[:2]
	if withBig {
		names = sampleNames
	}
	for _, n := range names {
		s := loadSample(t, n)
		for i := 0; i < len(s.polys) && i < 6; i++ {
			out = append(out, shape{fmt.Sprintf("%s/b%d", n, i), s.polys[i], s.verts[i], s.faces[i]})
		}
		if n == sampleNames[0] {
			out = append(out, shapeFrom(t, "tiny", scaled(s.verts[1], geom.Vec3{X: 0.05, Y: 0.05, Z: 0.05}), s.faces[1]))
			out = append(out, shapeFrom(t, "huge", scaled(s.verts[2], geom.Vec3{X: 30, Y: 30, Z: 30}), s.faces[2]))
			out = append(out, shapeFrom(t, "flat", scaled(s.verts[3], geom.Vec3{X: 1, Y: 1, Z: 1e-4}), s.faces[3]))
		}
	}
	box := shapes.Box(geom.Vec3{X: 0.5, Y: 0.3, Z: 0.2})
	bf := faceLists(box)
	out = append(out, shapeFrom(t, "box", box.Verts, bf))
	out = append(out, shapeFrom(t, "cube", scaled(box.Verts, geom.Vec3{X: 0.6, Y: 1, Z: 1.5}), bf))
	return out
}

// faceLists returns m's faces as lists of vertex indices.
func faceLists(m *mesh.Mesh) [][]int {
	var fs [][]int
	for f := 0; f < m.NumFaces(); f++ {
		var l []int
		for _, v := range m.Face(f) {
			l = append(l, int(v))
		}
		fs = append(fs, l)
	}
	return fs
}

// pairCase is a random placement of two shapes.
type pairCase struct {
	kind   string
	a, b   shape
	ta, tb geom.Transform
}

// randomCases generates placements of every kind: random offsets, near
// touching along a random axis (both sides, relative 1e-3..1e-8), exactly
// touching, coplanar faces (face against face, slightly apart or
// overlapping), and nested (B deep inside A).
func randomCases(rng *rand.Rand, shs []shape, n int) []pairCase {
	var out []pairCase
	for len(out) < n {
		a, b := shs[rng.IntN(len(shs))], shs[rng.IntN(len(shs))]
		qa, qb := randRot(rng), randRot(rng)
		pa := geom.Vec3{X: rng.Float64()*10 - 5, Y: rng.Float64()*10 - 5, Z: rng.Float64()*10 - 5}
		ta := geom.Pose{P: pa, Q: qa}.Transform()
		tbRot := geom.Pose{Q: qb}.Transform()
		// Supports along u in world for the rotated shapes about their origins.
		u := randDir(rng)
		sup := func(s shape, tr geom.Transform, d geom.Vec3) float64 {
			h := math.Inf(-1)
			for _, v := range s.v {
				h = math.Max(h, d.Dot(tr.R.MulVec(v)))
			}
			return h
		}
		H := sup(a, ta, u) + sup(b, tbRot, u.Neg())
		var kind string
		var off float64
		switch k := rng.IntN(10); {
		case k < 3:
			kind, off = "random", H*(0.2+1.1*rng.Float64())
		case k < 6:
			rel := math.Pow(10, -3-5*rng.Float64())
			if rng.IntN(2) == 0 {
				rel = -rel
			}
			kind, off = "near", H*(1+rel)
		case k < 7:
			kind, off = "touch", H
		case k < 9:
			// Coplanar faces: turn B so that one of its face normals is
			// opposite to one of A's, then touch along that normal.
			fa := a.faces[rng.IntN(len(a.faces))]
			fb := b.faces[rng.IntN(len(b.faces))]
			na, _ := faceNormal(a.v, fa).Normalize()
			nb, _ := faceNormal(b.v, fb).Normalize()
			naW := ta.R.MulVec(na)
			// Rotation taking nb to -naW, then a spin about naW.
			axis := nb.Cross(naW.Neg())
			ang := math.Atan2(axis.Norm(), nb.Dot(naW.Neg()))
			q1 := geom.QuatAxisAngle(axis, ang)
			if axis.Norm() < 1e-12 && nb.Dot(naW) > 0 {
				o, _ := nb.Orthonormal()
				q1 = geom.QuatAxisAngle(o, math.Pi)
			}
			q := geom.QuatAxisAngle(naW, rng.Float64()*2*math.Pi).Mul(q1)
			tbRot = geom.Pose{Q: q}.Transform()
			u = naW
			H = sup(a, ta, u) + sup(b, tbRot, u.Neg())
			rel := 0.0
			if rng.IntN(3) > 0 {
				rel = math.Pow(10, -3-6*rng.Float64())
				if rng.IntN(2) == 0 {
					rel = -rel
				}
			}
			kind, off = "coplanar", H*(1+rel)
			// Slide B along the face plane a little.
			t1, t2 := u.Orthonormal()
			r := 0.3 * (a.p.Radius() + b.p.Radius()) * rng.Float64()
			ang2 := rng.Float64() * 2 * math.Pi
			tbRot.T = t1.Scale(r * math.Cos(ang2)).Add(t2.Scale(r * math.Sin(ang2)))
		default:
			kind, off = "nested", 0
		}
		tb := tbRot
		tb.T = tb.T.Add(pa.AddScaled(off, u))
		if kind == "nested" {
			// B's centroid on A's centroid.
			tb.T = ta.Apply(a.p.Centroid()).Sub(tbRot.R.MulVec(b.p.Centroid()))
		}
		out = append(out, pairCase{kind, a, b, ta, tb})
	}
	return out
}

// TestRandomPairsOracle: every method agrees with the separating-axis
// oracle on thousands of seeded random pairs of every kind, outside pairs
// whose margin is within 1e-9 x mean radius of zero, and every separated
// answer carries a valid witness plane. GJK distances are checked against
// a brute-force distance.
func TestRandomPairsOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 7))
	cases := randomCases(rng, testShapes(t, false), 2000)
	if *long {
		// 30000 cases of the small shapes and 300 with 1000-vertex bodies
		// among them (the oracle is quadratic in the edges).
		cases = append(cases, randomCases(rng, testShapes(t, false), 28000)...)
		cases = append(cases, randomCases(rng, testShapes(t, true), 300)...)
	}
	type tally struct{ wrong, unjudged, sep, hit, fallback, badWitness int }
	stats := map[string]*tally{}
	kinds := map[string]int{}
	var s Searcher
	for i, c := range cases {
		kinds[c.kind]++
		a := body{worldVerts(c.a.v, c.ta), c.a.faces}
		b := body{worldVerts(c.b.v, c.tb), c.b.faces}
		margin := satMargin(a, b)
		eps := 1e-9 * (c.a.p.Radius() + c.b.p.Radius()) / 2
		scale := c.a.p.Radius() + c.b.p.Radius() + c.ta.T.Norm() + c.tb.T.Norm()
		check := func(name string, st Status, pl geom.Plane, fallback bool) {
			tl := stats[name]
			if tl == nil {
				tl = &tally{}
				stats[name] = tl
			}
			if fallback {
				tl.fallback++
			}
			switch st {
			case Separated:
				tl.sep++
				if err := checkWitness(pl, a, b, scale); err != nil {
					tl.badWitness++
					t.Errorf("case %d (%s %s/%s) %s: %v", i, c.kind, c.a.name, c.b.name, name, err)
				}
			case Intersecting:
				tl.hit++
			default:
				t.Errorf("case %d %s: status %v", i, name, st)
			}
			if (st == Intersecting) != (margin <= 0) {
				if math.Abs(margin) <= eps {
					tl.unjudged++
					return
				}
				tl.wrong++
				if tl.wrong < 4 {
					t.Errorf("case %d (%s %s/%s) %s: %v, margin %v\nA %v\nB %v", i, c.kind, c.a.name, c.b.name, name, st, margin, c.ta.Pose(), c.tb.Pose())
				}
			}
		}
		r := s.Intersect(c.a.p, &c.ta, c.b.p, &c.tb, nil)
		check("sepvec", r.Status, r.Plane, r.Fallback)
		// Coherent: the same query twice with a cache, the second from the
		// first's answer.
		var cache Cache
		s.Intersect(c.a.p, &c.ta, c.b.p, &c.tb, &cache)
		r = s.Intersect(c.a.p, &c.ta, c.b.p, &c.tb, &cache)
		check("sepvec-cached", r.Status, r.Plane, r.Fallback)
		// Posed: world vertices (a scan for small bodies, a climb on world
		// vertices for large ones), without and with the cache.
		var xa, xb Posed
		xa.Set(c.a.p, &c.ta)
		xb.Set(c.b.p, &c.tb)
		r = s.IntersectPosed(&xa, &xb, nil)
		check("posed", r.Status, r.Plane, r.Fallback)
		var pc Cache
		s.IntersectPosed(&xa, &xb, &pc)
		r = s.IntersectPosed(&xa, &xb, &pc)
		check("posed-cached", r.Status, r.Plane, r.Fallback)
		g := GJKIntersect(c.a.p, &c.ta, c.b.p, &c.tb, nil, nil)
		check("gjk-intersect", g.Status, g.Plane, false)
		g = GJK(c.a.p, &c.ta, c.b.p, &c.tb, nil, nil)
		check("gjk", g.Status, g.Plane, false)
		if g.Status == Separated && c.a.p.NumVerts() <= 100 && c.b.p.NumVerts() <= 100 && (i%10 == 0 || (c.a.p.NumVerts() <= 10 && c.b.p.NumVerts() <= 10)) {
			d := bruteDistance(a, b)
			if math.Abs(g.Distance-d) > 1e-9*scale || math.Abs(g.PA.Dist(g.PB)-d) > 1e-9*scale {
				t.Errorf("case %d (%s %s/%s): GJK distance %v (points %v %v), brute force %v", i, c.kind, c.a.name, c.b.name, g.Distance, g.PA, g.PB, d)
			}
		}
	}
	t.Logf("%d cases: %v", len(cases), kinds)
	for name, tl := range stats {
		t.Logf("%-14s separated %5d intersecting %5d wrong %d unjudged %d fallback %d", name, tl.sep, tl.hit, tl.wrong, tl.unjudged, tl.fallback)
	}
}

// TestNoAllocs: the queries allocate nothing once the Searcher's scratch
// space and the pair map have grown.
func TestNoAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	s := loadSample(t, sampleNames[1])
	var sv Searcher
	var caches PairMap[Cache]
	var gc PairMap[GJKCache]
	var pcs PairMap[Cache]
	var xa, xb Posed
	var dc PairMap[DistanceCache]
	var dst []contact.Contact
	run := func() {
		for _, e := range s.expected[:300] {
			ta0, tb0 := s.poses[e.frame][e.a].Transform(), s.poses[e.frame][e.b].Transform()
			sv.SignedDistance(s.polys[e.a], &ta0, s.polys[e.b], &tb0, dc.Get(e.a, e.b))
			sv.SignedDistance(s.polys[e.a], &ta0, s.polys[e.b], &tb0, nil)
			dst, _ = sv.Manifold(s.polys[e.a], &ta0, s.polys[e.b], &tb0, 0.05, dc.Get(e.a, e.b), dst[:0])
		}
		for _, e := range s.expected[:300] {
			ta, tb := s.poses[e.frame][e.a].Transform(), s.poses[e.frame][e.b].Transform()
			sv.Intersect(s.polys[e.a], &ta, s.polys[e.b], &tb, caches.Get(e.a, e.b))
			GJKIntersect(s.polys[e.a], &ta, s.polys[e.b], &tb, gc.Get(e.a, e.b), nil)
			GJK(s.polys[e.a], &ta, s.polys[e.b], &tb, nil, nil)
			xa.Set(s.polys[e.a], &ta)
			xb.Set(s.polys[e.b], &tb)
			sv.IntersectPosed(&xa, &xb, pcs.Get(e.a, e.b))
		}
	}
	run()
	if n := testing.AllocsPerRun(3, run); n != 0 {
		t.Errorf("%v allocations per 300 queries of each kind", n)
	}
}

// TestPairMap checks the pair map against a Go map.
func TestPairMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var m PairMap[int]
	ref := map[[2]int]int{}
	for i := 0; i < 20000; i++ {
		a, b := rng.IntN(300), rng.IntN(300)
		v := m.Get(a, b)
		if *v != ref[[2]int{a, b}] {
			t.Fatalf("pair %d,%d: %d, want %d", a, b, *v, ref[[2]int{a, b}])
		}
		*v++
		ref[[2]int{a, b}]++
	}
	if m.Len() != len(ref) {
		t.Errorf("Len %d, want %d", m.Len(), len(ref))
	}
	m.Reset()
	if m.Len() != 0 || *m.Get(1, 2) != 0 {
		t.Errorf("Reset left state")
	}
}

// TestNewErrors: meshes that are not closed convex solids are rejected
// with an error, as are degenerate point sets.
func TestNewErrors(t *testing.T) {
	if _, err := New(nil); err == nil {
		t.Error("nil mesh accepted")
	}
	if _, err := New(shapes.Torus(1, 0.3, 8, 6)); err == nil {
		t.Error("torus accepted as convex")
	}
	open, err := mesh.New([]geom.Vec3{{X: 0}, {X: 1}, {Y: 1}, {Z: 1}}, [][]int{{0, 2, 1}, {0, 1, 3}, {1, 2, 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(open); err == nil {
		t.Error("open mesh accepted")
	}
	for _, pts := range [][]geom.Vec3{nil, {{X: 1}, {Y: 1}, {Z: 1}}, {{X: 0}, {X: 1}, {Y: 1}, {X: 1, Y: 1}}, {{X: math.NaN()}, {X: 1}, {Y: 1}, {Z: 1}}} {
		if _, err := FromPoints(pts); err == nil {
			t.Errorf("FromPoints(%v) accepted", pts)
		}
	}
	// Invalid transforms give Invalid, not a guess.
	p, _ := New(shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := ta
	tb.T.X = math.NaN()
	var s Searcher
	if r := s.Intersect(p, &ta, p, &tb, nil); r.Status != Invalid {
		t.Errorf("NaN translation: %v", r.Status)
	}
	var xa, xb Posed
	xa.Set(p, &ta)
	xb.Set(p, &tb)
	if r := s.IntersectPosed(&xa, &xb, nil); r.Status != Invalid {
		t.Errorf("posed, NaN translation: %v", r.Status)
	}
	if r := GJK(p, &ta, p, &tb, nil, nil); r.Status != Invalid {
		t.Errorf("GJK NaN translation: %v", r.Status)
	}
}

// TestDiamond checks that undiamond inverts the pseudo-angle.
func TestDiamond(t *testing.T) {
	for i := 0; i < 4000; i++ {
		a := float64(i) / 1000
		x, y := undiamond(a)
		if got := diamond(x, y, math.Abs(x), math.Abs(y)); math.Abs(got-a) > 1e-12 && math.Abs(got-a+4) > 1e-12 {
			t.Fatalf("diamond(undiamond(%v)) = %v", a, got)
		}
	}
}

// TestTouchingAndCoincident: boxes exactly face to face, edge to edge and
// vertex to vertex count as intersecting; coincident bodies intersect; a
// gap of 1e-6 separates.
func TestTouchingAndCoincident(t *testing.T) {
	p, err := New(shapes.Cube(1))
	if err != nil {
		t.Fatal(err)
	}
	id := geom.TransformIdentity()
	var s Searcher
	for _, c := range []struct {
		off  geom.Vec3
		want Status
	}{
		{geom.Vec3{}, Intersecting},
		{geom.Vec3{X: 1}, Intersecting},
		{geom.Vec3{X: 1, Y: 1}, Intersecting},
		{geom.Vec3{X: 1, Y: 1, Z: 1}, Intersecting},
		{geom.Vec3{X: 1, Y: 0.3, Z: -0.2}, Intersecting},
		{geom.Vec3{X: 1 + 1e-6, Y: 0.3}, Separated},
		{geom.Vec3{X: -1 - 1e-6, Y: -1, Z: 1}, Separated},
		{geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}, Intersecting},
	} {
		tb := geom.Transform{R: geom.Identity(), T: c.off}
		var cache, pcache Cache
		for round := 0; round < 2; round++ {
			if r := s.Intersect(p, &id, p, &tb, &cache); r.Status != c.want {
				t.Errorf("offset %v round %d: sepvec %v, want %v", c.off, round, r.Status, c.want)
			}
			var xa, xb Posed
			xa.Set(p, &id)
			xb.Set(p, &tb)
			if r := s.IntersectPosed(&xa, &xb, &pcache); r.Status != c.want {
				t.Errorf("offset %v round %d: posed %v, want %v", c.off, round, r.Status, c.want)
			}
		}
		if g := GJK(p, &id, p, &tb, nil, nil); g.Status != c.want {
			t.Errorf("offset %v: GJK %v, want %v", c.off, g.Status, c.want)
		}
		if g := GJKIntersect(p, &id, p, &tb, nil, nil); g.Status != c.want {
			t.Errorf("offset %v: GJKIntersect %v, want %v", c.off, g.Status, c.want)
		}
	}
}

// TestPosedCopy: a copied Posed keeps answering for its own placement
// after the original is set again, and a Posed never Set gives Invalid.
func TestPosedCopy(t *testing.T) {
	p, err := New(shapes.Cube(1))
	if err != nil {
		t.Fatal(err)
	}
	id := geom.TransformIdentity()
	near := geom.Transform{R: geom.Identity(), T: geom.Vec3{X: 0.5}}
	far := geom.Transform{R: geom.Identity(), T: geom.Vec3{X: 5}}
	var a, b Posed
	a.Set(p, &id)
	b.Set(p, &near)
	c := b // placed near
	b.Set(p, &far)
	var s Searcher
	if st := s.IntersectPosedStatus(&a, &c, nil); st != Intersecting {
		t.Errorf("copy placed near: %v, want intersecting", st)
	}
	if st := s.IntersectPosedStatus(&a, &b, nil); st != Separated {
		t.Errorf("original placed far: %v, want separated", st)
	}
	var z Posed
	if r := s.IntersectPosed(&a, &z, nil); r.Status != Invalid {
		t.Errorf("unset Posed: %v, want invalid", r.Status)
	}
}

// TestSupportScan2 checks the interleaved scan of two small bodies (soa
// layout, scalar code) against
// a plain loop over each (maxima equal; the vertices found attain them),
// for every pair of lengths 1..bruteMax, ties included.
func TestSupportScan2(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for na := 1; na <= bruteMax; na++ {
		for nb := 1; nb <= bruteMax; nb++ {
			for trial := 0; trial < 20; trial++ {
				ties := trial%4 == 0
				wa, wb := tiePoints(rng, na, ties), tiePoints(rng, nb, ties)
				d := tieDir(rng, ties)
				p, hA, q, hB := scanSoA2Go(newSoa(wa), na, newSoa(wb), nb, d)
				wantA, wantB := math.Inf(-1), math.Inf(-1)
				for _, v := range wa {
					wantA = math.Max(wantA, d.Dot(v))
				}
				for _, v := range wb {
					wantB = math.Max(wantB, -d.Dot(v))
				}
				if hA != wantA || hB != wantB || d.Dot(wa[p]) != hA || -d.Dot(wb[q]) != hB {
					t.Fatalf("d %v wa %v wb %v: got %d %v %d %v, want maxima %v %v", d, wa, wb, p, hA, q, hB, wantA, wantB)
				}
			}
		}
	}
}

// TestNearRotationWitness: transforms whose rotation is off by up to 5e-7
// (accepted as rigid within 1e-6) still get, from GJK, GJKIntersect and the
// separating vector, only "separated" answers whose plane separates the
// transformed vertices (checked directly on them). Pairs are placed near
// touching, where the non-rigidity matters (a fuzzed case had GJK's plane
// 7e-8 inside A).
func TestNearRotationWitness(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	shs := testShapes(t, false)
	var s Searcher
	sep := 0
	for _, c := range randomCases(rng, shs, 3000) {
		perturb := func(tr geom.Transform) geom.Transform {
			e := 5e-7 * rng.Float64()
			for i := range 3 {
				for j := range 3 {
					tr.R[i][j] *= 1 + e*(2*rng.Float64()-1)
				}
			}
			return tr
		}
		ta, tb := perturb(c.ta), perturb(c.tb)
		scale := 1.0
		for _, v := range c.a.v {
			scale = max(scale, ta.Apply(v).MaxAbs())
		}
		for _, v := range c.b.v {
			scale = max(scale, tb.Apply(v).MaxAbs())
		}
		check := func(name string, st Status, pl geom.Plane) {
			if st != Separated {
				return
			}
			sep++
			for i, v := range c.a.v {
				if d := pl.SignedDist(ta.Apply(v)); d > 1e-9*scale {
					t.Fatalf("%s %s: %s vertex %d of A %g above the plane", c.kind, c.a.name, name, i, d)
				}
			}
			for i, v := range c.b.v {
				if d := pl.SignedDist(tb.Apply(v)); d < -1e-9*scale {
					t.Fatalf("%s %s: %s vertex %d of B %g below the plane", c.kind, c.b.name, name, i, -d)
				}
			}
		}
		var cache Cache
		r := s.Intersect(c.a.p, &ta, c.b.p, &tb, &cache)
		check("sepvec", r.Status, r.Plane)
		g := GJK(c.a.p, &ta, c.b.p, &tb, nil, nil)
		check("GJK", g.Status, g.Plane)
		g = GJKIntersect(c.a.p, &ta, c.b.p, &tb, nil, nil)
		check("GJKIntersect", g.Status, g.Plane)
	}
	if sep < 1000 {
		t.Errorf("only %d separated answers checked", sep)
	}
}
