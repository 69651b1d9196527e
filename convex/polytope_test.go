package convex

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestSupportFromInline checks the hill climb over neighbours stored with
// their coordinates (polytopes above locMax vertices) against the climb
// over the vertex array and the neighbour lists: the same vertex and value
// from every start, ties included (integer points on a sphere's shell,
// integer directions), and a value no vertex beats (brute force).
func TestSupportFromInline(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	checked, tied := 0, 0
	for trial := 0; trial < 12; trial++ {
		n := locMax + 1 + rng.IntN(600)
		pts := make([]geom.Vec3, 0, n)
		ties := trial%2 == 1
		for len(pts) < n {
			v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			v = v.Scale(1 / v.Norm())
			if ties {
				v = geom.Vec3{X: float64(rng.IntN(41) - 20), Y: float64(rng.IntN(41) - 20), Z: float64(rng.IntN(41) - 20)}
				if r := v.Norm(); r < 18 || r > 20 {
					continue
				}
			}
			pts = append(pts, v)
		}
		p, err := FromPoints(pts)
		if err != nil {
			t.Fatal(err)
		}
		if p.NumVerts() <= locMax {
			continue
		}
		checked++
		if ties {
			tied++
		}
		if p.nbr == nil {
			t.Fatalf("trial %d: %d vertices and no inline neighbours", trial, p.NumVerts())
		}
		for k := 0; k < 200; k++ {
			d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			if ties && k%2 == 0 {
				d = geom.Vec3{X: float64(rng.IntN(3) - 1), Y: float64(rng.IntN(3) - 1), Z: float64(rng.IntN(3) - 1)}
			}
			start := int32(rng.IntN(p.NumVerts()))
			v, h := p.SupportFrom(d, start)
			wv, wh := supportClimb(p.verts, p.adj, p.adjStart, d, start)
			_, best := p.SupportBrute(d)
			if v != wv || h != wh || h != best {
				t.Fatalf("trial %d (%d vertices) d %v from %d: got %d %v, climb over the arrays %d %v, brute force %v", trial, p.NumVerts(), d, start, v, h, wv, wh, best)
			}
		}
	}
	if checked < 10 || tied < 4 {
		t.Fatalf("only %d polytopes above %d vertices (%d with ties)", checked, locMax, tied)
	}
}
