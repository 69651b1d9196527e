package toc_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/toc"
)

// A spinning torus falls onto a car that turns in place: the first time
// of contact during a 1 s step, where, and the contact normal.
func ExampleQuery_Contacts() {
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
	var q toc.Query // reusable scratch space: no allocation per query
	cs, err := q.Contacts(torus, a, car, b, 1, nil, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range cs {
		fmt.Printf("t=%.4f s at (%.3f, %.3f, %.3f), normal (%.2f, %.2f, %.2f), torus vertex: %v\n",
			c.T, c.Point.X, c.Point.Y, c.Point.Z, c.Normal.X, c.Normal.Y, c.Normal.Z, c.OnA)
	}
	// Output:
	// t=0.3822 s at (0.321, -0.191, 0.350), normal (0.18, -0.14, 0.97), torus vertex: false
}

// A bullet crossing a thin polygon soup at 1000 m/s within one 0.1 s step
// is found by both algorithms, at the same time.
func ExampleAlgorithm() {
	bullet, _ := toc.ShapeOf(shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength))
	plane, _ := toc.ShapeOf(shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp))
	a := toc.State{Pose: geom.Pose{P: geom.V(-40, 0.6, 0.4), Q: geom.QuatIdentity()}, V: geom.V(1000, 0, 0), W: geom.V(2e-3, 0, 0)}
	b := toc.State{Pose: geom.PoseIdentity()}
	var q toc.Query
	for _, alg := range []toc.Algorithm{toc.Boxes, toc.Segments} {
		cs, _ := q.Contacts(bullet, a, plane, b, 0.1, &toc.Options{Algorithm: alg, Tolerance: 1e-5}, nil)
		fmt.Printf("%s: %d contact at t=%.6f s, x=%.4f m\n", alg, len(cs), cs[0].T, cs[0].Point.X)
	}
	// Output:
	// boxes: 1 contact at t=0.040034 s, x=0.0475 m
	// segments: 1 contact at t=0.040034 s, x=0.0475 m
}
