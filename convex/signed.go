package convex

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// ErrTransform is returned (wrapped) by SignedDistance and Manifold for a
// transform that is not finite or whose rotation is not orthonormal within
// 1e-6.
var ErrTransform = errors.New("convex: transform is not a finite rigid motion")

// Distance is the signed distance of two convex polytopes A and B and where
// it is attained (Searcher.SignedDistance).
type Distance struct {
	// Separation is the signed distance: the Euclidean distance of the
	// solids when they are apart (> 0), minus the penetration depth when
	// they overlap (<= 0). The depth is the length of the shortest
	// translation of B that makes the interiors disjoint.
	Separation float64
	// Normal is the unit direction from A towards B (world): the direction
	// from the closest point of A to the closest point of B when apart, the
	// direction of B's shortest separating translation when overlapping.
	// It is a face normal or an edge cross product of the meshes where the
	// answer lies on such a facet (apart: when the bodies are closer than
	// 1e-3 of the sum of their radii; farther, the direction between the
	// closest points, within 1e-12 rad of it); apart, when the closest
	// features are parallel within a tiny angle, it can be off by up to
	// about 5e-7 rad (GJK stops at a relative precision of 1e-13 on the
	// squared distance).
	Normal geom.Vec3
	// PointA and PointB are points of A and of B (world) where the
	// distance is attained: PointB - PointA = Separation * Normal.
	PointA, PointB geom.Vec3
	// FeatureA and FeatureB are the features (vertex, edge, face in the
	// numbering of each polytope's mesh) that carry PointA and PointB:
	// for an overlap, the pair whose Minkowski facet gives the depth.
	FeatureA, FeatureB contact.Feature
	// Tol is the distance below which |Separation| counts as touching (the
	// Options.Tol of the query).
	Tol float64
	// Exact is true when the answer was certified to within Tol: by GJK's
	// lower and upper bounds for a distance, by the expanding polytope's
	// lower bound and an upper bound along a facet normal of the Minkowski
	// difference (a face normal or an edge-edge cross product computed
	// from the meshes) for a depth.
	Exact bool
	// Iterations counts support evaluations (GJK and EPA).
	Iterations int
}

// Status returns the contact status of d: Touching when |Separation| <=
// Tol, Penetrating below, Near above.
func (d *Distance) Status() contact.Status {
	switch {
	case math.Abs(d.Separation) <= d.Tol:
		return contact.Touching
	case d.Separation < 0:
		return contact.Penetrating
	}
	return contact.Near
}

// Record returns d as a contact record at time 1 (the poses tested), with
// the point midway between PointA and PointB, and ok = false when the
// bodies are farther apart than margin.
func (d *Distance) Record(margin float64) (c contact.Contact, ok bool) {
	if d.Separation > margin && d.Separation > d.Tol {
		return c, false
	}
	return contact.Contact{
		Status:     d.Status(),
		Time:       1,
		Point:      d.PointA.Add(d.PointB).Scale(0.5),
		Normal:     d.Normal,
		Separation: d.Separation,
		FeatureA:   d.FeatureA,
		FeatureB:   d.FeatureB,
	}, true
}

// DistanceCache is the per-pair state that SignedDistance and Manifold
// carry from one call to the next: for a pair that was apart, its closest
// feature pair (checked first next time) and GJK's last direction, vertices
// and simplex; for a pair that overlapped, its separating-axis test axis;
// and the last manifold's reference face. The zero value is empty; a
// cache belongs to one ordered pair of polytopes (a cache from another
// pair only costs time).
type DistanceCache struct {
	gjk     GJKCache
	simplex [4][2]int32 // the last GJK simplex's vertex pairs
	ns      int
	refB    bool  // the last manifold's reference face was on B
	refFace int32 // and its index + 1 (0: none)
	feat    featCache
	sat     satCache // the last overlap's axis (separating-axis test)
}

// pairFrame is a pair of polytopes in A's local frame: B's point x maps to
// R x + t.
type pairFrame struct {
	a, b   *Polytope
	R      mat3
	t      geom.Vec3
	ia, ib int32 // starts of hill climbing
	n      int   // support evaluations
}

// supA returns A's supporting vertex along d (A frame) and d.v.
func (f *pairFrame) supA(d geom.Vec3) (int32, float64) {
	f.n++
	if i, h, ok := f.a.supportLoc(d); ok {
		return i, h
	}
	var h float64
	f.ia, h = f.a.SupportFrom(d, f.ia)
	return f.ia, h
}

