package ccd

import (
	"math"
	"sync"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// unitRoundoff is u = 2^-53, the unit roundoff of float64.
const unitRoundoff = 0x1p-53

// epsFactor times the largest input magnitude on an axis bounds the
// difference between a computed corner value of F and its exact value (the
// derivation in the package documentation gives 42u plus second-order
// terms).
const epsFactor = 50 * unitRoundoff

// tinyAbs covers underflow: every operation of the evaluation can add at
// most 2^-1075 of absolute error, and inputs rescaled by a power of two
// can lose at most that much; 2^-1000 is far above their sum.
const tinyAbs = 0x1p-1000

// box is a parameter box [t0,t1] x [u0,u1] x [v0,v1]; q is the index of
// the time quantum holding t0.
type box struct{ t0, t1, u0, u1, v0, v1, q float64 }

// timeQuantum is the time resolution of the search order: boxes starting
// in an earlier quantum are examined first, boxes starting in the same
// quantum depth first (smallest first). A contact found in a box reports
// the start of its quantum as the time of impact, so the reported time is
// at most timeQuantum earlier than the box's start, and never later than
// the first contact.
const timeQuantum = 0x1p-20

func quantum(t float64) float64 { return math.Floor(t * (1 / timeQuantum)) }

// problem is a query prepared for the inclusion search. Per axis k,
//
//	F_k(t, u, v) = r_k(t) + alpha(u) e1_k(t) + beta(u, v) e2_k(t)
//
// where r, e1, e2 interpolate linearly between their values at t=0 (r0,
// e10, e20) and t=1 (r1, e11, e21). For edge-edge alpha = u, beta = v,
// r = A0-B0, e1 = A1-A0, e2 = B0-B1. For vertex-face alpha = u,
// beta = v(1-u), r = P-A, e1 = A-B, e2 = A-C: the unit square (u, v) maps
// onto the whole triangle, so no part of the box lies outside the face.
// In both cases F is multilinear in (t, u, v).
type problem struct {
	vf                         bool
	start, end                 [4]geom.Vec3 // the query's points (copied: a pointer would make callers' queries escape)
	sc, d                      float64      // scale factor (a power of two), scaled MinDistance
	m                          [3]float64   // largest scaled input magnitude per axis
	ddReady, dirsReady         bool
	r0, r1, e10, e11, e20, e21 [3]float64
	thr                        [3]float64 // exclusion threshold: rounding bound + MinDistance
	band                       [3]float64 // acceptance half-width: thr + rounding bound + Tolerance
	trig                       [3]float64 // MinDistance - rounding bound: below it the exact range may exclude

	// Second filter: exact differences as double-words, d[j] at t=j.
	d1, d2, d3 [2][3]dd
	thr2       [3]float64 // exclusion threshold of the double-word filter

	// Direction filters: g = n.F for a few fixed directions n (the
	// face or edge-pair normals at t=0 and t=1), g = s0 + ... in the
	// same multilinear form as one axis.
	nDirs                            int
	gr0, gr1, ge10, ge11, ge20, ge21 [maxDirs]float64
	gthr                             [maxDirs]float64
}

// maxDirs is the number of direction filters.
const maxDirs = 2

// DefaultRelTolerance times the largest coordinate magnitude on an axis
// is the acceptance tolerance used when Options.Tolerance is zero.
const DefaultRelTolerance = 1e-11

// dirFactor times sum_k |n_k| M_k bounds the error of a corner value of
// n.F (package documentation).
const dirFactor = 64 * unitRoundoff

// setup prepares q. The double-word differences and the direction filters
// are prepared lazily, on the first box that needs them.
func (p *problem) setup(q *Query, opt Options) {
	s, e := &q.Start, &q.End
	var m [3]float64
	for i := 0; i < 4; i++ {
		a, b := s[i], e[i]
		m[0] = maxf(m[0], maxf(math.Abs(a.X), math.Abs(b.X)))
		m[1] = maxf(m[1], maxf(math.Abs(a.Y), math.Abs(b.Y)))
		m[2] = maxf(m[2], maxf(math.Abs(a.Z), math.Abs(b.Z)))
	}
	mmax := maxf(m[0], maxf(m[1], m[2]))
	sc := 1.0
	if mmax > 0x1p400 || (mmax < 0x1p-400 && mmax > 0) {
		// Rescale by a power of two so that nothing overflows and
		// products stay far from underflow. Scaling is exact except
		// for tiny coordinates that fall into the subnormal range,
		// whose absolute error tinyAbs covers.
		_, ex := math.Frexp(mmax)
		sc = math.Ldexp(1, -ex)
		for k := range m {
			m[k] *= sc
		}
	}
	d := opt.MinDistance * sc
	tol := opt.Tolerance * sc
	if opt.MinDistance > 0 {
		d = d*(1+0x1p-50) + tinyAbs
	}
	p.start, p.end, p.sc, p.m, p.d = q.Start, q.End, sc, m, d
	p.vf = q.Kind == contact.VertexFace
	p.ddReady, p.dirsReady = false, false
	var x0, x1 [3][4]float64
	for i := 0; i < 4; i++ {
		x0[0][i], x0[1][i], x0[2][i] = s[i].X*sc, s[i].Y*sc, s[i].Z*sc
		x1[0][i], x1[1][i], x1[2][i] = e[i].X*sc, e[i].Y*sc, e[i].Z*sc
	}
	for k := 0; k < 3; k++ {
		a, b := &x0[k], &x1[k]
		if p.vf {
			p.r0[k], p.r1[k] = a[0]-a[1], b[0]-b[1]
			p.e10[k], p.e11[k] = a[1]-a[2], b[1]-b[2]
			p.e20[k], p.e21[k] = a[1]-a[3], b[1]-b[3]
		} else {
			p.r0[k], p.r1[k] = a[0]-a[2], b[0]-b[2]
			p.e10[k], p.e11[k] = a[1]-a[0], b[1]-b[0]
			p.e20[k], p.e21[k] = a[2]-a[3], b[2]-b[3]
		}
		eps := epsFactor*m[k] + tinyAbs
		p.thr[k] = (eps + d) * (1 + 0x1p-50)
		bt := tol
		if opt.Tolerance == 0 {
			bt = DefaultRelTolerance * m[k]
		}
		p.band[k] = (p.thr[k] + eps + bt) * (1 + 0x1p-50)
		p.trig[k] = d - eps
	}
}

// initDD prepares the double-word filter: the differences of the scaled
// inputs, exactly, as double-words.
func (p *problem) initDD() {
	p.ddReady = true
	s, e := &p.start, &p.end
	for k := 0; k < 3; k++ {
		var x0, x1 [4]float64
		for i := 0; i < 4; i++ {
			x0[i] = s[i].Get(k) * p.sc
			x1[i] = e[i].Get(k) * p.sc
		}
		p.thr2[k] = (ddFactor*p.m[k] + tinyAbs + p.d) * (1 + 0x1p-50)
		for j, x := range [2]*[4]float64{&x0, &x1} {
			if p.vf {
				p.d1[j][k] = twoSum(x[0], -x[1])
				p.d2[j][k] = twoSum(x[1], -x[2])
				p.d3[j][k] = twoSum(x[1], -x[3])
			} else {
				p.d1[j][k] = twoSum(x[0], -x[2])
				p.d2[j][k] = twoSum(x[1], -x[0])
				p.d3[j][k] = twoSum(x[2], -x[3])
			}
		}
	}
}

// initDirs prepares the direction filters: the normals at t=0 and t=1 (the
// face normal for vertex-face, the cross product of the edges for
// edge-edge).
func (p *problem) initDirs() {
	p.dirsReady = true
	p.nDirs = 0
	var ns [2][3]float64
	for j := 0; j < 2; j++ {
		a, b := &p.e10, &p.e20
		if j == 1 {
			a, b = &p.e11, &p.e21
		}
		ns[j] = [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	for j := 0; j < 2; j++ {
		n := ns[j]
		if n == [3]float64{} || (j == 1 && n == ns[0]) {
			continue
		}
		i := p.nDirs
		var mn, n1, n2 float64
		for k := 0; k < 3; k++ {
			mn += math.Abs(n[k]) * p.m[k]
			n1 += math.Abs(n[k])
			n2 += n[k] * n[k]
		}
		p.gr0[i], p.gr1[i] = dot3(&n, &p.r0), dot3(&n, &p.r1)
		p.ge10[i], p.ge11[i] = dot3(&n, &p.e10), dot3(&n, &p.e11)
		p.ge20[i], p.ge21[i] = dot3(&n, &p.e20), dot3(&n, &p.e21)
		p.gthr[i] = (dirFactor*mn + tinyAbs*(n1+1) + math.Sqrt(n2)*(1+0x1p-50)*p.d) * (1 + 0x1p-50)
		if math.IsInf(p.gthr[i], 0) || math.IsNaN(p.gthr[i]) {
			continue
		}
		p.nDirs++
	}
}

// maxf is the larger of a and b, for numbers that are not NaN (faster
// than math.Max, which handles NaN and signed zeros).
func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func dot3(a, b *[3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// Outcomes of eval.
const (
	excluded  = iota // no root in the box
	inside           // the whole box is within the acceptance band
	undecided        // split it
)

// eval bounds F over box b from its values at the 8 corners. When the box
// is not excluded it returns in split the dimension (0 t, 1 u, 2 v) along
// which F varies most, or -1 when no dimension can be bisected. On an axis
// where the float bounds cannot exclude the box but the exact range might
// (or on every axis when force is set) it runs the double-word filter.
func (p *problem) eval(b *box, force bool) (outcome int, split int) {
	ct0, ct1 := 1-b.t0, 1-b.t1
	al0, al1 := b.u0, b.u1
	var be00, be01, be10, be11 float64
	if p.vf {
		w0, w1 := 1-b.u0, 1-b.u1
		be00, be01 = b.v0*w0, b.v1*w0
		be10, be11 = b.v0*w1, b.v1*w1
	} else {
		be00, be01, be10, be11 = b.v0, b.v1, b.v0, b.v1
	}
	in := true
	uncertain := 0
	var dr, de1, de2, me1, me2 float64 // for the split choice
	for k := 0; k < 3; k++ {
		r0, r1 := p.r0[k], p.r1[k]
		e10, e11 := p.e10[k], p.e11[k]
		e20, e21 := p.e20[k], p.e21[k]
		// t = t0
		ra := ct0*r0 + b.t0*r1
		e1a := ct0*e10 + b.t0*e11
		e2a := ct0*e20 + b.t0*e21
		// t = t1
		rb := ct1*r0 + b.t1*r1
		e1b := ct1*e10 + b.t1*e11
		e2b := ct1*e20 + b.t1*e21

		lo, hi := corners(ra, e1a, e2a, al0, al1, be00, be01, be10, be11)
		lo2, hi2 := corners(rb, e1b, e2b, al0, al1, be00, be01, be10, be11)
		if lo2 < lo {
			lo = lo2
		}
		if hi2 > hi {
			hi = hi2
		}
		thr := p.thr[k]
		if lo > thr || hi < -thr {
			return excluded, 0
		}
		if force || lo > p.trig[k] || hi < -p.trig[k] {
			uncertain |= 1 << k
		}
		if lo < -p.band[k] || hi > p.band[k] {
			in = false
		}
		dr += math.Abs(rb - ra)
		de1 += math.Abs(e1b - e1a)
		de2 += math.Abs(e2b - e2a)
		me1 += maxf(math.Abs(e1a), math.Abs(e1b))
		me2 += maxf(math.Abs(e2a), math.Abs(e2b))
	}
	if !p.dirsReady {
		p.initDirs()
	}
	for i := 0; i < p.nDirs; i++ {
		ra := ct0*p.gr0[i] + b.t0*p.gr1[i]
		e1a := ct0*p.ge10[i] + b.t0*p.ge11[i]
		e2a := ct0*p.ge20[i] + b.t0*p.ge21[i]
		rb := ct1*p.gr0[i] + b.t1*p.gr1[i]
		e1b := ct1*p.ge10[i] + b.t1*p.ge11[i]
		e2b := ct1*p.ge20[i] + b.t1*p.ge21[i]
		lo, hi := corners(ra, e1a, e2a, al0, al1, be00, be01, be10, be11)
		lo2, hi2 := corners(rb, e1b, e2b, al0, al1, be00, be01, be10, be11)
		if lo2 < lo {
			lo = lo2
		}
		if hi2 > hi {
			hi = hi2
		}
		if lo > p.gthr[i] || hi < -p.gthr[i] {
			return excluded, 0
		}
	}
	if uncertain != 0 {
		if !p.ddReady {
			p.initDD()
		}
		for k := 0; k < 3; k++ {
			if uncertain&(1<<k) != 0 {
				lo, hi := p.ddCorners(b, k)
				if lo > p.thr2[k] || hi < -p.thr2[k] {
					return excluded, 0
				}
			}
		}
	}
	// Extent of the image along each parameter.
	bmax := maxf(maxf(be00, be01), maxf(be10, be11))
	wt := dr + al1*de1 + bmax*de2
	wu := (b.u1 - b.u0) * me1
	wv := (b.v1 - b.v0) * me2
	if p.vf {
		wu += (b.u1 - b.u0) * b.v1 * me2
		wv *= 1 - b.u0
	}
	split = -1
	best := -1.0
	if mid := 0.5 * (b.t0 + b.t1); mid > b.t0 && mid < b.t1 {
		split, best = 0, wt
	}
	if mid := 0.5 * (b.u0 + b.u1); mid > b.u0 && mid < b.u1 && wu > best {
		split, best = 1, wu
	}
	if mid := 0.5 * (b.v0 + b.v1); mid > b.v0 && mid < b.v1 && wv > best {
		split = 2
	}
	if in {
		return inside, split
	}
	return undecided, split
}

// refuteBudget is the number of sub-boxes the double-word filter may examine
// to show that a box accepted by the float filter holds no contact.
const refuteBudget = 4

// refute reports whether the double-word filter excludes every part of b
// within refuteBudget sub-boxes.
func (p *problem) refute(b box) bool {
	var stack [64]box
	stack[0] = b
	n := 1
	for count := 0; n > 0; count++ {
		n--
		c := stack[n]
		out, dim := p.eval(&c, true)
		if out == excluded {
			continue
		}
		if dim < 0 || count >= refuteBudget || n+2 > len(stack) {
			return false
		}
		lo, hi := c.split(dim)
		stack[n] = hi
		stack[n+1] = lo
		n += 2
	}
	return true
}

// corners returns the smallest and largest of the four computed values
// r + alpha_i e1 + beta_ij e2 at one time. Floating-point addition is
// monotone, so these equal the extremes of the four rounded corner values.
func corners(r, e1, e2, al0, al1, be00, be01, be10, be11 float64) (lo, hi float64) {
	x0 := r + al0*e1
	x1 := r + al1*e1
	y00, y01 := be00*e2, be01*e2
	y10, y11 := be10*e2, be11*e2
	if y01 < y00 {
		y00, y01 = y01, y00
	}
	if y11 < y10 {
		y10, y11 = y11, y10
	}
	lo, hi = x0+y00, x0+y01
	if l := x1 + y10; l < lo {
		lo = l
	}
	if h := x1 + y11; h > hi {
		hi = h
	}
	return lo, hi
}

// boxHeap is a binary min-heap of boxes ordered by the time quantum of
// their start, then by size (smaller first, so that among boxes starting
// together the search goes deep rather than wide), then by start time.
type boxHeap []box

func (h boxHeap) less(i, j int) bool {
	a, b := &h[i], &h[j]
	if a.q != b.q {
		return a.q < b.q
	}
	sa, sb := (a.t1-a.t0)*(a.u1-a.u0)*(a.v1-a.v0), (b.t1-b.t0)*(b.u1-b.u0)*(b.v1-b.v0)
	if sa != sb {
		return sa < sb
	}
	return a.t0 < b.t0
}

func (h *boxHeap) push(b box) {
	b.q = quantum(b.t0)
	*h = append(*h, b)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !s.less(i, p) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *boxHeap) pop() box {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		l, r, m := 2*i+1, 2*i+2, i
		if l < n && s.less(l, m) {
			m = l
		}
		if r < n && s.less(r, m) {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// heapPool recycles search heaps so that queries do not allocate.
var heapPool = sync.Pool{New: func() any { h := make(boxHeap, 0, 256); return &h }}

// solve searches the boxes in the order of boxHeap and returns the earliest
// time not ruled out, the box where it was found and the number of boxes
// examined. hit is false when every box was excluded.
func (p *problem) solve(maxBoxes int) (toi float64, at box, boxes int, hit, capped bool) {
	hp := heapPool.Get().(*boxHeap)
	h := (*hp)[:0]
	defer func() { *hp = h[:0]; heapPool.Put(hp) }()
	h.push(box{t0: 0, t1: 1, u0: 0, u1: 1, v0: 0, v1: 1})
	best := math.Inf(1)
	refuted := false // a refutation failed: accept later candidates directly
	tries := 0       // Newton attempts
	for len(h) > 0 {
		b := h.pop()
		if b.q > quantum(best) {
			break // every remaining box starts after best
		}
		if b.t0 >= best {
			continue // cannot hold an earlier contact
		}
		if boxes == maxBoxes {
			// Out of budget: the earliest undecided time.
			capped = true
			best, at = b.t0, b
			for _, c := range h {
				if c.t0 < best {
					best, at = c.t0, c
				}
			}
			break
		}
		boxes++
		out, dim := p.eval(&b, false)
		switch {
		case out == excluded:
			continue
		case out == inside || dim < 0:
			if !refuted && p.refute(b) {
				continue
			}
			refuted = true
			// Every box left starts in this quantum or later: the
			// quantum's start is a safe time of impact.
			if t := b.q * timeQuantum; t < best {
				best, at = t, b
			}
			continue
		}
		if tries < newtonTries {
			tries++
			if tx, ux, vx, ok := p.newton(&b); ok {
				// A contact at about tx: nothing after it matters;
				// keep searching b's earlier part.
				nb := math.Max(tx-timeMargin, b.t0)
				if nb < best {
					best, at = nb, box{t0: nb, t1: nb, u0: ux, u1: ux, v0: vx, v1: vx}
				}
				if nb > b.t0 {
					b.t1 = nb
					h.push(b)
				}
				continue
			}
		}
		lo, hi := b.split(dim)
		h.push(lo)
		h.push(hi)
	}
	if best > 1 {
		return 0, box{}, boxes, false, false
	}
	return best, at, boxes, true, capped
}

// split halves b along dimension dim (0: t, 1: u, 2: v).
func (b box) split(dim int) (lo, hi box) {
	lo, hi = b, b
	switch dim {
	case 0:
		mid := 0.5 * (b.t0 + b.t1)
		lo.t1, hi.t0 = mid, mid
	case 1:
		mid := 0.5 * (b.u0 + b.u1)
		lo.u1, hi.u0 = mid, mid
	default:
		mid := 0.5 * (b.v0 + b.v1)
		lo.v1, hi.v0 = mid, mid
	}
	return lo, hi
}

// inclusion answers q with the conservative inclusion method.
func inclusion(q *Query, opt Options) Result {
	if q.Kind > contact.EdgeEdge {
		return Result{Status: Invalid}
	}
	var p problem
	p.setup(q, opt)
	maxBoxes := opt.MaxBoxes
	if maxBoxes == 0 {
		maxBoxes = DefaultMaxBoxes
	}
	// Most queries end at the root box: test it before setting up the
	// search.
	root := box{t0: 0, t1: 1, u0: 0, u1: 1, v0: 0, v1: 1}
	if out, _ := p.eval(&root, false); out == excluded {
		return Result{Status: Separated, Boxes: 1}
	}
	toi, b, boxes, hit, capped := p.solve(maxBoxes)
	if !hit {
		return Result{Status: Separated, Boxes: boxes}
	}
	r := Result{Status: Hit, Boxes: boxes, Capped: capped}
	u, v := 0.5*(b.u0+b.u1), 0.5*(b.v0+b.v1)
	if p.vf {
		v *= 1 - u
	}
	q.contact(&r, toi, u, v)
	return r
}

// newtonTries bounds the Newton attempts per query.
const newtonTries = 8

// timeMargin is how far before a Newton root the search resumes: the
// earlier part of the box is still searched, so this only trades Time
// precision against work.
const timeMargin = 1e-6

// newton looks for a transversal root of F in box b by Newton's method
// from its center, in float64 (for vertex-face in barycentric coordinates,
// which stay regular at the triangle's vertices). It returns the root in
// box coordinates and true when the iteration converged in b, or within a
// hair of b on the boundary of the domain (where the root must then pass
// the double-word filter), with a well-conditioned Jacobian. The result
// is a heuristic: it only decides where the search may stop looking for
// later contacts; a wrong acceptance could at worst report a contact that
// does not exist, never miss one.
func (p *problem) newton(b *box) (t, u, v float64, ok bool) {
	t, u, v = 0.5*(b.t0+b.t1), 0.5*(b.u0+b.u1), 0.5*(b.v0+b.v1)
	if p.vf {
		v *= 1 - u // barycentric weight of C
	}
	var step float64
	for it := 0; it < 6; it++ {
		var f, jt, ju, jv [3]float64
		for k := 0; k < 3; k++ {
			ct := 1 - t
			r := ct*p.r0[k] + t*p.r1[k]
			e1 := ct*p.e10[k] + t*p.e11[k]
			e2 := ct*p.e20[k] + t*p.e21[k]
			f[k] = r + u*e1 + v*e2
			jt[k] = (p.r1[k] - p.r0[k]) + u*(p.e11[k]-p.e10[k]) + v*(p.e21[k]-p.e20[k])
			ju[k] = e1
			jv[k] = e2
		}
		// Cramer's rule for J (dt, du, dv) = -f.
		c0 := [3]float64{ju[1]*jv[2] - ju[2]*jv[1], ju[2]*jv[0] - ju[0]*jv[2], ju[0]*jv[1] - ju[1]*jv[0]}
		det := dot3(&jt, &c0)
		nt, nu, nv := math.Sqrt(dot3(&jt, &jt)), math.Sqrt(dot3(&ju, &ju)), math.Sqrt(dot3(&jv, &jv))
		if !(math.Abs(det) > 1e-6*nt*nu*nv) {
			return 0, 0, 0, false
		}
		c1 := [3]float64{jv[1]*jt[2] - jv[2]*jt[1], jv[2]*jt[0] - jv[0]*jt[2], jv[0]*jt[1] - jv[1]*jt[0]}
		c2 := [3]float64{jt[1]*ju[2] - jt[2]*ju[1], jt[2]*ju[0] - jt[0]*ju[2], jt[0]*ju[1] - jt[1]*ju[0]}
		dt := -dot3(&f, &c0) / det
		du := -dot3(&f, &c1) / det
		dv := -dot3(&f, &c2) / det
		t, u, v = t+dt, u+du, v+dv
		step = math.Max(math.Abs(dt), math.Max(math.Abs(du), math.Abs(dv)))
		if !(step < 2) {
			return 0, 0, 0, false
		}
	}
	m := 1e3*step + 0x1p-40
	if !(step <= 1e-9) {
		return 0, 0, 0, false
	}
	inside := t > m && t < 1-m && u > m && u < 1-m && v > m && v < 1-m
	if p.vf {
		inside = inside && u+v < 1-m
	}
	if !inside {
		// Near the boundary of the domain, where near-misses abound,
		// snap to the boundary and require the double-word filter to
		// confirm the root.
		snap := func(x float64) float64 {
			if math.Abs(x) <= m {
				return 0
			}
			if math.Abs(x-1) <= m {
				return 1
			}
			return x
		}
		t, u, v = snap(t), snap(u), snap(v)
		if p.vf && math.Abs(u+v-1) <= m {
			v = 1 - u
		}
		if t < 0 || t > 1 || u < 0 || u > 1 || v < 0 || v > 1 || (p.vf && u+v > 1) {
			return 0, 0, 0, false
		}
		if !p.ddReady {
			p.initDD()
		}
		for k := 0; k < 3; k++ {
			if math.Abs(p.ddAt(k, t, u, v)) > p.thr2[k] {
				return 0, 0, 0, false
			}
		}
	}
	if p.vf { // back to box coordinates
		if u < 1 {
			v /= 1 - u
		} else {
			v = 0.5 * (b.v0 + b.v1)
		}
	}
	if t < b.t0-m || t > b.t1+m || u < b.u0-m || u > b.u1+m || v < b.v0-m || v > b.v1+m {
		return 0, 0, 0, false
	}
	return math.Min(math.Max(t, b.t0), b.t1), u, v, true
}
