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

// TestFaceBounds checks faceBounds (the vector kernel where there is one)
// bit for bit against D - n.c and D - n.y computed face by face from the
// mesh's planes, on polytopes of 4 to 32 vertices (face counts that are
// and are not multiples of four) and random points c, y.
func TestFaceBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(47, 3))
	counts := map[int]bool{}
	for nv := 4; nv <= satMax; nv++ {
		m := shapes.RandomPolytope(shapes.Ellipsoid+shapes.PolytopeShape(nv%3), nv, 1, uint64(950+nv))
		p, err := New(m)
		if err != nil {
			t.Fatal(err)
		}
		if p.satEdges == nil {
			continue
		}
		counts[len(m.Planes)%4] = true
		for range 20 {
			c := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			y := c.Scale(rng.Float64() * 3)
			var lo, lod [faceSlots]float64
			faceBounds(p, c, y, &lo, &lod)
			for i, pl := range m.Planes {
				wl := pl.D - (pl.N.X*c.X + pl.N.Y*c.Y + pl.N.Z*c.Z)
				wd := pl.D - (pl.N.X*y.X + pl.N.Y*y.Y + pl.N.Z*y.Z)
				if math.Float64bits(lo[i]) != math.Float64bits(wl) || math.Float64bits(lod[i]) != math.Float64bits(wd) {
					t.Fatalf("%d vertices, face %d: got %v %v, want %v %v", nv, i, lo[i], lod[i], wl, wd)
				}
			}
		}
	}
	if len(counts) < 2 {
		t.Errorf("face counts mod 4: %v, want several", counts)
	}
}

// TestEdgesLeft checks the edge stage's selection by the faces' bounds
// against the rule applied to each edge from the mesh's own edge records
// (left unless both its faces' g are above U or both their gd are; NaN is
// not above U), on polytopes of 10 vertices (one word of edge bits) and
// of 32 (above 64 edges: two words), random bounds around U with some
// NaN: the edges in increasing order, and 20% to 80% of them left over
// all cases (the rule is exercised both ways).
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

// TestFaceUnion checks faceUnion (the vector kernel where there is one)
// against the rule applied face by face, for every count of faces from 1
// to 2*satMax-4, random edge words and bounds around U with some NaN; an
// odd count is laid out as the test lays it out (room for one more value,
// below U, and a zero edge word: newFaceEdges's padding), so that the
// kernel takes it too.
func TestFaceUnion(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 9))
	for n := 1; n <= 2*satMax-4; n++ {
		for range 50 {
			U := rng.NormFloat64()
			fe := make([]uint64, n+n%2)
			g, gd := make([]float64, n+1)[:n], make([]float64, n+1)[:n]
			g[:n+1][n], gd[:n+1][n] = U-1, U-1 // not above U: the padding word must not count
			var wc, wd uint64
			for i := range n {
				fe[i] = rng.Uint64()
				g[i], gd[i] = U+rng.NormFloat64(), U+rng.NormFloat64()
				switch rng.IntN(10) {
				case 0:
					g[i] = math.NaN()
				case 1:
					gd[i] = U
				case 2:
					g[i] = U
				}
				if !(g[i] > U) {
					wc |= fe[i]
				}
				if !(gd[i] > U) {
					wd |= fe[i]
				}
			}
			if c, d := faceUnion(fe, g, gd, U); c != wc || d != wd {
				t.Fatalf("%d faces: got %x %x, want %x %x", n, c, d, wc, wd)
			}
		}
	}
}
