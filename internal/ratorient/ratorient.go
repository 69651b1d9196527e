// Package ratorient computes the sign of the 3D orientation determinant in
// rational arithmetic (math/big): the slow, exact fallback that the
// floating-point filters of packages geom and robust call when the float
// value cannot decide. It allocates and is meant for the rare cases only.
package ratorient

import "math/big"

// Orient3 returns the exact sign of ((b-a) x (c-a)) . (d-a): +1, 0 or -1.
// The coordinates must be finite.
func Orient3(a, b, c, d [3]float64) int {
	sub := func(p, q [3]float64) [3]*big.Rat {
		return [3]*big.Rat{
			new(big.Rat).Sub(rat(p[0]), rat(q[0])),
			new(big.Rat).Sub(rat(p[1]), rat(q[1])),
			new(big.Rat).Sub(rat(p[2]), rat(q[2])),
		}
	}
	u, v, w := sub(b, a), sub(c, a), sub(d, a)
	mul := func(x, y *big.Rat) *big.Rat { return new(big.Rat).Mul(x, y) }
	cx := new(big.Rat).Sub(mul(u[1], v[2]), mul(u[2], v[1]))
	cy := new(big.Rat).Sub(mul(u[2], v[0]), mul(u[0], v[2]))
	cz := new(big.Rat).Sub(mul(u[0], v[1]), mul(u[1], v[0]))
	s := mul(cx, w[0])
	s.Add(s, mul(cy, w[1]))
	s.Add(s, mul(cz, w[2]))
	return s.Sign()
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
