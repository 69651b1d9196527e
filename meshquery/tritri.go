package meshquery

import (
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/robust"
)

// triTriIntersect reports whether the closed triangles p1q1r1 and p2q2r2
// share a point. The decision is exact for the given coordinates: it is
// Guigue and Devillers' test ("Fast and Robust Triangle-Triangle Overlap
// Test Using Orientation Predicates", Journal of Graphics Tools 8(1),
// 2003, Sec. 3 and 4), whose every branch is the sign of an orientation
// determinant, evaluated with robust.Orient3D and robust.Orient2D.
// Degenerate (collinear) triangles are handled as their sides.
func triTriIntersect(p1, q1, r1, p2, q2, r2 geom.Vec3) bool {
	dp1 := robust.Orient3D(p2, q2, r2, p1)
	dq1 := robust.Orient3D(p2, q2, r2, q1)
	dr1 := robust.Orient3D(p2, q2, r2, r1)
	if dp1*dq1 > 0 && dp1*dr1 > 0 {
		return false
	}
	dp2 := robust.Orient3D(p1, q1, r1, p2)
	dq2 := robust.Orient3D(p1, q1, r1, q2)
	dr2 := robust.Orient3D(p1, q1, r1, r2)
	if dp2*dq2 > 0 && dp2*dr2 > 0 {
		return false
	}
	if dp1 == 0 && dq1 == 0 && dr1 == 0 || dp2 == 0 && dq2 == 0 && dr2 == 0 {
		// Coplanar, or one triangle degenerate (all orientations against
		// a collinear triangle vanish).
		return coplanarOrDegenerate(p1, q1, r1, p2, q2, r2)
	}
	// Permute T1 so that p1 is alone on its side of T2's plane.
	switch {
	case dp1 > 0:
		switch {
		case dq1 > 0:
			return tt3(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2)
		case dr1 > 0:
			return tt3(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2)
		default:
			return tt3(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2)
		}
	case dp1 < 0:
		switch {
		case dq1 < 0:
			return tt3(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2)
		case dr1 < 0:
			return tt3(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2)
		default:
			return tt3(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2)
		}
	default:
		switch {
		case dq1 < 0:
			if dr1 >= 0 {
				return tt3(q1, r1, p1, p2, r2, q2, dp2, dr2, dq2)
			}
			return tt3(p1, q1, r1, p2, q2, r2, dp2, dq2, dr2)
		case dq1 > 0:
			if dr1 > 0 {
				return tt3(p1, q1, r1, p2, r2, q2, dp2, dr2, dq2)
			}
			return tt3(q1, r1, p1, p2, q2, r2, dp2, dq2, dr2)
		default:
			if dr1 > 0 {
				return tt3(r1, p1, q1, p2, q2, r2, dp2, dq2, dr2)
			}
			return tt3(r1, p1, q1, p2, r2, q2, dp2, dr2, dq2)
		}
	}
}

// tt3 is the paper's second step: p1 is alone on its side of T2's plane;
// permute T2 so that p2 is alone on its side of T1's plane, then compare
// the two intervals on the planes' common line.
func tt3(p1, q1, r1, p2, q2, r2 geom.Vec3, dp2, dq2, dr2 int) bool {
	switch {
	case dp2 > 0:
		switch {
		case dq2 > 0:
			return checkMinMax(p1, r1, q1, r2, p2, q2)
		case dr2 > 0:
			return checkMinMax(p1, r1, q1, q2, r2, p2)
		default:
			return checkMinMax(p1, q1, r1, p2, q2, r2)
		}
	case dp2 < 0:
		switch {
		case dq2 < 0:
			return checkMinMax(p1, q1, r1, r2, p2, q2)
		case dr2 < 0:
			return checkMinMax(p1, q1, r1, q2, r2, p2)
		default:
			return checkMinMax(p1, r1, q1, p2, q2, r2)
		}
	default:
		switch {
		case dq2 < 0:
			if dr2 >= 0 {
				return checkMinMax(p1, r1, q1, q2, r2, p2)
			}
			return checkMinMax(p1, q1, r1, p2, q2, r2)
		case dq2 > 0:
			if dr2 > 0 {
				return checkMinMax(p1, r1, q1, p2, q2, r2)
			}
			return checkMinMax(p1, q1, r1, q2, r2, p2)
		default:
			if dr2 > 0 {
				return checkMinMax(p1, q1, r1, r2, p2, q2)
			}
			return checkMinMax(p1, r1, q1, r2, p2, q2)
		}
	}
}

