package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

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
