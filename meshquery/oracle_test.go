package meshquery

// Oracles that share no code with the package: triangle-triangle
// intersection decided with math/big rationals by side-against-triangle
// crossing tests, and triangle-triangle distance by the fifteen
// feature-pair distances written from scratch (a different formulation
// from the package's Voronoi-region code), both by brute force over all
// triangle pairs.

import (
	"math"
	"math/big"
	"slices"
	"sort"

	"github.com/collide-go/collide/geom"
)

type rvec [3]*big.Rat

func rv(p geom.Vec3) rvec {
	return rvec{new(big.Rat).SetFloat64(p.X), new(big.Rat).SetFloat64(p.Y), new(big.Rat).SetFloat64(p.Z)}
}

func rsub(a, b rvec) rvec {
	return rvec{new(big.Rat).Sub(a[0], b[0]), new(big.Rat).Sub(a[1], b[1]), new(big.Rat).Sub(a[2], b[2])}
}

func rmul(a, b *big.Rat) *big.Rat { return new(big.Rat).Mul(a, b) }

// rdet3 is the sign of det[b-a, c-a, d-a].
func rdet3(a, b, c, d rvec) int {
	u, v, w := rsub(b, a), rsub(c, a), rsub(d, a)
	x := new(big.Rat).Sub(rmul(v[1], w[2]), rmul(v[2], w[1]))
	y := new(big.Rat).Sub(rmul(v[2], w[0]), rmul(v[0], w[2]))
	z := new(big.Rat).Sub(rmul(v[0], w[1]), rmul(v[1], w[0]))
	s := new(big.Rat).Add(rmul(u[0], x), rmul(u[1], y))
	s.Add(s, rmul(u[2], z))
	return s.Sign()
}

// rcross returns (b-a) x (c-a).
func rcross(a, b, c rvec) rvec {
	v, w := rsub(b, a), rsub(c, a)
	return rvec{
		new(big.Rat).Sub(rmul(v[1], w[2]), rmul(v[2], w[1])),
		new(big.Rat).Sub(rmul(v[2], w[0]), rmul(v[0], w[2])),
		new(big.Rat).Sub(rmul(v[0], w[1]), rmul(v[1], w[0])),
	}
}

// r2 drops coordinate k.
func r2(p rvec, k int) [2]*big.Rat { return [2]*big.Rat{p[(k+1)%3], p[(k+2)%3]} }

func rdet2(a, b, c [2]*big.Rat) int {
	x := rmul(new(big.Rat).Sub(b[0], a[0]), new(big.Rat).Sub(c[1], a[1]))
	y := rmul(new(big.Rat).Sub(b[1], a[1]), new(big.Rat).Sub(c[0], a[0]))
	return x.Cmp(y)
}

func between(a, b, x *big.Rat) bool {
	lo, hi := a, b
	if lo.Cmp(hi) > 0 {
		lo, hi = hi, lo
	}
	return lo.Cmp(x) <= 0 && x.Cmp(hi) <= 0
}

// seg2Meet: closed 2D segments ab, cd share a point.
func seg2Meet(a, b, c, d [2]*big.Rat) bool {
	d1, d2, d3, d4 := rdet2(a, b, c), rdet2(a, b, d), rdet2(c, d, a), rdet2(c, d, b)
	if d1*d2 < 0 && d3*d4 < 0 {
		return true
	}
	on := func(p, q, x [2]*big.Rat) bool { return between(p[0], q[0], x[0]) && between(p[1], q[1], x[1]) }
	return d1 == 0 && on(a, b, c) || d2 == 0 && on(a, b, d) || d3 == 0 && on(c, d, a) || d4 == 0 && on(c, d, b)
}

// in2 reports whether x lies in the closed 2D triangle abc (not degenerate).
func in2(x, a, b, c [2]*big.Rat) bool {
	s0, s1, s2 := rdet2(a, b, x), rdet2(b, c, x), rdet2(c, a, x)
	return s0 >= 0 && s1 >= 0 && s2 >= 0 || s0 <= 0 && s1 <= 0 && s2 <= 0
}

