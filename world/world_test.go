package world

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshquery"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/toc"
)

type testScene struct {
	w      *World
	ids    []BodyID
	defs   []BodyDef
	rng    *rand.Rand
	side   float64
	static map[BodyID]bool
}

var (
	carMesh  = shapes.Car()
	cubeMesh = shapes.Cube(1)
)

// mustNew returns New(opt), stopping the test on an error.
func mustNew(t testing.TB, opt *Options) *World {
	t.Helper()
	w, err := New(opt)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// newTestScene adds n bodies of mixed kinds in a box: convex polytopes,
// non-convex polyhedra (Buss's car, scaled down by its own size), cubes as
// soups, and a few static bodies.
func newTestScene(t testing.TB, n int, seed uint64, opt *Options) *testScene {
	w := mustNew(t, opt)
	s := &testScene{w: w, rng: rand.New(rand.NewPCG(seed, 1)), side: 2.2 * math.Cbrt(float64(n)), static: map[BodyID]bool{}}
	r := s.rng
	for i := 0; i < n; i++ {
		def := BodyDef{Pose: s.randPose()}
		switch i % 4 {
		case 0, 1:
			def.Mesh = shapes.RandomPolytope(shapes.PolytopeShape(i%3), 6+i%20, 0.8, seed*1000+uint64(i))
			def.Kind = Convex
		case 2:
			def.Mesh = carMesh
			def.Kind = Polyhedron
		default:
			def.Mesh = cubeMesh
			def.Kind = Soup
		}
		def.Static = r.IntN(8) == 0
		if r.IntN(5) == 0 {
			def.Filter = Filter{Category: 1 << r.IntN(3), Mask: 1<<r.IntN(3) | 1<<r.IntN(3), Group: int32(r.IntN(3) - 1)}
		}
		id, err := w.Add(def)
		if err != nil {
			t.Fatal(err)
		}
		s.ids = append(s.ids, id)
		s.defs = append(s.defs, def)
		s.static[id] = def.Static
	}
	return s
}

func (s *testScene) randPose() geom.Pose {
	r := s.rng
	q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	return geom.Pose{P: geom.Vec3{X: s.side * r.Float64(), Y: s.side * r.Float64(), Z: s.side * r.Float64()}, Q: q}
}

// moveAll gives every moving body a random next pose: a step of about
// 0.2 (2 for one body in three) and a turn of up to 25 degrees.
// stepAgainstPairwise moves every body, steps the world into dst and fails
// the test (naming what) unless its contacts are those of the brute-force
// pairwise reference.
func (s *testScene) stepAgainstPairwise(t testing.TB, dst []Contact, what string) []Contact {
	t.Helper()
	s.moveAll(t)
	want := pairwise(t, s.w)
	got, err := s.w.Step(dst)
	if err != nil {
		t.Fatal(err)
	}
	if !sameContacts(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v", what, got, want)
	}
	return got
}

func (s *testScene) moveAll(t testing.TB) {
	r := s.rng
	for _, id := range s.ids {
		if s.static[id] {
			continue
		}
		p, _ := s.w.Pose(id)
		ax, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		q, _ := geom.QuatAxisAngle(ax, r.Float64()*25*math.Pi/180).Mul(p.Q).Normalize()
		d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Scale(0.2)
		if r.IntN(3) == 0 { // fast: may pass through a body within the step
			d = d.Scale(10)
		}
		if err := s.w.Move(id, geom.Pose{P: p.P.Add(d), Q: q}); err != nil {
			t.Fatal(err)
		}
	}
}

// pairwise computes the contacts of the step by calling the narrow phase
// of every pair directly, with fresh state and no broad phase. A pair whose
// narrow phase fails is left out (the world reports the others too).
func pairwise(t testing.TB, w *World) []Contact {
	c, _ := pairwiseErr(w)
	return c
}

func pairwiseErr(w *World) ([]Contact, error) {
	var firstErr error
	var out []Contact
	det := screw.NewDetector()
	var tq toc.Scratch
	for i := range w.bodies {
		for j := i + 1; j < len(w.bodies); j++ {
			a, b := &w.bodies[i], &w.bodies[j]
			if !a.live || !b.live || a.static && b.static || !collide(a.filter, b.filter) {
				continue
			}
			m := w.table[a.kind][b.kind]
			base := Contact{A: BodyID(i), B: BodyID(j), Method: m}
			switch m {
			case SeparatingVector, GJK, ScrewCCD, MeshContacts:
				var recs []contact.Contact
				var err error
				ta, tb := a.p1.Transform(), b.p1.Transform()
				switch m {
				case ScrewCCD:
					recs, err = det.Contacts(a.sh.mesh, b.sh.mesh, a.p0, a.p1, b.p0, b.p1, nil, nil)
				case MeshContacts:
					var q meshquery.Scratch
					recs, err = q.Contacts(a.sh.tree, &ta, b.sh.tree, &tb, &meshquery.ContactOptions{Margin: w.opt.Margin}, nil)
				default:
					var sv convex.Searcher
					recs, err = sv.Manifold(a.sh.poly, &ta, b.sh.poly, &tb, w.opt.Margin, nil, nil)
				}
				if err != nil {
					firstErr = cmpErr(firstErr, err)
					continue
				}
				for _, r := range recs {
					c := base
					c.Contact = r
					out = append(out, c)
				}
			case TimeOfContact:
				// B's relative screw motion in A's frame, placed by A's own
				// screw motion at the contact's time.
				id := geom.PoseIdentity()
				cs, err := tq.Between(a.sh.toc, id, id, b.sh.toc, a.p0.Inverse().Mul(b.p0), a.p1.Inverse().Mul(b.p1), nil, nil)
				if err != nil {
					firstErr = cmpErr(firstErr, err)
					continue
				}
				for i := range cs {
					c := base
					c.Contact = cs[i].Record()
					pa := geom.ScrewPose(a.p0, a.p1, c.Time)
					c.Point, c.Normal = pa.Apply(c.Point), pa.ApplyDir(c.Normal)
					out = append(out, c)
				}
			}
		}
	}
	return out, firstErr
}

// sameContacts compares the world's contacts with the reference's: every
// field for the continuous methods; for the convex methods, whose manifold
// may keep another reference face from step to step (hysteresis), each
// pair's number of points and deepest separation, and every record valid.
func sameContacts(got, want []Contact) bool {
	type key struct {
		a, b BodyID
		m    Method
	}
	type sum struct {
		n   int
		min float64
	}
	conv := func(cs []Contact) (map[key]sum, []Contact) {
		m := map[key]sum{}
		var rest []Contact
		for _, c := range cs {
			if c.Method != SeparatingVector && c.Method != GJK {
				rest = append(rest, c)
				continue
			}
			k := key{c.A, c.B, c.Method}
			s, ok := m[k]
			if !ok || c.Separation < s.min {
				s.min = c.Separation
			}
			s.n++
			m[k] = s
			if c.Validate() != nil {
				return nil, nil
			}
		}
		return m, rest
	}
	gc, gr := conv(got)
	wc, wr := conv(want)
	if gc == nil || wc == nil || len(gc) != len(wc) || len(gr) != len(wr) {
		return false
	}
	for k, g := range gc {
		w, ok := wc[k]
		if !ok || g.n != w.n || math.Abs(g.min-w.min) > 1e-9 {
			return false
		}
	}
	for i := range gr {
		if gr[i] != wr[i] {
			return false
		}
	}
	return true
}

// TestOtherMethodsMatchPairwise runs a table with GJK for convex pairs and
// the discrete mesh query for the others.
func TestOtherMethodsMatchPairwise(t *testing.T) {
	tab := DefaultTable
	tab[Convex][Convex] = GJK
	for k := BodyKind(0); k < numKinds; k++ {
		tab[Soup][k], tab[k][Soup] = MeshContacts, MeshContacts
	}
	byMethod := map[Method]int{}
	for seed := uint64(1); seed <= 3; seed++ {
		s := newTestScene(t, 16, seed+10, &Options{Table: &tab})
		for step := 0; step < 5; step++ {
			got := s.stepAgainstPairwise(t, nil, fmt.Sprintf("seed %d step %d", seed, step))
			for _, c := range got {
				byMethod[c.Method]++
			}
		}
	}
	t.Logf("contacts by method %v", byMethod)
	for _, m := range []Method{GJK, MeshContacts} {
		if byMethod[m] == 0 {
			t.Errorf("no %v contact: the scenes do not exercise it", m)
		}
	}
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// TestWorldMatchesPairwise checks, over random scenes and steps, that the
// world's contacts are exactly those of calling every pair's narrow phase
// directly: the broad phase (with swept boxes) loses no pair, the dispatch
// picks the table's method, the caches change no answer, and the filters
// apply.
func TestWorldMatchesPairwise(t *testing.T) {
	steps := 0
	byMethod := map[Method]int{}
	for seed := uint64(1); seed <= 3; seed++ {
		for _, bk := range []BroadKind{BroadSweep, BroadSAP, BroadTree} {
			s := newTestScene(t, 24, seed, &Options{Broad: bk})
			var got []Contact
			for step := 0; step < 6; step++ {
				got = s.stepAgainstPairwise(t, got[:0], fmt.Sprintf("seed %d broad %d step %d", seed, bk, step))
				steps++
				for _, c := range got {
					byMethod[c.Method]++
				}
			}
		}
	}
	t.Logf("%d steps checked, contacts by method %v", steps, byMethod)
	for _, m := range []Method{SeparatingVector, ScrewCCD, TimeOfContact} {
		if byMethod[m] == 0 {
			t.Errorf("no %v contact: the scenes do not exercise it", m)
		}
	}
}

func normalize(c []Contact) []Contact {
	if len(c) == 0 {
		return nil
	}
	return c
}

// TestWorldDeterministic runs the same scene for 200 steps with 1, 2 and
// 8 workers and compares a hash of every contact field.
func TestWorldDeterministic(t *testing.T) {
	var hashes []uint64
	total := 0
	for _, nw := range []int{1, 2, 8} {
		s := newTestScene(t, 40, 9, &Options{Workers: nw})
		h := fnv.New64a()
		var cs []Contact
		n := 0
		for step := 0; step < 200; step++ {
			s.moveAll(t)
			var err error
			if cs, err = s.w.Step(cs[:0]); err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				fmt.Fprintf(h, "%d %d %d %v %x %x %x %x %x %x %x %v %v %x %v\n", step, c.A, c.B, c.Method, math.Float64bits(c.Time),
					math.Float64bits(c.Point.X), math.Float64bits(c.Point.Y), math.Float64bits(c.Point.Z),
					math.Float64bits(c.Normal.X), math.Float64bits(c.Normal.Y), math.Float64bits(c.Normal.Z),
					c.FeatureA, c.FeatureB, math.Float64bits(c.Separation), c.Status)
			}
			n += len(cs)
		}
		hashes = append(hashes, h.Sum64())
		total = n
	}
	if hashes[0] != hashes[1] || hashes[0] != hashes[2] {
		t.Fatalf("contact hashes for 1, 2, 8 workers differ: %x", hashes)
	}
	if total < 100 {
		t.Fatalf("only %d contacts in 200 steps: the scene tests little", total)
	}
}

func TestFilter(t *testing.T) {
	cases := []struct {
		f, g Filter
		want bool
	}{
		{Filter{}, Filter{}, true},
		{Filter{Category: 2}, Filter{Mask: 1}, false},
		{Filter{Category: 2}, Filter{Mask: 3}, true},
		{Filter{Category: 2, Mask: 4}, Filter{Category: 1}, false},
		{Filter{Group: -1}, Filter{Group: -1}, false},
		{Filter{Group: 2, Category: 2}, Filter{Group: 2, Mask: 1}, true},
		{Filter{Group: -1}, Filter{Group: -2}, true},
	}
	for _, c := range cases {
		if got := collide(c.f, c.g); got != c.want {
			t.Errorf("collide(%+v, %+v) = %v", c.f, c.g, got)
		}
		if got := collide(c.g, c.f); got != c.want {
			t.Errorf("collide(%+v, %+v) = %v (swapped)", c.g, c.f, got)
		}
	}
}

// stepPairs steps the world and returns its contacts and the set of pairs
// that have one.
func stepPairs(t *testing.T, w *World) ([]Contact, map[[2]BodyID]bool) {
	t.Helper()
	cs, err := w.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]BodyID]bool{}
	for _, c := range cs {
		got[[2]BodyID{c.A, c.B}] = true
	}
	return cs, got
}

