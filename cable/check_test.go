package cable

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

func randVec(rng *rand.Rand, s float64) geom.Vec3 {
	return geom.V(s*(2*rng.Float64()-1), s*(2*rng.Float64()-1), s*(2*rng.Float64()-1))
}

// TestEdgesCrossConstructed builds edge pairs that intersect at a chosen
// time (all four endpoints moving) and pairs kept apart by a moving plane,
// and checks edgesCross on both.
func TestEdgesCrossConstructed(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	found, sep := 0, 0
	for i := 0; i < 20000; i++ {
		ts := 0.02 + 0.96*rng.Float64()
		x := randVec(rng, 1)
		da, db := randVec(rng, 1), randVec(rng, 1)
		fa, fb := 0.05+0.9*rng.Float64(), 0.05+0.9*rng.Float64()
		// At time ts, A = x - fa da ... x + (1-fa) da passes through x,
		// and so does B.
		at := [4]geom.Vec3{x.AddScaled(-fa, da), x.AddScaled(1-fa, da), x.AddScaled(-fb, db), x.AddScaled(1-fb, db)}
		var p0, p1 [4]geom.Vec3
		for k := range at {
			v := randVec(rng, 2)
			p0[k], p1[k] = at[k].AddScaled(-ts, v), at[k].AddScaled(1-ts, v)
		}
		if i%2 == 0 {
			tt, d, ok := edgesCross(&p0, &p1)
			if !ok {
				t.Fatalf("case %d: crossing at t=%v missed: p0 %v p1 %v", i, ts, p0, p1)
			}
			if math.Abs(tt-ts) > 1e-6 && d > 1e-9 {
				t.Errorf("case %d: crossing at %v reported at %v (dist %v)", i, ts, tt, d)
			}
			found++
			continue
		}
		// Separated: A stays above the plane n.x = c(t)+h, B below c(t)-h,
		// with c moving linearly.
		n, _ := randVec(rng, 1).Normalize()
		h := 1e-3 + 0.1*rng.Float64()
		c0, c1 := rng.Float64()-0.5, rng.Float64()-0.5
		for k := range p0 {
			side := 1.0
			if k >= 2 {
				side = -1
			}
			for _, pt := range []*geom.Vec3{&p0[k], &p1[k]} {
				c := c0
				if pt == &p1[k] {
					c = c1
				}
				d := pt.Dot(n) - c
				if d*side < h {
					*pt = pt.AddScaled(side*h-d+side*rng.Float64(), n)
				}
			}
		}
		if tt, d, ok := edgesCross(&p0, &p1); ok {
			t.Fatalf("case %d: separated pair reported crossing at %v (dist %v): p0 %v p1 %v", i, tt, d, p0, p1)
		}
		sep++
	}
	if found < 5000 || sep < 5000 {
		t.Errorf("found %d, separated %d", found, sep)
	}
}

// ratOrient is the orientation sign in exact rational arithmetic, an
// oracle for segmentHitsTriangle that shares no code with robust.
func ratOrient(a, b, c, d geom.Vec3) int {
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	sub := func(p, q geom.Vec3) [3]*big.Rat {
		return [3]*big.Rat{new(big.Rat).Sub(r(p.X), r(q.X)), new(big.Rat).Sub(r(p.Y), r(q.Y)), new(big.Rat).Sub(r(p.Z), r(q.Z))}
	}
	u, v, w := sub(b, a), sub(c, a), sub(d, a)
	mul := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	cx := new(big.Rat).Sub(mul(u[1], v[2]), mul(u[2], v[1]))
	cy := new(big.Rat).Sub(mul(u[2], v[0]), mul(u[0], v[2]))
	cz := new(big.Rat).Sub(mul(u[0], v[1]), mul(u[1], v[0]))
	det := new(big.Rat).Add(mul(cx, w[0]), mul(cy, w[1]))
	det.Add(det, mul(cz, w[2]))
	return det.Sign()
}

func TestSegmentHitsTriangleExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	hits := 0
	for i := 0; i < 5000; i++ {
		a, b, c := randVec(rng, 1), randVec(rng, 1), randVec(rng, 1)
		p, q := randVec(rng, 1), randVec(rng, 1)
		switch i % 4 {
		case 1: // segment through a point of the triangle (rounded)
			u, v := rng.Float64(), rng.Float64()
			if u+v > 1 {
				u, v = 1-u, 1-v
			}
			x := a.AddScaled(u, b.Sub(a)).AddScaled(v, c.Sub(a))
			p = x.AddScaled(rng.Float64(), q.Sub(x).Neg())
		case 2: // endpoint exactly on a vertex
			p = b
		case 3: // small integer coordinates: many exact degeneracies
			g := func() geom.Vec3 { return geom.V(float64(rng.IntN(3)), float64(rng.IntN(3)), float64(rng.IntN(3))) }
			a, b, c, p, q = g(), g(), g(), g(), g()
			if ratOrient(a, b, c, geom.V(0.5, 0.25, 7)) == 0 && b.Sub(a).Cross(c.Sub(a)).Norm2() == 0 {
				continue
			}
		}
		sp, sq := ratOrient(a, b, c, p), ratOrient(a, b, c, q)
		want := false
		switch {
		case sp == 0 && sq == 0:
			want = true // coplanar: counted as meeting
		case sp*sq > 0:
		default:
			o1, o2, o3 := ratOrient(p, q, a, b), ratOrient(p, q, b, c), ratOrient(p, q, c, a)
			want = (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)
		}
		if got := segmentHitsTriangle(p, q, a, b, c); got != want {
			t.Fatalf("case %d: segment %v %v triangle %v %v %v: got %v, want %v", i, p, q, a, b, c, got, want)
		}
		if want {
			hits++
		}
	}
	if hits < 500 || hits > 4500 {
		t.Errorf("%d hits of 5000: cases do not mean much", hits)
	}
}

func TestVertexCrossesConstructed(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 20000; i++ {
		a, b, c := randVec(rng, 1), randVec(rng, 1), randVec(rng, 1)
		n, ok := b.Sub(a).Cross(c.Sub(a)).Normalize()
		if !ok || b.Sub(a).Cross(c.Sub(a)).Norm() < 1e-3 {
			continue
		}
		u, v := rng.Float64(), rng.Float64()
		if u+v > 1 {
			u, v = 1-u, 1-v
		}
		inside := i%2 == 0
		if !inside {
			u, v = 1+0.01+rng.Float64(), rng.Float64() // outside the triangle's edge bc side
		}
		x := a.AddScaled(u, b.Sub(a)).AddScaled(v, c.Sub(a))
		ts := 0.05 + 0.9*rng.Float64()
		vel := n.Scale(0.1 + rng.Float64()).Add(randVec(rng, 0.05))
		p0, p1 := x.AddScaled(-ts, vel), x.AddScaled(1-ts, vel)
		tt, got := vertexCrosses(p0, p1, a, b, c)
		if got != inside {
			t.Fatalf("case %d: vertex %v -> %v, triangle %v %v %v: crosses %v, want %v", i, p0, p1, a, b, c, got, inside)
		}
		if got && math.Abs(tt-ts) > 1e-6 {
			t.Fatalf("case %d: time %v, want %v", i, tt, ts)
		}
		// Moving parallel to the plane never crosses.
		side := n.Scale(0.01 + rng.Float64())
		q0, q1 := p0.Add(side), p0.Add(side).Add(b.Sub(a))
		if _, ok := vertexCrosses(q0, q1, a, b, c); ok && robust3(a, b, c, q0) != 0 {
			t.Fatalf("case %d: parallel motion reported", i)
		}
	}
}

func robust3(a, b, c, d geom.Vec3) int { return ratOrient(a, b, c, d) }
