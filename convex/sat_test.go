package convex

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
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

// TestMinFaces checks minFaces (the AVX2 kernel where available) against
// a direct loop over faces and points, for 1 to 16 points and 1 to 60
// faces: random normals and points, repeated points (ties: the first one
// wins), a NaN coordinate in one point (skipped) and in every point (no
// vertex, -1).
func TestMinFaces(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 53))
	var vals [faceSlots]float64
	var idx [faceSlots]int64
	for trial := 0; trial < 400; trial++ {
		np := 1 + rng.IntN(soaLen)
		nf := 1 + rng.IntN(60)
		pts := make([]geom.Vec3, np)
		for i := range pts {
			pts[i] = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			if i > 0 && rng.IntN(4) == 0 {
				pts[i] = pts[rng.IntN(i)]
			}
		}
		nanAt := -1
		switch trial % 8 {
		case 1:
			nanAt = rng.IntN(np)
		case 2:
			nanAt = np // every point
		}
		s := newSoa(pts)
		st := soaStride(np)
		for i := range np {
			if nanAt == i || nanAt == np {
				s[st+i] = math.NaN()
			}
		}
		planes := make([]geom.Plane, nf)
		for i := range planes {
			planes[i].N = randDir(rng)
		}
		minFaces(newFaceGroups(planes), (nf+3)/4, s, st, np, &vals, &idx)
		for f, pl := range planes {
			lo, at := math.Inf(1), int64(-1)
			for i := range np {
				x := pl.N.X*s[i] + pl.N.Y*s[st+i] + pl.N.Z*s[2*st+i]
				if x < lo {
					lo, at = x, int64(i)
				}
			}
			if idx[f] != at || !close64(vals[f], lo, 1) && !(math.IsInf(lo, 1) && math.IsInf(vals[f], 1)) {
				t.Fatalf("trial %d, %d points, face %d: %v at %d, want %v at %d", trial, np, f, vals[f], idx[f], lo, at)
			}
		}
	}
}
