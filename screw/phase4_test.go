package screw

import "testing"

func TestPPETmp(t *testing.T) {
	samplePPE = []float64{0.5, 1, 2, 3, 6}
	TestBenchSamples(t)
	samplePPE = []float64{6, 12, 24}
}