// supB returns B's supporting vertex along -n (n in A's frame) and the
// minimum over B of n.x (x in A's frame).
func (f *pairFrame) supB(n geom.Vec3) (int32, float64) {
	d := f.R.mulT(n).Neg()
	var i int32
	var h float64
	if j, hh, ok := f.b.supportLoc(d); ok {
		i, h = j, hh
	} else {
		f.ib, h = f.b.SupportFrom(d, f.ib)
		i = f.ib
	}
	return i, n.Dot(f.t) - h
}

// depthAlong returns h_M(n) = max over A of n.x - min over B of n.x for
// the unit direction n (A frame): the length of the translation of B along
// n that ends the overlap (negative: the width of the gap along n).
func (f *pairFrame) depthAlong(n geom.Vec3) (h float64, ia, ib int32) {
	if f.a.loc != nil && f.b.loc != nil {
		if ia, hA, ib, hB, ok := supportLoc2(f.a, n, f.b, f.R.mulT(n).Neg()); ok {
			f.n++
			return hA - (n.Dot(f.t) - hB), ia, ib
		}
	}
	ia, hA := f.supA(n)
	ib, lB := f.supB(n)
	return hA - lB, ia, ib
}

// pb returns B's vertex i in A's frame.
func (f *pairFrame) pb(i int32) geom.Vec3 { return f.R.mul(f.b.at(i)).Add(f.t) }

// pb2 returns B's point x (B's frame) in A's frame.
func (f *pairFrame) pb2(x geom.Vec3) geom.Vec3 { return f.R.mul(x).Add(f.t) }

// SignedDistance returns the signed distance of polytope a placed by ta and
// polytope b placed by tb, with its direction, points and features (see
// Distance). cache may be nil; otherwise it warm-starts the query and is
// updated for the next call with the same pair.
//
// Apart, the closest feature pair cached by the last query is checked
// first and walked towards the closest pair for a few steps (feature.go,
// after Mirtich's V-Clip: the features' closest points certified by each
// lying in the other feature's Voronoi region); otherwise GJK (Gilbert, Johnson and Keerthi)
// runs to a relative precision of 1e-13 on the squared distance, and the
// closest points are recomputed from the final simplex's features
// (vertex-face, edge-edge, ...). Overlapping, two polytopes of at most 32
// vertices go to the separating-axis test over the facet normals of the
// Minkowski difference A - B (sat.go), exact by construction; larger ones
// to the expanding polytope algorithm (van den Bergen, "Proximity Queries
// and Penetration Depth Computation on 3D Game Objects", GDC 2001), which
// grows a polytope inside A - B from GJK's simplex until the distance of
// its nearest face (a lower bound on the depth) meets the support value
// along that face's normal (an upper bound); then the supporting features
// of the nearest face name a facet of A - B (a face of A, a face of B or
// an edge pair), whose normal is computed exactly from the meshes and
// whose support value is the depth. Queries allocate nothing once the
// searcher's scratch space has grown.
func (s *Searcher) SignedDistance(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache) (Distance, error) {
	var d Distance
	err := s.signedDistance(a, ta, b, tb, cache, &d)
	return d, err
}

func (s *Searcher) signedDistance(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache, d *Distance) error {
	*d = Distance{}
	if a == nil || b == nil {
		return fmt.Errorf("convex: nil polytope")
	}
	if !withinMaxCoord(ta.T) || !withinMaxCoord(tb.T) {
		return fmt.Errorf("%w: a translation is beyond geom.MaxCoord", ErrTransform)
	}
	d.Tol = s.Options.tol(a, b)
	// The transforms are checked once for all the stages.
	okA, devA := rigid(ta)
	okB, devB := rigid(tb)
	okT, devT := okA && okB, max(devA, devB)
	exact := okT && devT <= exactRotation
	if s.sdFeature(a, ta, b, tb, cache, d, exact) || s.sdAxis(a, ta, b, tb, cache, d, exact) {
		return nil
	}
	return s.sdSearch(a, ta, b, tb, cache, d, okT, devT)
}

// sdFeature is signedDistance's first stage: the cached closest feature
// pair and its walk (feature.go), for a pair whose transforms are exact
// rotations. It reports whether it answered; otherwise it empties the
// cached pair.
func (s *Searcher) sdFeature(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache, d *Distance, exact bool) bool {
	if cache == nil || cache.feat.kind == fpNone {
		return false
	}
	if exact && s.featureDistance(s.frameOf(a, ta, b, tb), ta, &cache.feat, d) {
		cache.gjk = GJKCache{Dir: d.Normal, A: s.frame.ia, B: s.frame.ib, Valid: true}
		return true
	}
	cache.seedFromWalk(a, b)
	cache.feat.kind = fpNone
	return false
}

