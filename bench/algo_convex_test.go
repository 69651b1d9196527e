package bench

import "testing"

// TestConvexAlgosCorrectOnSamples runs the narrow-phase algorithms of
// package convex on the frames samples through Run: every one must be
// judged correct (no false positive, no false negative).
func TestConvexAlgosCorrectOnSamples(t *testing.T) {
	for _, w := range frameSamples(t) {
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

// TestSepvecFrameMatchesPairs checks that sepvec's batched TestFrame gives
// the answers of its per-pair Test on every pair of the frames samples
// (the batch only changes when bodies are posed). Run uses TestFrame, so
// TestConvexAlgosCorrectOnSamples judges the batched answers against the
// exact reference.
func TestSepvecFrameMatchesPairs(t *testing.T) {
	for _, w := range frameSamples(t) {
		fd := prepareFrames(w)
		perPair, batched := make([]bool, fd.npair), make([]bool, fd.npair)
		alg, err := registry["sepvec"].narrow(w)
		if err != nil {
			t.Fatal(err)
		}
		fa := alg.(FrameNarrowAlgo)
		alg.Reset()
		k := 0
		for f, ps := range fd.pairs {
			for _, p := range ps {
				perPair[k] = alg.Test(f, int(p.A), int(p.B), &fd.tf[f][p.A], &fd.tf[f][p.B])
				k++
			}
		}
		// Twice: the second pass starts from a Reset of used state.
		for pass := 0; pass < 2; pass++ {
			fa.Reset()
			narrowPass(fa, fd, batched)
			for i := range perPair {
				if perPair[i] != batched[i] {
					t.Fatalf("%s pass %d: pair %d: per-pair %v, batched %v", w.Name, pass, i, perPair[i], batched[i])
				}
			}
		}
	}
}
