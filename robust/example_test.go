package robust_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/robust"
)

func ExampleOrient3D() {
	a, b, c := geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}
	fmt.Println(robust.Orient3D(a, b, c, geom.Vec3{Z: 1}))
	fmt.Println(robust.Orient3D(a, b, c, geom.Vec3{X: 0.1, Y: 0.7}))
	// In float64, 0.1 + 0.2 - 0.3 is 5.55e-17, not 0: exactly above.
	x := 0.1
	fmt.Println(robust.Orient3D(a, b, c, geom.Vec3{Z: x + 0.2 - 0.3}))
	// Output:
	// 1
	// 0
	// 1
}