// sdAxis is signedDistance's second stage: a small pair that overlapped
// at the last query goes straight to the separating-axis test from its
// cached axis. It reports whether it answered (the bodies still overlap);
// otherwise it empties the cached axis.
func (s *Searcher) sdAxis(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache, d *Distance, exact bool) bool {
	if cache == nil || cache.sat.kind == axNone || !satOK(a, b) {
		return false
	}
	if !exact {
		cache.sat.kind = axNone
		return false
	}
	return s.sdAxisTest(a, ta, b, tb, cache, d)
}

// sdAxisTest runs the separating-axis test on a small pair whose
// transforms are exact rotations, from the cache's axis (if any): it
// answers an overlap, and for bodies apart it starts the feature walk
// from the axis that separates them (its face and the other body's
// deepest vertex, or its edge pair), a feature pair near the closest one.
// It reports whether it answered; otherwise it empties the cached axis
// and feature pair (cache may be nil).
func (s *Searcher) sdAxisTest(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache, d *Distance) bool {
	f := s.frameOf(a, ta, b, tb)
	var sc *satCache
	fc := &s.walk
	if cache != nil {
		sc, fc = &cache.sat, &cache.feat
	}
	if s.satPenetration(f, ta, d, sc) {
		return true
	}
	if sc != nil {
		sc.kind = axNone
	}
	if s.sat.apart && s.sat.sep.walkStart(f, fc) {
		if s.featureDistance(f, ta, fc, d) {
			if cache != nil {
				cache.gjk = GJKCache{Dir: d.Normal, A: s.frame.ia, B: s.frame.ib, Valid: true}
			}
			return true
		}
		fc.kind = fpNone
	}
	return false
}

// sdSearch is signedDistance's last stage: GJK, warm-started from the
// cache, then the closest features of a separated pair or the depth of an
// overlapping one (separating-axis test for small pairs, else the
// expanding polytope). okT reports whether both transforms passed rigid,
// devT is the larger deviation.
func (s *Searcher) sdSearch(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform, cache *DistanceCache, d *Distance, okT bool, devT float64) error {
	exact := okT && devT <= exactRotation
	// A small pair without a cached axis gets the separating-axis test
	// and the walk from its separating axis before GJK. A pair whose
	// cached axis sdAxis just emptied (it came apart and the walk failed)
	// gets it once more without the axis, whose face stage may find
	// another separating face to start the walk from (55 of 30 487 pairs
	// per pass on the 10-vertex benchmark workload, 6 of them answered).
	if exact && satOK(a, b) && (cache == nil || cache.sat.kind == axNone) && s.sdAxisTest(a, ta, b, tb, cache, d) {
		return nil
	}
	var v0 geom.Vec3
	ia, ib := int32(-1), int32(-1)
	var gc *GJKCache
	if cache != nil {
		gc = &cache.gjk
	}
	if gc != nil && gc.Valid && gc.A >= 0 && int(gc.A) < len(a.verts) && gc.B >= 0 && int(gc.B) < len(b.verts) {
		v0, ia, ib = gc.Dir.Neg(), gc.A, gc.B
	} else {
		v0 = ta.Apply(a.centroid).Sub(tb.Apply(b.centroid))
	}
	g := &s.gjk
	g.relTol, g.noPlane = 1e-13, true
	if cache != nil && gc.Valid {
		g.seed, g.nseed = cache.simplex, cache.ns
	}
	g.known, g.okT, g.devT = true, okT, devT
	out := g.run(a, ta, b, tb, &s.Options, false, v0, ia, ib)
	g.relTol, g.noPlane = 0, false
	d.Iterations = out.Iterations
	if out.Status == Invalid {
		if ok, _ := rigid(ta); !ok {
			return fmt.Errorf("%w (body A)", ErrTransform)
		}
		return fmt.Errorf("%w (body B)", ErrTransform)
	}
	if gc != nil {
		*gc = GJKCache{Dir: ta.R.MulVec(out.vdir).Neg(), A: out.wa, B: out.wb, Valid: true}
		cache.ns = 0
		if out.Status == Separated || g.n == 4 {
			for i := 0; i < g.n; i++ {
				cache.simplex[i] = [2]int32{g.sv[i].ia, g.sv[i].ib}
			}
			cache.ns = g.n
		}
	}
	f := &s.frame
	f.a, f.b, f.R, f.t, f.n, f.ia, f.ib = a, b, g.R, g.t, 0, 0, 0
	if out.wa >= 0 && int(out.wa) < len(a.verts) && out.wb >= 0 && int(out.wb) < len(b.verts) {
		f.ia, f.ib = out.wa, out.wb
	}
	if out.Status == Separated {
		s.closestFeatures(f, ta, out, d, cache)
		return nil
	}
	if satOK(a, b) && exact {
		var c *satCache
		if cache != nil {
			c = &cache.sat
		}
		if s.satPenetration(f, ta, d, c) {
			d.Iterations += f.n
			return nil
		}
	}
	s.penetration(f, ta, d)
	d.Iterations += f.n
	if gc != nil {
		// The next call starts GJK from the depth's direction, at its
		// supporting vertices.
		gc.Dir = d.Normal
		gc.A, gc.B = f.ia, f.ib
	}
	return nil
}

