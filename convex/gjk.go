package convex

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// GJK (Gilbert, Johnson and Keerthi 1988, reference [15] of the paper):
// the point v of the Minkowski difference M = A - B closest to the origin,
// by a simplex of support points refined with Ericson's closest-point
// sub-algorithm (Real-Time Collision Detection, Sec. 5.1 and 9.5). It runs
// in A's local frame: B is mapped by the relative transform, directions are
// turned into each body's frame and supports come from the same hill
// climbing as the separating-vector search.

// GJKCache is the optional warm start of GJK between calls for one pair:
// the last direction from A towards B (world) and the last supporting
// vertices. The zero value is empty.
type GJKCache struct {
	Dir   geom.Vec3 // the last search direction, from A towards B (world)
	A, B  int32
	Valid bool
}

// GJKResult is the outcome of GJK and GJKIntersect.
type GJKResult struct {
	Status Status
	// Distance between the bodies when separated (GJK: converged to
	// relative precision about 1e-12; GJKIntersect: only the gap, a lower
	// bound, since it stops at the first separating direction); 0 when
	// intersecting.
	Distance float64
	// PA, PB are the closest points on A and B (world) when separated by
	// GJK; GJKIntersect leaves them at the points of the last simplex.
	PA, PB geom.Vec3
	// Plane separates the bodies when separated: N.x < D on A, > D on B.
	Plane geom.Plane
	// Gap is the width of the empty slab along Plane.N, a lower bound on
	// the distance.
	Gap float64
	// Iterations counts support evaluations.
	Iterations int
}

// GJK returns the distance and closest points of the convex polytopes a
// (placed by ta) and b (placed by tb), or Intersecting when they touch or
// overlap (or are closer than opt.Tol). cache may be nil. The transforms
// must be rigid (R a rotation within 1e-6); otherwise, or for non-finite
// input, the status is Invalid. For rotations that are not orthonormal to
// rounding, a separation is confirmed (and its plane placed) in world
// coordinates, and bodies closer than that check can resolve count as
// intersecting.
func GJK(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *GJKCache, opt *Options) GJKResult {
	var g gjkState
	return g.query(a, ta, b, tb, cache, opt, false)
}

// GJKIntersect is GJK stopped as soon as the answer is known: at the first
// direction that separates the bodies, or when the simplex encloses the
// origin. cache may be nil.
func GJKIntersect(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *GJKCache, opt *Options) GJKResult {
	var g gjkState
	return g.query(a, ta, b, tb, cache, opt, true)
}

type simplexVert struct {
	w      geom.Vec3 // support point of M = A - B (A frame): A's vertex ia minus B's ib
	ia, ib int32     // vertex ids
}

type gjkState struct {
	sv  [4]simplexVert
	n   int
	lam [4]float64
	// relTol is the convergence tolerance on squared distances (0: 1e-10).
	relTol float64
	// seed holds nseed vertex pairs (of A, of B) of a previous simplex
	// that the next run starts from (consumed by run).
	seed  [4][2]int32
	nseed int
	// noPlane skips placing the witness plane (Plane.D) of a separated
	// result for rotations exact to rounding; Plane.N is still set.
	noPlane bool
	// known: the next run takes okT (both transforms rigid) and devT (the
	// larger deviation from orthonormality) as computed by its caller
	// instead of checking the transforms again (consumed by run).
	known bool
	okT   bool
	devT  float64
	// R and t place B in A's frame (x -> R x + t) for the last run.
	R mat3
	t geom.Vec3
}

type gjkOut struct {
	GJKResult
	wa, wb int32     // last supporting vertices (for caches)
	vdir   geom.Vec3 // last direction v (A frame, from B towards A)
}

func (g *gjkState) query(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *GJKCache, opt *Options, boolean bool) GJKResult {
	var v geom.Vec3
	ia, ib := int32(-1), int32(-1)
	if cache != nil && cache.Valid && cache.A >= 0 && int(cache.A) < len(a.verts) && cache.B >= 0 && int(cache.B) < len(b.verts) {
		v, ia, ib = cache.Dir.Neg(), cache.A, cache.B
	} else {
		v = ta.Apply(a.centroid).Sub(tb.Apply(b.centroid))
	}
	out := g.run(a, ta, b, tb, opt, boolean, v, ia, ib)
	if cache != nil {
		if out.Status == Invalid {
			*cache = GJKCache{}
		} else {
			*cache = GJKCache{Dir: ta.R.MulVec(out.vdir).Neg(), A: out.wa, B: out.wb, Valid: true}
		}
	}
	return out.GJKResult
}

