package convex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shapes"
)

// TestSignedDistanceSATSizes: overlapping pairs of random polytopes of 12
// to 32 vertices (the separating-axis test keeps B's vertices in A's frame
// as arrays for the vector scans up to 16 vertices and as points above),
// checked against the oracles, with the scratch space's per-query stamp
// made to wrap around in the middle of the run; the test must answer at
// least a third of the overlaps of each size.
func TestSignedDistanceSATSizes(t *testing.T) {
	for _, n := range []int{12, 16, 17, 24, 32} {
		var shs []shape
		for k, sh := range []shapes.PolytopeShape{shapes.Ellipsoid, shapes.Ellipsoid + 1, shapes.Ellipsoid + 2} {
			m := shapes.RandomPolytope(sh, n, 1, uint64(100*n+k))
			s := shapeFrom(t, fmt.Sprintf("n%d-%v", n, sh), m.Verts, faceLists(m))
			if s.p.satEdges == nil {
				t.Fatalf("%s: no separating-axis data", s.name)
			}
			shs = append(shs, s)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 41))
		cases := randomCases(rng, shs, 150)
		var s Searcher
		s.sat.gen = math.MaxUint32 - 5 // wraps after five queries of the test
		overlaps, answered := 0, 0
		for _, c := range cases {
			a := body{worldVerts(c.a.v, c.ta), c.a.faces}
			b := body{worldVerts(c.b.v, c.tb), c.b.faces}
			scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
			label := fmt.Sprintf("%s %s/%s", c.kind, c.a.name, c.b.name)
			h0 := s.satHits
			d, err := s.SignedDistance(c.a.p, &c.ta, c.b.p, &c.tb, nil)
			if err != nil {
				t.Fatal(err)
			}
			if ref := checkSigned(t, label, d, a, b, c.a.p.Radius(), c.b.p.Radius(), scale); ref <= 1e-9*scale {
				overlaps++
				if s.satHits > h0 {
					answered++
				}
			}
			if t.Failed() {
				t.Fatalf("stopping at %s", label)
			}
		}
		t.Logf("n = %d: %d overlaps, %d answered by the separating-axis test; stamp %d", n, overlaps, answered, s.sat.gen)
		if overlaps == 0 || answered < overlaps/3 {
			t.Errorf("n = %d: %d overlaps, %d answered by the separating-axis test", n, overlaps, answered)
		}
		if s.sat.gen > uint32(len(cases))+1 {
			t.Errorf("n = %d: the stamp did not wrap (%d)", n, s.sat.gen)
		}
	}
}