// tMul returns the rows of A^T B, with the products and sums of
// geom.Mat3.Mul in the same order (the same values bit for bit), without
// copying the matrices.
func tMul(A, B *geom.Mat3) mat3 {
	b0 := geom.Vec3{X: B[0][0], Y: B[0][1], Z: B[0][2]}
	b1 := geom.Vec3{X: B[1][0], Y: B[1][1], Z: B[1][2]}
	b2 := geom.Vec3{X: B[2][0], Y: B[2][1], Z: B[2][2]}
	row := func(i int) geom.Vec3 {
		x, y, z := A[0][i], A[1][i], A[2][i]
		return geom.Vec3{X: x*b0.X + y*b1.X + z*b2.X, Y: x*b0.Y + y*b1.Y + z*b2.Y, Z: x*b0.Z + y*b1.Z + z*b2.Z}
	}
	return mat3{row(0), row(1), row(2)}
}

// withinMaxCoord reports whether every coordinate of v is at most
// geom.MaxCoord in magnitude (false for NaN): MaxAbs <= MaxCoord without
// its calls of math.Max.
func withinMaxCoord(v geom.Vec3) bool {
	return math.Abs(v.X) <= geom.MaxCoord && math.Abs(v.Y) <= geom.MaxCoord && math.Abs(v.Z) <= geom.MaxCoord
}

// frameOf sets the searcher's pair frame to a and b placed by ta and tb
// (the cached paths use it only when both transforms are rotations exact
// to rounding: they work in A's frame without checking in world
// coordinates).
func (s *Searcher) frameOf(a *Polytope, ta *geom.Transform, b *Polytope, tb *geom.Transform) *pairFrame {
	mA := rowsOf(&ta.R)
	f := &s.frame
	f.a, f.b, f.R, f.t, f.n, f.ia, f.ib = a, b, tMul(&ta.R, &tb.R), mA.mulT(tb.T.Sub(ta.T)), 0, 0, 0
	return f
}

