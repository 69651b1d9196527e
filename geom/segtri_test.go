package geom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/internal/exact"
)

// The oracle (package internal/exact) shares no code with
// SegmentTriangle: its own float filter and rational determinant.

func arr(v Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// oSign is the exact sign of det[b-a, c-a, d-a].
func oSign(a, b, c, d Vec3) int { return exact.Orient3(arr(a), arr(b), arr(c), arr(d)) }

// oSegTri reports whether segment p-q crosses triangle a, b, c (closed; a
// segment lying in the plane is not counted).
func oSegTri(p, q, a, b, c Vec3) bool {
	return exact.SegmentCrossesTriangle(arr(p), arr(q), arr(a), arr(b), arr(c))
}

func segRandUnit(r *rand.Rand) Vec3 {
	for {
		v := V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

// TestSegmentTriangleOracle compares SegmentTriangle with the oracle's
// rational test on random segments, many passing near edges and vertices.
func TestSegmentTriangleOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 3))
	hits := 0
	for i := 0; i < 20000; i++ {
		a, b, c := segRandUnit(r), segRandUnit(r), segRandUnit(r)
		var p, q Vec3
		switch i % 3 {
		case 0: // random
			p, q = segRandUnit(r).Scale(2), segRandUnit(r).Scale(2)
		case 1: // through a point near an edge
			e := a.Lerp(b, r.Float64()).Add(segRandUnit(r).Scale(1e-9 * r.Float64()))
			d := segRandUnit(r)
			p, q = e.Add(d), e.Sub(d)
		default: // through a vertex, exactly
			d := segRandUnit(r)
			p, q = c.Add(d), c.Sub(d)
		}
		if p.Sub(c).Norm() < 1e-300 {
			continue
		}
		_, got := SegmentTriangle(p, q, a, b, c)
		want := oSegTri(p, q, a, b, c)
		if oSign(a, b, c, p) == 0 && oSign(a, b, c, q) == 0 {
			continue // coplanar: the oracle does not decide
		}
		if got != want {
			t.Fatalf("case %d: SegmentTriangle(%v, %v, %v, %v, %v) = %v, oracle %v", i, p, q, a, b, c, got, want)
		}
		if got {
			hits++
		}
	}
	if hits < 2000 {
		t.Errorf("only %d hits: the cases do not test much", hits)
	}
}

// TestSegmentTriangleWatertight sends segments exactly through the shared
// diagonal and corners of a quad split in two triangles (dyadic
// coordinates, so the crossing points are representable): every one must
// hit at least one of the two.
func TestSegmentTriangleWatertight(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 5))
	for i := 0; i < 20000; i++ {
		// Quad corners on a random integer grid, diagonal a-c.
		g := func() float64 { return float64(r.IntN(64) - 32) }
		a := V(g(), g(), g())
		b := a.Add(V(g(), g(), 0))
		c := a.Add(V(g(), g(), 0))
		if b.Sub(a).Cross(c.Sub(a)).Norm() == 0 {
			continue
		}
		d := a.Add(c).Sub(b) // parallelogram
		// A point on the diagonal: a + k/16 (c - a).
		k := float64(r.IntN(17)) / 16
		x := a.Add(c.Sub(a).Scale(k))
		dir := V(g()/8, g()/8, g()+0.5)
		p, q := x.Add(dir), x.Sub(dir)
		_, h1 := SegmentTriangle(p, q, a, b, c)
		_, h2 := SegmentTriangle(p, q, a, c, d)
		if !h1 && !h2 {
			t.Fatalf("case %d: segment %v-%v through the shared edge %v-%v misses both triangles", i, p, q, a, c)
		}
	}
}

func TestSegmentTriangleCoplanar(t *testing.T) {
	a, b, c := V(0, 0, 0), V(1, 0, 0), V(0, 1, 0)
	s, ok := SegmentTriangle(V(-1, 0.25, 0), V(1, 0.25, 0), a, b, c)
	if !ok || math.Abs(s-0.5) > 1e-15 {
		t.Errorf("coplanar segment entering at 0.5: got %v %v", s, ok)
	}
	if _, ok := SegmentTriangle(V(-1, 2, 0), V(1, 2, 0), a, b, c); ok {
		t.Errorf("coplanar segment outside reported a hit")
	}
}

func BenchmarkSegmentTriangle(b *testing.B) {
	p, q := V(0.2, 0.2, 1), V(0.3, 0.1, -1)
	a, c, d := V(0, 0, 0), V(1, 0, 0), V(0, 1, 0)
	for i := 0; i < b.N; i++ {
		SegmentTriangle(p, q, a, c, d)
	}
}
