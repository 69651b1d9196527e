package screw

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestHugeCoordinates: poses and meshes with coordinates far beyond what
// float64 can resolve relative to the bodies (the 1e239 poses once made the
// projection subdivide for ever) are errors naming the pose or mesh;
// non-finite poses are errors; large but usable coordinates and zero-length
// motions are answered.
func TestHugeCoordinates(t *testing.T) {
	cube := shapes.Cube(1)
	id := geom.PoseIdentity()
	q, _ := geom.Quat{W: 0.7, X: 0.7}.Normalize()
	d := NewDetector()
	bad := []struct {
		name           string
		a, b           *mesh.Mesh
		a0, a1, b0, b1 geom.Pose
	}{
		{"1e239 through A", cube, cube, id, id, geom.Pose{P: geom.Vec3{X: 1e239}, Q: id.Q}, geom.Pose{P: geom.Vec3{X: -1e239}, Q: q}},
		{"1e239 diagonal", cube, cube, id, id, geom.Pose{P: geom.Vec3{X: 1e239, Y: 1e239}, Q: id.Q}, geom.Pose{P: geom.Vec3{X: -1e239, Y: 3}, Q: q}},
		{"1e30 A moves", cube, cube, geom.Pose{P: geom.Vec3{Z: 1e30}, Q: id.Q}, id, geom.Pose{P: geom.Vec3{X: 2}, Q: q}, id},
		{"1e16", cube, cube, id, id, geom.Pose{P: geom.Vec3{X: 1e16}, Q: id.Q}, geom.Pose{P: geom.Vec3{X: -1e16}, Q: q}},
		{"tiny body far away", shapes.Cube(1e-9), cube, id, id, geom.Pose{P: geom.Vec3{X: 1e5}, Q: id.Q}, geom.Pose{P: geom.Vec3{X: -1e5}, Q: q}},
		{"huge mesh", shapes.Cube(1e17), cube, id, id, geom.Pose{P: geom.Vec3{X: 3}, Q: id.Q}, geom.Pose{P: geom.Vec3{X: -3}, Q: q}},
		{"NaN", cube, cube, id, id, geom.Pose{P: geom.Vec3{X: math.NaN()}, Q: id.Q}, id},
		{"Inf", cube, cube, id, id, id, geom.Pose{P: geom.Vec3{Y: math.Inf(-1)}, Q: id.Q}},
		{"NaN quaternion", cube, cube, geom.Pose{Q: geom.Quat{W: math.NaN()}}, id, id, id},
	}
	for _, c := range bad {
		_, err := d.Detect(c.a, c.b, c.a0, c.a1, c.b0, c.b1, nil, nil)
		if !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: Detect error %v, want ErrBadInput", c.name, err)
		}
		if _, _, err := d.FirstContact(c.a, c.b, c.a0, c.a1, c.b0, c.b1, nil); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: FirstContact error %v, want ErrBadInput", c.name, err)
		}
		if _, _, err := d.ScreenImage(c.a, c.b, c.a0, c.a1, c.b0, c.b1, nil, nil); !errors.Is(err, ErrBadInput) {
			t.Errorf("%s: ScreenImage error %v, want ErrBadInput", c.name, err)
		}
	}
	// Usable: large coordinates within range, and zero-length motion.
	for _, x := range []float64{8e12, 1e10, 1e6} {
		b0 := geom.Pose{P: geom.Vec3{X: x, Y: 0.3}, Q: id.Q}
		b1 := geom.Pose{P: geom.Vec3{X: -x, Y: 0.2}, Q: id.Q}
		cs, err := d.Detect(cube, cube, id, id, b0, b1, nil, nil)
		if err != nil || len(cs) == 0 {
			t.Errorf("x=%v: Detect %d collisions, error %v; want collisions", x, len(cs), err)
		}
		hit, _, err := d.FirstContact(cube, cube, id, id, b0, b1, nil)
		if err != nil || !hit {
			t.Errorf("x=%v: FirstContact hit %v, error %v", x, hit, err)
		}
		b0.Q, b1.Q = id.Q, q
		if _, err := d.Detect(cube, cube, id, id, b0, b1, nil, nil); err != nil {
			t.Errorf("x=%v rotating: Detect error %v", x, err)
		}
	}
	// A zero-length motion of overlapping cubes: only the resting
	// contacts of the start poses, overlapping, and a first contact at 0;
	// of cubes apart, nothing.
	still := geom.Pose{P: geom.Vec3{X: 0.9}, Q: q}
	cs, err := d.Detect(cube, cube, id, id, still, still, nil, nil)
	if err != nil || len(cs) == 0 {
		t.Errorf("zero-length motion: %d collisions, error %v", len(cs), err)
	}
	for _, c := range cs {
		if !c.Resting || c.Time != 0 || c.Separation >= 0 {
			t.Errorf("zero-length motion of overlapping cubes: %v", c)
		}
	}
	if hit, toc, err := d.FirstContact(cube, cube, id, id, still, still, nil); err != nil || !hit || toc != 0 {
		t.Errorf("zero-length motion: FirstContact hit %v at %v, error %v", hit, toc, err)
	}
	apart := geom.Pose{P: geom.Vec3{X: 1.9}, Q: q}
	if cs, err := d.Detect(cube, cube, id, id, apart, apart, nil, nil); err != nil || len(cs) != 0 {
		t.Errorf("zero-length motion apart: %d collisions, error %v", len(cs), err)
	}
	if hit, _, err := d.FirstContact(cube, cube, id, id, apart, apart, nil); err != nil || hit {
		t.Errorf("zero-length motion apart: FirstContact hit %v, error %v", hit, err)
	}
}