// run is GJK from the world direction v0 (a point of M's direction, from B
// towards A) and starting vertices ia, ib (-1: from the tables).
func (g *gjkState) run(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, opt *Options, boolean bool, v0 geom.Vec3, ia, ib int32) gjkOut {
	var out gjkOut
	var okA, okB bool
	var devA, devB float64
	if g.known {
		g.known = false
		okA, okB, devA = g.okT, true, g.devT
	} else {
		okA, devA = rigid(ta)
		okB, devB = rigid(tb)
	}
	if !okA || !okB || !v0.IsFinite() {
		out.Status = Invalid
		return out
	}
	// B in A's frame: x -> R x + t.
	Rm := ta.R.Transpose().Mul(tb.R)
	R := rowsOf(&Rm)
	mA := rowsOf(&ta.R)
	t := mA.mulT(tb.T.Sub(ta.T))
	g.R, g.t = R, t
	v := mA.mulT(v0)
	if !(v.Dot(v) > 0) {
		v = geom.Vec3{X: 1}
	}
	if ia < 0 {
		ia = a.table[tableIndex(v.Neg())]
	}
	if ib < 0 {
		ib = b.table[tableIndex(R.mulT(v))]
	}
	tol := opt.tol(a, b)
	maxIter := 4 * opt.maxIter()
	relTol := g.relTol // on squared distances
	if relTol == 0 {
		relTol = 1e-10
	}
	g.n = 0
	vInM := false // v is a point of M (the simplex's closest point)
	vv := 0.0
	if ns := g.nseed; ns > 0 {
		// Warm start from a previous simplex: its points with today's
		// poses, and their closest point to the origin.
		g.nseed = 0
		for i := 0; i < ns; i++ {
			sa, sb := g.seed[i][0], g.seed[i][1]
			if sa < 0 || int(sa) >= len(a.verts) || sb < 0 || int(sb) >= len(b.verts) {
				g.n = 0
				break
			}
			pa := a.at(sa)
			pb := R.mul(b.at(sb)).Add(t)
			g.sv[g.n] = simplexVert{w: pa.Sub(pb), ia: sa, ib: sb}
			g.n++
		}
		if g.n > 0 {
			nv, inside := g.closest()
			nv2 := nv.Dot(nv)
			if inside {
				out.Status = Intersecting
				out.Iterations = 0
				out.vdir = v
				out.setPoints(g, a, ta)
				out.wa, out.wb = g.sv[0].ia, g.sv[0].ib
				return out
			}
			if nv2 > tol*tol && nv2 < math.Inf(1) {
				v, vv, vInM = nv, nv2, true
				ia, ib = g.sv[0].ia, g.sv[0].ib
			} else {
				g.n = 0
			}
		}
	}
	var lastVW float64
	decided := false
	for it := 0; it < maxIter; it++ {
		out.Iterations = it + 1
		// Support of M in direction -v: A's support along -v minus B's
		// support along +v.
		scanned := false
		if a.loc != nil && b.loc != nil {
			var i, j int32
			if i, _, j, _, scanned = supportLoc2(a, v.Neg(), b, R.mulT(v)); scanned {
				ia, ib = i, j
			}
		}
		if !scanned {
			ia, _ = a.supportAny(v.Neg(), ia)
			ib, _ = b.supportAny(R.mulT(v), ib)
		}
		pa := a.at(ia)
		pb := R.mul(b.at(ib)).Add(t)
		w := pa.Sub(pb)
		vw := v.Dot(w)
		lastVW = vw
		out.vdir = v
		if vw > 0 && boolean {
			decided = true
			break // v separates: min over M of v.x = v.w > 0
		}
		if vInM && vw > 0 && vv-vw <= relTol*vv {
			decided = true
			break // converged
		}
		dup := false
		for i := 0; i < g.n; i++ {
			if g.sv[i].ia == ia && g.sv[i].ib == ib {
				dup = true
			}
		}
		if dup {
			// No new support point: v is as close as it gets, and the
			// supports along it were just found (lastVW is their gap).
			decided = true
			break
		}
		prevSV, prevLam, prevN := g.sv, g.lam, g.n
		g.sv[g.n] = simplexVert{w: w, ia: ia, ib: ib}
		g.n++
		nv, inside := g.closest()
		nv2 := nv.Dot(nv)
		if inside || nv2 <= tol*tol {
			out.Status = Intersecting
			out.vdir = nv
			out.setPoints(g, a, ta)
			out.wa, out.wb = ia, ib
			return out
		}
		if vInM && nv2 >= vv {
			// No progress (rounding): keep the previous, closer v.
			g.sv, g.lam, g.n = prevSV, prevLam, prevN
			break
		}
		v, vv, vInM = nv, nv2, true
	}
	out.wa, out.wb = ia, ib
	if !decided {
		// The answer needs a verified gap along the final v: the exact
		// minimum over M of v.x, from the supports along v.
		var hA, hB float64
		ia, hA = a.supportAny(v.Neg(), ia)
		ib, hB = b.supportAny(R.mulT(v), ib)
		// min over A of v.x is -hA; max over B of v.x is v.t + hB.
		lastVW = -hA - (v.Dot(t) + hB)
		out.vdir = v
		out.wa, out.wb = ia, ib
	}
	n := math.Sqrt(v.Dot(v))
	if lastVW > 0 && n > 0 {
		// Separated. In the world: N points from A to B.
		nA := v.Scale(-1 / n) // A frame, from A towards B
		N := ta.R.MulVec(nA)
		gap := lastVW / n
		out.Status = Separated
		out.Gap = gap
		out.setPoints(g, a, ta)
		if boolean {
			out.Distance = gap
		} else {
			out.Distance = math.Max(out.PB.Sub(out.PA).Norm(), gap)
		}
		if g.noPlane && max(devA, devB) <= exactRotation {
			out.Plane.N = N
			return out
		}
		// Plane midway in the slab: max over A of N.x is N.Ta + hA'.
		maxA := N.Dot(ta.T) + a.supportValue(nA)
		if max(devA, devB) > exactRotation {
			// The rotations are rotations only within rigid's
			// tolerance, so transposes invert them only that well:
			// measure the slab again in world coordinates (N.x over
			// A is N.Ta + (Ra^T N).a, over B likewise), and claim
			// separation only if it is still open there.
			maxA = N.Dot(ta.T) + a.supportValue(ta.R.MulVecT(N))
			minB := N.Dot(tb.T) - b.supportValue(tb.R.MulVecT(N).Neg())
			if !(minB > maxA) {
				out.Status = Intersecting
				out.Gap, out.Distance = 0, 0
				return out
			}
			gap = (minB - maxA) / math.Sqrt(N.Dot(N))
			out.Gap = gap
			if boolean {
				out.Distance = gap
			}
			out.Plane = geom.Plane{N: N, D: (maxA + minB) / 2}
			return out
		}
		out.Plane = geom.Plane{N: N, D: maxA + gap/2}
		return out
	}
	out.Status = Intersecting
	out.setPoints(g, a, ta)
	return out
}

