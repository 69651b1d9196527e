// Package exact holds the exact-arithmetic oracles of collide's tests:
// signs of determinants computed in rational arithmetic (math/big), and
// the segment-triangle crossing built on them. They share no code with
// the library's predicates (package robust) and tests (geom, robust, toc)
// check those against them; the library itself does not use this
// package.
package exact

import (
	"math"
	"math/big"
)

// Orient3 returns the exact sign of det[b-a, c-a, d-a] (+1, 0 or -1): the
// side of the plane through a, b, c on which d lies (positive when a, b,
// c turn counter-clockwise seen from d). A float evaluation decides when
// it is farther from zero than 1e-12 of the Hadamard bound |b-a| |c-a|
// |d-a| (its rounding error is below 1e-14 of that bound) and the bound
// is far from overflow and underflow; otherwise the determinant is
// expanded in rationals.
func Orient3(a, b, c, d [3]float64) int {
	var m [3][3]float64
	for i, p := range [3][3]float64{b, c, d} {
		for k := range 3 {
			m[i][k] = p[k] - a[k]
		}
	}
	det := m[0][0]*(m[1][1]*m[2][2]-m[1][2]*m[2][1]) - m[0][1]*(m[1][0]*m[2][2]-m[1][2]*m[2][0]) +
		m[0][2]*(m[1][0]*m[2][1]-m[1][1]*m[2][0])
	mag := norm(m[0]) * norm(m[1]) * norm(m[2])
	if mag > 1e-250 && mag < 1e250 && math.Abs(det) > 1e-12*mag {
		if det > 0 {
			return 1
		}
		return -1
	}
	var r [3][3]*big.Rat
	for i, p := range [3][3]float64{b, c, d} {
		for k := range 3 {
			r[i][k] = new(big.Rat).Sub(rat(p[k]), rat(a[k]))
		}
	}
	minor := func(i, j, k, l int) *big.Rat {
		x := new(big.Rat).Mul(r[1][i], r[2][j])
		return x.Sub(x, new(big.Rat).Mul(r[1][k], r[2][l]))
	}
	s := new(big.Rat).Mul(r[0][0], minor(1, 2, 2, 1))
	s.Sub(s, new(big.Rat).Mul(r[0][1], minor(0, 2, 2, 0)))
	s.Add(s, new(big.Rat).Mul(r[0][2], minor(0, 1, 1, 0)))
	return s.Sign()
}

// Orient2 returns the exact sign of det[b-a, c-a] in the plane (+1 when
// a, b, c turn counter-clockwise), in rationals.
func Orient2(a, b, c [2]float64) int {
	ux, uy := new(big.Rat).Sub(rat(b[0]), rat(a[0])), new(big.Rat).Sub(rat(b[1]), rat(a[1]))
	vx, vy := new(big.Rat).Sub(rat(c[0]), rat(a[0])), new(big.Rat).Sub(rat(c[1]), rat(a[1]))
	x := new(big.Rat).Mul(ux, vy)
	return x.Sub(x, new(big.Rat).Mul(uy, vx)).Sign()
}

// SegmentCrossesTriangle reports whether the segment p-q crosses the
// closed triangle a, b, c: its ends strictly on opposite sides of the
// triangle's plane, or one of them on it, and the line through them
// passing through the triangle or its boundary. A segment lying in the
// plane is not counted.
func SegmentCrossesTriangle(p, q, a, b, c [3]float64) bool {
	sp, sq := Orient3(a, b, c, p), Orient3(a, b, c, q)
	if sp == sq {
		return false
	}
	s0, s1, s2 := Orient3(p, q, a, b), Orient3(p, q, b, c), Orient3(p, q, c, a)
	return !((s0 < 0 || s1 < 0 || s2 < 0) && (s0 > 0 || s1 > 0 || s2 > 0))
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func norm(v [3]float64) float64 { return math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2]) }
