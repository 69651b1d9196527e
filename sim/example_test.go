package sim_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/sim"
)

// A cube dropped on a static slab comes to rest on it.
func Example() {
	s, err := sim.New(&sim.Options{Gravity: geom.V(0, 0, -9.81), Friction: 0.5, Restitution: 0.2})
	if err != nil {
		panic(err)
	}
	slab := shapes.Box(geom.V(2, 2, 0.1))
	if _, err := s.Add(sim.BodyDef{Mesh: slab, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.1), Q: geom.QuatIdentity()}}); err != nil {
		panic(err)
	}
	cube := shapes.Cube(0.2) // edge 0.2 m, centred at its centre of mass
	mp, err := mesh.MassProperties(cube, 1000)
	if err != nil {
		panic(err)
	}
	id, err := s.Add(sim.BodyDef{Mesh: cube, Mass: mp.Mass, Inertia: mp.Inertia,
		Pose: geom.Pose{P: geom.V(0, 0, 0.5), Q: geom.QuatAxisAngle(geom.V(1, 1, 0), 0.3)}})
	if err != nil {
		panic(err)
	}
	for step := 0; step < 180; step++ {
		if err := s.Step(); err != nil {
			panic(err)
		}
	}
	st := s.State(id)
	fmt.Printf("mass %.1f kg, resting at height %.3f m, asleep %v\n", mp.Mass, st.Pose.P.Z, s.Asleep(id))
	// Output: mass 8.0 kg, resting at height 0.100 m, asleep true
}