// TestStaticAndFilteredPairs builds a pile of overlapping cubes and checks
// which pairs are tested.
func TestStaticAndFilteredPairs(t *testing.T) {
	w := mustNew(t, nil)
	at := func(x float64) geom.Pose { return geom.Pose{P: geom.Vec3{X: x}, Q: geom.QuatIdentity()} }
	s1, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: at(0), Static: true})
	s2, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: at(0.5), Static: true})
	d1, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: at(0.25)})
	d2, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: at(0.3), Filter: Filter{Group: -1}})
	d3, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: at(0.35), Filter: Filter{Group: -1}})
	cs, got := stepPairs(t, w)
	want := map[[2]BodyID]bool{{s1, d1}: true, {s2, d1}: true, {s1, d2}: true, {s2, d2}: true, {s1, d3}: true, {s2, d3}: true, {d1, d2}: true, {d1, d3}: true}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("contacts %v, want pairs %v", cs, want)
	}
	if err := w.Move(s1, at(3)); err == nil {
		t.Error("moving a static body: no error")
	}
	if st := w.Stats(); st.BroadPairs != 10 || st.Tests != 8 {
		t.Errorf("stats %+v, want 10 broad pairs and 8 tests", st)
	}
}

func TestErrors(t *testing.T) {
	if _, err := New(&Options{Table: &Table{Convex: {Polyhedron: GJK}, Polyhedron: {Convex: GJK}}}); err == nil {
		t.Error("GJK on a polyhedron: no error")
	}
	if _, err := New(&Options{Table: &Table{Convex: {Polyhedron: ScrewCCD}}}); err == nil {
		t.Error("asymmetric table: no error")
	}
	if _, err := New(&Options{Workers: -1}); err == nil {
		t.Error("negative workers: no error")
	}
	w, _ := New(nil)
	good := geom.PoseIdentity()
	for _, def := range []BodyDef{
		{},
		{Mesh: carMesh, Kind: Convex, Pose: good},
		{Mesh: cubeMesh, Kind: 9, Pose: good},
		{Mesh: cubeMesh, Pose: geom.Pose{Q: geom.Quat{}}},
		{Mesh: cubeMesh, Pose: geom.Pose{P: geom.Vec3{X: math.NaN()}, Q: geom.QuatIdentity()}},
		{Mesh: cubeMesh, Pose: geom.Pose{P: geom.Vec3{Y: math.Inf(1)}, Q: geom.QuatIdentity()}},
	} {
		if _, err := w.Add(def); err == nil {
			t.Errorf("Add(%+v): no error", def)
		}
	}
	open := mustMesh(t, []geom.Vec3{{}, {X: 1}, {Y: 1}}, [][]int{{0, 1, 2}})
	if _, err := w.Add(BodyDef{Mesh: open, Kind: Polyhedron, Pose: good}); err == nil {
		t.Error("open mesh as a polyhedron: no error")
	}
	if _, err := w.Add(BodyDef{Mesh: open, Kind: Soup, Pose: good}); err != nil {
		t.Errorf("open mesh as a soup: %v", err)
	}
	if err := w.Remove(42); !errors.Is(err, ErrNoBody) {
		t.Errorf("Remove(42) = %v", err)
	}
	if err := w.Move(-1, good); !errors.Is(err, ErrNoBody) {
		t.Errorf("Move(-1) = %v", err)
	}
	id, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: good})
	if err := w.Move(id, geom.Pose{Q: geom.Quat{X: math.NaN()}}); err == nil {
		t.Error("Move to a NaN pose: no error")
	}
	if err := w.Remove(id); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Pose(id); !errors.Is(err, ErrNoBody) {
		t.Errorf("Pose of a removed body: %v", err)
	}
}

