package screw

import (
	"testing"
	"time"
)

var phaseSets, phaseReps = 3, 5
var phaseOpt *Options

func TestPhasesTmp(t *testing.T) {
	for set := 0; set < phaseSets; set++ {
		qs := loadSamples(t, sampleSets[set].dir)
		m := sampleSets[set].mesh()
		d := NewDetector()
		var ts [4]time.Duration
		for rep := 0; rep < phaseReps; rep++ {
			for _, q := range qs {
				t0 := time.Now()
				ok := d.setup(m, m, q.a0, q.a1, q.b0, q.b1, phaseOpt)
				t1 := time.Now()
				ts[0] += t1.Sub(t0)
				if !ok {
					continue
				}
				d.rasterize()
				t2 := time.Now()
				ts[1] += t2.Sub(t1)
				d.scan()
				t3 := time.Now()
				ts[2] += t3.Sub(t2)
				d.hits = d.hits[:0]
				d.solveAll(1, true)
				ts[3] += time.Since(t3)
			}
		}
		n := time.Duration(phaseReps * len(qs))
		t.Logf("set %d: setup %v raster %v scan %v solve %v", set, ts[0]/n, ts[1]/n, ts[2]/n, ts[3]/n)
	}
}