// segMeetsTri decides whether the closed segment pq meets the closed,
// non-degenerate triangle abc, exactly.
func segMeetsTri(p, q, a, b, c rvec) bool {
	sp, sq := rdet3(a, b, c, p), rdet3(a, b, c, q)
	if sp*sq > 0 {
		return false
	}
	if sp == 0 && sq == 0 {
		// In the plane: drop the coordinate of the normal's largest
		// component (nonzero for a non-degenerate triangle).
		n := rcross(a, b, c)
		k, best := 0, new(big.Rat).Abs(n[0])
		for i := 1; i < 3; i++ {
			if x := new(big.Rat).Abs(n[i]); x.Cmp(best) > 0 {
				k, best = i, x
			}
		}
		P, Q, A, B, C := r2(p, k), r2(q, k), r2(a, k), r2(b, k), r2(c, k)
		return in2(P, A, B, C) || in2(Q, A, B, C) || seg2Meet(P, Q, A, B) || seg2Meet(P, Q, B, C) || seg2Meet(P, Q, C, A)
	}
	// The segment meets the plane in one point: inside the triangle iff
	// the line's orientations against the three sides agree.
	o0, o1, o2 := rdet3(p, q, a, b), rdet3(p, q, b, c), rdet3(p, q, c, a)
	return o0 >= 0 && o1 >= 0 && o2 >= 0 || o0 <= 0 && o1 <= 0 && o2 <= 0
}

// oracleTriTri decides exactly whether two closed non-degenerate
// triangles share a point: some side of one meets the other.
func oracleTriTri(s, t [3]geom.Vec3) bool {
	var S, T [3]rvec
	for i := range 3 {
		S[i], T[i] = rv(s[i]), rv(t[i])
	}
	for i := range 3 {
		if segMeetsTri(S[i], S[(i+1)%3], T[0], T[1], T[2]) || segMeetsTri(T[i], T[(i+1)%3], S[0], S[1], S[2]) {
			return true
		}
	}
	return false
}

// oPointSeg is the distance from x to the segment ab (by projection onto
// the line, clamped).
func oPointSeg(x, a, b geom.Vec3) float64 {
	ab := b.Sub(a)
	l2 := ab.Dot(ab)
	if l2 == 0 {
		return x.Dist(a)
	}
	t := min(1, max(0, x.Sub(a).Dot(ab)/l2))
	return x.Dist(a.Add(ab.Scale(t)))
}

// oSegSeg is the distance between segments ab and cd: the interior
// critical point of the two lines when it lies in both parameter ranges,
// else the least of the four end-to-segment distances.
func oSegSeg(a, b, c, d geom.Vec3) float64 {
	best := min(oPointSeg(a, c, d), oPointSeg(b, c, d), oPointSeg(c, a, b), oPointSeg(d, a, b))
	u, v, w := b.Sub(a), d.Sub(c), a.Sub(c)
	uu, uv, vv, uw, vw := u.Dot(u), u.Dot(v), v.Dot(v), u.Dot(w), v.Dot(w)
	den := uu*vv - uv*uv
	if den > 1e-14*uu*vv {
		s := (uv*vw - vv*uw) / den
		t := (uu*vw - uv*uw) / den
		if s >= 0 && s <= 1 && t >= 0 && t <= 1 {
			best = min(best, a.Add(u.Scale(s)).Dist(c.Add(v.Scale(t))))
		}
	}
	return best
}

// oPointTri is the distance from x to the triangle abc: the distance to
// its plane when the projection is inside (barycentric coordinates), else
// the least distance to its sides.
func oPointTri(x, a, b, c geom.Vec3) float64 {
	best := min(oPointSeg(x, a, b), oPointSeg(x, b, c), oPointSeg(x, c, a))
	n := b.Sub(a).Cross(c.Sub(a))
	nn := n.Dot(n)
	if nn == 0 {
		return best
	}
	h := x.Sub(a).Dot(n) / nn
	p := x.Sub(n.Scale(h))
	// Barycentric coordinates of p by sub-areas.
	wa := b.Sub(p).Cross(c.Sub(p)).Dot(n)
	wb := c.Sub(p).Cross(a.Sub(p)).Dot(n)
	wc := a.Sub(p).Cross(b.Sub(p)).Dot(n)
	if wa >= 0 && wb >= 0 && wc >= 0 {
		best = min(best, math.Abs(h)*math.Sqrt(nn))
	}
	return best
}

// oracleTriDist is the distance of two disjoint triangles: the least of
// the nine side-side and six vertex-triangle distances.
func oracleTriDist(s, t [3]geom.Vec3) float64 {
	best := math.Inf(1)
	for i := range 3 {
		for j := range 3 {
			best = min(best, oSegSeg(s[i], s[(i+1)%3], t[j], t[(j+1)%3]))
		}
		best = min(best, oPointTri(s[i], t[0], t[1], t[2]), oPointTri(t[i], s[0], s[1], s[2]))
	}
	return best
}

// oracleMesh holds two meshes' triangles in A's frame for brute force.
type oracleMesh struct {
	a, b [][3]geom.Vec3
	// B's triangles sorted by the low end of their boxes on X, with
	// their boxes, and the widest box on X (for the sweeps).
	sorted   bool
	bs       [][3]geom.Vec3
	blo, bhi []geom.Vec3
	bWidth   float64
}