// supportAny returns a supporting vertex along d and d.v: by the vector
// scan where it applies (supportLoc), else by hill climbing from start.
func (p *Polytope) supportAny(d geom.Vec3, start int32) (int32, float64) {
	if i, h, ok := p.supportLoc(d); ok {
		return i, h
	}
	// The direction table's vertex when it is better along d than start
	// (GJK's early directions turn far from one iteration to the next).
	if t := p.table[tableIndex(d)]; d.Dot(p.verts[t]) > d.Dot(p.verts[start]) {
		start = t
	}
	return p.SupportFrom(d, start)
}

// supportValue returns max over the vertices of d.v, by hill climbing from
// the table.
func (p *Polytope) supportValue(d geom.Vec3) float64 {
	_, h := p.Support(d)
	return h
}

func (o *gjkOut) setPoints(g *gjkState, a *Polytope, ta *geom.Transform) {
	var pa, pb geom.Vec3
	for i := 0; i < g.n; i++ {
		va := a.at(g.sv[i].ia)
		pa = pa.AddScaled(g.lam[i], va)
		pb = pb.AddScaled(g.lam[i], va.Sub(g.sv[i].w))
	}
	o.PA, o.PB = ta.Apply(pa), ta.Apply(pb)
}

// rigid reports whether t is finite and its R a rotation within 1e-6
// (unit orthogonal rows, positive determinant): GJK works in A's frame and
// inverts rotations by transposing them. dev bounds R's deviation from
// orthonormality from above: the sum of the six deviations of its rows'
// products (at most six times the largest); callers only compare it with
// exactRotation. It runs for every body of every query, so it avoids
// branches that depend on the data: the comparisons with the limit hold
// for every rigid transform, and the translation's finiteness is one sum
// of x - x terms (0 for finite coordinates, NaN otherwise).
func rigid(t *geom.Transform) (ok bool, dev float64) {
	r := &t.R
	x0, y0, z0 := r[0][0], r[0][1], r[0][2]
	x1, y1, z1 := r[1][0], r[1][1], r[1][2]
	x2, y2, z2 := r[2][0], r[2][1], r[2][2]
	e0 := math.Abs(x0*x0 + y0*y0 + z0*z0 - 1)
	e1 := math.Abs(x1*x1 + y1*y1 + z1*z1 - 1)
	e2 := math.Abs(x2*x2 + y2*y2 + z2*z2 - 1)
	e3 := math.Abs(x0*x1 + y0*y1 + z0*z1)
	e4 := math.Abs(x0*x2 + y0*y2 + z0*z2)
	e5 := math.Abs(x1*x2 + y1*y2 + z1*z2)
	const tol = 1e-6
	det := x0*(y1*z2-z1*y2) + y0*(z1*x2-x1*z2) + z0*(x1*y2-y1*x2)
	fin := (t.T.X - t.T.X) + (t.T.Y - t.T.Y) + (t.T.Z - t.T.Z)
	ok = e0 <= tol && e1 <= tol && e2 <= tol && e3 <= tol && e4 <= tol && e5 <= tol && det > 0 && fin == 0
	return ok, e0 + e1 + e2 + e3 + e4 + e5
}

