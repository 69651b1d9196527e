package world

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshio"
)

// TestFeatureContactsOverTheRim places two cars of the 200-body pile of
// seed 1006 (testdata/car1.obj) as they were at step 45, one upside down,
// the other upright beside it with a corner of its bonnet under the first
// one's upturned floor (0.3% of the radius deep) and that floor's corner
// likewise under its own, and moves the second by seeded random small
// displacements and turns. Each such corner is behind only a face that
// looks away from it (the mean of its faces' normals within 60 degrees of
// the face's normal, an edge of it running behind the face's plane), which
// FeatureContacts skipped as a vertex on the face's rim seen from the side:
// nothing held it, and the recheck's pushes drove it to 1.7% of the radius.
// Every vertex of either car inside the other by less than half the
// feature window (the test's own point-in-solid and distance oracle) must
// get a penetrating record.
func TestFeatureContactsOverTheRim(t *testing.T) {
	m, err := meshio.ReadFile("testdata/car1.obj", nil)
	if err != nil {
		t.Fatal(err)
	}
	pa := geom.Pose{P: geom.V(-1.4207224818140352, -0.9213782487651648, 0.1673917688135073), Q: geom.Quat{W: 0.019740529891348446, X: 0.9860479757443771, Y: -0.16478469926616668, Z: -0.012872602603362772}}
	pb0 := geom.Pose{P: geom.V(-1.387019310626438, -0.8113451653935635, 0.20142062471499894), Q: geom.Quat{W: 0.9893013727588293, X: -0.018832159052155416, Y: 0.1445970295481508, Z: 0.00445451330467124}}
	r := m.Radius()
	window := 0.05 * r // two non-convex bodies
	rng := rand.New(rand.NewPCG(45, 1006))
	hits, trials := 0, 100
	for trial := range trials {
		pb := pb0
		if trial > 0 {
			d := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(0.003).Add(geom.V(0, 0, 0.002))
			axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Normalize()
			pb = geom.Pose{P: pb0.P.Add(d), Q: geom.QuatAxisAngle(axis, 0.005*rng.NormFloat64()).Mul(pb0.Q)}
		}
		w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
		ia, _ := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: pa})
		ib, _ := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: pb})
		for _, id := range []BodyID{ia, ib} {
			if err := w.SetMargin(id, 0.025*r); err != nil {
				t.Fatal(err)
			}
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		any := false
		for _, dv := range insideVertices(m, m, pa, pb) {
			if dv.depth > window/2 {
				continue
			}
			any = true
			f := contact.V(int32(dv.v))
			found := false
			for _, c := range cs {
				if c.Separation < 0 && ((dv.ofB && c.B == ib && c.FeatureB == f) || (!dv.ofB && c.A == ia && c.FeatureA == f)) {
					found = true
				}
			}
			if !found {
				t.Fatalf("trial %d: vertex %d of car %d inside the other by %v (%.2f%% of the radius) has no record among %v", trial, dv.v, map[bool]int{false: 0, true: 1}[dv.ofB], dv.depth, 100*dv.depth/r, cs)
			}
		}
		if any {
			hits++
		}
	}
	t.Logf("%d of %d trials with a vertex inside within the window", hits, trials)
	if hits < trials*3/10 || hits == trials {
		t.Fatalf("%d of %d trials with a vertex inside within the window", hits, trials)
	}
}
