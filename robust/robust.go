// Package robust provides exact geometric predicates for the yes/no
// decisions of the library's algorithms (convex hull visibility, coplanarity,
// orientation tests of the CCD root checks): the sign of the orientation
// determinant in 2D and 3D, always correct for every finite float64 input.
//
// Each predicate first evaluates the determinant in floating point with
// Shewchuk's a-priori error bound (J. R. Shewchuk, "Adaptive Precision
// Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997,
// Sec. 4: the "A" bounds of orient2d and orient3d) and returns its sign when
// the bound certifies it, which is almost always. Otherwise it recomputes
// the determinant exactly: with floating-point expansions (Shewchuk Sec. 2,
// products by fused multiply-add) when the inputs' exponents are in a range
// where no intermediate can overflow or underflow, and with math/big
// rationals otherwise. The STYLE guide's "exact or filtered predicates for
// yes/no decisions" is this package; it depends on nothing but the standard
// library, geom and its rational fallback (internal/ratorient).
package robust

import (
	"math"
	"math/big"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/ratorient"
)

const (
	epsilon = 1.0 / (1 << 53) // half an ulp of 1: Shewchuk's epsilon
	// Shewchuk's ccwerrboundA and o3derrboundA.
	o2Bound = (3 + 16*epsilon) * epsilon
	o3Bound = (7 + 56*epsilon) * epsilon
	// tiny absorbs the absolute error of products that underflow; values
	// whose magnitude is below it are decided exactly.
	tiny = 0x1p-960
	// Inputs whose nonzero coordinates all lie in [lowExp, highExp] in
	// magnitude are decided by expansions, which then can neither
	// overflow nor underflow (every exact intermediate is a multiple of
	// 2^-(3*(200+53)) and below 2^(3*201+8)).
	lowExp  = 0x1p-200
	highExp = 0x1p200
)

// Orient3D returns the sign (+1, 0 or -1) of (b-a) x (c-a) . (d-a): +1 when
// d lies above the plane through a, b, c oriented so that a, b, c run
// counter-clockwise seen from above (from the side of d), -1 when below, 0
// when the four points are coplanar. The answer is exact for all finite
// inputs; the result for NaN or infinite inputs is unspecified.
//
// (This is minus Shewchuk's orient3d, whose sign convention is "d below".)
func Orient3D(a, b, c, d geom.Vec3) int {
	adx, ady, adz := a.X-d.X, a.Y-d.Y, a.Z-d.Z
	bdx, bdy, bdz := b.X-d.X, b.Y-d.Y, b.Z-d.Z
	cdx, cdy, cdz := c.X-d.X, c.Y-d.Y, c.Z-d.Z
	bdxcdy, cdxbdy := bdx*cdy, cdx*bdy
	cdxady, adxcdy := cdx*ady, adx*cdy
	adxbdy, bdxady := adx*bdy, bdx*ady
	det := adz*(bdxcdy-cdxbdy) + bdz*(cdxady-adxcdy) + cdz*(adxbdy-bdxady)
	perm := (math.Abs(bdxcdy)+math.Abs(cdxbdy))*math.Abs(adz) +
		(math.Abs(cdxady)+math.Abs(adxcdy))*math.Abs(bdz) +
		(math.Abs(adxbdy)+math.Abs(bdxady))*math.Abs(cdz)
	bound := o3Bound*perm + tiny
	if det > bound {
		return -1
	}
	if -det > bound {
		return 1
	}
	if perm == 0 && inRange4(a, b, c, d) {
		// Every product is exactly zero (no underflow in range).
		return 0
	}
	return Orient3DExact(a, b, c, d)
}

// Orient2D returns the sign (+1, 0 or -1) of (b-a) x (c-a) for the 2D
// points a = (ax, ay), b, c: +1 when a, b, c turn counter-clockwise, -1
// clockwise, 0 when collinear. Exact for all finite inputs.
func Orient2D(ax, ay, bx, by, cx, cy float64) int {
	detl := (ax - cx) * (by - cy)
	detr := (ay - cy) * (bx - cx)
	det := detl - detr
	bound := o2Bound*(math.Abs(detl)+math.Abs(detr)) + tiny
	if det > bound {
		return 1
	}
	if -det > bound {
		return -1
	}
	return Orient2DExact(ax, ay, bx, by, cx, cy)
}

// Orient3DFloat returns the plain floating-point value of
// (b-a) x (c-a) . (d-a) (not exact; its sign agrees with Orient3D whenever
// Orient3D's filter succeeds). Useful as a magnitude for heuristics.
func Orient3DFloat(a, b, c, d geom.Vec3) float64 {
	return b.Sub(a).Cross(c.Sub(a)).Dot(d.Sub(a))
}

func inRange(x float64) bool {
	ax := math.Abs(x)
	return ax == 0 || (ax >= lowExp && ax <= highExp)
}

func inRange4(a, b, c, d geom.Vec3) bool {
	for _, v := range [4]geom.Vec3{a, b, c, d} {
		if !inRange(v.X) || !inRange(v.Y) || !inRange(v.Z) {
			return false
		}
	}
	return true
}

