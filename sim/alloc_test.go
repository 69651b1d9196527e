package sim

import (
	"testing"

	"github.com/collide-go/collide/internal/racecheck"
)

// TestStepAllocs: once its buffers have grown, a step of a resting pile
// allocates nothing.
func TestStepAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	sc, err := PileScene(30, 1000, 2)
	if err != nil {
		t.Fatal(err)
	}
	s, err := FromScene(sc, &Options{NoSleep: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 150; i++ {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	if len(s.Contacts()) == 0 {
		t.Fatal("no contacts: the test would prove nothing")
	}
	if n := testing.AllocsPerRun(20, func() {
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}); n > 0 {
		t.Errorf("%v allocations per step", n)
	}
}
