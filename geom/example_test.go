package geom_test

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

func ExamplePose() {
	// A body turned 90 degrees about z and moved 1 along x.
	p := geom.Pose{P: geom.V(1, 0, 0), Q: geom.QuatAxisAngle(geom.V(0, 0, 1), math.Pi/2)}
	x := p.Apply(geom.V(1, 0, 0))
	fmt.Printf("%.3f %.3f %.3f\n", x.X, x.Y, x.Z)
	back := p.Inverse().Apply(x)
	fmt.Printf("%.3f %.3f %.3f\n", back.X, back.Y, back.Z)
	// Output:
	// 1.000 1.000 0.000
	// 1.000 0.000 0.000
}

func ExampleMat3_AxisAngle() {
	// Accurate near 180 degrees, where naive formulas lose the axis.
	m := geom.RotationAxisAngle(geom.V(0, 1, 1), math.Pi-1e-12)
	axis, angle := m.AxisAngle()
	fmt.Printf("%.6f %.6f %.6f %.3g\n", axis.X, axis.Y, axis.Z, math.Pi-angle)
	// Output: 0.000000 0.707107 0.707107 1e-12
}

func ExampleQuat_Slerp() {
	q := geom.QuatIdentity()
	p := geom.QuatAxisAngle(geom.V(0, 0, 1), math.Pi/2)
	_, angle := q.Slerp(p, 0.5).AxisAngle()
	fmt.Printf("%.1f degrees\n", angle*180/math.Pi)
	// Output: 45.0 degrees
}

func ExampleAABB_Transform() {
	b := geom.AABB{Min: geom.V(-1, -1, -1), Max: geom.V(1, 1, 1)}
	t := geom.Pose{P: geom.V(5, 0, 0), Q: geom.QuatAxisAngle(geom.V(0, 0, 1), math.Pi/4)}.Transform()
	r := b.Transform(t)
	fmt.Printf("x [%.3f, %.3f] z [%.3f, %.3f]\n", r.Min.X, r.Max.X, r.Min.Z, r.Max.Z)
	// Output: x [3.586, 6.414] z [-1.000, 1.000]
}

func ExampleOBB_Overlaps() {
	a := geom.OBB{Center: geom.V(0, 0, 0), Axes: geom.Identity(), Half: geom.V(1, 1, 1)}
	// A box turned 45 degrees about z, its corner pointing at a.
	b := geom.OBB{Center: geom.V(2.3, 0, 0), Axes: geom.RotationAxisAngle(geom.V(0, 0, 1), math.Pi/4), Half: geom.V(1, 1, 1)}
	fmt.Println(a.Overlaps(b))
	b.Center.X = 2.5
	fmt.Println(a.Overlaps(b))
	// Output:
	// true
	// false
}

func ExamplePlaneFromPoints() {
	pl, _ := geom.PlaneFromPoints(geom.V(0, 0, 1), geom.V(1, 0, 1), geom.V(0, 1, 1))
	fmt.Println(pl.N, pl.D, pl.SignedDist(geom.V(3, 4, 3)))
	// Output: (0, 0, 1) 1 2
}