func mustMesh(t testing.TB, vs []geom.Vec3, fs [][]int) *mesh.Mesh {
	m, err := mesh.New(vs, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRemoveAndReuse removes bodies between steps and checks against the
// pairwise reference.
func TestRemoveAndReuse(t *testing.T) {
	s := newTestScene(t, 20, 4, nil)
	for step := 0; step < 6; step++ {
		for k := 0; k < 3; k++ {
			i := s.rng.IntN(len(s.ids))
			if err := s.w.Remove(s.ids[i]); err == nil {
				// Another body takes the id: per-pair caches must not
				// carry over.
				def := s.defs[s.rng.IntN(len(s.defs))]
				def.Pose = s.randPose()
				id, err := s.w.Add(def)
				if err != nil {
					t.Fatal(err)
				}
				if id != s.ids[i] {
					t.Fatalf("re-added body got id %d, want the freed %d", id, s.ids[i])
				}
				s.static[id] = def.Static
			}
		}
		s.stepAgainstPairwise(t, nil, fmt.Sprintf("step %d", step))
	}
}

// TestPoseBoxIsTight checks that the broad-phase box of a body at a pose,
// found from its shape's box points (hull vertices by hill climbing or
// transformed), equals the box of all of the mesh's transformed vertices
// exactly, along a path of poses (so the hill climbing starts from the
// previous vertices): random polytopes of every size, tori, coils, the car
// and the sample meshes, as every kind that takes them.
func TestPoseBoxIsTight(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	w, _ := New(nil)
	type item struct {
		m    *mesh.Mesh
		kind BodyKind
	}
	var items []item
	for i := 0; i < 30; i++ {
		items = append(items, item{shapes.RandomPolytope(shapes.PolytopeShape(i%3), 8+i*7, 1, uint64(i)), Convex})
	}
	for _, m := range []*mesh.Mesh{
		shapes.Torus(1, 0.3, 30, 10), shapes.Torus(2, 0.2, 48, 12), shapes.Torus(1, 0.5, 7, 5),
		shapes.Coil(1, 0.2, 0.8, 3, 60, 8), shapes.Car(), shapes.Box(geom.Vec3{X: 1, Y: 2, Z: 3}),
		testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj"),
		testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj"),
		testutil.ReadMesh(t, "../testdata/meshes/fcl/env.obj"),
		testutil.ReadMesh(t, "../testdata/meshes/fcl/rob.obj"),
		testutil.ReadMesh(t, "../testdata/meshes/rigid-ipc/plane.obj"),
	} {
		items = append(items, item{m, Polyhedron}, item{m, Soup})
	}
	reduced := 0
	for i, it := range items {
		id, err := w.Add(BodyDef{Mesh: it.m, Kind: it.kind, Pose: geom.PoseIdentity()})
		if err != nil {
			continue // not closed: only as a soup
		}
		b := &w.bodies[id]
		if b.sh.box.poly != nil || b.sh.box.verts != nil {
			reduced++
		}
		q := geom.QuatIdentity()
		for step := 0; step < 50; step++ {
			ax, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
			q, _ = geom.QuatAxisAngle(ax, r.Float64()*float64(step%4)).Mul(q).Normalize()
			switch step % 10 {
			case 0:
				q = geom.QuatIdentity() // axis-aligned faces: ties between vertices
			case 5:
				// Faces a hair off the axes: ties up to rounding.
				q = geom.QuatAxisAngle(ax, math.Pow(10, -4-8*r.Float64()))
			}
			p := geom.Pose{P: geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Scale(100), Q: q}
			tr := p.Transform()
			want := geom.EmptyAABB()
			for _, v := range it.m.Verts {
				want = want.AddPoint(tr.Apply(v))
			}
			if got := poseBox(b, &tr); got != want {
				t.Fatalf("mesh %d (%v, %d vertices) step %d pose %v: box %v, vertex box %v", i, it.kind, len(it.m.Verts), step, p, got, want)
			}
		}
	}
	if reduced < 30 {
		t.Fatalf("only %d shapes use fewer points than their vertices for the box", reduced)
	}
}

// TestBoxPointsForMovingBodies checks that a mesh used only by static
// bodies gets no hull (their box is taken once, from all vertices), that
// the first moving body of the mesh builds it, and that a static body
// placed anew afterwards still gets the box of all its vertices.
func TestBoxPointsForMovingBodies(t *testing.T) {
	w, _ := New(nil)
	m := shapes.Torus(1, 0.3, 30, 10)
	s, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Static: true, Pose: geom.PoseIdentity()})
	if err != nil {
		t.Fatal(err)
	}
	sh := w.bodies[s].sh
	if sh.boxOK || sh.box.poly != nil || sh.box.verts != nil {
		t.Fatalf("static-only mesh built box points %+v", sh.box)
	}
	if _, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: geom.Pose{P: geom.Vec3{X: 5}, Q: geom.QuatIdentity()}}); err != nil {
		t.Fatal(err)
	}
	if !sh.boxOK || sh.box.poly == nil {
		t.Fatalf("moving body of a 300-vertex torus: no hull polytope for its box")
	}
	q, _ := geom.Quat{W: 0.3, X: 0.5, Y: -0.2, Z: 0.7}.Normalize()
	p := geom.Pose{P: geom.Vec3{X: -3, Y: 1, Z: 2}, Q: q}
	if err := w.SetPose(s, p); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Step(nil); err != nil {
		t.Fatal(err)
	}
	tr := p.Transform()
	want := geom.EmptyAABB()
	for _, v := range m.Verts {
		want = want.AddPoint(tr.Apply(v))
	}
	if got := w.bodies[s].box; got != want {
		t.Fatalf("static torus placed anew: box %v, vertex box %v", got, want)
	}
}

