package screw

import "testing"

func BenchmarkScanOnlyTmp(b *testing.B) {
	qs := loadSamples(b, sampleSets[0].dir)
	m := sampleSets[0].mesh()
	d := NewDetector()
	q := qs[0]
	d.setup(m, m, q.a0, q.a1, q.b0, q.b1, nil)
	d.rasterize()
	b.Logf("rows %d recs %d %d", d.nrows, len(d.recs[0]), len(d.recs[1]))
	b.Run("scan", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d.scan()
		}
	})
	b.Run("raster", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d.rasterize()
		}
	})
	b.Run("setup", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			d.setup(m, m, q.a0, q.a1, q.b0, q.b1, nil)
		}
	})
}

func TestCountTmp(t *testing.T) {
	qs := loadSamples(t, sampleSets[0].dir)
	m := sampleSets[0].mesh()
	d := NewDetector()
	q := qs[0]
	d.setup(m, m, q.a0, q.a1, q.b0, q.b1, nil)
	d.rasterize()
	tot := 0
	for k := 0; k < d.nrows; k++ {
		n0, n1 := 0, 0
		for i := d.rowHead[0][k]; i >= 0; i = d.next[0][i] {
			n0++
		}
		for i := d.rowHead[1][k]; i >= 0; i = d.next[1][i] {
			n1++
		}
		tot += n0 + n1
		t.Logf("row %d: %d %d", k, n0, n1)
	}
	t.Logf("total %d of %d", tot, len(d.recs[0])+len(d.recs[1]))
}
