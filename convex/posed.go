package convex

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// bruteMax is the largest vertex count for which a posed polytope's
// supporting vertex is found by scanning all its world vertices instead of
// hill climbing: for so few vertices a straight loop without neighbour
// lists is faster than the climb's indirect, unpredictable steps.
const bruteMax = 16

// Posed is a polytope placed by a transform with its vertices turned into
// world coordinates once. Sec. 2.3 turns each search direction into the
// body's frame instead, which is cheaper for large polytopes; for small
// ones that take part in several tests per frame (the benchmark scenes
// have about three per body), transforming the few vertices once makes
// every supporting-vertex search a scan of world coordinates (at most 16
// vertices) or a hill climb without rotations, and the differences
// q - p of Sec. 4.1 free. Searcher.IntersectPosed runs the same search on
// two posed polytopes. The zero value is empty; Set fills it.
type Posed struct {
	b   placed
	t   geom.Transform
	buf soa // the world vertices of a small polytope
}

// Set places p by t, computing the world vertices (reusing x's memory).
func (x *Posed) Set(p *Polytope, t *geom.Transform) {
	x.t = *t
	x.b.p, x.b.n, x.b.tf = p, len(p.verts), &x.t
	if p.soa != nil {
		x.b.s = &x.buf
		x.b.st = soaStride(len(p.verts))
		x.b.vec = poseSoA(&x.buf, p.soa, len(p.verts), t)
		return
	}
	x.b.s, x.b.vec = nil, false
	n := len(p.verts)
	if cap(x.b.w) < n {
		x.b.w = make([]geom.Vec3, n)
	}
	w := x.b.w[:n]
	// The matrix in locals (registers): stores into w cannot change them.
	m := &t.R
	m00, m01, m02 := m[0][0], m[0][1], m[0][2]
	m10, m11, m12 := m[1][0], m[1][1], m[1][2]
	m20, m21, m22 := m[2][0], m[2][1], m[2][2]
	tx, ty, tz := t.T.X, t.T.Y, t.T.Z
	for i, v := range p.verts {
		w[i] = geom.Vec3{
			X: m00*v.X + m01*v.Y + m02*v.Z + tx,
			Y: m10*v.X + m11*v.Y + m12*v.Z + ty,
			Z: m20*v.X + m21*v.Y + m22*v.Z + tz,
		}
	}
	x.b.w = w
}

// rebind points a small polytope's world vertices at x's own storage
// again (a copied Posed still refers to the original's) and the transform
// pointer at x's copy.
func (x *Posed) rebind() {
	if x.b.s != nil {
		x.b.s = &x.buf
	}
	x.b.tf = &x.t
}

// Polytope returns the polytope x was set to (nil before Set).
func (x *Posed) Polytope() *Polytope { return x.b.p }

// Transform returns the placement x was set to.
func (x *Posed) Transform() *geom.Transform { return &x.t }

// World returns vertex i in world coordinates.
func (x *Posed) World(i int) geom.Vec3 {
	if x.b.s != nil {
		x.rebind()
		_ = x.b.p.verts[i] // bounds check
		return x.b.s.at(x.b.st, int32(i))
	}
	return x.b.w[i]
}

// supportClimb returns the vertex of vs maximising d . v, and d . v, by hill
// climbing over the neighbour lists (adj, as in CSR form) from start (Sec.
// 2.3). Polytope.SupportFrom runs it on local vertices, the posed search on
// world vertices.
func supportClimb(vs []geom.Vec3, adj, as []int32, d geom.Vec3, start int32) (int32, float64) {
	dx, dy, dz := d.X, d.Y, d.Z
	v := start
	w := &vs[v]
	h := dx*w.X + dy*w.Y + dz*w.Z
	for {
		best := v
		for _, u := range adj[as[v]:as[v+1]] {
			w := &vs[u]
			if s := dx*w.X + dy*w.Y + dz*w.Z; s > h {
				h, best = s, u
			}
		}
		if best == v {
			return v, h
		}
		v = best
	}
}

// IntersectPosed is Intersect for two posed polytopes (see Posed): the
// same search and the same answers up to rounding, with supporting
// vertices found among the world vertices computed by Posed.Set. A Posed
// that was never Set gives Invalid.
func (s *Searcher) IntersectPosed(a, b *Posed, cache *Cache) Result {
	if a.b.p == nil || b.b.p == nil {
		s.res = Result{Status: Invalid} // not Set
		return s.res
	}
	a.rebind()
	b.rebind()
	s.search(&a.b, &b.b, cache)
	return s.res
}

// placed is a posed polytope as the search sees it: the polytope, its
// transform and its world vertices.
type placed struct {
	p  *Polytope
	n  int // len(p.verts), kept here so that the hot path need not read *p
	tf *geom.Transform
	s  *soa        // world vertices of a small polytope (nil for a large one)
	st int         // stride of s (soaStride)
	w  []geom.Vec3 // world vertices of a large polytope
	// vec: s may be scanned by the vector kernels (finite and bounded).
	vec bool
}