// TestCacheNotReusedAcrossBodies removes a body whose pair cache holds
// vertex indices of a large polytope and gives its id to a small one.
func TestCacheNotReusedAcrossBodies(t *testing.T) {
	w, _ := New(nil)
	big := shapes.RandomPolytope(shapes.Ellipsoid, 200, 1, 1)
	small := shapes.RandomPolytope(shapes.Ellipsoid, 5, 1, 2)
	at := func(x float64) geom.Pose { return geom.Pose{P: geom.Vec3{X: x}, Q: geom.QuatIdentity()} }
	a, _ := w.Add(BodyDef{Mesh: big, Pose: at(0)})
	b, _ := w.Add(BodyDef{Mesh: big, Pose: at(1.9)})
	for i := 0; i < 3; i++ {
		w.Move(b, at(1.9+0.01*float64(i)))
		if _, err := w.Step(nil); err != nil {
			t.Fatal(err)
		}
	}
	c := w.caches.list[w.caches.index[pairKey(int32(a), int32(b))]]
	if !c.sv.Valid || (c.sv.P < 5 && c.sv.Q < 5) {
		t.Fatalf("cache %+v does not hold a vertex index beyond the small polytope's: the test would not catch a reused cache", c.sv)
	}
	w.Remove(a)
	a2, _ := w.Add(BodyDef{Mesh: small, Pose: at(0)})
	if a2 != a {
		t.Fatalf("id %d not reused (%d)", a, a2)
	}
	want := pairwise(t, w)
	got, err := w.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !sameContacts(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestEmptyAndSingle(t *testing.T) {
	for _, bk := range []BroadKind{BroadSweep, BroadSAP, BroadTree, BroadBrute} {
		w := mustNew(t, &Options{Broad: bk, Workers: 1})
		if cs, err := w.Step(nil); err != nil || len(cs) != 0 {
			t.Fatalf("empty world: %v %v", cs, err)
		}
		id, _ := w.Add(BodyDef{Mesh: cubeMesh, Pose: geom.PoseIdentity()})
		w.Move(id, geom.Pose{P: geom.Vec3{X: 3}, Q: geom.QuatIdentity()})
		if cs, err := w.Step(nil); err != nil || len(cs) != 0 {
			t.Fatalf("one body: %v %v", cs, err)
		}
		if p, _ := w.Pose(id); p.P.X != 3 {
			t.Fatalf("pose after the step %v, want x = 3", p)
		}
		w.Remove(id)
		if cs, err := w.Step(nil); err != nil || len(cs) != 0 || w.Len() != 0 {
			t.Fatalf("after removing: %v %v len %d", cs, err, w.Len())
		}
	}
}