// checkMinMax is the interval test of the paper's Sec. 3.2: the intervals
// of the two triangles on the common line overlap iff neither of two
// orientation determinants is positive.
func checkMinMax(p1, q1, r1, p2, q2, r2 geom.Vec3) bool {
	if robust.Orient3D(q1, p2, p1, q2) > 0 {
		return false
	}
	return robust.Orient3D(p1, p2, r1, r2) <= 0
}

// coplanarOrDegenerate decides the case where all four points of one
// triangle with the other are coplanar: either the triangles lie in one
// plane, or one of them is degenerate.
func coplanarOrDegenerate(p1, q1, r1, p2, q2, r2 geom.Vec3) bool {
	d1, d2 := collinear(p1, q1, r1), collinear(p2, q2, r2)
	switch {
	case d1 && d2:
		return segSeg3(p1, q1, p2, q2) || segSeg3(p1, q1, q2, r2) || segSeg3(p1, q1, r2, p2) ||
			segSeg3(q1, r1, p2, q2) || segSeg3(q1, r1, q2, r2) || segSeg3(q1, r1, r2, p2) ||
			segSeg3(r1, p1, p2, q2) || segSeg3(r1, p1, q2, r2) || segSeg3(r1, p1, r2, p2)
	case d1:
		return segTri(p1, q1, p2, q2, r2) || segTri(q1, r1, p2, q2, r2) || segTri(r1, p1, p2, q2, r2)
	case d2:
		return segTri(p2, q2, p1, q1, r1) || segTri(q2, r2, p1, q1, r1) || segTri(r2, p2, p1, q1, r1)
	}
	// Coplanar, non-degenerate: project onto the coordinate plane along
	// which T1's normal has its largest component (a projection that is
	// one-to-one on the plane, so the 2D answer is the 3D answer).
	ax := dominantAxis(q1.Sub(p1).Cross(r1.Sub(p1)))
	a := [3][2]float64{proj(p1, ax), proj(q1, ax), proj(r1, ax)}
	b := [3][2]float64{proj(p2, ax), proj(q2, ax), proj(r2, ax)}
	return triTri2(a, b)
}

// collinear reports whether a, b and c lie on one line (exactly): all
// three coordinate projections are collinear.
func collinear(a, b, c geom.Vec3) bool {
	return robust.Orient2D(a.X, a.Y, b.X, b.Y, c.X, c.Y) == 0 &&
		robust.Orient2D(a.Y, a.Z, b.Y, b.Z, c.Y, c.Z) == 0 &&
		robust.Orient2D(a.Z, a.X, b.Z, b.X, c.Z, c.X) == 0
}

func dominantAxis(n geom.Vec3) int {
	x, y, z := abs(n.X), abs(n.Y), abs(n.Z)
	switch {
	case x >= y && x >= z:
		return 0
	case y >= z:
		return 1
	}
	return 2
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// proj drops coordinate ax.
func proj(p geom.Vec3, ax int) [2]float64 {
	switch ax {
	case 0:
		return [2]float64{p.Y, p.Z}
	case 1:
		return [2]float64{p.Z, p.X}
	}
	return [2]float64{p.X, p.Y}
}

func orient2(a, b, c [2]float64) int { return robust.Orient2D(a[0], a[1], b[0], b[1], c[0], c[1]) }

// triTri2 reports whether two non-degenerate closed 2D triangles share a
// point: a side of one meets a side of the other, or one contains a
// vertex of the other.
func triTri2(a, b [3][2]float64) bool {
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if segSeg2(a[i], a[(i+1)%3], b[j], b[(j+1)%3]) {
				return true
			}
		}
	}
	return inTri2(a[0], b) || inTri2(b[0], a)
}

