package screw

import "testing"

func TestPhasesCubeTmp(t *testing.T) {
	for _, ppe := range []float64{3, 6, 12} {
		phaseOpt = &Options{PixelsPerEdge: ppe}
		phaseSets, phaseReps = 3, 3
		TestPhasesTmp(t)
	}
	phaseSets, phaseReps = 3, 5
	phaseOpt = nil
}
