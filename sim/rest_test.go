package sim

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestCubeRestsOnSlab drops a turned cube on a slab and requires it to come
// to rest on the slab: the vertex
// closest to the slab's top face, checked directly on the mesh, within 1% of
// the cube's bounding radius of it.
func TestCubeRestsOnSlab(t *testing.T) {
	s, err := New(&Options{Gravity: geom.V(0, 0, -9.81), Friction: 0.5, Restitution: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	slab := shapes.Box(geom.V(2, 2, 0.1))
	if _, err := s.Add(BodyDef{Mesh: slab, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.1), Q: geom.QuatIdentity()}}); err != nil {
		t.Fatal(err)
	}
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
