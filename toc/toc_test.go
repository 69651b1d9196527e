package toc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

func mustShape(t testing.TB, m *mesh.Mesh) *Shape {
	t.Helper()
	sh, err := ShapeOf(m)
	if err != nil {
		t.Fatal(err)
	}
	return sh
}

// TestSegmentTriangleOracle compares SegmentTriangle with the oracle's
// rational test on random segments, many passing near edges and vertices.
func TestSegmentTriangleOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 3))
	hits := 0
	for i := 0; i < 20000; i++ {
		a, b, c := randUnit(r), randUnit(r), randUnit(r)
		var p, q geom.Vec3
		switch i % 3 {
		case 0: // random
			p, q = randUnit(r).Scale(2), randUnit(r).Scale(2)
		case 1: // through a point near an edge
			e := a.Lerp(b, r.Float64()).Add(randUnit(r).Scale(1e-9 * r.Float64()))
			d := randUnit(r)
			p, q = e.Add(d), e.Sub(d)
		default: // through a vertex, exactly
			d := randUnit(r)
			p, q = c.Add(d), c.Sub(d)
		}
		if p.Sub(c).Norm() < 1e-300 {
			continue
		}
		_, got := SegmentTriangle(p, q, a, b, c)
		want := oSegTri(p, q, a, b, c)
		if oSign(a, b, c, p) == 0 && oSign(a, b, c, q) == 0 {
			continue // coplanar: the oracle does not decide
		}
		if got != want {
			t.Fatalf("case %d: SegmentTriangle(%v, %v, %v, %v, %v) = %v, oracle %v", i, p, q, a, b, c, got, want)
		}
		if got {
			hits++
		}
	}
	if hits < 2000 {
		t.Errorf("only %d hits: the cases do not test much", hits)
	}
}

// TestSegmentTriangleWatertight sends segments exactly through the shared
// diagonal and corners of a quad split in two triangles (dyadic
// coordinates, so the crossing points are representable): every one must
// hit at least one of the two.
func TestSegmentTriangleWatertight(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 5))
	for i := 0; i < 20000; i++ {
		// Quad corners on a random integer grid, diagonal a-c.
		g := func() float64 { return float64(r.IntN(64) - 32) }
		a := geom.V(g(), g(), g())
		b := a.Add(geom.V(g(), g(), 0))
		c := a.Add(geom.V(g(), g(), 0))
		if b.Sub(a).Cross(c.Sub(a)).Norm() == 0 {
			continue
		}
		d := a.Add(c).Sub(b) // parallelogram
		// A point on the diagonal: a + k/16 (c - a).
		k := float64(r.IntN(17)) / 16
		x := a.Add(c.Sub(a).Scale(k))
		dir := geom.V(g()/8, g()/8, g()+0.5)
		p, q := x.Add(dir), x.Sub(dir)
		_, h1 := SegmentTriangle(p, q, a, b, c)
		_, h2 := SegmentTriangle(p, q, a, c, d)
		if !h1 && !h2 {
			t.Fatalf("case %d: segment %v-%v through the shared edge %v-%v misses both triangles", i, p, q, a, c)
		}
	}
}

func TestSegmentTriangleCoplanar(t *testing.T) {
	a, b, c := geom.V(0, 0, 0), geom.V(1, 0, 0), geom.V(0, 1, 0)
	s, ok := SegmentTriangle(geom.V(-1, 0.25, 0), geom.V(1, 0.25, 0), a, b, c)
	if !ok || math.Abs(s-0.5) > 1e-15 {
		t.Errorf("coplanar segment entering at 0.5: got %v %v", s, ok)
	}
	if _, ok := SegmentTriangle(geom.V(-1, 2, 0), geom.V(1, 2, 0), a, b, c); ok {
		t.Errorf("coplanar segment outside reported a hit")
	}
}

// TestBoxTriangleNoFalseSeparation: when the box-triangle test says
// "apart", no point of a dense sampling of the triangle is in the box.
func TestBoxTriangleNoFalseSeparation(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 9))
	overl := 0
	for i := 0; i < 5000; i++ {
		o := geom.OBB{Center: randUnit(r).Scale(0.5), Axes: randQuat(r).Mat3(), Half: geom.V(0.05+0.5*r.Float64(), 0.01+0.3*r.Float64(), 0.3*r.Float64())}
		b := makeBox(o)
		tr := tri{a: randUnit(r), b: randUnit(r), c: randUnit(r)}
		if b.overlapsTri(&tr) {
			overl++
			continue
		}
		const n = 60
		for u := 0; u <= n; u++ {
			for v := 0; u+v <= n; v++ {
				p := tr.a.Scale(float64(n-u-v) / n).Add(tr.b.Scale(float64(u) / n)).Add(tr.c.Scale(float64(v) / n))
				if o.Contains(p, -1e-12) {
					t.Fatalf("case %d: box %+v and triangle %v %v %v called apart but %v is in both", i, o, tr.a, tr.b, tr.c, p)
				}
			}
		}
	}
	if overl < 500 || overl > 4500 {
		t.Errorf("%d of 5000 overlapping: the cases do not test much", overl)
	}
}

