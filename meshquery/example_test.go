package meshquery_test

import (
	"fmt"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
	"github.com/collide-go/collide/shapes"
)

// Two unit cubes: apart, then resting on each other, then overlapping.
func Example() {
	a, _ := meshquery.New(shapes.Cube(1)) // once per mesh
	b, _ := meshquery.New(shapes.Cube(1))
	var q meshquery.Scratch // scratch space: warm queries allocate nothing
	ta := geom.TransformIdentity()

	tb := geom.Pose{P: geom.Vec3{X: 1.5}, Q: geom.QuatIdentity()}.Transform()
	hit, _ := q.Intersect(a, &ta, b, &tb)
	res, _ := q.Distance(a, &ta, b, &tb, nil)
	fmt.Println(hit, res.Dist, res.PointA.X, res.PointB.X)

	// B resting on A with a 1e-3 gap: its four bottom corners.
	tb = geom.Pose{P: geom.Vec3{Z: 1.001}, Q: geom.QuatIdentity()}.Transform()
	cs, _ := q.Contacts(a, &ta, b, &tb, &meshquery.ContactOptions{Margin: 0.01}, nil)
	fmt.Println(len(cs), cs[0].Status, fmt.Sprintf("%.3g", cs[0].Separation), cs[0].Normal)

	// B sunk 0.25 into A: penetrating, depth 0.25 along +Z.
	tb = geom.Pose{P: geom.Vec3{X: 0.1, Z: 0.75}, Q: geom.QuatIdentity()}.Transform()
	cs, _ = q.Contacts(a, &ta, b, &tb, nil, nil)
	deepest := cs[0]
	for _, c := range cs {
		if c.Separation < deepest.Separation {
			deepest = c
		}
	}
	fmt.Println(deepest.Status == contact.Penetrating, deepest.Separation, deepest.Normal)
	// Output:
	// false 0.5 0.5 1
	// 4 near 0.001 (0, 0, 1)
	// true -0.25 (0, 0, 1)
}
