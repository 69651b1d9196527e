package broad_test

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/geom"
)

func box(x, y, z, h float64) geom.AABB {
	return geom.AABB{Min: geom.Vec3{X: x - h, Y: y - h, Z: z - h}, Max: geom.Vec3{X: x + h, Y: y + h, Z: z + h}}
}

// A sweep and prune is fed every body's box each frame and lists the
// overlapping pairs; between frames only the changes cost time.
func ExampleSAP() {
	var s broad.SAP
	s.Set(0, box(0, 0, 0, 1))
	s.Set(1, box(1.5, 0, 0, 1))
	s.Set(2, box(5, 0, 0, 1))
	fmt.Println(s.Pairs(nil))

	// Next frame: body 2 moves until its box touches body 1's.
	s.Set(2, box(4.5-1, 0, 0, 1))
	fmt.Println(s.Pairs(nil))
	// Output:
	// [{0 1}]
	// [{0 1} {1 2}]
}

// Any broad phase can be used through the Phase interface.
func ExamplePhase() {
	for _, p := range []broad.Phase{new(broad.SAP), new(broad.Sweep), new(broad.Tree), new(broad.Brute)} {
		p.Set(7, box(0, 0, 0, 1))
		p.Set(3, box(0, 2, 0, 1)) // touching counts
		p.Set(9, box(0, 5, 0, 1))
		fmt.Println(p.Len(), p.Pairs(nil))
	}
	// Output:
	// 3 [{3 7}]
	// 3 [{3 7}]
	// 3 [{3 7}]
	// 3 [{3 7}]
}

// A tree answers box queries too.
func ExampleTree_Query() {
	var t broad.Tree
	for i := 0; i < 5; i++ {
		t.Set(i, box(float64(3*i), 0, 0, 1))
	}
	t.Query(box(4.5, 0, 0, 2), func(id int) bool {
		fmt.Println("hit", id)
		return true
	})
	// Unordered output:
	// hit 1
	// hit 2
}

// A body turning half a turn about a far axis while it slides along it: the
// box at the end poses would miss where it has been; the swept box holds it
// over the whole step.
func ExampleSweptScrew() {
	cube := []geom.Vec3{{X: -1, Y: -1, Z: -1}, {X: 1, Y: 1, Z: 1}}
	e := broad.ExtentOf(cube)
	p0 := geom.Pose{P: geom.Vec3{X: 10}, Q: geom.QuatIdentity()}
	// Half a turn about the z axis through the origin, 4 up along it.
	p1 := geom.Pose{P: geom.Vec3{X: -10, Z: 4}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi)}
	b := broad.SweptScrew(e, p0, p1, nil)
	// The body itself spans y in [-1, 10+sqrt(2)] = [-1, 11.41] during the
	// step; the box is conservative.
	fmt.Printf("y from %.1f to %.1f\n", b.Min.Y, b.Max.Y)
	fmt.Println("contains (0, 10, 2):", b.Contains(geom.Vec3{Y: 10, Z: 2}))
	// Output:
	// y from -2.2 to 12.2
	// contains (0, 10, 2): true
}
