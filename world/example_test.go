package world_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/world"
)

// A world runs the broad phase and the fitting narrow phase for every
// pair: here two convex cubes (separating vector at the end poses) and a
// car (a non-convex polyhedron, screw-motion CCD) driven through both:
// the car 2 units long crosses cube b's face x = 1.5 at t = 0.4375 and
// cube a's x = 0.5 at t = 0.4625, its four front corners at once. Every
// contact is a record of package contact: status, time, point, normal from
// A to B, separation and the features of each body.
func Example() {
	w, err := world.New(nil)
	if err != nil {
		panic(err)
	}
	at := func(x, y float64) geom.Pose { return geom.Pose{P: geom.Vec3{X: x, Y: y}, Q: geom.QuatIdentity()} }
	cube := shapes.Cube(1)
	a, _ := w.Add(world.BodyDef{Mesh: cube, Kind: world.Convex, Pose: at(0, 0)})
	b, _ := w.Add(world.BodyDef{Mesh: cube, Kind: world.Convex, Pose: at(5, 0)})
	car, _ := w.Add(world.BodyDef{Mesh: shapes.Car(), Kind: world.Polyhedron, Pose: at(-20, 10)})

	// Step 1: b moves next to a, face to face: four touching contacts, the
	// corners of the shared square; the car drives from
	// far left to far right above them, through nothing.
	w.Move(b, at(1, 0))
	w.Move(car, at(20, 10))
	cs, _ := w.Step(nil)
	for _, c := range cs {
		fmt.Printf("%d %d %v %v at %v, separation %.3g, %v of A, %v of B\n", c.A, c.B, c.Method, c.Status, c.Point, c.Separation, c.FeatureA, c.FeatureB)
	}

	// Step 2: the car is put back at the right, low, and drives through
	// both cubes within the step.
	w.SetPose(car, at(20, 0))
	w.Move(car, at(-20, 0))
	cs, _ = w.Step(cs[:0])
	for _, c := range cs {
		if c.Method == world.ScrewCCD {
			fmt.Printf("%d %d %v %v at t=%.4f: %v of A, %v of B\n", c.A, c.B, c.Method, c.Status, c.Time, c.FeatureA, c.FeatureB)
		} else {
			fmt.Printf("%d %d %v %v at %v\n", c.A, c.B, c.Method, c.Status, c.Point)
		}
	}
	fmt.Println("cube a is body", a)
	// Output:
	// 0 1 separating-vector touching at (0.5, -0.5, -0.5), separation 0, face 1 of A, vertex 0 of B
	// 0 1 separating-vector touching at (0.5, -0.5, 0.5), separation 0, face 1 of A, vertex 4 of B
	// 0 1 separating-vector touching at (0.5, 0.5, 0.5), separation 0, face 1 of A, vertex 6 of B
	// 0 1 separating-vector touching at (0.5, 0.5, -0.5), separation 0, face 1 of A, vertex 2 of B
	// 0 1 separating-vector touching at (0.5, -0.5, -0.5)
	// 0 1 separating-vector touching at (0.5, -0.5, 0.5)
	// 0 1 separating-vector touching at (0.5, 0.5, 0.5)
	// 0 1 separating-vector touching at (0.5, 0.5, -0.5)
	// 0 2 screw hit at t=0.4625: face 1 of A, vertex 0 of B
	// 0 2 screw hit at t=0.4625: face 1 of A, vertex 3 of B
	// 0 2 screw hit at t=0.4625: face 1 of A, vertex 4 of B
	// 0 2 screw hit at t=0.4625: face 1 of A, vertex 7 of B
	// 1 2 screw hit at t=0.4375: face 1 of A, vertex 0 of B
	// 1 2 screw hit at t=0.4375: face 1 of A, vertex 3 of B
	// 1 2 screw hit at t=0.4375: face 1 of A, vertex 4 of B
	// 1 2 screw hit at t=0.4375: face 1 of A, vertex 7 of B
	// cube a is body 0
}

// FeatureContacts gives a simulator speculative contacts: a unit cube 5 cm
// above a slab, moved 10 cm down over the step, gets its four bottom
// corners as contacts with the slab's top face (separation 0.05, normal up
// from the slab to the cube), because the step's motion can close the gap;
// asleep, it is not tested against the static slab at all.
func ExampleWorld_SetMargin() {
	var tbl world.Table
	tbl[world.Convex][world.Convex] = world.FeatureContacts
	w, err := world.New(&world.Options{Table: &tbl, Workers: 1})
	if err != nil {
		panic(err)
	}
	slab := shapes.Box(geom.V(3, 3, 0.5))
	w.Add(world.BodyDef{Mesh: slab, Kind: world.Convex, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.5), Q: geom.QuatIdentity()}})
	cube, _ := w.Add(world.BodyDef{Mesh: shapes.Cube(1), Kind: world.Convex, Pose: geom.Pose{P: geom.V(0, 0, 0.55), Q: geom.QuatIdentity()}})
	w.SetMargin(cube, 0.01) // the cube's own speculative distance
	w.Move(cube, geom.Pose{P: geom.V(0, 0, 0.45), Q: geom.QuatIdentity()})
	cs, _ := w.Step(nil)
	for _, c := range cs {
		fmt.Printf("%d-%d %v-%v separation %.2f normal %v\n", c.A, c.B, c.FeatureA.Kind, c.FeatureB.Kind, c.Separation, c.Normal)
	}
	w.SetAsleep(cube, true)
	cs, _ = w.Step(cs[:0])
	fmt.Println("asleep:", len(cs), "contacts")
	// Output:
	// 0-1 face-vertex separation 0.05 normal (0, 0, 1)
	// 0-1 face-vertex separation 0.05 normal (0, 0, 1)
	// 0-1 face-vertex separation 0.05 normal (0, 0, 1)
	// 0-1 face-vertex separation 0.05 normal (0, 0, 1)
	// asleep: 0 contacts
}
