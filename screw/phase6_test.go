package screw

import "testing"

func TestSegCountTmp(t *testing.T) {
	for set := 0; set < 2; set++ {
		qs := loadSamples(t, sampleSets[set].dir)
		m := sampleSets[set].mesh()
		d := NewDetector()
		var n, sa, sb, ea, eb, nc, ncee, cut int
		for _, q := range qs {
			if !d.setup(m, m, q.a0, q.a1, q.b0, q.b1, nil) {
				continue
			}
			d.rasterize()
			d.scan()
			n++
			sa += len(d.segs[0])
			sb += len(d.segs[1])
			for i := range d.a.edge {
				if d.a.edge[i] {
					ea++
				}
				if d.b.edge[i] {
					eb++
				}
			}
			nc += len(d.cands.list)
			for _, c := range d.cands.list {
				if c.kind == EE {
					ncee++
				}
			}
			if d.cutNeeded() {
				cut++
			}
		}
		t.Logf("set %d: n %d segs %d %d edges %d %d cands %d ee %d cut %d", set, n, sa/n, sb/n, ea/n, eb/n, nc/n, ncee/n, cut)
	}
}
