package bullets_test

import (
	"fmt"

	"github.com/collide-go/collide/internal/demo/bullets"
)

// Ten bullets of the paper's scene for one simulated second at the paper's
// step of 0.1 s.
func ExampleNew() {
	s, err := bullets.New(&bullets.Config{Bullets: 10})
	if err != nil {
		panic(err)
	}
	r, err := s.Run()
	if err != nil {
		panic(err)
	}
	fmt.Printf("%.1f s simulated: %d contacts, %d bullets hit, %d through the hole, %d tunnelled\n",
		r.SimulatedSeconds, r.Contacts, r.BulletsHit, r.ThroughHole, r.Tunneled)
	// Output:
	// 1.0 s simulated: 8 contacts, 8 bullets hit, 2 through the hole, 0 tunnelled
}
