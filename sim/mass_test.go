package sim

import (
	"math"
	"testing"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestCentered moves Buss's car to its centre of mass: the same mesh moved
// by the centre, with the centre of mass then at the origin and the same
// mass and inertia.
func TestCentered(t *testing.T) {
	car := shapes.Car()
	mp, err := mesh.MassProperties(car, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if mp.Center.Norm() < 1e-3 {
		t.Fatalf("the car's centre of mass %v is already at the origin: the test would prove nothing", mp.Center)
	}
	c, err := Centered(car, mp.Center)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range car.Verts {
		if c.Verts[i].Dist(v.Sub(mp.Center)) > 1e-15 {
			t.Fatalf("vertex %d at %v, want %v", i, c.Verts[i], v.Sub(mp.Center))
		}
	}
	mc, err := mesh.MassProperties(c, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if mc.Center.Norm() > 1e-12 || math.Abs(mc.Mass-mp.Mass) > 1e-9*mp.Mass {
		t.Fatalf("centred: centre %v mass %v, want the origin and %v", mc.Center, mc.Mass, mp.Mass)
	}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if math.Abs(mc.Inertia[i][j]-mp.Inertia[i][j]) > 1e-9*(mp.Inertia[0][0]+mp.Inertia[1][1]+mp.Inertia[2][2]) {
				t.Fatalf("inertia %v, want %v", mc.Inertia, mp.Inertia)
			}
		}
	}
}
