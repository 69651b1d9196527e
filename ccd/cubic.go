package ccd

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// cubic answers q with Jansen's method as written (Sec. 3.1-3.4).
func cubic(q *Query) Result {
	// Coplanarity of A, B, C, D (eq. 2): AD . (AB x AC) = 0. For
	// vertex-face the face is A, B, C and D the vertex; for edge-edge
	// the edges are AB and CD.
	var ia, ib, ic, id int
	if q.Kind == contact.VertexFace {
		ia, ib, ic, id = 1, 2, 3, 0
	} else {
		ia, ib, ic, id = 0, 1, 2, 3
	}
	s, e := &q.Start, &q.End
	va, vb, vc, vd := e[ia].Sub(s[ia]), e[ib].Sub(s[ib]), e[ic].Sub(s[ic]), e[id].Sub(s[id])
	xb, xc, xd := s[ib].Sub(s[ia]), s[ic].Sub(s[ia]), s[id].Sub(s[ia])
	ub, uc, ud := vb.Sub(va), vc.Sub(va), vd.Sub(va)
	// Substituting eq. (1) into eq. (2) gives the cubic (3).
	x0 := xb.Cross(xc)
	x1 := xb.Cross(uc).Add(ub.Cross(xc))
	x2 := ub.Cross(uc)
	ca := ud.Dot(x2)
	cb := ud.Dot(x1) + xd.Dot(x2)
	cc := ud.Dot(x0) + xd.Dot(x1)
	cd := xd.Dot(x0)

	var roots [3]float64
	nr := cubicRoots(ca, cb, cc, cd, &roots)
	// Sort the roots so the earliest contact is reported first.
	for i := 1; i < nr; i++ {
		for j := i; j > 0 && roots[j] < roots[j-1]; j-- {
			roots[j], roots[j-1] = roots[j-1], roots[j]
		}
	}
	for i := 0; i < nr; i++ {
		t := roots[i]
		if !(t >= 0 && t <= 1) {
			continue
		}
		u, v, ok := intersect(q, t)
		if ok {
			r := Result{Status: Hit}
			q.contact(&r, t, u, v)
			return r
		}
	}
	return Result{Status: Separated}
}

// cubicRoots stores the real roots of a t^3 + b t^2 + c t + d in roots and
// returns their number, following Sec. 3.2-3.3: a quadratic when a is zero,
// otherwise the depressed cubic x^3 + 3Qx - 2R = 0 (eq. 7) solved with
// S and T of eqs. (18)-(22), taking cube roots of complex numbers in polar
// form (eqs. 23-26). Roots with a non-zero imaginary part are dropped.
func cubicRoots(a, b, c, d float64, roots *[3]float64) int {
	if a == 0 {
		if b == 0 {
			if c == 0 {
				return 0
			}
			roots[0] = -d / c
			return 1
		}
		disc := c*c - 4*b*d
		if disc < 0 {
			return 0
		}
		sq := math.Sqrt(disc)
		roots[0] = (-c + sq) / (2 * b)
		roots[1] = (-c - sq) / (2 * b)
		return 2
	}
	b, c, d = b/a, c/a, d/a
	p := (3*c - b*b) / 3
	qq := (9*c*b - 27*d - 2*b*b*b) / 27
	Q, R := p/3, qq/2
	G := Q*Q*Q + R*R
	var S, T complex128
	if G >= 0 {
		sg := math.Sqrt(G)
		S = complex(math.Cbrt(R+sg), 0)
		T = complex(math.Cbrt(R-sg), 0)
	} else {
		// R ± i sqrt(-G): radius r (eq. 23), angle theta (eqs. 24-25),
		// principal cube root r^(1/3), theta/3 (eq. 26 with k = 0).
		cb := math.Sqrt(-G)
		r := math.Hypot(R, cb)
		theta := math.Atan2(cb, R)
		rn := math.Cbrt(r)
		S = complex(rn*math.Cos(theta/3), rn*math.Sin(theta/3))
		T = complex(rn*math.Cos(-theta/3), rn*math.Sin(-theta/3))
	}
	shift := complex(-b/3, 0)
	i3 := complex(0, math.Sqrt(3))
	t1 := shift + S + T
	t2 := shift - (S+T)/2 + i3*(S-T)/2
	t3 := shift - (S+T)/2 - i3*(S-T)/2
	n := 0
	for _, t := range [3]complex128{t1, t2, t3} {
		if imag(t) == 0 {
			roots[n] = real(t)
			n++
		}
	}
	return n
}

// intersect is the test of Sec. 3.4 at time t. For edge-edge it solves
// A + f1 AB = C + f2 CD (eq. 27) in the two coordinates with the largest
// determinant and requires f1, f2 in [0, 1]; for vertex-face it solves
// P = A + u AB + v AC likewise and requires u, v >= 0, u + v <= 1.
func intersect(q *Query, t float64) (u, v float64, ok bool) {
	p0, p1, p2, p3 := q.at(0, t), q.at(1, t), q.at(2, t), q.at(3, t)
	var c1, c2, rhs geom.Vec3
	if q.Kind == contact.VertexFace {
		c1, c2, rhs = p2.Sub(p1), p3.Sub(p1), p0.Sub(p1)
	} else {
		c1, c2, rhs = p1.Sub(p0), p2.Sub(p3), p2.Sub(p0)
	}
	// Pick the pair of equations (coordinates i, j) whose 2x2 system has
	// the largest determinant.
	bi, bj, bd := -1, -1, 0.0
	for _, ij := range [3][2]int{{0, 1}, {1, 2}, {0, 2}} {
		i, j := ij[0], ij[1]
		det := c1.Get(i)*c2.Get(j) - c1.Get(j)*c2.Get(i)
		if math.Abs(det) > math.Abs(bd) {
			bi, bj, bd = i, j, det
		}
	}
	if bi < 0 {
		return 0, 0, false
	}
	x := (rhs.Get(bi)*c2.Get(bj) - rhs.Get(bj)*c2.Get(bi)) / bd
	y := (c1.Get(bi)*rhs.Get(bj) - c1.Get(bj)*rhs.Get(bi)) / bd
	if q.Kind == contact.VertexFace {
		return x, y, x >= 0 && y >= 0 && x+y <= 1
	}
	return x, y, x >= 0 && x <= 1 && y >= 0 && y <= 1
}
