package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// boxDepth returns how deep the vertices of mesh m at pose pm go into the
// axis-aligned box of half extent h at pose pb (the distance to the box's
// nearest face of the deepest vertex inside it; 0 when none is inside).
func boxDepth(m *mesh.Mesh, pm geom.Pose, h float64, pb geom.Pose) float64 {
	inv := pb.Inverse()
	deep := 0.0
	for _, v := range m.Verts {
		q := inv.Apply(pm.Apply(v))
		d := h - math.Max(math.Abs(q.X), math.Max(math.Abs(q.Y), math.Abs(q.Z)))
		deep = math.Max(deep, d)
	}
	return deep
}

// TestRecheckLightBetweenHeavyAndFloor: a light cube on a slab, and a cube
// ten times heavier sunk off centre into it by 6% of its bounding radius,
// as a heavy body falling on a light one leaves them at the end of a step
// (the 200-body pile has such pairs, mass ratio 8.5). The position pass on
// contacts found at those poses (a step's recheck) must bring every vertex
// of each body within twice the slop of the other's surface, measured on
// the meshes: pushes shared by mass drive the light cube back into the
// slab nearly as much as they lift it from the heavy one, and half pushes
// (the pass at the end of a step) leave 1.5% of the radius after 64
// rounds.
func TestRecheckLightBetweenHeavyAndFloor(t *testing.T) {
	s := simOnSlab(t, &Options{Gravity: geom.V(0, 0, -9.81)})
	cube := shapes.Cube(0.2)
	const half = 0.1
	r := cube.Radius()
	add := func(density float64, p geom.Vec3) BodyID {
		mp, err := mesh.MassProperties(cube, density)
		if err != nil {
			t.Fatal(err)
		}
		id, err := s.Add(BodyDef{Mesh: cube, Mass: mp.Mass, Inertia: mp.Inertia, Pose: geom.Pose{P: p, Q: geom.QuatIdentity()}})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	sunk := 0.06 * r
	light := add(1000, geom.V(0, 0, half-0.001))
	heavy := add(10000, geom.V(0.05, 0.02, 3*half-0.001-sunk))
	depths := func() (floor, pair float64) {
		pl, ph := s.State(light).Pose, s.State(heavy).Pose
		for _, v := range cube.Verts { // the slab's top is z = 0
			floor = math.Max(floor, -pl.Apply(v).Z)
		}
		pair = math.Max(boxDepth(cube, ph, half, pl), boxDepth(cube, pl, half, ph))
		return floor, pair
	}
	if _, pair := depths(); pair < 0.9*sunk {
		t.Fatalf("set-up: the heavy cube is only %v deep (want %v)", pair, sunk)
	}
	// The step that sank them had both cubes in contact: the recheck
	// takes the bodies that touched something in the step.
	for _, id := range []BodyID{light, heavy} {
		s.bodies[id].mark |= markTouched
		s.bodies[id].start = s.bodies[id].pose.P
	}
	if err := s.recheck(); err != nil {
		t.Fatal(err)
	}
	floor, pair := depths()
	if lim := 2 * slopFrac * r; floor > lim || pair > lim {
		t.Errorf("after the position pass: light cube %.3g%% of its radius into the slab, heavy cube %.3g%% into it; want both below %.3g%%",
			100*floor/r, 100*pair/r, 100*lim/r)
	}
}

// TestRecheckSearchesAgainAfterPush: a cube driven into a static cube by
// d (the overlap a step can leave), and a second dynamic cube beside it
// on the other side, g away, beyond the pair margin of the recheck's
// contact search (the base margins, 2.5% of each radius) but nearer than
// d. The recheck's position pass pushes the first cube out of the static
// one by d, into the second, which its contact search did not see (as in
// a 1000-body pile, where a corner pushed out of one neighbour ended 1.8%
// of its radius inside another); the recheck must find that new overlap
// and undo it: every vertex within twice the slop of the others'
// surfaces, measured on the meshes, for overlaps and gaps on both sides
// of the margin.
func TestRecheckSearchesAgainAfterPush(t *testing.T) {
	cube := shapes.Cube(0.2)
	const half = 0.1
	r := cube.Radius()
	mp, err := mesh.MassProperties(cube, 1000)
	if err != nil {
		t.Fatal(err)
	}
	cases, hits := 0, 0
	for _, d := range []float64{0.06 * r, 0.08 * r, 0.095 * r} {
		for _, g := range []float64{0.055 * r, 0.07 * r, 0.09 * r} {
			s, err := New(&Options{})
			if err != nil {
				t.Fatal(err)
			}
			margin := 2 * s.bodyMargin(r)
			if g <= margin {
				t.Fatalf("set-up: gap %v within the pair margin %v", g, margin)
			}
			wall := geom.Pose{P: geom.V(-2*half+d, 0, 0), Q: geom.QuatIdentity()}
			if _, err := s.Add(BodyDef{Mesh: cube, Static: true, Pose: wall}); err != nil {
				t.Fatal(err)
			}
			var ids [2]BodyID
			for k, x := range []float64{0, 2*half + g} {
				id, err := s.Add(BodyDef{Mesh: cube, Mass: mp.Mass, Inertia: mp.Inertia, Pose: geom.Pose{P: geom.V(x, 0.01*float64(k), 0), Q: geom.QuatIdentity()}})
				if err != nil {
					t.Fatal(err)
				}
				ids[k] = id
				// Both touched something in the step that left them there.
				s.bodies[id].mark |= markTouched
				s.bodies[id].start = s.bodies[id].pose.P
			}
			if err := s.recheck(); err != nil {
				t.Fatal(err)
			}
			pa, pb := s.State(ids[0]).Pose, s.State(ids[1]).Pose
			inWall := math.Max(boxDepth(cube, pa, half, wall), boxDepth(cube, wall, half, pa))
			pair := math.Max(boxDepth(cube, pa, half, pb), boxDepth(cube, pb, half, pa))
			// The push out of the wall reaches the second cube exactly
			// when the overlap is larger than the gap.
			cases++
			reached := d > g
			if reached {
				hits++
			}
			if pushed := pb.P.X > 2*half+g+1e-9; pushed != reached {
				t.Errorf("overlap %.3g%%, gap %.3g%% of the radius: second cube pushed %v, want %v", 100*d/r, 100*g/r, pushed, reached)
			}
			if lim := 2 * slopFrac * r; inWall > lim || pair > lim {
				t.Errorf("overlap %.3g%%, gap %.3g%% of the radius: after the recheck the cube is %.3g%% into the wall and the cubes overlap by %.3g%%; want both below %.3g%%",
					100*d/r, 100*g/r, 100*inWall/r, 100*pair/r, 100*lim/r)
			}
		}
	}
	if hits == 0 || hits == cases {
		t.Errorf("the push reaches the second cube in %d of %d cases; want some of each", hits, cases)
	}
}

// randomPose returns a pose within 2 m of the origin, turned at random.
func randomPose(rng *rand.Rand) geom.Pose {
	axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Normalize()
	return geom.Pose{
		P: geom.V(rng.Float64()*4-2, rng.Float64()*4-2, rng.Float64()*4-2),
		Q: geom.QuatAxisAngle(axis, rng.Float64()*math.Pi),
	}
}

// nudge returns p moved by up to d and turned by up to a radians.
func nudge(rng *rand.Rand, p geom.Pose, d, a float64) geom.Pose {
	axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Normalize()
	off := geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1).Scale(d)
	return geom.Pose{P: p.P.Add(off), Q: geom.QuatAxisAngle(axis, a*rng.Float64()).Mul(p.Q)}
}

