package cable_test

import (
	"fmt"

	"github.com/collide-go/collide/cable"
	"github.com/collide-go/collide/geom"
)

// A cable dropped across a static bar comes to rest hanging on it: every
// contact of every step is found by continuous collision detection.
func Example() {
	s, err := cable.New(cable.Options{Friction: 0.5})
	if err != nil {
		panic(err)
	}
	// A static bar along y at height 1 m.
	if _, err := s.AddStaticMesh([]geom.Vec3{geom.V(0, -1, 1), geom.V(0, 1, 1)}, [][2]int{{0, 1}}, nil); err != nil {
		panic(err)
	}
	// A 60 cm cable of 21 springs across it, 20 cm above.
	first, err := s.AddCable(cable.Cable{From: geom.V(-0.3, 0.01, 1.2), To: geom.V(0.3, -0.01, 1.2),
		Segments: 21, Mass: 0.05, Stiffness: 200, Damping: 0.2})
	if err != nil {
		panic(err)
	}
	crossings := 0
	for i := 0; i < 500; i++ { // 1 s
		s.Step()
		crossings += s.VerifyLastStep()
	}
	top := 0.0
	for i := first; i < s.NumParticles(); i++ {
		top = max(top, s.Position(i).Z)
	}
	fmt.Printf("cable's top %.2f m above the floor, crossings %d\n", top, crossings)
	// Output: cable's top 1.00 m above the floor, crossings 0
}
