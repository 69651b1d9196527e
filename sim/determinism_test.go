package sim

import (
	"hash/fnv"
	"math"
	"testing"
)

// TestDeterministicWorkers runs the same pile with 1, 2 and 5 workers and
// requires bit-identical states and contacts at every step.
func TestDeterministicWorkers(t *testing.T) {
	sc, err := PileScene(40, 60, 7)
	if err != nil {
		t.Fatal(err)
	}
	hashRun := func(workers int) uint64 {
		s, err := FromScene(sc, &Options{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		put := func(x float64) {
			b := math.Float64bits(x)
			h.Write([]byte{byte(b), byte(b >> 8), byte(b >> 16), byte(b >> 24), byte(b >> 32), byte(b >> 40), byte(b >> 48), byte(b >> 56)})
		}
		contacts := 0
		for step := 0; step < sc.Steps; step++ {
			if err := s.Step(); err != nil {
				t.Fatal(err)
			}
			for i := 0; i < s.Len(); i++ {
				st := s.State(BodyID(i))
				for _, x := range []float64{st.Pose.P.X, st.Pose.P.Y, st.Pose.P.Z, st.Pose.Q.W, st.Pose.Q.X, st.Pose.Q.Y, st.Pose.Q.Z, st.V.X, st.W.Z} {
					put(x)
				}
			}
			for _, c := range s.Contacts() {
				put(float64(c.A))
				put(float64(c.B))
				put(c.Separation)
				put(c.Impulse)
			}
			contacts += len(s.Contacts())
		}
		if contacts == 0 {
			t.Fatal("no contacts: the test would prove nothing")
		}
		return h.Sum64()
	}
	want := hashRun(1)
	for _, w := range []int{2, 5} {
		if got := hashRun(w); got != want {
			t.Errorf("%d workers: hash %x, 1 worker %x", w, got, want)
		}
	}
}