// TestRelDeviation checks the bound of how far a body's points ended, in
// the other body's frame, from where the predicted poses put them,
// against the largest such distance over the mesh's vertices (each placed
// in the world by both poses and taken into the other body's frame by
// its pose's inverse, point by point): never below it, and tight for a
// pure relative translation.
func TestRelDeviation(t *testing.T) {
	m := shapes.Torus(1, 0.3, 16, 10)
	rng := rand.New(rand.NewPCG(5, 9))
	local := func(p geom.Pose, x geom.Vec3) geom.Vec3 { return p.Q.Conj().Rotate(x.Sub(p.P)) }
	for i := range 500 {
		a := body{radius: m.Radius(), mesh: m}
		b := body{radius: m.Radius(), mesh: m}
		a.pred, b.pred = randomPose(rng), randomPose(rng)
		turn := 0.0
		if i%2 == 1 {
			turn = 0.2
		}
		a.pose, b.pose = nudge(rng, a.pred, 0.1, turn), nudge(rng, b.pred, 0.1, turn)
		if i%4 == 0 {
			// The same translation of both: no relative deviation.
			off := geom.V(rng.Float64(), rng.Float64(), rng.Float64())
			a.pose = geom.Pose{P: a.pred.P.Add(off), Q: a.pred.Q}
			b.pose = geom.Pose{P: b.pred.P.Add(off), Q: b.pred.Q}
		}
		brute := 0.0
		for _, v := range m.Verts {
			x := local(b.pose, a.pose.Apply(v))
			xp := local(b.pred, a.pred.Apply(v))
			brute = math.Max(brute, x.Sub(xp).Norm())
		}
		got := relDeviation(&a, &b)
		if got < brute-1e-12 {
			t.Fatalf("case %d: bound %.9g below the vertices' deviation %.9g", i, got, brute)
		}
		if i%4 == 0 && got > 1e-12 {
			t.Fatalf("case %d: common translation: bound %.3g, want 0", i, got)
		}
		if turn == 0 && i%4 != 0 && got > brute+1e-12 {
			t.Fatalf("case %d: relative translation: bound %.9g, deviation %.9g", i, got, brute)
		}
	}
}

