package world

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/shapes"
)

// linkedTori returns a world of two linked tori (major radius 0.15 m,
// tube 0.0375 m, 300 faces each, as the links of the chain scenes), the
// second's tube through the first's hole and resting on it, both under
// FeatureContacts with a 5 mm margin, and a function that moves them
// through step k of a swing: both turning by 0.05 rad a step about a
// pivot above them, the second also by 0.01 rad about its own centre.
func linkedTori(tb testing.TB) (*World, func(k int)) {
	torus := shapes.Torus(0.15, 0.0375, 20, 15)
	w := mustNew(tb, &Options{Table: featureTable(), Margin: 0.005, Workers: 1})
	a0 := geom.PoseIdentity()
	// The second torus in the xz plane, centred on the x axis so that
	// the first's tube core at (0.15, 0, 0) is 0.15 - 2 (0.0375) + 0.001
	// from its centre: its ring round the first's tube, the two tubes
	// overlapping 1 mm.
	b0 := geom.Pose{P: geom.V(0.15+0.15-0.075+0.001, 0, 0), Q: geom.QuatAxisAngle(geom.V(1, 0, 0), math.Pi/2)}
	ia, err := w.Add(BodyDef{Mesh: torus, Kind: Polyhedron, Pose: a0})
	if err != nil {
		tb.Fatal(err)
	}
	ib, err := w.Add(BodyDef{Mesh: torus, Kind: Polyhedron, Pose: b0})
	if err != nil {
		tb.Fatal(err)
	}
	pivot := geom.Pose{P: geom.V(0, 0, 1), Q: geom.QuatIdentity()}
	swing := func(k int, p geom.Pose, own float64) geom.Pose {
		turn := geom.Pose{Q: geom.QuatAxisAngle(geom.V(0, 1, 0), 0.05*math.Sin(0.1*float64(k)))}
		local := geom.Pose{P: p.P, Q: geom.QuatAxisAngle(geom.V(0, 0, 1), own*float64(k)).Mul(p.Q)}
		return pivot.Mul(turn).Mul(pivot.Inverse()).Mul(local)
	}
	return w, func(k int) {
		for _, x := range []struct {
			id  BodyID
			p   geom.Pose
			own float64
		}{{ia, a0, 0}, {ib, b0, 0.01}} {
			if err := w.SetPose(x.id, swing(k, x.p, x.own)); err != nil {
				tb.Fatal(err)
			}
			if err := w.Move(x.id, swing(k+1, x.p, x.own)); err != nil {
				tb.Fatal(err)
			}
		}
	}
}

// BenchmarkFeatureContactsLinkedTori times one step of two linked tori
// swinging together (the narrow phase of one pair of chain links).
func BenchmarkFeatureContactsLinkedTori(b *testing.B) {
	w, move := linkedTori(b)
	var cs []Contact
	n := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		move(i % 64)
		var err error
		if cs, err = w.Step(cs[:0]); err != nil {
			b.Fatal(err)
		}
		n += len(cs)
	}
	b.ReportMetric(float64(n)/float64(b.N), "contacts/step")
}

// TestFeatureContactsLinkedToriAllocs: once its buffers have grown, a step
// of two linked tori allocates nothing, and finds contacts.
func TestFeatureContactsLinkedToriAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	w, move := linkedTori(t)
	var cs []Contact
	k := 0
	step := func() {
		move(k % 64)
		k++
		var err error
		if cs, err = w.Step(cs[:0]); err != nil {
			t.Fatal(err)
		}
	}
	for range 64 {
		step()
	}
	if len(cs) == 0 {
		t.Fatal("no contacts: the tori are not linked as meant")
	}
	if n := testing.AllocsPerRun(64, step); n > 0 {
		t.Errorf("%v allocations per step", n)
	}
}

// BenchmarkFeatureContactsLinkedToriResting times one step of the two
// linked tori of linkedTori held still (a pair at rest in a pile or a
// hanging chain): after the first steps the pair reuses its candidate
// feature pairs and pays for the feature tests alone.
func BenchmarkFeatureContactsLinkedToriResting(b *testing.B) {
	w, move := linkedTori(b)
	var cs []Contact
	n, reused := 0, 0
	move(0)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		var err error
		if cs, err = w.Step(cs[:0]); err != nil {
			b.Fatal(err)
		}
		n += len(cs)
		reused += w.Stats().Reused
	}
	b.ReportMetric(float64(n)/float64(b.N), "contacts/step")
	b.ReportMetric(float64(reused)/float64(b.N), "reused/step")
}
