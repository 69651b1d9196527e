package hoop

import (
	"flag"
	"hash/fnv"
	"math"
	"testing"
	"time"

	"github.com/collide-go/collide/cable"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

var long = flag.Bool("long", false, "run the long seeded hoop runs")

// smallHoop is a hoop scene small enough for unit tests.
func smallHoop(seed uint64, o cable.Options) Config {
	return Config{Cables: 4, Segments: 16, Seed: seed, Options: o}
}

func TestConfigErrors(t *testing.T) {
	for _, h := range []Config{{Cables: -1}, {Segments: -1}, {CableLength: 5}, {NetAround: 2}, {Spread: -1}, {Options: cable.Options{Dt: -1}}} {
		if _, _, err := New(h); err == nil {
			t.Errorf("bad hoop %+v accepted", h)
		}
	}
}

func TestHoopNoCrossingsSeeded(t *testing.T) {
	seeds := []uint64{1, 2}
	steps := 450
	if *long {
		seeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}
		steps = 1000
	}
	for _, seed := range seeds {
		s, info, err := New(smallHoop(seed, cable.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		if info.NetEdges != 512 || info.Edges < 1000 {
			t.Fatalf("scene: %+v", info)
		}
		for i := 0; i < steps; i++ {
			s.Step()
			if cs := s.LastStepCrossings(); len(cs) > 0 {
				t.Fatalf("seed %d step %d: %d crossings, first %+v", seed, i, len(cs), cs[0])
			}
		}
		st := s.Stats()
		// The run must exercise contacts, or it proves nothing.
		if st.Contacts < 100 || st.Queries < 1000 {
			t.Errorf("seed %d: too few contacts to mean anything: %+v", seed, st)
		}
	}
}

func TestCheckerCatchesPassThrough(t *testing.T) {
	// Without collision processing the same scene crosses: the check must
	// see it (so a zero above is meaningful).
	s, _, err := New(smallHoop(1, cable.Options{NoCollisions: true, Verify: true}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 450; i++ {
		s.Step()
	}
	if p := s.Stats().Penetrations; p < 10 {
		t.Errorf("without collisions only %d crossings found", p)
	}
}

func TestEnergyBounded(t *testing.T) {
	s, _, err := New(smallHoop(3, cable.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	e0 := s.Energy().Total()
	maxE := e0
	for i := 0; i < 500; i++ {
		s.Step()
		e := s.Energy()
		if math.IsNaN(e.Total()) || math.IsInf(e.Total(), 0) {
			t.Fatalf("step %d: energy %+v", i, e)
		}
		maxE = math.Max(maxE, e.Total())
	}
	// Springs, friction and plastic contacts dissipate; the separation
	// pushes and the integrator may add a little.
	if maxE > e0+0.01 {
		t.Errorf("energy grew from %v to %v J", e0, maxE)
	}
	if e := s.Energy().Total(); e > e0-0.5 {
		t.Errorf("energy %v J after 1 s of falling from %v J: nothing fell?", e, e0)
	}
}

func stateHash(s *cable.System) uint64 {
	h := fnv.New64a()
	var b [8]byte
	put := func(x float64) {
		u := math.Float64bits(x)
		for i := range b {
			b[i] = byte(u >> (8 * i))
		}
		h.Write(b[:])
	}
	for i := range s.NumParticles() {
		for _, v := range []geom.Vec3{s.Position(i), s.Velocity(i)} {
			put(v.X)
			put(v.Y)
			put(v.Z)
		}
	}
	return h.Sum64()
}

func TestDeterministic(t *testing.T) {
	run := func(seed uint64) (uint64, cable.Stats) {
		s, _, err := New(smallHoop(seed, cable.Options{}))
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 300; i++ {
			s.Step()
		}
		return stateHash(s), s.Stats()
	}
	h1, s1 := run(5)
	h2, s2 := run(5)
	if h1 != h2 || s1 != s2 {
		t.Errorf("same seed, different results: %x %+v vs %x %+v", h1, s1, h2, s2)
	}
	if h3, _ := run(6); h3 == h1 {
		t.Errorf("different seeds gave the same state")
	}
}

func TestStepAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	s, _, err := New(smallHoop(1, cable.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 250; i++ {
		s.Step()
	}
	if a := testing.AllocsPerRun(20, func() { s.Step() }); a > 0 {
		t.Errorf("Step allocates %v times", a)
	}
}

// TestVerifyStaticIsClean: a state compared with itself has no crossings
// unless primitives touch.
func TestVerifyStaticIsClean(t *testing.T) {
	s, _, err := New(smallHoop(1, cable.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	prev := make([]geom.Vec3, s.NumParticles())
	for i := range prev {
		prev[i] = s.Position(i)
	}
	if n := s.Verify(prev); n != 0 {
		t.Errorf("initial state: %d crossings: %+v", n, s.Crossings(prev))
	}
}

// TestHoopLongStep: the hoop scene at a step of 0.02 s ends quickly,
// with no crossing found by the independent check of every substep and
// no energy gained.
func TestHoopLongStep(t *testing.T) {
	s, _, err := New(Config{Options: cable.Options{Dt: 0.02, Verify: true}})
	if err != nil {
		t.Fatal(err)
	}
	e0 := s.Energy().Total()
	start := time.Now()
	for i := 0; i < 50; i++ {
		st := s.Step()
		if st.Penetrations != 0 {
			t.Fatalf("step %d: %d crossings", i, st.Penetrations)
		}
		if e := s.Energy().Total(); !(e < e0+0.05) {
			t.Fatalf("step %d: energy %v J from %v J", i, e, e0)
		}
		if time.Since(start) > time.Minute {
			t.Fatalf("step %d after a minute: the scene does not settle", i)
		}
	}
	if st := s.Stats(); st.Contacts < 100 || st.Substeps < 50*5 {
		t.Errorf("too few contacts or substeps to mean anything: %+v", st)
	}
}