// Orient3DExact is Orient3D without the floating-point filter: the sign
// computed exactly (expansions, or math/big when exponents are extreme).
func Orient3DExact(a, b, c, d geom.Vec3) int {
	if !inRange4(a, b, c, d) {
		return orient3DBig(a, b, c, d)
	}
	// Differences as exact two-term expansions (hi, lo).
	var ad, bd, cd [3][2]float64
	for i := 0; i < 3; i++ {
		ad[i][0], ad[i][1] = twoDiff(a.Get(i), d.Get(i))
		bd[i][0], bd[i][1] = twoDiff(b.Get(i), d.Get(i))
		cd[i][0], cd[i][1] = twoDiff(c.Get(i), d.Get(i))
	}
	// det[a-d; b-d; c-d] = sum over permutations of signed triple products.
	var buf [6 * 8 * 4]float64
	terms := buf[:0]
	perms := [6][4]int{{0, 1, 2, 1}, {1, 2, 0, 1}, {2, 0, 1, 1}, {0, 2, 1, -1}, {1, 0, 2, -1}, {2, 1, 0, -1}}
	for _, p := range perms {
		x, y, z := ad[p[0]], bd[p[1]], cd[p[2]]
		s := float64(p[3])
		for _, xi := range x {
			for _, yi := range y {
				h, l := twoProd(xi, yi)
				for _, zi := range z {
					h1, l1 := twoProd(h, zi)
					h2, l2 := twoProd(l, zi)
					terms = append(terms, s*h1, s*l1, s*h2, s*l2)
				}
			}
		}
	}
	// Shewchuk's convention: positive det means d below; ours is the
	// opposite.
	return -sumSign(terms)
}

// Orient2DExact is Orient2D without the floating-point filter.
func Orient2DExact(ax, ay, bx, by, cx, cy float64) int {
	if !(inRange(ax) && inRange(ay) && inRange(bx) && inRange(by) && inRange(cx) && inRange(cy)) {
		return orient2DBig(ax, ay, bx, by, cx, cy)
	}
	var acx, acy, bcx, bcy [2]float64
	acx[0], acx[1] = twoDiff(ax, cx)
	acy[0], acy[1] = twoDiff(ay, cy)
	bcx[0], bcx[1] = twoDiff(bx, cx)
	bcy[0], bcy[1] = twoDiff(by, cy)
	var buf [16]float64
	terms := buf[:0]
	for _, x := range acx {
		for _, y := range bcy {
			h, l := twoProd(x, y)
			terms = append(terms, h, l)
		}
	}
	for _, x := range acy {
		for _, y := range bcx {
			h, l := twoProd(x, y)
			terms = append(terms, -h, -l)
		}
	}
	return sumSign(terms)
}

// twoSum returns s = fl(a+b) and the exact error e: a + b = s + e (Knuth).
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	bv := s - a
	av := s - bv
	return s, (a - av) + (b - bv)
}

// twoDiff returns s = fl(a-b) and e with a - b = s + e exactly.
func twoDiff(a, b float64) (s, e float64) { return twoSum(a, -b) }

// twoProd returns p = fl(a*b) and e with a*b = p + e exactly (no
// underflow assumed), using a fused multiply-add.
func twoProd(a, b float64) (p, e float64) {
	p = a * b
	return p, math.FMA(a, b, -p)
}

// sumSign returns the sign of the exact sum of the terms, accumulating them
// into a nonoverlapping expansion (Shewchuk's Grow-Expansion with zero
// elimination); the sign of an expansion is the sign of its largest
// component. terms is used as scratch space.
func sumSign(terms []float64) int {
	var ebuf [6 * 8 * 4]float64
	e := ebuf[:0]
	for _, t := range terms {
		if t == 0 {
			continue
		}
		q := t
		n := 0
		for _, ei := range e {
			var h float64
			q, h = twoSum(q, ei)
			if h != 0 {
				e[n] = h
				n++
			}
		}
		e = append(e[:n], q)
	}
	// Components are in increasing magnitude; the last nonzero one decides.
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] > 0 {
			return 1
		}
		if e[i] < 0 {
			return -1
		}
	}
	return 0
}

func rat(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }

func orient3DBig(a, b, c, d geom.Vec3) int {
	return ratorient.Orient3([3]float64{a.X, a.Y, a.Z}, [3]float64{b.X, b.Y, b.Z}, [3]float64{c.X, c.Y, c.Z}, [3]float64{d.X, d.Y, d.Z})
}

func orient2DBig(ax, ay, bx, by, cx, cy float64) int {
	ux := new(big.Rat).Sub(rat(bx), rat(ax))
	uy := new(big.Rat).Sub(rat(by), rat(ay))
	vx := new(big.Rat).Sub(rat(cx), rat(ax))
	vy := new(big.Rat).Sub(rat(cy), rat(ay))
	l := new(big.Rat).Mul(ux, vy)
	r := new(big.Rat).Mul(uy, vx)
	return l.Sub(l, r).Sign()
}