// closestFeatures turns a separated GJK result into d: the features of the
// final simplex (its distinct vertices on A and on B) and their closest
// points, recomputed from the vertices (point-face, edge-edge, ...).
func (s *Searcher) closestFeatures(f *pairFrame, ta *geom.Transform, out gjkOut, d *Distance, cache *DistanceCache) {
	g := &s.gjk
	var sa, sb [4]int32
	na, nb := 0, 0
	for i := 0; i < g.n; i++ {
		na = addID(&sa, na, g.sv[i].ia)
		nb = addID(&sb, nb, g.sv[i].ib)
	}
	// The closest points in A's frame: from the simplex weights, then
	// recomputed from the features' vertices.
	xa := ta.R.MulVecT(out.PA.Sub(ta.T))
	xb := ta.R.MulVecT(out.PB.Sub(ta.T))
	var fa, fb [3]geom.Vec3
	for i := 0; i < na && i < 3; i++ {
		fa[i] = f.a.at(sa[i])
	}
	for i := 0; i < nb && i < 3; i++ {
		fb[i] = f.pb(sb[i])
	}
	switch {
	case na == 1 && nb == 3:
		if q, ok := pointOnTriangle(fa[0], fb[0], fb[1], fb[2]); ok {
			xa, xb = fa[0], q
		}
	case na == 3 && nb == 1:
		if q, ok := pointOnTriangle(fb[0], fa[0], fa[1], fa[2]); ok {
			xa, xb = q, fb[0]
		}
	case na == 2 && nb == 2:
		_, _, xa, xb = geom.ClosestSegmentPoints(fa[0], fa[1], fb[0], fb[1])
	case na == 1 && nb == 2:
		_, _, xa, xb = geom.ClosestSegmentPoints(fa[0], fa[0], fb[0], fb[1])
	case na == 2 && nb == 1:
		_, _, xa, xb = geom.ClosestSegmentPoints(fa[0], fa[1], fb[0], fb[0])
	case na == 1 && nb == 1:
		xa, xb = fa[0], fb[0]
	}
	diff := xb.Sub(xa)
	dist := diff.Norm()
	nl := ta.R.MulVecT(out.Plane.N)
	if dist > 0 {
		nl = diff.Scale(1 / dist)
	}
	gap := out.Gap
	d.FeatureA = featureOf(f.a, sa[:na])
	d.FeatureB = featureOf(f.b, sb[:nb])
	if cache != nil {
		cache.feat.set(sa[:na], sb[:nb], d.FeatureA, d.FeatureB)
	}
	// When the closest points are interior to a facet of A - B (a face of
	// A or of B, or an edge of each), the facet's normal computed from the
	// meshes is the direction, exact even where the points are too close
	// for their difference to give it. Farther apart than facetNear of the
	// radii, their difference (recomputed from the features' vertices,
	// each within a few roundings of the radii) gives it within 1e-12 rad.
	if dist <= facetNear*(f.a.radius+f.b.radius) {
		if c, cg, ok := s.facetDirection(f, sa[:na], sb[:nb], nl, xa, xb); ok && cg > 0 && math.Abs(cg-dist) <= 1e-9*(dist+f.a.radius+f.b.radius) {
			nl, gap, dist = c, cg, cg
			if nb == 1 {
				xa = xb.AddScaled(-cg, c)
			} else {
				xb = xa.AddScaled(cg, c)
			}
		}
	}
	pa, pb := ta.Apply(xa), ta.Apply(xb)
	n := ta.R.MulVec(nl)
	d.Separation = math.Max(dist, gap)
	d.Normal = n
	d.PointA, d.PointB = pa, pb
	// GJK's lower bound (the gap along its direction) and upper bound (the
	// distance of the points) meet within the tolerance.
	d.Exact = dist-gap <= d.Tol
}

// facetNear is the distance, relative to the sum of the radii, below which
// a separated answer takes its direction from the facet of A - B holding
// the closest points (facetDirection) rather than from their difference.
const facetNear = 1e-3

// facetDirection returns, among the facet normals of A - B spanned by the
// vertex sets sa of A and sb of B (a face of A holding sa, a face of B
// holding sb, the cross product of an edge of each), within 1e-6 of the
// unit direction n and such that the closest points xa, xb (all in A's
// frame) are interior to the facet, the one with the largest gap (min over
// B minus max over A along it), and that gap.
func (s *Searcher) facetDirection(f *pairFrame, sa, sb []int32, n, xa, xb geom.Vec3) (geom.Vec3, float64, bool) {
	best, bg, found := geom.Vec3{}, math.Inf(-1), false
	eps := 1e-12 * (f.a.radius + f.b.radius)
	try := func(c geom.Vec3) {
		if c.Dot(n) < 0 {
			c = c.Neg()
		}
		if c.Dot(n) < 1-1e-6 {
			return
		}
		h, _, _ := f.depthAlong(c)
		if -h > bg {
			best, bg, found = c, -h, true
		}
	}
	// inside reports whether the foot of x on the plane of the face with
	// loop (vertices by at) and unit normal c lies in the face.
	inside := func(loop []int32, at func(int32) geom.Vec3, c, x geom.Vec3) bool {
		for k := range loop {
			u, w := at(loop[k]), at(loop[(k+1)%len(loop)])
			if w.Sub(u).Cross(x.Sub(u)).Dot(c) < -eps*w.Sub(u).Norm() {
				return false
			}
		}
		return true
	}
	atA := func(v int32) geom.Vec3 { return f.a.at(v) }
	faces := func(p *Polytope, ids []int32, onA bool) {
		m := p.mesh
		lo, hi := p.slots(ids[0])
		for _, in := range p.inc[lo:hi] {
			fc := in.face
			// The cheap test first: the face's normal along n.
			c := in.n
			if !onA {
				c = f.R.mul(c).Neg()
			}
			if c.Dot(n) < 1-1e-6 {
				continue
			}
			loop := m.Face(int(fc))
			all := true
			for _, w := range ids[1:] {
				if !faceHas(loop, w) {
					all = false
					break
				}
			}
			if !all {
				continue
			}
			if onA && inside(loop, atA, c, xb) || !onA && inside(loop, f.pb, c.Neg(), xa) { // inside wants the outward normal
				try(c)
			}
		}
	}
	if len(sa) >= 1 {
		faces(f.a, sa, true)
	}
	if len(sb) >= 1 {
		faces(f.b, sb, false)
	}
	if len(sa) == 2 && len(sb) == 2 {
		da := f.a.at(sa[1]).Sub(f.a.at(sa[0]))
		db := f.R.mul(f.b.at(sb[1]).Sub(f.b.at(sb[0])))
		ps, pu, _, _ := geom.ClosestSegmentPoints(f.a.at(sa[0]), f.a.at(sa[1]), f.pb(sb[0]), f.pb(sb[1]))
		if c, ok := da.Cross(db).Normalize(); ok && ps > 0 && ps < 1 && pu > 0 && pu < 1 {
			try(c)
		}
	}
	return best, bg, found
}