// exactRotation is the deviation from orthonormality (rigid) below which a
// rotation matrix counts as exact: a matrix made from a unit quaternion is
// within a few units of rounding, so a witness plane computed in A's frame
// is off by far less than any tolerance. Above it, GJK checks its plane in
// world coordinates.
const exactRotation = 1e-12

// closest replaces the simplex by the smallest sub-simplex containing its
// point closest to the origin, sets the barycentric weights g.lam and
// returns that point; inside is true when the simplex is a tetrahedron
// that strictly contains the origin.
func (g *gjkState) closest() (geom.Vec3, bool) {
	switch g.n {
	case 1:
		g.lam[0] = 1
		return g.sv[0].w, false
	case 2:
		return g.closestSegment(0, 1), false
	case 3:
		return g.closestTriangle(0, 1, 2), false
	}
	return g.closestTetra()
}

// keep sets the simplex to the listed vertices with weights.
func (g *gjkState) keep(idx [4]int, lam [4]float64, n int) {
	var nv [4]simplexVert
	for i := 0; i < n; i++ {
		nv[i] = g.sv[idx[i]]
	}
	g.sv = nv
	g.lam = lam
	g.n = n
}

func (g *gjkState) closestSegment(i, j int) geom.Vec3 {
	a, b := g.sv[i].w, g.sv[j].w
	ab := b.Sub(a)
	d := ab.Dot(ab)
	t := 0.0
	if d > 0 {
		t = -a.Dot(ab) / d
	}
	switch {
	case t <= 0:
		g.keep([4]int{i}, [4]float64{1}, 1)
		return a
	case t >= 1:
		g.keep([4]int{j}, [4]float64{1}, 1)
		return b
	}
	g.keep([4]int{i, j}, [4]float64{1 - t, t}, 2)
	return a.AddScaled(t, ab)
}

