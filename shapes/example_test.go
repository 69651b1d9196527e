package shapes_test

import (
	"fmt"

	"github.com/collide-go/collide/shapes"
)

func ExampleBullet() {
	b := shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength)
	fmt.Println(b.NumFaces(), b.Closed(), b.Convex())
	// Output: 640 true true
}

func ExampleWarpedPlane() {
	p := shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp)
	fmt.Println(p.NumFaces(), p.Closed(), p.Euler())
	// Output: 2016 false 0
}

func ExampleRandomPolytope() {
	m := shapes.RandomPolytope(shapes.Rod, 100, 1, 42)
	fmt.Println(m.NumVerts(), m.Convex())
	// Output: 100 true
}