// addID adds id to the set s of n ids (at most 4) and returns the new size.
func addID(s *[4]int32, n int, id int32) int {
	for i := 0; i < n; i++ {
		if s[i] == id {
			return n
		}
	}
	s[n] = id
	return n + 1
}

// pointOnTriangle returns the projection of p onto the plane of the
// triangle abc when it lies inside the triangle (ok), computed along the
// plane's normal.
func pointOnTriangle(p, a, b, c geom.Vec3) (geom.Vec3, bool) {
	n := b.Sub(a).Cross(c.Sub(a))
	nn := n.Dot(n)
	if !(nn > 0) {
		return geom.Vec3{}, false
	}
	q := p.Sub(n.Scale(p.Sub(a).Dot(n) / nn))
	// Inside: q on the inner side of the three edges.
	if b.Sub(a).Cross(q.Sub(a)).Dot(n) < 0 || c.Sub(b).Cross(q.Sub(b)).Dot(n) < 0 || a.Sub(c).Cross(q.Sub(c)).Dot(n) < 0 {
		return geom.Vec3{}, false
	}
	return q, true
}

// featureOf names the feature of p spanned by the vertex ids: a vertex for
// one, the edge joining two (or NoFeature when they share none), a face
// holding three or more.
func featureOf(p *Polytope, ids []int32) contact.Feature {
	switch len(ids) {
	case 0:
		return contact.Feature{}
	case 1:
		return contact.V(ids[0])
	case 2:
		if e := p.edgeBetween(ids[0], ids[1]); e >= 0 {
			return contact.E(e)
		}
		return contact.Feature{}
	}
	if fc := p.faceWith(ids); fc >= 0 {
		return contact.F(fc)
	}
	return contact.Feature{}
}

// edgeBetween returns the mesh edge joining vertices u and v, or -1.
func (p *Polytope) edgeBetween(u, v int32) int32 {
	lo, hi := p.slots(u)
	for k := lo; k < hi; k++ {
		if p.adj[k] == v {
			return p.inc[k].edge
		}
	}
	return -1
}

// faceWith returns a mesh face holding every vertex of ids, or -1: the
// first face around ids[0] (in its slot order) that is also around each
// other vertex. A face is around a vertex exactly when it leaves the
// vertex along one of its edges, so the test reads only the vertices'
// adjacency slots, not the mesh's face loops.
func (p *Polytope) faceWith(ids []int32) int32 {
	lo, hi := p.slots(ids[0])
	for _, in := range p.inc[lo:hi] {
		fc := in.face
		all := true
		for _, w := range ids[1:] {
			if !p.around(w, fc) {
				all = false
				break
			}
		}
		if all {
			return fc
		}
	}
	return -1
}

// around reports whether face fc is one of the faces around vertex v.
func (p *Polytope) around(v, fc int32) bool {
	lo, hi := p.slots(v)
	for _, in := range p.inc[lo:hi] {
		if in.face == fc {
			return true
		}
	}
	return false
}

// faceLeaving returns the face of an edge (ends ev, faces left and right)
// whose loop leaves v along the edge: every face around v is the one
// leaving v along exactly one of v's edges.
func faceLeaving(ev [2]int32, left, right, v int32) int32 {
	if ev[0] == v {
		return left
	}
	return right
}

func faceHas(loop []int32, v int32) bool {
	for _, w := range loop {
		if w == v {
			return true
		}
	}
	return false
}
