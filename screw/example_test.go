package screw_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/shapes"
)

// A cube slides into a static cube while turning; Detect reports every
// collision of the step with its time, features and properness.
func ExampleDetector_Detect() {
	a, b := shapes.Cube(1), shapes.Cube(1)
	id := geom.PoseIdentity()
	b0 := geom.Pose{P: geom.Vec3{X: 3}, Q: geom.QuatIdentity()}
	b1 := geom.Pose{P: geom.Vec3{X: 0.2, Y: 0.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.3)}
	d := screw.NewDetector()
	cs, err := d.Detect(a, b, id, id, b0, b1, &screw.Options{Properness: screw.ProperOnly}, nil)
	if err != nil {
		panic(err)
	}
	for _, c := range cs {
		fmt.Printf("%v A%d B%d t=%.4f properness %.2f\n", c.Kind, c.FeatureA, c.FeatureB, c.Time, c.Properness)
	}
	// Output:
	// vf A3 B0 t=0.6856 properness 0.00
	// vf A7 B0 t=0.6856 properness 0.00
}

// FirstContact is the fast query for the earliest time of contact.
func ExampleDetector_FirstContact() {
	car := shapes.Car()
	id := geom.PoseIdentity()
	b0 := geom.Pose{P: geom.Vec3{Y: 3}, Q: geom.QuatIdentity()}
	b1 := geom.Pose{P: geom.Vec3{Y: -3}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.5)}
	d := screw.NewDetector()
	hit, toc, err := d.FirstContact(car, car, id, id, b0, b1, nil)
	fmt.Printf("hit %v at t=%.4f, err %v\n", hit, toc, err)
	// Output:
	// hit true at t=0.3319, err <nil>
}

// Relative gives the screw parameters of the relative motion (Sec. 4.1).
func ExampleRelative() {
	id := geom.PoseIdentity()
	b1 := geom.Pose{P: geom.Vec3{X: 1, Z: 2}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.5)}
	m := screw.Relative(id, id, id, b1)
	fmt.Printf("theta %.2f glide %.2f axis %v\n", m.Theta, m.G, m.Axis)
	// Output:
	// theta 0.50 glide 2.00 axis (0, 0, 1)
}
