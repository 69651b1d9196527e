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
