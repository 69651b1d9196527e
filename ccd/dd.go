package ccd

import "math"

// Double-double ("double-word") arithmetic for the second, tighter filter.
// A value is hi + lo with |lo| <= u |hi|. Error bounds from Joldes, Muller
// and Popescu, "Tight and rigorous error bounds for basic building blocks
// of double-word arithmetic" (ACM TOMS 2017): AccurateDWPlusDW relative
// error <= 3u^2 + 13u^3, DWTimesFP1 <= 1.5u^2 + 4u^3, DWTimesDW1 <= 7u^2.

// dd is a double-word number hi + lo.
type dd struct{ hi, lo float64 }

// twoSum returns s = fl(a+b) and e with a + b = s + e exactly.
func twoSum(a, b float64) dd {
	s := a + b
	bb := s - a
	return dd{s, (a - (s - bb)) + (b - bb)}
}

// fastTwoSum is twoSum for |a| >= |b|.
func fastTwoSum(a, b float64) dd {
	s := a + b
	return dd{s, b - (s - a)}
}

// twoProd returns p = fl(ab) and e with ab = p + e exactly (barring
// underflow).
func twoProd(a, b float64) dd {
	p := a * b
	return dd{p, math.FMA(a, b, -p)}
}

// add is AccurateDWPlusDW.
func (a dd) add(b dd) dd {
	s := twoSum(a.hi, b.hi)
	t := twoSum(a.lo, b.lo)
	c := s.lo + t.hi
	v := fastTwoSum(s.hi, c)
	w := t.lo + v.lo
	return fastTwoSum(v.hi, w)
}

// mulF is DWTimesFP1.
func (a dd) mulF(b float64) dd {
	c := twoProd(a.hi, b)
	cl := a.lo*b + c.lo
	return fastTwoSum(c.hi, cl)
}

// mul is DWTimesDW1.
func (a dd) mul(b dd) dd {
	c := twoProd(a.hi, b.hi)
	tl := a.hi*b.lo + a.lo*b.hi
	cl := c.lo + tl
	return fastTwoSum(c.hi, cl)
}

// ddFactor times the largest input magnitude on an axis bounds the error of
// the double-word evaluation of F at a corner: the operations of ddCorners,
// with the relative error bounds above on magnitudes of at most 2M, 4M and
// 6M, add up to 119 u^2 M; 512 u^2 M leaves a wide margin.
const ddFactor = 512 * unitRoundoff * unitRoundoff

// ddCorners returns the extremes over the 8 corners of box b of F on axis k
// evaluated in double-word arithmetic, each within p.thr2[k] - MinDistance
// of the exact value.
func (p *problem) ddCorners(b *box, k int) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	ct0, ct1 := twoSum(1, -b.t0), twoSum(1, -b.t1)
	for iu := 0; iu < 2; iu++ {
		u := b.u0
		if iu == 1 {
			u = b.u1
		}
		for iv := 0; iv < 2; iv++ {
			v := b.v0
			if iv == 1 {
				v = b.v1
			}
			beta := dd{v, 0}
			if p.vf {
				beta = twoSum(1, -u).mulF(v)
			}
			g0 := p.d1[0][k].add(p.d2[0][k].mulF(u)).add(p.d3[0][k].mul(beta))
			g1 := p.d1[1][k].add(p.d2[1][k].mulF(u)).add(p.d3[1][k].mul(beta))
			for _, f := range [2]dd{
				g0.mul(ct0).add(g1.mulF(b.t0)),
				g0.mul(ct1).add(g1.mulF(b.t1)),
			} {
				x := f.hi + f.lo
				if x < lo {
					lo = x
				}
				if x > hi {
					hi = x
				}
			}
		}
	}
	return lo, hi
}

// ddAt returns F on axis k at (t, u, beta) in double-word arithmetic,
// within p.thr2[k] - MinDistance of the exact value; beta is the weight of
// e2: the barycentric weight of C for vertex-face, v for edge-edge.
func (p *problem) ddAt(k int, t, u, b float64) float64 {
	beta := dd{b, 0}
	g0 := p.d1[0][k].add(p.d2[0][k].mulF(u)).add(p.d3[0][k].mul(beta))
	g1 := p.d1[1][k].add(p.d2[1][k].mulF(u)).add(p.d3[1][k].mul(beta))
	f := g0.mul(twoSum(1, -t)).add(g1.mulF(t))
	return f.hi + f.lo
}
