package toc

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/collide-go/collide/contact"
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

// TestBoxNodeNoFalseSeparation: when the box-node test says "apart" for a
// box made by any of the package's constructors (makeBox, trajBox,
// edgeBox, place and certify's placed node boxes share its bounds and axis
// magnitudes), no point of a dense grid of the box, placed from its centre,
// axes and half extents alone, is in the node's axis-aligned box. A
// constructor that left the magnitudes unset would fail it.
func TestBoxNodeNoFalseSeparation(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 19))
	overl := 0
	const cases = 4000
	for i := range cases {
		var b box
		switch i % 4 {
		case 0:
			b = makeBox(geom.OBB{Center: randUnit(r).Scale(0.5), Axes: randQuat(r).Mat3(), Half: geom.V(0.05+0.5*r.Float64(), 0.01+0.3*r.Float64(), 0.3*r.Float64())})
		case 1:
			qa := randUnit(r).Scale(0.5)
			qb := qa.Add(randUnit(r).Scale(0.6 * r.Float64()))
			b, _ = trajBox(qa, qb, qa.Dist(qb)*(1+0.5*r.Float64()), 0.05*r.Float64())
		case 2:
			a0 := randUnit(r).Scale(0.5)
			a1 := a0.Add(randUnit(r).Scale(0.4))
			d := randUnit(r).Scale(0.3 * r.Float64())
			b = edgeBox(a0, a1, a0.Add(d), a1.Add(d), 0.05*r.Float64())
		default:
			f := Frame{A: randQuat(r).Mat3(), B: randUnit(r).Scale(0.3)}
			abs := absFrame(&f)
			h := geom.V(0.3*r.Float64(), 0.2*r.Float64(), 0.1*r.Float64())
			b.place(&f, &abs, f.Pos(randUnit(r).Scale(0.2)), h, 0.05*r.Float64())
		}
		c, h := randUnit(r).Scale(0.8*r.Float64()), geom.V(0.1+0.4*r.Float64(), 0.1+0.4*r.Float64(), 0.02+0.3*r.Float64())
		n := node{c: c, h: h, min: c.Sub(h), max: c.Add(h)}
		if b.overlapsNode(&n) {
			overl++
			continue
		}
		const k = 12
		for x := 0; x <= k; x++ {
			for y := 0; y <= k; y++ {
				for z := 0; z <= k; z++ {
					p := b.c
					for j, u := range [3]float64{float64(x), float64(y), float64(z)} {
						p = p.Add(b.ax[j].Scale(b.h[j] * (2*u/k - 1)))
					}
					d := p.Sub(c)
					if math.Abs(d.X) < h.X-1e-12 && math.Abs(d.Y) < h.Y-1e-12 && math.Abs(d.Z) < h.Z-1e-12 {
						t.Fatalf("case %d: box %+v called apart from node %v +- %v but %v is in both", i, b, c, h, p)
					}
				}
			}
		}
	}
	if overl < cases*3/10 || overl > cases*7/10 {
		t.Errorf("%d of %d overlapping: the cases do not test much", overl, cases)
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
	var q Scratch
	for _, alg := range []Method{Boxes, Segments} {
		cs, err := q.Contacts(a, sa, b, sb, 1, &Options{Method: alg}, nil)
		if err != nil || len(cs) != 1 {
			t.Fatalf("%v: %v %v", alg, cs, err)
		}
		c := cs[0]
		// Faces meet flat at 0.5: a vertex finds it exactly, an edge
		// (coplanar edges, a degenerate elementary test) no later.
		lo := 0.5
		if c.FeatureA.Kind == contact.Edge {
			lo = 0.5 - 1e-6
		}
		if c.Time > 0.5+1e-12 || c.Time < lo || !c.Normal.ApproxEqual(geom.V(0, 0, -1), 1e-12) || math.Abs(c.Point.Z-0.5) > 1e-5 || c.Status != contact.Hit {
			t.Errorf("%v: got %+v, want a hit at Time 0.5 at z=0.5 with the normal -z (from A above to B below)", alg, c)
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
	var q Scratch
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
			if math.Abs(ab[0].Time-ba[0].Time) > 1e-7 {
				t.Errorf("case %d: A-B time %v, B-A time %v", i, ab[0].Time, ba[0].Time)
			}
			// The normal turns with the bodies (at most a few radians
			// per step here), so times within 1e-7 give normals within
			// 1e-6.
			if ab[0].FeatureA == ba[0].FeatureB && ab[0].FeatureB == ba[0].FeatureA && !ab[0].Normal.ApproxEqual(ba[0].Normal.Neg(), 1e-6) {
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
	var q Scratch
	first, _ := q.Contacts(a, sa, b, sb, 1, nil, nil)
	all, err := q.Contacts(a, sa, b, sb, 1, &Options{Within: 0.01}, nil)
	if err != nil || len(first) != 1 || len(all) < 2 {
		t.Fatalf("first %v all %v err %v", first, all, err)
	}
	if all[0].Time != first[0].Time {
		t.Errorf("first of all %v != first %v", all[0].Time, first[0].Time)
	}
	// Each sample point and each moving edge is reported once.
	seen := map[[2]contact.Feature]bool{}
	for i, c := range all {
		if c.Time > first[0].Time+0.01 || (i > 0 && c.Time < all[i-1].Time) {
			t.Errorf("contact %d at %v: out of order or beyond the tolerance", i, c.Time)
		}
		var k [2]contact.Feature
		switch {
		case c.FeatureA.Kind == contact.Vertex:
			k[0] = c.FeatureA
		case c.FeatureB.Kind == contact.Vertex:
			k[1] = c.FeatureB
		default:
			k = [2]contact.Feature{c.FeatureA, c.FeatureB}
		}
		if seen[k] {
			t.Errorf("feature %v reported twice", k)
		}
		seen[k] = true
	}
}

func TestErrors(t *testing.T) {
	a := mustShape(t, shapes.Cube(1))
	sa, sb := cubeAbove()
	var q Scratch
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
		{"bad algorithm", sa, sb, 1, &Options{Method: 7}},
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
	// The coordinate limit is geom.MaxCoord, and the errors name the
	// package once and the index or field.
	huge := 2 * geom.MaxCoord
	_, err := NewSoup([]geom.Vec3{{}, {X: 1}, {Y: huge}}, [][3]int32{{0, 1, 2}})
	if err == nil || !strings.HasPrefix(err.Error(), "toc: vertex 2:") || strings.Count(err.Error(), "toc") != 1 {
		t.Errorf("vertex above geom.MaxCoord: %v", err)
	}
	s, _ := NewSoup([]geom.Vec3{{}, {X: 1}, {Y: 1}}, [][3]int32{{0, 1, 2}})
	if _, err := NewShape(s, []geom.Vec3{{}, {Z: -huge}}); err == nil || !strings.HasPrefix(err.Error(), "toc: sample 1:") {
		t.Errorf("sample above geom.MaxCoord: %v", err)
	}
	if _, err := NewShape(s, []geom.Vec3{{}, {Z: geom.MaxCoord / 2}}); err != nil {
		t.Errorf("sample below geom.MaxCoord: %v", err)
	}
	far := sa
	far.Pose.P.X = huge
	for _, c := range []struct {
		name, want string
		sa         State
		dt         float64
	}{
		{"position", "A's position", far, 1},
		{"step", "step", sa, huge},
		{"velocity", "A's velocity times the step", State{Pose: sa.Pose, V: geom.V(0, 4, 0)}, huge / 2},
	} {
		_, err := q.Contacts(a, c.sa, a, sb, c.dt, nil, nil)
		if err == nil || !strings.HasPrefix(err.Error(), "toc: "+c.want) || strings.Count(err.Error(), "toc:") != 1 {
			t.Errorf("%s above geom.MaxCoord: %v", c.name, err)
		}
	}
}

// TestZeroAlloc: a warm Scratch allocates nothing, with either algorithm.
func TestZeroAlloc(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	a := mustShape(t, shapes.Torus(0.8, 0.3, 12, 8))
	b := mustShape(t, shapes.Car())
	sa, sb := cubeAbove()
	sa.W = geom.V(1, 2, 0.5)
	sb.W = geom.V(0, 0, 1)
	var q Scratch
	dst := make([]Contact, 0, 64)
	for _, alg := range []Method{Boxes, Segments} {
		opt := &Options{Method: alg, Within: 0.01}
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
	var q Scratch
	cs, err := q.Contacts(a, sa, b, sb, 1, &Options{Method: Segments, Tolerance: 0.2}, nil)
	if err != nil || len(cs) != 0 {
		t.Errorf("Segments: %v %v; expected to miss the shallow contact", cs, err)
	}
	cs, err = q.Contacts(a, sa, b, sb, 1, &Options{Method: Boxes, Tolerance: 0.2}, nil)
	if err != nil || len(cs) != 1 || cs[0].Time > want+1e-9 || cs[0].Time < want-0.2 {
		t.Fatalf("Boxes: %v %v; want a contact at or a little before %v", cs, err, want)
	}
	cs, err = q.Contacts(a, sa, b, sb, 1, &Options{Method: Boxes, Tolerance: 1e-9}, nil)
	if err != nil || len(cs) != 1 || math.Abs(cs[0].Time-want) > 1e-6 || !cs[0].Normal.ApproxEqual(geom.V(1, 0, 0), 1e-12) {
		t.Fatalf("Boxes, tight tolerance: %v %v; want %v with normal +x (from the point to the wall)", cs, err, want)
	}
}

// TestStateOfMatchesPoseAt: the state built from two poses and a motion
// model moves the body through the model's own poses (geom's PoseAt),
// down to rotations of 1e-12 rad, where the screw axis is far away.
func TestStateOfMatchesPoseAt(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 31))
	for i := 0; i < 3000; i++ {
		p0 := geom.Pose{P: randUnit(r).Scale(5 * r.Float64()), Q: randQuat(r)}
		angle := math.Pi * r.Float64()
		if i%3 == 0 {
			angle = math.Pow(10, -12+9*r.Float64())
		}
		p1 := geom.Pose{P: p0.P.Add(randUnit(r).Scale(3 * r.Float64())), Q: geom.QuatAxisAngle(randUnit(r), angle).Mul(p0.Q)}
		if i%7 == 0 {
			p1.Q = p0.Q
		}
		if i%11 == 0 {
			p1.Q = p1.Q.Neg() // the same rotation
		}
		for _, m := range []geom.MotionModel{geom.ScrewMotion, geom.LinearAngular} {
			s := StateOf(p0, p1, m)
			for k := 0; k <= 8; k++ {
				tt := float64(k) / 8
				got, want := s.At(tt), m.PoseAt(p0, p1, tt)
				if d := got.P.Dist(want.P); d > 1e-9 {
					t.Fatalf("case %d %v t=%v: position %v, PoseAt %v (|d| %g)", i, m, tt, got.P, want.P, d)
				}
				if d := 1 - math.Abs(got.Q.Dot(want.Q)); d > 1e-12 {
					t.Fatalf("case %d %v t=%v: rotation %v, PoseAt %v", i, m, tt, got.Q, want.Q)
				}
			}
		}
	}
}

// TestStartContact: bodies whose surfaces meet at time 0 get a contact at
// time 0, whatever their motion (none, towards, apart): Touching when the
// surfaces touch (stacked or coincident cubes), Penetrating when they cross
// (cubes overlapping by a quarter), with a normal from A towards B and a
// negative separation for the overlap.
func TestStartContact(t *testing.T) {
	cube := mustShape(t, shapes.Cube(1))
	var q Scratch
	at := func(z float64) geom.Pose { return geom.Pose{P: geom.V(0.1, -0.2, z), Q: geom.QuatIdentity()} }
	for _, c := range []struct {
		name   string
		bz     float64 // B's height; A is at the origin
		status contact.Status
	}{
		{"stacked", 1, contact.Touching},
		{"coincident", 0, contact.Touching},
		{"overlapping", 0.75, contact.Penetrating},
	} {
		for _, v := range []geom.Vec3{{}, geom.V(0, 0, -1), geom.V(0, 0, 1), geom.V(1, 0, 0)} {
			for _, o := range []*Options{nil, {Method: Segments}, {PointsOnly: true}} {
				sa := State{Pose: geom.PoseIdentity()}
				sb := State{Pose: at(c.bz), V: v}
				cs, err := q.Contacts(cube, sa, cube, sb, 1, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(cs) != 1 || cs[0].Time != 0 || cs[0].Status != c.status {
					t.Errorf("%s, B moving %v, options %+v: %v, want one %v contact at time 0", c.name, v, o, cs, c.status)
					continue
				}
				r := cs[0].Record()
				if err := r.Validate(); err != nil {
					t.Errorf("%s: %v", c.name, err)
				}
				if c.status == contact.Penetrating {
					// The normal is a face normal (axis-aligned here) that
					// points from A's centre towards B's, and the depth
					// estimate is below a cube's size.
					d := at(c.bz).P
					n := r.Normal
					axis := math.Max(math.Abs(n.X), math.Max(math.Abs(n.Y), math.Abs(n.Z)))
					if !(n.Dot(d) > 0) || math.Abs(axis-1) > 1e-12 || !(r.Separation < 0 && r.Separation > -1) {
						t.Errorf("%s: normal %v separation %v", c.name, r.Normal, r.Separation)
					}
				}
			}
		}
	}
	// Apart by more than the tolerance and not moving: no contact.
	cs, err := q.Contacts(cube, State{Pose: geom.PoseIdentity()}, cube, State{Pose: at(1.01)}, 1, nil, nil)
	if err != nil || len(cs) != 0 {
		t.Errorf("cubes 0.01 apart at rest: %v %v", cs, err)
	}
}

// TestStartOverlapOracle: cubes at rest in random poses against an
// independent separating-axis test of the two boxes (geom.OBB): boxes
// overlapping by more than the tolerance on every axis are Penetrating
// or Touching at time 0 (Penetrating unless one holds the other, which
// cubes of one size cannot), boxes apart give nothing.
func TestStartOverlapOracle(t *testing.T) {
	cube := mustShape(t, shapes.Cube(1))
	box := func(p geom.Pose, grow float64) geom.OBB {
		return geom.OBB{Center: p.P, Axes: p.Q.Mat3(), Half: geom.V(0.5+grow, 0.5+grow, 0.5+grow)}
	}
	r := rand.New(rand.NewPCG(*seed, 41))
	var q Scratch
	n, pen := 400, 0
	for i := 0; i < n; i++ {
		pa := geom.Pose{P: randUnit(r).Scale(0.3 * r.Float64()), Q: randQuat(r)}
		pb := geom.Pose{P: pa.P.Add(randUnit(r).Scale(0.6 + 1.2*r.Float64())), Q: randQuat(r)}
		cs, err := q.Contacts(cube, State{Pose: pa}, cube, State{Pose: pb}, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		const tol = 2e-3 // above the default tolerance, 1e-3 of the radius
		switch {
		case box(pa, -tol).Overlaps(box(pb, -tol)):
			pen++
			if len(cs) != 1 || cs[0].Time != 0 || cs[0].Status != contact.Penetrating {
				t.Errorf("case %d: overlapping cubes %v %v: %v", i, pa, pb, cs)
			}
		case !box(pa, tol).Overlaps(box(pb, tol)):
			if len(cs) != 0 {
				t.Errorf("case %d: separated cubes %v %v: %v", i, pa, pb, cs)
			}
		}
	}
	if rate := float64(pen) / float64(n); rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f, want 0.3-0.7", rate)
	}
}

// TestPointTree: every node of a shape's point tree holds its children's
// points, and its sphere holds its points; the leaves list every distinct
// sample once.
func TestPointTree(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 1))
	for c := 0; c < 20; c++ {
		n := 1 + r.IntN(300)
		pts := make([]geom.Vec3, n)
		for i := range pts {
			pts[i] = geom.V(r.NormFloat64(), r.NormFloat64()*3, r.NormFloat64()*0.1)
			if i > 0 && r.IntN(4) == 0 {
				pts[i] = pts[r.IntN(i)] // repeated samples are followed once
			}
		}
		soup, err := NewSoup([]geom.Vec3{{X: 0}, {X: 1}, {Y: 1}}, [][3]int32{{0, 1, 2}})
		if err != nil {
			t.Fatal(err)
		}
		sh, err := NewShape(soup, pts)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int32]int{}
		for ni, nd := range sh.pnodes {
			for _, k := range sh.porder[nd.lo:nd.hi] {
				if d := sh.samples[k].Dist(nd.c); d > nd.r*(1+1e-12) {
					t.Fatalf("case %d: node %d: sample %d at %v from the centre, radius %v", c, ni, k, d, nd.r)
				}
			}
			if nd.kid < 0 {
				if nd.hi-nd.lo > pleafSize {
					t.Fatalf("case %d: leaf %d holds %d points", c, ni, nd.hi-nd.lo)
				}
				for _, k := range sh.porder[nd.lo:nd.hi] {
					seen[k]++
				}
				continue
			}
			l, h := sh.pnodes[nd.kid], sh.pnodes[nd.kid+1]
			if l.lo != nd.lo || l.hi != h.lo || h.hi != nd.hi {
				t.Fatalf("case %d: node %d [%d, %d) has children [%d, %d) and [%d, %d)", c, ni, nd.lo, nd.hi, l.lo, l.hi, h.lo, h.hi)
			}
		}
		distinct := map[geom.Vec3]bool{}
		for _, p := range pts {
			distinct[p] = true
		}
		if len(seen) != len(distinct) {
			t.Fatalf("case %d: leaves hold %d samples, %d distinct positions", c, len(seen), len(distinct))
		}
		for k, m := range seen {
			if m != 1 {
				t.Fatalf("case %d: sample %d in %d leaves", c, k, m)
			}
		}
	}
}