// TestProjectionBudget: when the projection runs out of subdivision steps
// (the safety net behind the range checks), the query is an error, not a
// hang or a silently incomplete answer.
func TestProjectionBudget(t *testing.T) {
	saveMax, savePer := maxProjectionSteps, projectionStepsPerEdge
	defer func() { maxProjectionSteps, projectionStepsPerEdge = saveMax, savePer }()
	maxProjectionSteps, projectionStepsPerEdge = 3, 0
	cube := shapes.Cube(1)
	id := geom.PoseIdentity()
	q, _ := geom.Quat{W: 0.7, X: 0.7}.Normalize()
	b0 := geom.Pose{P: geom.Vec3{X: 2, Y: 0.3}, Q: id.Q}
	b1 := geom.Pose{P: geom.Vec3{X: -2, Y: 0.2}, Q: q}
	d := NewDetector()
	if _, err := d.Detect(cube, cube, id, id, b0, b1, nil, nil); !errors.Is(err, ErrBadInput) {
		t.Errorf("Detect error %v, want ErrBadInput", err)
	}
	if _, _, err := d.FirstContact(cube, cube, id, id, b0, b1, nil); !errors.Is(err, ErrBadInput) {
		t.Errorf("FirstContact error %v, want ErrBadInput", err)
	}
	maxProjectionSteps, projectionStepsPerEdge = saveMax, savePer
	if cs, err := d.Detect(cube, cube, id, id, b0, b1, nil, nil); err != nil || len(cs) == 0 {
		t.Errorf("default budget: %d collisions, error %v", len(cs), err)
	}
}

// TestScreenFrameOrthonormal checks that the screen frame is a rotation for
// random motions, including motions that turn a body about an axis
// through its own centre and glide along it (its centre then lies on the
// screw axis, where the direction to it is only rounding residue).
func TestScreenFrameOrthonormal(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	tor := shapes.Torus(1, 0.35, 8, 6)
	cube := shapes.Cube(1)
	for it := 0; it < 3000; it++ {
		m := cube
		if it%2 == 1 {
			m = tor
		}
		pa, b0, b1 := randomCase(r, 1, 1)
		if it%3 == 0 {
			// Turn B about an axis through its centre, with a glide.
			ax, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
			b1 = geom.Pose{P: b0.P.AddScaled(100*r.NormFloat64(), ax), Q: geom.QuatAxisAngle(ax, 3*r.Float64()).Mul(b0.Q)}
		}
		d := NewDetector()
		if !d.setup(m, m, pa, pa, b0, b1, nil) {
			continue
		}
		R := d.tr[0].R
		if !R.IsRotation(1e-9) {
			t.Fatalf("case %d: screen frame %v is not a rotation\npa %v\nb0 %v\nb1 %v", it, R, pa, b0, b1)
		}
	}
}
