package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shapes"
)

// TestEdgesLeft checks the edge stage's selection by the faces' bounds
// against the rule applied to each edge from the mesh's own edge records:
// an edge is left unless both its faces' g are above U or both their gd
// are (NaN is not above U). Polytopes of 10 vertices (one word of edge
// bits) and of 32 (above 64 edges: two words), random bounds around U with
// some NaN; the edges must come in increasing order, and between 20% and
// 80% of them must be left over all cases (the rule is exercised both
// ways).
func TestEdgesLeft(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	total, kept := 0, 0
	sawTwo := false
	for k, nv := range []int{10, 10, 32, 32} {
		m := shapes.RandomPolytope(shapes.Ellipsoid, nv, 1, uint64(900+k))
		p, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		if p.satEdges == nil {
			t.Fatalf("%d vertices: no separating-axis data", nv)
		}
		sawTwo = sawTwo || len(m.Edges) > 64
		nf := len(p.planes)
		for range 200 {
			U := rng.Float64()
			g, gd := make([]float64, nf), make([]float64, nf)
			for i := range g {
				g[i], gd[i] = U+rng.NormFloat64()*0.5, U+rng.NormFloat64()*0.5
				if rng.IntN(20) == 0 {
					g[i] = math.NaN()
				}
				if rng.IntN(20) == 0 {
					gd[i] = math.NaN()
				}
			}
			var out [128]int32
			n := edgesLeft(&p.satFaceEdges, g, gd, U, &out)
			var want []int32
			for i, e := range m.Edges {
				if (g[e.Left] > U && g[e.Right] > U) || (gd[e.Left] > U && gd[e.Right] > U) {
					continue
				}
				want = append(want, int32(i))
			}
			if n != len(want) {
				t.Fatalf("%d vertices: %d edges left, want %d", nv, n, len(want))
			}
			for i, e := range want {
				if out[i] != e {
					t.Fatalf("%d vertices: edge %d left is %d, want %d", nv, i, out[i], e)
				}
			}
			total += len(m.Edges)
			kept += n
		}
	}
	if !sawTwo {
		t.Error("no polytope above 64 edges")
	}
	if kept < total/5 || kept > 4*total/5 {
		t.Errorf("%d of %d edges left, want 20-80%%", kept, total)
	}
}
