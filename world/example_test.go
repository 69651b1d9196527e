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
// cube a's x = 0.5 at t = 0.4625.
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

	// Step 1: b moves next to a (touching counts); the car drives from
	// far left to far right above them, through nothing.
	w.Move(b, at(1, 0))
	w.Move(car, at(20, 10))
	cs, _ := w.Step(nil)
	for _, c := range cs {
		fmt.Println(c.A, c.B, c.Method)
	}

	// Step 2: the car is put back at the right, low, and drives through
	// both cubes within the step.
	w.SetPose(car, at(20, 0))
	w.Move(car, at(-20, 0))
	cs, _ = w.Step(cs[:0])
	for _, c := range cs {
		fmt.Printf("%d %d %v first contact at t=%.2f\n", c.A, c.B, c.Method, c.Time)
	}
	fmt.Println("cube a is body", a)
	// Output:
	// 0 1 separating-vector
	// 0 1 separating-vector first contact at t=1.00
	// 0 2 screw first contact at t=0.46
	// 1 2 screw first contact at t=0.44
	// cube a is body 0
}