// TestBVHMatchesBruteForce: the BVH returns exactly the triangles that the
// triangle test accepts, for random soups and boxes.
func TestBVHMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 13))
	var stack, got []int32
	for i := 0; i < 300; i++ {
		m := randomSoup(r, 1+r.IntN(200), 2)
		s, err := SoupOf(m)
		if err != nil {
			t.Fatal(err)
		}
		for j := 0; j < 20; j++ {
			b := makeBox(geom.OBB{Center: randUnit(r), Axes: randQuat(r).Mat3(), Half: geom.V(r.Float64(), 0.3*r.Float64(), 0.1*r.Float64())})
			got = s.collect(&b, got[:0], &stack)
			want := 0
			for k := range s.tris {
				if b.overlapsTri(&s.tris[k]) {
					want++
				}
			}
			if len(got) != want || s.anyOverlap(&b, &stack) != (want > 0) {
				t.Fatalf("soup %d box %d: BVH found %d triangles, brute force %d", i, j, len(got), want)
			}
		}
	}
}

func cubeAbove() (State, State) {
	return State{Pose: geom.Pose{P: geom.V(0.1, -0.2, 3), Q: geom.QuatIdentity()}, V: geom.V(0, 0, -4)},
		State{Pose: geom.PoseIdentity()}
}

// TestStraightMotionExact: a translating cube falling on a cube touches at
// exactly t = 0.5 with both algorithms; the normal is +z.
func TestStraightMotionExact(t *testing.T) {
	a := mustShape(t, shapes.Cube(1))
	b := mustShape(t, shapes.Cube(1))
	sa, sb := cubeAbove()
	var q Query
	for _, alg := range []Algorithm{Boxes, Segments} {
		cs, err := q.Contacts(a, sa, b, sb, 1, &Options{Algorithm: alg}, nil)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%v: %v %v", alg, cs, err)
		}
		c := cs[0]
		if math.Abs(c.T-0.5) > 1e-12 || !c.Normal.ApproxEqual(geom.V(0, 0, 1), 1e-12) || math.Abs(c.Point.Z-0.5) > 1e-9 {
			t.Errorf("%v: got %+v, want T=0.5 normal +z at z=0.5", alg, c)
		}
	}
	// Moving the other way nothing happens.
	sa.V = sa.V.Neg()
	if cs, _ := q.Contacts(a, sa, b, sb, 1, nil, nil); len(cs) != 0 {
		t.Errorf("receding cube: got contacts %v", cs)
	}
}

