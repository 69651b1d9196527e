package hull_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
)

func ExampleNew() {
	// The corners of a unit cube, its centre and a duplicate corner.
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, geom.Vec3{X: float64(i & 1), Y: float64(i >> 1 & 1), Z: float64(i >> 2 & 1)})
	}
	pts = append(pts, geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}, pts[3])
	m, err := hull.New(pts, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.NumVerts(), m.NumEdges(), m.NumFaces(), m.Convex(), m.Volume())
	// Output: 8 12 6 true 1
}
