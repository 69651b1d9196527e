package refgeom

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// sampledDistance is the distance from p to the nearest of the points
// a + s/n (b-a) + r/n (c-a), s, r >= 0, s+r <= n.
func sampledDistance(p, a, b, c geom.Vec3, n int) float64 {
	best := math.Inf(1)
	for s := 0; s <= n; s++ {
		for r := 0; r+s <= n; r++ {
			x := a.AddScaled(float64(s)/float64(n), b.Sub(a)).AddScaled(float64(r)/float64(n), c.Sub(a))
			best = math.Min(best, p.Dist(x))
		}
	}
	return best
}

// TestClosestOnTriangle checks seeded random points against dense sampling
// of the triangle: the answer lies on the triangle (its barycentric weights,
// solved independently, are in [0, 1]) and no sample is nearer than the
// answer by more than the grid's resolution. It asserts that both the
// interior and the boundary (vertex and edge regions) are hit often.
func TestClosestOnTriangle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 17))
	pt := func(s float64) geom.Vec3 {
		return geom.V(s*(rng.Float64()*2-1), s*(rng.Float64()*2-1), s*(rng.Float64()*2-1))
	}
	const grid = 200
	interior := 0
	const cases = 300
	for i := range cases {
		a, b, c := pt(1), pt(1), pt(1)
		p := pt(0.6)
		q := ClosestOnTriangle(p, a, b, c)
		// Barycentric weights of q by least squares on the edges.
		e0, e1, w := b.Sub(a), c.Sub(a), q.Sub(a)
		d00, d01, d11 := e0.Dot(e0), e0.Dot(e1), e1.Dot(e1)
		den := d00*d11 - d01*d01
		u := (d11*w.Dot(e0) - d01*w.Dot(e1)) / den
		v := (d00*w.Dot(e1) - d01*w.Dot(e0)) / den
		const tol = 1e-9
		if u < -tol || v < -tol || u+v > 1+tol {
			t.Fatalf("case %d: point %v has weights (%g, %g): off the triangle", i, q, u, v)
		}
		if off := a.AddScaled(u, e0).AddScaled(v, e1).Dist(q); off > 1e-9 {
			t.Fatalf("case %d: point %v is %g off the triangle's plane", i, q, off)
		}
		if u > 1e-6 && v > 1e-6 && u+v < 1-1e-6 {
			interior++
		}
		got := p.Dist(q)
		best := sampledDistance(p, a, b, c, grid)
		res := (e0.Norm() + e1.Norm() + c.Sub(b).Norm()) / grid
		if got > best+1e-12 {
			t.Fatalf("case %d: distance %g, but a sample is at %g", i, got, best)
		}
		if best > got+res {
			t.Fatalf("case %d: distance %g, nearest sample %g: farther than the grid step %g", i, got, best, res)
		}
	}
	if interior < cases/10 || interior > cases*9/10 {
		t.Errorf("%d of %d closest points inside the triangle, want between 10%% and 90%%", interior, cases)
	}
}
