package convex

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/shapes"
)

// TestSATAnyCachedAxis: the separating-axis test prunes the faces and
// edges of a pair by the depth along the cached axis and by the point of
// each body attaining that axis's support, so a cached axis far from the
// answer must only cost time. Overlapping pairs of random 10-vertex
// polytopes (random, near touching, touching, coplanar and nested
// placements; overlaps between 30% and 70% of the cases, asserted) are
// queried with the cache set to every face of A, every face of B and 40
// random edge pairs in turn; every answer is checked against the oracles
// (depth from the separating-axis margin over all candidate axes, unit
// normal, points on the bodies, certified by the planes through them).
func TestSATAnyCachedAxis(t *testing.T) {
	var shs []shape
	for k, sh := range []shapes.PolytopeShape{shapes.Ellipsoid, shapes.Ellipsoid + 1, shapes.Ellipsoid + 2} {
		m := shapes.RandomPolytope(sh, 10, 1, uint64(700+k))
		shs = append(shs, shapeFrom(t, fmt.Sprintf("n10-%v", sh), m.Verts, faceLists(m)))
	}
	rng := rand.New(rand.NewPCG(19, 10))
	cases := randomCases(rng, shs, 120)
	var s Searcher
	overlaps, queries, answered := 0, 0, 0
	for ci, c := range cases {
		a := body{worldVerts(c.a.v, c.ta), c.a.faces}
		b := body{worldVerts(c.b.v, c.tb), c.b.faces}
		if satMargin(a, b) > 0 {
			continue
		}
		overlaps++
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		pa, pb := c.a.p, c.b.p
		var axes []satCache
		for i := range pa.planes {
			axes = append(axes, satCache{axFaceA, int32(i), 0})
		}
		for j := range pb.planes {
			axes = append(axes, satCache{axFaceB, 0, int32(j)})
		}
		for range 40 {
			axes = append(axes, satCache{axEdges, int32(rng.IntN(len(pa.satEdges))), int32(rng.IntN(len(pb.satEdges)))})
		}
		for _, ax := range axes {
			cache := DistanceCache{sat: ax}
			h0 := s.satHits
			d, err := s.SignedDistance(pa, &c.ta, pb, &c.tb, &cache)
			if err != nil {
				t.Fatal(err)
			}
			queries++
			if s.satHits > h0 {
				answered++
			}
			label := fmt.Sprintf("case %d %s %s/%s, cached axis %v", ci, c.kind, c.a.name, c.b.name, ax)
			checkSigned(t, label, d, a, b, pa.Radius(), pb.Radius(), scale)
			if t.Failed() {
				t.Fatalf("stopping at %s", label)
			}
		}
	}
	t.Logf("%d of %d cases overlap; %d queries, %d answered by the separating-axis test", overlaps, len(cases), queries, answered)
	if overlaps < 3*len(cases)/10 || overlaps > 7*len(cases)/10 {
		t.Errorf("%d of %d cases overlap, want 30-70%%", overlaps, len(cases))
	}
	if answered < queries/2 {
		t.Errorf("%d of %d queries answered by the separating-axis test", answered, queries)
	}
}
