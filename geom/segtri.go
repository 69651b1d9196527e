package geom

import (
	"math"

	"github.com/collide-go/collide/internal/ratorient"
)

// orient returns the sign of ((b-a) x (c-a)) . (d-a): positive when d is on
// the side of the plane through a, b, c that the right-hand normal of
// a, b, c points to. The float64 value decides when it exceeds Shewchuk's
// error bound for this determinant; otherwise the sign is computed exactly
// with rationals (rare; only then does it allocate).
func orient(a, b, c, d Vec3) int {
	ba, ca, da := b.Sub(a), c.Sub(a), d.Sub(a)
	x := ca.Cross(da)
	det := ba.Dot(x)
	perm := math.Abs(ba.X)*(math.Abs(ca.Y*da.Z)+math.Abs(ca.Z*da.Y)) +
		math.Abs(ba.Y)*(math.Abs(ca.Z*da.X)+math.Abs(ca.X*da.Z)) +
		math.Abs(ba.Z)*(math.Abs(ca.X*da.Y)+math.Abs(ca.Y*da.X))
	const errBound = 8 * 0x1p-53 // (7 + 56 eps) eps, rounded up
	if det > errBound*perm {
		return 1
	}
	if -det > errBound*perm {
		return -1
	}
	if perm == 0 {
		return 0
	}
	return orientExact(a, b, c, d)
}

func orientExact(a, b, c, d Vec3) int {
	return ratorient.Orient3([3]float64{a.X, a.Y, a.Z}, [3]float64{b.X, b.Y, b.Z}, [3]float64{c.X, c.Y, c.Z}, [3]float64{d.X, d.Y, d.Z})
}

// edgeSide returns the side of the directed line p->q relative to edge
// a->b: the sign of orient(p, q, a, b), computed with the edge in a
// canonical direction so that two triangles sharing the edge see exactly
// opposite signs.
func edgeSide(p, q, a, b Vec3) int {
	if b.LexLess(a) {
		return -orient(p, q, b, a)
	}
	return orient(p, q, a, b)
}

// SegmentTriangle reports whether the closed segment p-q meets the closed
// triangle a, b, c, and the segment parameter s in [0, 1] of the first
// meeting point (p + s (q - p)). The yes/no decision uses exact
// orientation signs (floating point filtered, rational fallback) with
// shared edges oriented canonically, so a segment through an edge or
// vertex shared by triangles of a soup hits at least one of them. A
// segment lying in the triangle's plane is handled in the plane. A
// degenerate (zero-area) triangle is never hit.
func SegmentTriangle(p, q, a, b, c Vec3) (s float64, hit bool) {
	op, oq := orient(a, b, c, p), orient(a, b, c, q)
	if op == oq && op != 0 {
		return 0, false
	}
	if op == 0 && oq == 0 {
		return coplanarSegTri(p, q, a, b, c)
	}
	e0, e1, e2 := edgeSide(p, q, a, b), edgeSide(p, q, b, c), edgeSide(p, q, c, a)
	if (e0 < 0 || e1 < 0 || e2 < 0) && (e0 > 0 || e1 > 0 || e2 > 0) {
		return 0, false
	}
	if e0 == 0 && e1 == 0 && e2 == 0 {
		return 0, false // degenerate triangle
	}
	if op == 0 {
		return 0, true
	}
	if oq == 0 {
		return 1, true
	}
	n := b.Sub(a).Cross(c.Sub(a))
	dp, dq := n.Dot(p.Sub(a)), n.Dot(q.Sub(a))
	s = dp / (dp - dq)
	if !(s >= 0) {
		s = 0
	} else if s > 1 {
		s = 1
	}
	return s, true
}

// coplanarSegTri handles a segment in the triangle's plane: it clips the
// segment against the triangle's three edge half-planes in the projection
// that drops the normal's largest component (Liang-Barsky).
func coplanarSegTri(p, q, a, b, c Vec3) (float64, bool) {
	n := b.Sub(a).Cross(c.Sub(a))
	ax := 0
	if math.Abs(n.Y) > math.Abs(n.X) {
		ax = 1
	}
	if math.Abs(n.Z) > math.Abs(n.Get(ax)) {
		ax = 2
	}
	i, j := (ax+1)%3, (ax+2)%3
	pt := func(v Vec3) [2]float64 { return [2]float64{v.Get(i), v.Get(j)} }
	P, Q := pt(p), pt(q)
	T := [3][2]float64{pt(a), pt(b), pt(c)}
	area := (T[1][0]-T[0][0])*(T[2][1]-T[0][1]) - (T[1][1]-T[0][1])*(T[2][0]-T[0][0])
	if area == 0 {
		return 0, false
	}
	sg := math.Copysign(1, area)
	lo, hi := 0.0, 1.0
	D := [2]float64{Q[0] - P[0], Q[1] - P[1]}
	for k := 0; k < 3; k++ {
		u, v := T[k], T[(k+1)%3]
		// inside: sg * cross(v-u, x-u) >= 0 with x = P + s D.
		f0 := sg * ((v[0]-u[0])*(P[1]-u[1]) - (v[1]-u[1])*(P[0]-u[0]))
		fd := sg * ((v[0]-u[0])*D[1] - (v[1]-u[1])*D[0])
		if fd == 0 {
			if f0 < 0 {
				return 0, false
			}
			continue
		}
		s := -f0 / fd
		if fd > 0 {
			lo = math.Max(lo, s)
		} else {
			hi = math.Min(hi, s)
		}
		if lo > hi {
			return 0, false
		}
	}
	return lo, true
}