// TestPaced: two dynamic tori near each other that both end 3 cm below
// their predicted poses (held up together, as linked tori hanging from a
// bar are) each outrun their own margin but keep pace with each other; one
// that ends 3 cm off relative to the other does not, nor does a torus with
// a cube.
func TestPaced(t *testing.T) {
	s, err := New(&Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := shapes.Torus(0.2, 0.05, 16, 10)
	mp, err := mesh.MassProperties(m, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for k := range 2 {
		pose := geom.Pose{P: geom.V(0.3*float64(k), 0, 1), Q: geom.QuatIdentity()}
		if _, err := s.Add(BodyDef{Mesh: m, Mass: mp.Mass, Inertia: mp.Inertia, Pose: pose}); err != nil {
			t.Fatal(err)
		}
	}
	down := geom.V(0, 0, -0.03)
	place := func(off0, off1 geom.Vec3) {
		for k, off := range [2]geom.Vec3{off0, off1} {
			b := &s.bodies[k]
			start := geom.Pose{P: geom.V(0.3*float64(k), 0, 1), Q: geom.QuatIdentity()}
			b.p0, b.q0, b.far2 = start.P, start.Q, 0
			b.pred = start
			b.pose = geom.Pose{P: start.P.Add(off), Q: start.Q}
		}
	}
	place(down, down)
	margin := s.bodyMargin(s.bodies[0].radius)
	if down.Norm() <= 2*margin {
		t.Fatalf("offset %.3g within the pair's margin %.3g: the test shows nothing", down.Norm(), 2*margin)
	}
	if !s.paced(0) || !s.paced(1) {
		t.Fatal("bodies moved together off their predictions: want paced")
	}
	if s.alone(0) {
		t.Fatal("bodies 30 cm apart with radii 25 cm: want near each other")
	}
	place(down, geom.Vec3{})
	if s.paced(0) || s.paced(1) {
		t.Fatal("one body 3 cm off the other's prediction: want not paced")
	}
	// The same with a cube instead of the second torus: a pair with a
	// convex body is never paced.
	cube := shapes.Cube(0.3)
	s.bodies[1].mesh = cube
	s.bodies[1].radius = cube.Radius()
	place(down, down)
	if s.paced(0) || s.paced(1) {
		t.Fatal("torus and cube moved together: want not paced (convex body)")
	}
}

// TestRecheckStackUnderHeavy: five light cubes stacked on a slab under a
// cube 6.5 times heavier, every contact sunk by 5% of the radius, as a
// heavy body landing on a stack of the 1000-body pile leaves them at the
// end of a step. The recheck's position pass must bring every pair within
// twice the slop (measured on the meshes); one pass of its rounds leaves
// about 1%: each push shared by mass moves the light cubes back down
// nearly as far as it lifts the heavy one.
func TestRecheckStackUnderHeavy(t *testing.T) {
	s := simOnSlab(t, &Options{Gravity: geom.V(0, 0, -9.81)})
	cube := shapes.Cube(0.2)
	const half = 0.1
	r := cube.Radius()
	sunk := 0.05 * r
	var ids []BodyID
	for i, density := range []float64{1000, 1000, 1000, 1000, 1000, 6500} {
		mp, err := mesh.MassProperties(cube, density)
		if err != nil {
			t.Fatal(err)
		}
		z := half + float64(i)*(2*half-sunk) - sunk
		id, err := s.Add(BodyDef{Mesh: cube, Mass: mp.Mass, Inertia: mp.Inertia, Pose: geom.Pose{P: geom.V(0.01*float64(i), -0.01*float64(i), z), Q: geom.QuatIdentity()}})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	deepest := func() (d float64) {
		for _, v := range cube.Verts { // the slab's top is z = 0
			d = math.Max(d, -s.State(ids[0]).Pose.Apply(v).Z)
		}
		for i := 1; i < len(ids); i++ {
			pa, pb := s.State(ids[i-1]).Pose, s.State(ids[i]).Pose
			d = math.Max(d, math.Max(boxDepth(cube, pa, half, pb), boxDepth(cube, pb, half, pa)))
		}
		return d
	}
	if d := deepest(); d < 0.9*sunk {
		t.Fatalf("set-up: deepest overlap %v (want %v)", d, sunk)
	}
	for _, id := range ids {
		s.bodies[id].mark |= markTouched
		s.bodies[id].start = s.bodies[id].pose.P
	}
	if err := s.recheck(); err != nil {
		t.Fatal(err)
	}
	if d, lim := deepest(), 2*slopFrac*r; d > lim {
		t.Errorf("after the recheck: deepest overlap %.3g%% of the radius, want below %.3g%%", 100*d/r, 100*lim/r)
	}
}

// simOnSlab returns a simulation with options o and a static 4 x 4 x 0.2
// slab whose top face is the plane z = 0.
func simOnSlab(t *testing.T, o *Options) *Sim {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	slab := shapes.Box(geom.V(2, 2, 0.1))
	if _, err := s.Add(BodyDef{Mesh: slab, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.1), Q: geom.QuatIdentity()}}); err != nil {
		t.Fatal(err)
	}
	return s
}
