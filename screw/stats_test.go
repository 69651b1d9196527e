package screw

import "testing"

func TestStatsTmp(t *testing.T) {
	for set := 0; set < 3; set++ {
		qs := loadSamples(t, sampleSets[set].dir)
		m := sampleSets[set].mesh()
		d := NewDetector()
		var nr, na, nb, nc, nq, cut, nee int
		for _, q := range qs[:50] {
			if !d.setup(m, m, q.a0, q.a1, q.b0, q.b1, nil) {
				continue
			}
			nq++
			d.rasterize()
			d.scan()
			nr += d.nrows
			na += len(d.recs[0])
			nb += len(d.recs[1])
			nc += len(d.cands.list)
			for _, c := range d.cands.list {
				if c.kind == EE {
					nee++
				}
			}
			if d.cutNeeded() {
				cut++
			}
		}
		t.Logf("set %d: queries past sphere test %d/50, rows %d recsA %d recsB %d cands %d (EE %d) cut %d", set, nq, nr/nq, na/nq, nb/nq, nc/nq, nee/nq, cut)
	}
}