// TestSymmetric: swapping A and B gives the same time and the opposite
// normal.
func TestSymmetric(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 17))
	kinds := []*Shape{
		mustShape(t, shapes.Cube(1)),
		mustShape(t, shapes.Torus(0.8, 0.3, 8, 6)),
		mustShape(t, shapes.Car()),
	}
	var q Query
	n := 0
	for i := 0; i < 300; i++ {
		c := randomCase(r, []*mesh.Mesh{shapes.Cube(1)})
		a, b := kinds[r.IntN(3)], kinds[r.IntN(3)]
		// The reported time depends on the boxes the search builds,
		// within about tolerance / speed; a tiny tolerance makes the two
		// orders agree closely.
		opt := &Options{Tolerance: 1e-9}
		ab, err := q.Contacts(a, c.sa, b, c.sb, 1, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		ba, err := q.Contacts(b, c.sb, a, c.sa, 1, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(ab) != len(ba) {
			t.Fatalf("case %d: A-B found %d contacts, B-A %d", i, len(ab), len(ba))
		}
		if len(ab) == 1 {
			n++
			if math.Abs(ab[0].T-ba[0].T) > 1e-7 {
				t.Errorf("case %d: A-B time %v, B-A time %v", i, ab[0].T, ba[0].T)
			}
			if ab[0].OnA == ba[0].OnA && ab[0].Sample == ba[0].Sample && !ab[0].Normal.ApproxEqual(ba[0].Normal.Neg(), 1e-9) {
				t.Errorf("case %d: normals %v and %v are not opposite", i, ab[0].Normal, ba[0].Normal.Neg())
			}
		}
	}
	if n < 50 {
		t.Errorf("only %d of 300 cases touch", n)
	}
}

// TestWithin: all contacts within the tolerance of the first, in time
// order, the first being the first-only answer, one per sample point.
func TestWithin(t *testing.T) {
	a := mustShape(t, shapes.Cube(1))
	b := mustShape(t, shapes.Cube(1))
	sa, sb := cubeAbove()
	sa.W = geom.V(0.01, 0.02, 0)
	var q Query
	first, _ := q.Contacts(a, sa, b, sb, 1, nil, nil)
	all, err := q.Contacts(a, sa, b, sb, 1, &Options{Within: 0.01}, nil)
	if err != nil || len(first) != 1 || len(all) < 2 {
		t.Fatalf("first %v all %v err %v", first, all, err)
	}
	if all[0].T != first[0].T {
		t.Errorf("first of all %v != first %v", all[0].T, first[0].T)
	}
	seen := map[[2]int]bool{}
	for i, c := range all {
		if c.T > first[0].T+0.01 || (i > 0 && c.T < all[i-1].T) {
			t.Errorf("contact %d at %v: out of order or beyond the tolerance", i, c.T)
		}
		k := [2]int{c.Sample, map[bool]int{true: 1}[c.OnA]}
		if seen[k] {
			t.Errorf("sample %v reported twice", k)
		}
		seen[k] = true
	}
}

func TestErrors(t *testing.T) {
	a := mustShape(t, shapes.Cube(1))
	sa, sb := cubeAbove()
	var q Query
	bad := sa
	bad.V.X = math.NaN()
	cases := []struct {
		name   string
		sa, sb State
		dt     float64
		opt    *Options
	}{
		{"NaN velocity", bad, sb, 1, nil},
		{"Inf angular", sa, State{Pose: geom.PoseIdentity(), W: geom.V(math.Inf(1), 0, 0)}, 1, nil},
		{"bad quaternion", State{Pose: geom.Pose{Q: geom.Quat{W: 2}}}, sb, 1, nil},
		{"negative dt", sa, sb, -1, nil},
		{"NaN dt", sa, sb, math.NaN(), nil},
		{"negative tolerance", sa, sb, 1, &Options{Tolerance: -1}},
		{"bad algorithm", sa, sb, 1, &Options{Algorithm: 7}},
		{"negative within", sa, sb, 1, &Options{Within: -1}},
	}
	for _, c := range cases {
		if _, err := q.Contacts(a, c.sa, a, c.sb, c.dt, c.opt, nil); err == nil {
			t.Errorf("%s: no error", c.name)
		}
	}
	if _, err := NewSoup([]geom.Vec3{{}, {X: 1}}, [][3]int32{{0, 1, 2}}); err == nil {
		t.Error("out-of-range index: no error")
	}
	if _, err := NewSoup([]geom.Vec3{{}, {X: 1}, {X: 2}}, [][3]int32{{0, 1, 2}}); err == nil {
		t.Error("zero-area triangle: no error")
	}
	if _, err := NewSoup([]geom.Vec3{{}, {X: math.NaN()}, {Y: 1}}, [][3]int32{{0, 1, 2}}); err == nil {
		t.Error("NaN vertex: no error")
	}
	if _, err := NewSoup(nil, nil); err == nil {
		t.Error("empty soup: no error")
	}
}

// TestZeroAlloc: a warm Query allocates nothing, with either algorithm.
func TestZeroAlloc(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	a := mustShape(t, shapes.Torus(0.8, 0.3, 12, 8))
	b := mustShape(t, shapes.Car())
	sa, sb := cubeAbove()
	sa.W = geom.V(1, 2, 0.5)
	sb.W = geom.V(0, 0, 1)
	var q Query
	dst := make([]Contact, 0, 64)
	for _, alg := range []Algorithm{Boxes, Segments} {
		opt := &Options{Algorithm: alg, Within: 0.01}
		dst, _ = q.Contacts(a, sa, b, sb, 1, opt, dst[:0])
		if len(dst) == 0 {
			t.Fatal("no contact")
		}
		n := testing.AllocsPerRun(20, func() { dst, _ = q.Contacts(a, sa, b, sb, 1, opt, dst[:0]) })
		if n != 0 {
			t.Errorf("%v: %v allocations per query", alg, n)
		}
	}
}

// TestBroadVolumesContain: EnlargedOBB and SweptOBB contain every vertex of
// the body at every sampled time of the step.
func TestBroadVolumesContain(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 19))
	m := shapes.Car()
	sh := mustShape(t, m)
	local := geom.OBBFromAABB(m.Bounds())
	for i := 0; i < 500; i++ {
		s := State{Pose: geom.Pose{P: randUnit(r).Scale(5), Q: randQuat(r)}, V: randUnit(r).Scale(20 * r.Float64()), W: randUnit(r).Scale(8 * r.Float64())}
		dt := r.Float64()
		e, w := EnlargedOBB(local, s, dt), SweptOBB(sh, s, dt)
		for k := 0; k <= 50; k++ {
			p := oPose(s, dt*float64(k)/50)
			for _, v := range m.Verts {
				x := p.Apply(v)
				if !e.Contains(x, 1e-9) || !w.Contains(x, 1e-9) {
					t.Fatalf("case %d: vertex %v at %v outside enlarged %v or swept %v", i, v, x, e.Contains(x, 1e-9), w.Contains(x, 1e-9))
				}
			}
		}
	}
}