// inTri2 reports whether p lies in the closed non-degenerate triangle t.
func inTri2(p [2]float64, t [3][2]float64) bool {
	o0, o1, o2 := orient2(t[0], t[1], p), orient2(t[1], t[2], p), orient2(t[2], t[0], p)
	return (o0 >= 0 && o1 >= 0 && o2 >= 0) || (o0 <= 0 && o1 <= 0 && o2 <= 0)
}

// segSeg2 reports whether the closed 2D segments ab and cd share a point
// (points and collinear overlaps included).
func segSeg2(a, b, c, d [2]float64) bool {
	o1, o2 := orient2(a, b, c), orient2(a, b, d)
	o3, o4 := orient2(c, d, a), orient2(c, d, b)
	if o1*o2 < 0 && o3*o4 < 0 {
		return true
	}
	return o1 == 0 && onSeg2(a, b, c) || o2 == 0 && onSeg2(a, b, d) ||
		o3 == 0 && onSeg2(c, d, a) || o4 == 0 && onSeg2(c, d, b)
}

// onSeg2 reports whether p, known to be collinear with a and b, lies in
// the closed segment ab.
func onSeg2(a, b, p [2]float64) bool {
	return min(a[0], b[0]) <= p[0] && p[0] <= max(a[0], b[0]) &&
		min(a[1], b[1]) <= p[1] && p[1] <= max(a[1], b[1])
}

// segSeg3 reports whether the closed 3D segments ab and cd share a point:
// they are coplanar and meet in each coordinate projection (one of which
// is one-to-one on their common plane or line).
func segSeg3(a, b, c, d geom.Vec3) bool {
	if robust.Orient3D(a, b, c, d) != 0 {
		return false
	}
	for ax := 0; ax < 3; ax++ {
		if !segSeg2(proj(a, ax), proj(b, ax), proj(c, ax), proj(d, ax)) {
			return false
		}
	}
	return true
}

// segTri reports whether the closed segment pq meets the closed triangle
// abc, which may itself be degenerate.
func segTri(p, q, a, b, c geom.Vec3) bool {
	if collinear(a, b, c) {
		return segSeg3(p, q, a, b) || segSeg3(p, q, b, c) || segSeg3(p, q, c, a)
	}
	sp, sq := robust.Orient3D(a, b, c, p), robust.Orient3D(a, b, c, q)
	if sp*sq > 0 {
		return false
	}
	if sp == 0 && sq == 0 {
		ax := dominantAxis(b.Sub(a).Cross(c.Sub(a)))
		t := [3][2]float64{proj(a, ax), proj(b, ax), proj(c, ax)}
		pp, qq := proj(p, ax), proj(q, ax)
		if inTri2(pp, t) || inTri2(qq, t) {
			return true
		}
		return segSeg2(pp, qq, t[0], t[1]) || segSeg2(pp, qq, t[1], t[2]) || segSeg2(pp, qq, t[2], t[0])
	}
	if p == q {
		// A point on the plane: inside the triangle in the projection.
		ax := dominantAxis(b.Sub(a).Cross(c.Sub(a)))
		return inTri2(proj(p, ax), [3][2]float64{proj(a, ax), proj(b, ax), proj(c, ax)})
	}
	o0 := robust.Orient3D(p, q, a, b)
	o1 := robust.Orient3D(p, q, b, c)
	o2 := robust.Orient3D(p, q, c, a)
	return (o0 >= 0 && o1 >= 0 && o2 >= 0) || (o0 <= 0 && o1 <= 0 && o2 <= 0)
}

