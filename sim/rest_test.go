package sim

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

// TestCubeRestsOnSlab drops a turned cube on a slab and requires it to come
// to rest on the slab: the vertex
// closest to the slab's top face, checked directly on the mesh, within 1% of
// the cube's bounding radius of it.
func TestCubeRestsOnSlab(t *testing.T) {
	s := simOnSlab(t, &Options{Gravity: geom.V(0, 0, -9.81), Friction: 0.5, Restitution: 0.2})
	cube := shapes.Cube(0.2)
	mp, err := mesh.MassProperties(cube, 1000)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.Add(BodyDef{Mesh: cube, Mass: mp.Mass, Inertia: mp.Inertia,
		Pose: geom.Pose{P: geom.V(0, 0, 0.4), Q: geom.QuatAxisAngle(geom.V(1, 2, 0), 0.4)}})
	if err != nil {
		t.Fatal(err)
	}
	contacts := 0
	for step := 0; step < 180; step++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for _, c := range s.Contacts() {
			if err := c.Validate(); err != nil {
				t.Fatalf("step %d: %v", step, err)
			}
			contacts++
		}
	}
	if contacts == 0 {
		t.Fatal("no contacts")
	}
	st := s.State(id)
	low := math.Inf(1)
	for _, v := range cube.Verts {
		low = math.Min(low, st.Pose.Apply(v).Z)
	}
	if r := cube.Radius(); math.Abs(low) > 0.01*r || st.V.Norm() > 1e-3 {
		t.Fatalf("cube's lowest vertex at %v (radius %v), speed %v", low, r, st.V.Norm())
	}
}

// TestAsleepStepsHoldStill: once every body of the sample tower sleeps, a
// step leaves every state exactly as it was and reports no contacts; and
// the tower does fall asleep within its 240 steps.
func TestAsleepStepsHoldStill(t *testing.T) {
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", "tower-b8-k240-s2"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromScene(sc, nil)
	if err != nil {
		t.Fatal(err)
	}
	allAsleep := func() bool {
		for i := 0; i < s.Len(); i++ {
			if !s.Static(BodyID(i)) && !s.Asleep(BodyID(i)) {
				return false
			}
		}
		return true
	}
	step := 0
	for ; step < sc.Steps && !allAsleep(); step++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if !allAsleep() {
		t.Fatalf("the tower is still awake after %d steps", step)
	}
	before := make([]State, s.Len())
	for i := range before {
		before[i] = s.State(BodyID(i))
	}
	for k := 0; k < 20; k++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if n := len(s.Contacts()); n != 0 || s.Stats() != (Stats{}) {
			t.Fatalf("asleep step %d: %d contacts, stats %+v", k, n, s.Stats())
		}
		for i := range before {
			if st := s.State(BodyID(i)); st != before[i] {
				t.Fatalf("asleep step %d: body %d moved from %+v to %+v", k, i, before[i], st)
			}
		}
	}
}