// at returns world vertex i.
func (b *placed) at(i int32) geom.Vec3 {
	if b.s != nil {
		return b.s.at(b.st, i)
	}
	return b.w[i]
}

// sup returns a supporting vertex of the body in the world direction d
// and max d.x over the body, by scanning the world vertices of a small
// body or hill climbing on them from start.
func (b *placed) sup(d geom.Vec3, start int32) (int32, float64) {
	if b.s != nil {
		return scanSoA(b.s, len(b.p.verts), d)
	}
	return supportClimb(b.w, b.p.adj, b.p.adjStart, d, start)
}

// supStart is sup climbing from the better of the direction table's
// vertex for d (Sec. 2.4) and the candidates c (entries < 0 are ignored):
// the one with the larger d.x, so the climb starts no lower than any of
// them. A small body is scanned and needs no start.
func (b *placed) supStart(d geom.Vec3, c [3]int32) (int32, float64) {
	if b.s != nil {
		return scanSoA(b.s, len(b.p.verts), d)
	}
	vs := b.w
	r := rowsOf(&b.tf.R)
	start := b.p.table[tableIndexUnit(r.mulT(d))]
	h := d.Dot(vs[start])
	for _, v := range c {
		if v >= 0 {
			if x := d.Dot(vs[v]); x > h {
				start, h = v, x
			}
		}
	}
	return supportClimb(vs, b.p.adj, b.p.adjStart, d, start)
}

// IntersectPosedStatus is IntersectPosed returning only the status.
func (s *Searcher) IntersectPosedStatus(a, b *Posed, cache *Cache) Status {
	if a.b.p == nil || b.b.p == nil {
		s.res = Result{Status: Invalid}
		return Invalid
	}
	a.rebind()
	b.rebind()
	return s.search(&a.b, &b.b, cache)
}

// search is the separating-vector search of IntersectPosed: the steps of
// Intersect on world vertices.
func (s *Searcher) search(A, B *placed, cache *Cache) Status {
	res := &s.res
	a, b := A.p, B.p
	var S geom.Vec3
	var p, q int32
	// fresh: the next supports start from the table and the candidates
	// pc, qc instead of p and q.
	fresh := false
	var pc, qc [3]int32
	if cache.usable(A.n, B.n) {
		S, p, q = unitOrX(cache.S), cache.P, cache.Q
	} else {
		// First test of the pair: S from centroid to centroid, starting
		// vertices from the direction tables (Sec. 2.4).
		S = unitOrX(B.tf.Apply(b.centroid).Sub(A.tf.Apply(a.centroid)))
		pc, qc, fresh = [3]int32{-1, -1, -1}, [3]int32{-1, -1, -1}, true
	}
	s.rs = s.rs[:0]
	s.pairs = s.pairs[:0]
	var it sepIter
	if cache != nil && cache.HasTet {
		cache.HasTet = false
		face, n := s.tetCheck(A, B, &cache.Tet)
		if s.tetStart(cache, face, &it) {
			return Intersecting
		}
		if it.fromTet {
			S = n.Neg()
			fresh = true
			for j, i := 0, 0; j < 4; j++ {
				if j != face {
					// Start the climbs from the face's vertices.
					pc[i], qc[i] = cache.Tet[j][0], cache.Tet[j][1]
					i++
				}
			}
		}
	}
	maxIter := s.Options.maxIter()
	*res = Result{}
	for k := 1; k <= maxIter; k++ {
		res.Iterations = k
		var hA, hB float64
		// hA = max over A of S.x, hB = max over B of -S.x (world).
		if A.vec && B.vec {
			// Both small and posed with finite coordinates (so the
			// kernels exist): the vector scan, called here directly.
			ia, ib, ha, hb := scan2Vec(A.s, B.s, &S, A.st>>2, B.st>>2)
			if ia >= 0 && ib >= 0 {
				p, hA, q, hB = int32(ia), ha, int32(ib), -hb
			} else {
				p, hA, q, hB = scanSoA2Go(A.s, A.n, B.s, B.n, S)
			}
		} else if A.s != nil && B.s != nil {
			p, hA, q, hB = scanSoA2Go(A.s, A.n, B.s, B.n, S)
		} else if fresh {
			p, hA = A.supStart(S, pc)
			q, hB = B.supStart(S.Neg(), qc)
			fresh = false
		} else {
			p, hA = A.sup(S, p)
			q, hB = B.sup(S.Neg(), q)
		}
		if gap := -hA - hB; gap > 0 {
			// S is a unit vector up to rounding: it starts unit and
			// reflections (eq. 2) preserve its length.
			res.Status = Separated
			res.Gap = gap
			res.Plane = geom.Plane{N: S, D: 0.5 * (hA - hB)}
			if cache != nil {
				cache.S, cache.P, cache.Q, cache.Valid = S, p, q, true
			}
			return res.Status
		}
		// m = q - p in world coordinates (Sec. 4.1).
		m := B.at(q).Sub(A.at(p))
		next, sr := s.step(&it, k, &S, m, p, q, cache)
		if next == stepDone {
			return res.Status
		}
		if next == stepUndecided {
			return s.fallback(a, A.tf, b, B.tf, S, p, q, cache)
		}
		if next == stepRestart {
			pc, qc, fresh = [3]int32{p, -1, -1}, [3]int32{q, -1, -1}, true
			continue
		}
		// A turn of more than about 16 degrees (cos = 1 - 2 (S.r)^2): the table
		// vertices may be closer starts for the hill climbing (Sec. 2.4);
		// the climb starts from the better of them and the current ones.
		if sr*sr > 0.02 {
			pc, qc, fresh = [3]int32{p, -1, -1}, [3]int32{q, -1, -1}, true
		}
	}
	return s.fallback(a, A.tf, b, B.tf, S, p, q, cache)
}