// closestOnTri returns the point of the closed triangle abc closest to p,
// and where it lies: region 0 the interior, 1..3 the vertices a, b, c, 4..6
// the sides ab, bc, ca (Ericson, Real-Time Collision Detection, Sec.
// 5.1.5). Degenerate triangles give a point of one of their sides.
func closestOnTri(p, a, b, c geom.Vec3) (geom.Vec3, int) {
	ab, ac, ap := b.Sub(a), c.Sub(a), p.Sub(a)
	d1, d2 := ab.Dot(ap), ac.Dot(ap)
	if d1 <= 0 && d2 <= 0 {
		return a, 1
	}
	bp := p.Sub(b)
	d3, d4 := ab.Dot(bp), ac.Dot(bp)
	if d3 >= 0 && d4 <= d3 {
		return b, 2
	}
	vc := d1*d4 - d3*d2
	if vc <= 0 && d1 >= 0 && d3 <= 0 {
		return a.AddScaled(d1/(d1-d3), ab), 4
	}
	cp := p.Sub(c)
	d5, d6 := ab.Dot(cp), ac.Dot(cp)
	if d6 >= 0 && d5 <= d6 {
		return c, 3
	}
	vb := d5*d2 - d1*d6
	if vb <= 0 && d2 >= 0 && d6 <= 0 {
		return a.AddScaled(d2/(d2-d6), ac), 6
	}
	va := d3*d6 - d5*d4
	if va <= 0 && d4-d3 >= 0 && d5-d6 >= 0 {
		return b.AddScaled((d4-d3)/((d4-d3)+(d5-d6)), c.Sub(b)), 5
	}
	den := va + vb + vc
	if !(den > 0) {
		// Degenerate triangle: the closest of its sides.
		s0, _, x0, _ := geom.ClosestSegmentPoints(a, b, p, p)
		s1, _, x1, _ := geom.ClosestSegmentPoints(b, c, p, p)
		s2, _, x2, _ := geom.ClosestSegmentPoints(c, a, p, p)
		best, x, r := x0.Dist2(p), x0, segRegion(s0, 1, 2, 4)
		if d := x1.Dist2(p); d < best {
			best, x, r = d, x1, segRegion(s1, 2, 3, 5)
		}
		if d := x2.Dist2(p); d < best {
			x, r = x2, segRegion(s2, 3, 1, 6)
		}
		return x, r
	}
	v, w := vb/den, vc/den
	return a.AddScaled(v, ab).AddScaled(w, ac), 0
}

func segRegion(s float64, r0, r1, side int) int {
	switch s {
	case 0:
		return r0
	case 1:
		return r1
	}
	return side
}

// feature is a place on a triangle: its kind (vertex, side or interior)
// and which one (corner 0..2 or side 0..2: side k joins corner k and
// corner k+1).
type feature struct {
	kind  uint8 // fVertex, fSide, fFace
	index uint8
}

const (
	fVertex uint8 = iota + 1
	fSide
	fFace
)

// regionFeature maps a closestOnTri region to a feature.
func regionFeature(r int) feature {
	switch {
	case r == 0:
		return feature{fFace, 0}
	case r <= 3:
		return feature{fVertex, uint8(r - 1)}
	}
	return feature{fSide, uint8(r - 4)}
}

// segFeature is the feature of a point at parameter s on side k.
func segFeature(s float64, k uint8) feature {
	switch s {
	case 0:
		return feature{fVertex, k}
	case 1:
		return feature{fVertex, (k + 1) % 3}
	}
	return feature{fSide, k}
}

// triPair is the closest pair of points of two triangles and their
// features.
type triPair struct {
	d2     float64
	pa, pb geom.Vec3
	fa, fb feature
}

