package bench

import "testing"

// TestConvexAlgosCorrectOnSamples runs the narrow-phase algorithms of
// package convex on the frames samples through Run: every one must be
// judged correct (no false positive, no false negative).
func TestConvexAlgosCorrectOnSamples(t *testing.T) {
	for _, d := range sampleDirs(t) {
		w, err := Load(d)
		if err != nil {
			t.Fatal(err)
		}
		if w.Kind != "frames" {
			continue
		}
		res, err := Run(w, Options{Task: "narrow", Algos: []string{"sepvec", "gjk", "gjk-warm"}, MaxPasses: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range res {
			if r.Verdict == nil || !r.Verdict.Correct() || r.Verdict.Judged == 0 {
				t.Errorf("%s %s: %v", w.Name, r.Algo, r.Verdict)
			}
		}
	}
}
