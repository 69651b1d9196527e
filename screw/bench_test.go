package screw

import (
	"testing"

	"github.com/collide-go/collide/mesh"
)

func benchSamples(b *testing.B, set int, ppe float64) {
	qs := loadSamples(b, sampleSets[set].dir)
	m := sampleSets[set].mesh()
	d := NewDetector()
	opt := &Options{PixelsPerEdge: ppe}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q := &qs[i%len(qs)]
		d.FirstContact(m, m, q.a0, q.a1, q.b0, q.b1, opt)
	}
}

// Benchmarks of FirstContact over the sample motion workloads (one op = one
// query), at Buss's low, medium and high resolutions.
func BenchmarkFirstCubePx6(b *testing.B)   { benchSamples(b, 0, 6) }
func BenchmarkFirstCubePx12(b *testing.B)  { benchSamples(b, 0, 12) }
func BenchmarkFirstCubePx24(b *testing.B)  { benchSamples(b, 0, 24) }
func BenchmarkFirstCarPx6(b *testing.B)    { benchSamples(b, 1, 6) }
func BenchmarkFirstCarPx12(b *testing.B)   { benchSamples(b, 1, 12) }
func BenchmarkFirstCarPx24(b *testing.B)   { benchSamples(b, 1, 24) }
func BenchmarkFirstTorusPx6(b *testing.B)  { benchSamples(b, 2, 6) }
func BenchmarkFirstTorusPx12(b *testing.B) { benchSamples(b, 2, 12) }
func BenchmarkFirstTorusPx24(b *testing.B) { benchSamples(b, 2, 24) }

var _ = mesh.None
