package world

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestFeatureContactsPairCache moves two linked tori and a box resting on
// a slab by small random steps and checks, at every step, that a world
// kept from step to step (whose pairs reuse the candidates of earlier
// steps while their bodies have moved little relative to each other) gives
// exactly the contacts, every field, of a world made afresh at those poses,
// which has nothing to reuse; the steps are sized so that 30-70% of the
// pairs' searches are reused.
func TestFeatureContactsPairCache(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 7))
	torus := shapes.Torus(0.15, 0.0375, 20, 15)
	slab := shapes.Box(geom.V(2, 2, 0.1))
	box := shapes.Box(geom.V(0.2, 0.15, 0.1))
	poses := []geom.Pose{
		{P: geom.V(0, 0, 1), Q: geom.QuatIdentity()},
		{P: geom.V(0.15, 0, 1), Q: geom.QuatAxisAngle(geom.V(1, 0, 0), 1.5)},
		{P: geom.V(0, 0, -0.1), Q: geom.QuatIdentity()},
		{P: geom.V(0.5, 0.5, 0.1), Q: geom.QuatAxisAngle(geom.V(0, 0, 1), 0.3)},
	}
	meshes := []*BodyDef{
		{Mesh: torus, Kind: Polyhedron},
		{Mesh: torus, Kind: Polyhedron},
		{Mesh: slab, Kind: Convex, Static: true},
		{Mesh: box, Kind: Convex},
	}
	build := func() *World {
		w := mustNew(t, &Options{Table: featureTable(), Margin: 0.002, Workers: 1})
		for i, d := range meshes {
			def := *d
			def.Pose = poses[i]
			if _, err := w.Add(def); err != nil {
				t.Fatal(err)
			}
		}
		return w
	}
	kept := build()
	reused, tests, contacts := 0, 0, 0
	for step := 0; step < 300; step++ {
		for _, i := range []int{1, 3} {
			d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.00006)
			d.Z -= 0.0001 * float64(i-2) // the box presses on and lifts from the slab
			axis := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
			poses[i] = geom.Pose{P: poses[i].P.Add(d), Q: geom.QuatAxisAngle(axis, 0.0006*r.Float64()).Mul(poses[i].Q)}
			if err := kept.SetPose(BodyID(i), poses[i]); err != nil {
				t.Fatal(err)
			}
		}
		got, err := kept.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		st := kept.Stats()
		reused += st.Reused
		tests += st.Tests
		want, err := build().Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d contacts, a fresh world finds %d", step, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("step %d: contact %d is %v, a fresh world finds %v", step, k, got[k], want[k])
			}
		}
		contacts += len(got)
	}
	if contacts == 0 {
		t.Fatal("no contacts")
	}
	if rate := float64(reused) / float64(tests); rate < 0.3 || rate > 0.7 {
		t.Fatalf("%d of %d pair searches reused (%.2f), outside [0.3, 0.7]", reused, tests, rate)
	}
	t.Logf("%d of %d reused, %d contacts", reused, tests, contacts)
}