func boxOf(t [3]geom.Vec3) (lo, hi geom.Vec3) {
	return t[0].Min(t[1]).Min(t[2]), t[0].Max(t[1]).Max(t[2])
}

// sortB sorts B's triangles by the low X of their boxes (once).
func (o *oracleMesh) sortB() {
	if o.sorted {
		return
	}
	o.sorted = true
	o.bs = slices.Clone(o.b)
	sort.Slice(o.bs, func(i, j int) bool {
		li, _ := boxOf(o.bs[i])
		lj, _ := boxOf(o.bs[j])
		return li.X < lj.X
	})
	for _, t := range o.bs {
		lo, hi := boxOf(t)
		o.blo, o.bhi = append(o.blo, lo), append(o.bhi, hi)
		o.bWidth = max(o.bWidth, hi.X-lo.X)
	}
}

// window returns the range of sorted B triangles whose boxes may come
// within gap of the X range [lo, hi].
func (o *oracleMesh) window(lo, hi, gap float64) (int, int) {
	i := sort.Search(len(o.bs), func(k int) bool { return o.blo[k].X >= lo-gap-o.bWidth })
	j := sort.Search(len(o.bs), func(k int) bool { return o.blo[k].X > hi+gap })
	return i, j
}

// bruteHit decides whether any triangle pair intersects (exact per pair;
// pairs whose coordinate boxes are disjoint are skipped, exactly).
func (o *oracleMesh) bruteHit() bool { return o.bruteCount(1) > 0 }

// planeApart reports whether the corners of s lie strictly on one side of
// t's plane by more than a bound on the rounding of their floating-point
// distances (relative 1e-9 of the products' magnitudes): a filter before
// the exact test that only skips pairs it would reject.
func planeApart(s, t [3]geom.Vec3) bool {
	u, v := t[1].Sub(t[0]), t[2].Sub(t[0])
	n := u.Cross(v)
	nn := n.Norm() + u.Norm()*v.Norm()
	pos, neg := 0, 0
	for _, p := range s {
		w := p.Sub(t[0])
		d, eps := n.Dot(w), 1e-9*nn*(w.Norm()+u.Norm()+v.Norm())
		switch {
		case d > eps:
			pos++
		case d < -eps:
			neg++
		}
	}
	return pos == 3 || neg == 3
}

// bruteCount counts the intersecting triangle pairs as bruteHit decides
// them, stopping at limit when limit > 0.
func (o *oracleMesh) bruteCount(limit int) int {
	o.sortB()
	n := 0
	for _, s := range o.a {
		slo, shi := boxOf(s)
		i, j := o.window(slo.X, shi.X, 0)
		for k := i; k < j; k++ {
			tlo, thi := o.blo[k], o.bhi[k]
			if slo.X > thi.X || tlo.X > shi.X || slo.Y > thi.Y || tlo.Y > shi.Y || slo.Z > thi.Z || tlo.Z > shi.Z {
				continue
			}
			if planeApart(s, o.bs[k]) || planeApart(o.bs[k], s) {
				continue
			}
			if oracleTriTri(s, o.bs[k]) {
				if n++; n == limit {
					return n
				}
			}
		}
	}
	return n
}

// bruteDist is the least triangle-triangle distance over all pairs
// (pairs whose boxes are already farther apart than the best are
// skipped; A's triangles are visited nearest to B's box first so that
// the best shrinks early).
func (o *oracleMesh) bruteDist() float64 {
	o.sortB()
	blo, bhi := o.blo[0], o.bhi[0]
	for k := range o.bs {
		blo, bhi = blo.Min(o.blo[k]), bhi.Max(o.bhi[k])
	}
	c := blo.Add(bhi).Scale(0.5)
	order := make([]int, len(o.a))
	key := make([]float64, len(o.a))
	for i, s := range o.a {
		order[i] = i
		key[i] = s[0].Add(s[1]).Add(s[2]).Scale(1.0 / 3).Dist(c)
	}
	sort.Slice(order, func(i, j int) bool { return key[order[i]] < key[order[j]] })
	best := math.Inf(1)
	for _, ia := range order {
		s := o.a[ia]
		slo, shi := boxOf(s)
		i, j := o.window(slo.X, shi.X, best)
		for k := i; k < j; k++ {
			tlo, thi := o.blo[k], o.bhi[k]
			g := geom.Vec3{X: max(0, slo.X-thi.X, tlo.X-shi.X), Y: max(0, slo.Y-thi.Y, tlo.Y-shi.Y), Z: max(0, slo.Z-thi.Z, tlo.Z-shi.Z)}
			if g.Norm() >= best {
				continue
			}
			best = min(best, oracleTriDist(s, o.bs[k]))
		}
	}
	return best
}
