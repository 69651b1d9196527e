package toc

import (
	"testing"

	"github.com/collide-go/collide/geom"
)

// BenchmarkEnvRob is one first-contact query of FCL's rob-in-env motions
// (screw motion), cycling through the 60 queries of the sample, with and
// without the edge phase.
func BenchmarkEnvRob(b *testing.B) {
	env, rob, qs := loadEnvRob(b)
	for _, c := range []struct {
		name       string
		pointsOnly bool
	}{{"edges", false}, {"points-only", true}} {
		b.Run(c.name, func(b *testing.B) {
			var q Scratch
			var cs []Contact
			opt := &Options{Motion: geom.ScrewMotion, PointsOnly: c.pointsOnly}
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				pq := &qs[i%len(qs)]
				cs, _ = q.Between(env, pq.a0, pq.a1, rob, pq.b0, pq.b1, opt, cs[:0])
			}
		})
	}
}
