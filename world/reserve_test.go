package world

import (
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestReserve steps a torus falling flat onto a plate (about 300
// contacts) in a world given room for 1000 contacts and in one not: the
// contacts are the same, and the reserved worker buffers did not grow.
func TestReserve(t *testing.T) {
	run := func(reserve int) ([]Contact, int) {
		w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
		if _, err := w.Add(BodyDef{Mesh: shapes.Box(geom.V(3, 3, 0.005)), Kind: Convex, Static: true, Pose: geom.PoseIdentity()}); err != nil {
			t.Fatal(err)
		}
		id, err := w.Add(BodyDef{Mesh: shapes.Torus(0.3, 0.1, 20, 15), Kind: Polyhedron, Pose: geom.Pose{P: geom.V(0, 0, 0.2), Q: geom.QuatIdentity()}})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Move(id, geom.Pose{P: geom.V(0, 0, 0.05), Q: geom.QuatIdentity()}); err != nil {
			t.Fatal(err)
		}
		w.Reserve(reserve)
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		return cs, cap(w.workers[0].out)
	}
	want, _ := run(0)
	got, c := run(1000)
	if len(want) < 100 {
		t.Fatalf("%d contacts: the test would prove nothing", len(want))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("%d contacts with the buffers reserved, %d without, or others", len(got), len(want))
	}
	if c != 1000 {
		t.Fatalf("reserved buffer of 1000 contacts has capacity %d after the step", c)
	}
}