// triTriClosest returns the closest points of two triangles that do not
// intersect, with their features. It is the algorithm of Larsen,
// Gottschalk, Lin and Manocha's PQP ("Fast Proximity Queries with Swept
// Sphere Volumes", 1999, Sec. 4.2, TriDist): the nine side pairs first,
// stopping as soon as a side pair's closest points have both triangles on
// their own side of the plane through them orthogonal to the gap (then
// they are the closest points); else a vertex of one triangle whose
// projection falls inside the other, on the side of its plane where the
// other triangle lies entirely; else the best side pair. Pairs whose
// coordinate boxes are at least sqrt(bound) apart return d2 >= bound at
// once. For intersecting triangles the result is some pair of feature
// points, not a common point.
func triTriClosest(a, b *[3]geom.Vec3, bound float64) triPair {
	// Box gap: a cheap lower bound.
	alo, ahi := vmin(vmin(a[0], a[1]), a[2]), vmax(vmax(a[0], a[1]), a[2])
	blo, bhi := vmin(vmin(b[0], b[1]), b[2]), vmax(vmax(b[0], b[1]), b[2])
	gx, gy, gz := max(0, alo.X-bhi.X, blo.X-ahi.X), max(0, alo.Y-bhi.Y, blo.Y-ahi.Y), max(0, alo.Z-bhi.Z, blo.Z-ahi.Z)
	if g := gx*gx + gy*gy + gz*gz; g >= bound {
		return triPair{d2: g}
	}
	best := triPair{d2: math.Inf(1)}
	for i := 0; i < 3; i++ {
		a0, a1 := a[i], a[(i+1)%3]
		for j := 0; j < 3; j++ {
			b0, b1 := b[j], b[(j+1)%3]
			s, u, pa, pb := geom.ClosestSegmentPoints(a0, a1, b0, b1)
			v := pb.Sub(pa)
			d := v.Dot(v)
			if d > best.d2 {
				continue
			}
			best = triPair{d2: d, pa: pa, pb: pb, fa: segFeature(s, uint8(i)), fb: segFeature(u, uint8(j))}
			// The third corners against the plane through pa, pb
			// orthogonal to v.
			if a[(i+2)%3].Sub(pa).Dot(v) <= 0 && b[(j+2)%3].Sub(pb).Dot(v) >= 0 {
				return best
			}
		}
	}
	if r, ok := vertexFace(a, b, false); ok && r.d2 < best.d2 {
		best = r
	}
	if r, ok := vertexFace(b, a, true); ok && r.d2 < best.d2 {
		best = r
	}
	return best
}

// vertexFace looks for the vertex of t closest to s's plane among those
// on one side, when all of t is on that side, and returns its distance to
// s when its projection falls inside s (swap: t is A and s is B).
func vertexFace(s, t *[3]geom.Vec3, swap bool) (triPair, bool) {
	n := s[1].Sub(s[0]).Cross(s[2].Sub(s[0]))
	nn := n.Dot(n)
	if !(nn > 0) {
		return triPair{}, false
	}
	var h [3]float64
	for k := 0; k < 3; k++ {
		h[k] = t[k].Sub(s[0]).Dot(n)
	}
	k := -1
	switch {
	case h[0] > 0 && h[1] > 0 && h[2] > 0:
		k = 0
		if h[1] < h[k] {
			k = 1
		}
		if h[2] < h[k] {
			k = 2
		}
	case h[0] < 0 && h[1] < 0 && h[2] < 0:
		k = 0
		if h[1] > h[k] {
			k = 1
		}
		if h[2] > h[k] {
			k = 2
		}
	default:
		return triPair{}, false
	}
	p := t[k]
	for e := 0; e < 3; e++ {
		if p.Sub(s[e]).Dot(n.Cross(s[(e+1)%3].Sub(s[e]))) < 0 {
			return triPair{}, false
		}
	}
	q := p.Sub(n.Scale(h[k] / nn))
	r := triPair{d2: p.Dist2(q), pa: q, pb: p, fa: feature{fFace, 0}, fb: feature{fVertex, uint8(k)}}
	if swap {
		r.pa, r.pb, r.fa, r.fb = r.pb, r.pa, r.fb, r.fa
	}
	return r, true
}
