package exact

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestOrient3 checks the signs on a tetrahedron and its mirror, exact
// zeros of coplanar points far beyond the float filter's reach (points on
// a plane with coordinates that float arithmetic rounds), antisymmetry
// under swapping two points, and inputs at the ends of the float range.
func TestOrient3(t *testing.T) {
	o, x, y, z := [3]float64{}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}, [3]float64{0, 0, 1}
	if Orient3(o, x, y, z) != 1 || Orient3(o, y, x, z) != -1 || Orient3(o, x, y, [3]float64{0.3, 0.4, 0}) != 0 {
		t.Fatal("unit tetrahedron: wrong signs")
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		// d = a + s (b - a) + u (c - a) with s, u dyadic so that d is
		// exactly in the plane when the sums are exact (small integers).
		p := func() [3]float64 {
			return [3]float64{float64(r.IntN(2001) - 1000), float64(r.IntN(2001) - 1000), float64(r.IntN(2001) - 1000)}
		}
		a, b, c := p(), p(), p()
		s, u := float64(r.IntN(64))/16, float64(r.IntN(64))/16
		var d [3]float64
		for k := range 3 {
			d[k] = a[k] + s*(b[k]-a[k]) + u*(c[k]-a[k])
		}
		if got := Orient3(a, b, c, d); got != 0 {
			t.Fatalf("coplanar %v %v %v %v: sign %d", a, b, c, d, got)
		}
		e := d
		e[r.IntN(3)] += math.Ldexp(1, -40)
		if Orient3(a, b, c, e) != -Orient3(b, a, c, e) {
			t.Fatalf("not antisymmetric at %v", e)
		}
	}
	tiny, huge := math.Ldexp(1, -1000), math.Ldexp(1, 600)
	for _, sc := range []float64{tiny, huge} {
		sx, sy, sz := [3]float64{sc, 0, 0}, [3]float64{0, sc, 0}, [3]float64{0, 0, sc}
		if Orient3(o, sx, sy, sz) != 1 {
			t.Fatalf("scale %g: wrong sign", sc)
		}
	}
}

// TestOrient2AndCrossing checks the planar sign and the segment-triangle
// crossing on hand-made cases: through the interior, through an edge and
// a vertex (counted), beside the triangle, and lying in its plane (not
// counted).
func TestOrient2AndCrossing(t *testing.T) {
	if Orient2([2]float64{0, 0}, [2]float64{1, 0}, [2]float64{0, 1}) != 1 || Orient2([2]float64{0, 0}, [2]float64{1, 1}, [2]float64{2, 2}) != 0 {
		t.Fatal("Orient2: wrong signs")
	}
	a, b, c := [3]float64{0, 0, 0}, [3]float64{1, 0, 0}, [3]float64{0, 1, 0}
	for _, k := range []struct {
		p, q [3]float64
		want bool
	}{
		{[3]float64{0.2, 0.2, 1}, [3]float64{0.2, 0.2, -1}, true},
		{[3]float64{0.5, 0, 1}, [3]float64{0.5, 0, -1}, true},
		{[3]float64{0, 0, 1}, [3]float64{0, 0, -1}, true},
		{[3]float64{0.6, 0.6, 1}, [3]float64{0.6, 0.6, -1}, false},
		{[3]float64{-1, 0.2, 0}, [3]float64{2, 0.2, 0}, false},
		{[3]float64{0.2, 0.2, 1}, [3]float64{0.2, 0.2, 0.5}, false},
	} {
		if got := SegmentCrossesTriangle(k.p, k.q, a, b, c); got != k.want {
			t.Errorf("%v-%v: %v, want %v", k.p, k.q, got, k.want)
		}
	}
}