// tetCheck evaluates the differences m = q - p of the four cached vertex
// pairs into s.tetM and classifies the origin against their tetrahedron
// (tetFace).
func (s *Searcher) tetCheck(A, B *placed, tet *[4][2]int32) (int, geom.Vec3) {
	if !tetInRange(tet, A.n, B.n) {
		return -2, geom.Vec3{}
	}
	for i := range tet {
		s.tetM[i] = B.at(tet[i][1]).Sub(A.at(tet[i][0]))
	}
	return tetFace(&s.tetM)
}

// tetInRange reports whether the cached pairs tet index vertices of bodies
// of na and nb vertices (a cache may come from another pair of bodies).
func tetInRange(tet *[4][2]int32, na, nb int) bool {
	// Unsigned comparisons also reject negative indices.
	a, b := uint32(na), uint32(nb)
	return uint32(tet[0][0]) < a && uint32(tet[1][0]) < a && uint32(tet[2][0]) < a && uint32(tet[3][0]) < a &&
		uint32(tet[0][1]) < b && uint32(tet[1][1]) < b && uint32(tet[2][1]) < b && uint32(tet[3][1]) < b
}

// baryVolumes returns the origin's barycentric coordinates in the
// tetrahedron m times |d|, d = det(m1-m0, m2-m0, m3-m0) (signed volumes with
// the origin replacing a vertex, no divisions), and |d| (ok is false when
// d is zero or not finite).
func baryVolumes(m *[4]geom.Vec3) (l [4]float64, ad float64, ok bool) {
	e1, e2, e3 := m[1].Sub(m[0]), m[2].Sub(m[0]), m[3].Sub(m[0])
	c23 := e2.Cross(e3)
	d := e1.Dot(c23)
	ad = math.Abs(d)
	if !(ad > 0) || math.IsInf(d, 0) {
		return l, ad, false
	}
	o := m[0].Neg()
	sd := math.Copysign(1, d)
	l[1] = sd * o.Dot(c23)
	l[2] = sd * e1.Dot(o.Cross(e3))
	l[3] = sd * e1.Dot(e2.Cross(o))
	l[0] = ad - l[1] - l[2] - l[3]
	return l, ad, true
}

// encloses reports whether the tetrahedron m strictly encloses the origin:
// every barycentric coordinate above 1e-9. Then the origin is in the
// Minkowski difference and the bodies intersect.
func encloses(m *[4]geom.Vec3) bool {
	l, ad, ok := baryVolumes(m)
	minL := 1e-9 * ad
	return ok && l[0] > minL && l[1] > minL && l[2] > minL && l[3] > minL
}

// tetFace classifies the origin against the tetrahedron m of four cached
// differences: -1 when m encloses it (encloses); otherwise the vertex whose
// opposite face the origin is beyond (most negative coordinate) and that
// face's outward unit normal; or -2 when the tetrahedron or one of its
// points is degenerate.
func tetFace(m *[4]geom.Vec3) (int, geom.Vec3) {
	l, ad, ok := baryVolumes(m)
	if !ok {
		return -2, geom.Vec3{}
	}
	minL := 1e-9 * ad
	if l[0] > minL && l[1] > minL && l[2] > minL && l[3] > minL {
		return -1, geom.Vec3{}
	}
	worst := 0
	for i := 1; i < 4; i++ {
		if l[i] < l[worst] {
			worst = i
		}
	}
	var f [3]geom.Vec3
	k := 0
	for i := 0; i < 4; i++ {
		if n2 := m[i].Dot(m[i]); !(n2 > 0) {
			return -2, geom.Vec3{}
		}
		if i != worst {
			f[k] = m[i]
			k++
		}
	}
	n := f[1].Sub(f[0]).Cross(f[2].Sub(f[0]))
	if n.Dot(m[worst].Sub(f[0])) > 0 {
		n = n.Neg()
	}
	n2 := n.Dot(n)
	if !(n2 > 0) {
		return -2, geom.Vec3{}
	}
	return worst, n.Scale(1 / math.Sqrt(n2))
}
