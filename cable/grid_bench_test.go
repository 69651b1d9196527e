package cable

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// BenchmarkGridBuild lists 4096 random boxes (a cable system's edge boxes
// at about one cell each) in the grid, as every step does; ns/op is per
// build.
func BenchmarkGridBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	boxes := make([]geom.AABB, 4096)
	for i := range boxes {
		c := geom.V(20*r.Float64(), 20*r.Float64(), 20*r.Float64())
		h := geom.V(0.1+0.4*r.Float64(), 0.1+0.4*r.Float64(), 0.1+0.4*r.Float64())
		boxes[i] = geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
	}
	var g grid
	g.build(boxes, 0.5, 128)
	b.ReportAllocs()
	for b.Loop() {
		g.build(boxes, 0.5, 128)
	}
}