// TestBroadPhaseBruteForce: the pairs found equal all overlapping pairs.
func TestBroadPhaseBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 23))
	var bp BroadPhase
	var got [][2]int32
	for i := 0; i < 50; i++ {
		n := 1 + r.IntN(60)
		boxes := make([]geom.OBB, n)
		for k := range boxes {
			boxes[k] = geom.OBB{Center: randUnit(r).Scale(5 * r.Float64()), Axes: randQuat(r).Mat3(), Half: geom.V(r.Float64(), r.Float64(), 0.2*r.Float64())}
		}
		got = bp.Pairs(boxes, got[:0])
		want := 0
		set := map[[2]int32]bool{}
		for _, p := range got {
			if p[0] >= p[1] || set[p] {
				t.Fatalf("bad or duplicate pair %v", p)
			}
			set[p] = true
		}
		for x := 0; x < n; x++ {
			for y := x + 1; y < n; y++ {
				if boxes[x].Overlaps(boxes[y]) {
					want++
					if !set[[2]int32{int32(x), int32(y)}] {
						t.Fatalf("pair %d %d missing", x, y)
					}
				}
			}
		}
		if want != len(got) {
			t.Fatalf("%d pairs, want %d", len(got), want)
		}
	}
}

// TestShallowContact shows the difference between the algorithms: a point
// on a quarter circle whose middle dips 0.02 past a large plane. With a
// tolerance of 0.2, Segments keeps the single chord (nu = 0.157) and
// misses; Boxes finds the crossing, no later than the true time.
func TestShallowContact(t *testing.T) {
	tiny, err := NewSoup([]geom.Vec3{{X: -1e-3}, {X: 1e-3}, {Y: 1e-3}}, [][3]int32{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	a, err := NewShape(tiny, []geom.Vec3{{X: 1}})
	if err != nil {
		t.Fatal(err)
	}
	wall, err := NewSoup([]geom.Vec3{{X: 0.98, Y: -3, Z: -3}, {X: 0.98, Y: 3, Z: -3}, {X: 0.98, Y: 0, Z: 3}}, [][3]int32{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewShape(wall, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Rotate from -45 to +45 degrees about z in one time unit.
	sa := State{Pose: geom.Pose{Q: geom.QuatAxisAngle(geom.V(0, 0, 1), -math.Pi/4)}, W: geom.V(0, 0, math.Pi/2)}
	sb := State{Pose: geom.PoseIdentity()}
	want := (math.Pi/4 - math.Acos(0.98)) / (math.Pi / 2)
	var q Query
	cs, err := q.Contacts(a, sa, b, sb, 1, &Options{Algorithm: Segments, Tolerance: 0.2}, nil)
	if err != nil || len(cs) != 0 {
		t.Errorf("Segments: %v %v; expected to miss the shallow contact", cs, err)
	}
	cs, err = q.Contacts(a, sa, b, sb, 1, &Options{Algorithm: Boxes, Tolerance: 0.2}, nil)
	if err != nil || len(cs) != 1 || cs[0].T > want+1e-9 || cs[0].T < want-0.2 {
		t.Fatalf("Boxes: %v %v; want a contact at or a little before %v", cs, err, want)
	}
	cs, err = q.Contacts(a, sa, b, sb, 1, &Options{Algorithm: Boxes, Tolerance: 1e-9}, nil)
	if err != nil || len(cs) != 1 || math.Abs(cs[0].T-want) > 1e-6 || !cs[0].Normal.ApproxEqual(geom.V(-1, 0, 0), 1e-12) {
		t.Fatalf("Boxes, tight tolerance: %v %v; want %v with normal -x", cs, err, want)
	}
}