// closestTriangle is Ericson's ClosestPtPointTriangle for the origin.
func (g *gjkState) closestTriangle(i, j, k int) geom.Vec3 {
	a, b, c := g.sv[i].w, g.sv[j].w, g.sv[k].w
	ab, ac := b.Sub(a), c.Sub(a)
	ap := a.Neg()
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		g.keep([4]int{i}, [4]float64{1}, 1)
		return a
	}
	bp := b.Neg()
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		g.keep([4]int{j}, [4]float64{1}, 1)
		return b
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		v := d1 / (d1 - d3)
		g.keep([4]int{i, j}, [4]float64{1 - v, v}, 2)
		return a.AddScaled(v, ab)
	}
	cp := c.Neg()
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		g.keep([4]int{k}, [4]float64{1}, 1)
		return c
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		w := d2 / (d2 - d6)
		g.keep([4]int{i, k}, [4]float64{1 - w, w}, 2)
		return a.AddScaled(w, ac)
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		w := (d4 - d3) / ((d4 - d3) + (d5 - d6))
		g.keep([4]int{j, k}, [4]float64{1 - w, w}, 2)
		return b.AddScaled(w, c.Sub(b))
	}
	den := va + vb + vc
	if !(den > 0) {
		// Degenerate (collinear) triangle: best of its edges.
		return g.bestEdge(i, j, k)
	}
	v, w := vb/den, vc/den
	g.keep([4]int{i, j, k}, [4]float64{1 - v - w, v, w}, 3)
	// The closest point is the origin's projection on the plane; along
	// the plane normal it is accurate even when the barycentric
	// combination cancels (origin very close to a large face).
	n := ab.Cross(ac)
	if nn := n.Dot(n); nn > 0 {
		return n.Scale(a.Dot(n) / nn)
	}
	return a.AddScaled(v, ab).AddScaled(w, ac)
}

func (g *gjkState) bestEdge(i, j, k int) geom.Vec3 {
	save, sn := g.sv, g.n
	best, bd := geom.Vec3{}, math.Inf(1)
	var bsv [4]simplexVert
	var blam [4]float64
	bn := 0
	for _, e := range [3][2]int{{i, j}, {i, k}, {j, k}} {
		g.sv, g.n = save, sn
		p := g.closestSegment(e[0], e[1])
		if d := p.Dot(p); d < bd {
			best, bd, bsv, blam, bn = p, d, g.sv, g.lam, g.n
		}
	}
	g.sv, g.lam, g.n = bsv, blam, bn
	return best
}

// closestTetra handles the tetrahedron 0123: the origin is inside when it
// is strictly on the inner side of all four faces; otherwise the closest
// point is on a face the origin is outside of (or on a face of a flat
// tetrahedron). The sides are decided first from the four points alone,
// so that a tetrahedron holding the origin (the end of every overlapping
// query) copies no simplex.
func (g *gjkState) closestTetra() (geom.Vec3, bool) {
	// A flat tetrahedron (height below 1e-9 of its size, e.g. four points
	// on one face of M when two faces are coplanar) cannot prove that the
	// origin is inside: its closest point is then on one of its faces.
	p := [4]geom.Vec3{g.sv[0].w, g.sv[1].w, g.sv[2].w, g.sv[3].w}
	p0 := p[0]
	n0 := p[1].Sub(p0).Cross(p[2].Sub(p0))
	e := math.Sqrt(math.Max(p[3].Sub(p0).Dot(p[3].Sub(p0)), math.Max(p[1].Sub(p0).Dot(p[1].Sub(p0)), p[2].Sub(p0).Dot(p[2].Sub(p0)))))
	flat := !(math.Abs(p[3].Sub(p0).Dot(n0)) > 1e-9*e*math.Sqrt(n0.Dot(n0)))
	var out [4]bool // faces the origin is not strictly inside of
	inside := !flat
	for k, f := range &tetraFaces {
		a := p[f[0]]
		n := p[f[1]].Sub(a).Cross(p[f[2]].Sub(a))
		sp := -a.Dot(n)             // origin side
		sd := p[f[3]].Sub(a).Dot(n) // opposite vertex side
		if !flat && sp*sd > 0 && sd != 0 {
			continue // origin on the inner side of this face
		}
		inside, out[k] = false, true
	}
	if inside {
		return geom.Vec3{}, true
	}
	save := g.sv
	best, bd := geom.Vec3{}, math.Inf(1)
	var bsv [4]simplexVert
	var blam [4]float64
	bn := 0
	for k, f := range &tetraFaces {
		if !out[k] {
			continue
		}
		g.sv, g.n = save, 4
		q := g.closestTriangle(int(f[0]), int(f[1]), int(f[2]))
		if dd := q.Dot(q); dd < bd {
			best, bd, bsv, blam, bn = q, dd, g.sv, g.lam, g.n
		}
	}
	g.sv, g.lam, g.n = bsv, blam, bn
	return best, false
}

// tetraFaces lists the faces of tetrahedron 0123 (three vertices) with
// the vertex opposite each.
var tetraFaces = [4][4]int8{{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}}
