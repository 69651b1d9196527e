package toc_test

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/toc"
)

// A spinning torus falls onto a car that turns in place: the first time
// of contact during a 1 s step, where, the contact normal (from the torus,
// A, to the car, B) and the touching features: a vertex of the car on a
// face of the torus.
func ExampleScratch_Contacts() {
	torus, err := toc.ShapeOf(shapes.Torus(0.8, 0.3, 20, 15))
	if err != nil {
		panic(err)
	}
	car, err := toc.ShapeOf(shapes.Car())
	if err != nil {
		panic(err)
	}
	a := toc.State{Pose: geom.Pose{P: geom.V(0.3, 0.1, 2.5), Q: geom.QuatIdentity()}, V: geom.V(0, 0, -3), W: geom.V(3, 1, 2)}
	b := toc.State{Pose: geom.PoseIdentity(), W: geom.V(0, 0, 2)}
	var q toc.Scratch // reusable scratch space: no allocation per query
	cs, err := q.Contacts(torus, a, car, b, 1, nil, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range cs {
		fmt.Printf("%v at t=%.4f at (%.3f, %.3f, %.3f), normal (%.2f, %.2f, %.2f), torus %v, car %v\n",
			c.Status, c.Time, c.Point.X, c.Point.Y, c.Point.Z, c.Normal.X, c.Normal.Y, c.Normal.Z, c.FeatureA, c.FeatureB)
	}
	// Output:
	// hit at t=0.3822 at (0.321, -0.191, 0.350), normal (-0.18, 0.14, -0.97), torus face 223, car vertex 13
}

// A bullet crossing a thin polygon soup at 1000 m/s within one 0.1 s step
// is found by both algorithms, at the same time.
func ExampleMethod() {
	bullet, _ := toc.ShapeOf(shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength))
	plane, _ := toc.ShapeOf(shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp))
	a := toc.State{Pose: geom.Pose{P: geom.V(-40, 0.6, 0.4), Q: geom.QuatIdentity()}, V: geom.V(1000, 0, 0), W: geom.V(2e-3, 0, 0)}
	b := toc.State{Pose: geom.PoseIdentity()}
	var q toc.Scratch
	for _, alg := range []toc.Method{toc.Boxes, toc.Segments} {
		cs, _ := q.Contacts(bullet, a, plane, b, 0.1, &toc.Options{Method: alg, Tolerance: 1e-5}, nil)
		fmt.Printf("%s: %d contact at t=%.6f s, x=%.4f m\n", alg, len(cs), cs[0].Time*0.1, cs[0].Point.X)
	}
	// Output:
	// boxes: 1 contact at t=0.040034 s, x=0.0475 m
	// segments: 1 contact at t=0.040034 s, x=0.0475 m
}

// Two cubes given by their poses at the start and the end of a step, moving
// by the screw motion between them (the default model; Options.Motion
// selects the other): the first contact as a contact.Contact record.
func ExampleScratch_Between() {
	cube, err := toc.ShapeOf(shapes.Cube(1))
	if err != nil {
		panic(err)
	}
	a0 := geom.Pose{P: geom.V(0, 0, 3), Q: geom.QuatIdentity()}
	a1 := geom.Pose{P: geom.V(0, 0, -1), Q: geom.QuatAxisAngle(geom.V(0, 0, 1), math.Pi/4)}
	b := geom.PoseIdentity()
	var q toc.Scratch
	cs, err := q.Between(cube, a0, a1, cube, b, b, nil, nil)
	if err != nil {
		panic(err)
	}
	r := cs[0].Record()
	fmt.Printf("%v at t=%.3f, normal (%.2f, %.2f, %.2f), %v against %v\n", r.Status, r.Time, r.Normal.X+0, r.Normal.Y+0, r.Normal.Z, r.FeatureA, r.FeatureB)
	// Output: hit at t=0.500, normal (0.00, 0.00, -1.00), edge 3 against edge 9
}
