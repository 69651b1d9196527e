package world

import (
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// Deep overlaps. FeatureContacts' passes see a vertex at most featureDepth
// of the smaller bounding radius behind a face. A body driven deeper into
// another in one step (a car's corner knocked into a box in a pile) would
// have no contact that holds it and stay embedded, so every pair also gets
// the exact records of an overlap deeper than that: for two convex bodies
// the convex signed distance (one record: depth, direction and witness
// point of the least translation that separates them), for any other pair
// of closed bodies the penetrating vertices of package meshquery (each
// vertex of one body inside the other deeper than the window, with its
// distance to the other's surface and the direction to the nearest point
// there: the shortest way out of that vertex, which is what the
// interpenetration of two solids is measured by).
//
// The check is skipped while it cannot find anything. Its answer at one
// relative pose bounds it at any other: the signed distance of a point to
// a closed surface is 1-Lipschitz, and so is the signed distance of two
// convex bodies in the Hausdorff distance of their Minkowski difference.
// When the body S with the smaller radius r moves relative to the other
// body L by a translation of its origin d and a turn by the angle θ, a
// point of S moves relative to L by at most |d| + θ r, and so does, seen
// from S, a point of L that lies inside S (within r of its origin). The
// pair's separation (the signed distance of the convex pair, or minus the
// depth of the deepest vertex, at most 0, of any other) thus falls by at
// most |d| + θ r since the last check. When that bound does not rule a
// pair of non-convex bodies out, the displacements of the vertices
// themselves may: a vertex inside the other body now lies in its box, so
// the largest displacement since the last check of a vertex of either body
// that lies in the other's box (both in the other's frame) bounds how much
// deeper any vertex can be (linked tori swinging about their contact).
// And a non-convex pair whose faces' boxes do not come within the feature
// passes' reach of each other, neither body inside the other, is at least
// that far apart: a falling body in a bin starts its next check with that
// slack instead of none.

// deepCache is a pair's memory of its last deep-overlap check.
type deepCache struct {
	ok  bool
	t   geom.Vec3 // origin of the body with the smaller radius, in the other's frame
	q   geom.Quat // its rotation relative to the other
	sep float64   // lower bound of the pair's separation at (t, q)
	// rel takes A's frame to B's at the last check.
	rel geom.Transform
}

// regionMotion bounds how far, from rel0 to rel1 (each taking A's frame
// to B's), a vertex of either body moved relative to the other if it lies
// now in B's box and in the box abox of A's vertices in B's frame, where
// every vertex inside the other body lies: seen in B's frame both are
// moved by the rigid motion rel1 rel0⁻¹ or its inverse, which moves a point
// of the region by at most as much as the region's centre plus the turn
// theta times the region's half diagonal. It is 0 when the boxes do not
// meet.
func regionMotion(fb *features, abox *geom.AABB, rel0, rel1 *geom.Transform, theta float64) float64 {
	lo, hi := abox.Min.Max(fb.box.Min), abox.Max.Min(fb.box.Max)
	if lo.X > hi.X || lo.Y > hi.Y || lo.Z > hi.Z {
		return 0
	}
	c := lo.Add(hi).Scale(0.5)
	return c.Sub(rel1.Apply(rel0.ApplyInv(c))).Norm() + theta*hi.Sub(lo).Norm()/2
}

// vertexMotion reports whether every vertex of A in B's box, and every
// vertex of B in A's box and in the box of A's vertices in B's frame, moved
// by at most lim from rel0 to rel1 (each taking A's frame to B's); moved
// holds A's vertices placed by rel1, abox their box. A vertex of either
// body inside the other lies in those boxes.
func vertexMotion(fa, fb *features, moved []geom.Vec3, abox *geom.AABB, rel0, rel1 *geom.Transform, lim float64) bool {
	if lim < 0 {
		return false
	}
	lim2 := lim * lim
	// A's vertex v moves by (R1 - R0) v + T1 - T0 in B's frame, B's vertex
	// u by (R1ᵀ - R0ᵀ) u - (R1ᵀ T1 - R0ᵀ T0) in A's.
	dr := rel1.R.Add(rel0.R.Scale(-1))
	dt := rel1.T.Sub(rel0.T)
	for i, x := range moved {
		if fb.box.Contains(x) && dr.MulVec(fa.m.Verts[i]).Add(dt).Norm2() > lim2 {
			return false
		}
	}
	dt = rel1.R.MulVecT(rel1.T).Sub(rel0.R.MulVecT(rel0.T))
	for _, u := range fb.m.Verts {
		if abox.Contains(u) && fa.box.Contains(rel1.ApplyInv(u)) && dr.MulVecT(u).Sub(dt).Norm2() > lim2 {
			return false
		}
	}
	return true
}

// disjoint reports, for two closed bodies whose surfaces do not meet, that
// neither is inside the other: a vertex of each lies outside the other (a
// surface that meets no other lies wholly on one side of it).
func (wk *worker) disjoint(fa, fb *features, moved []geom.Vec3, ta, tb *geom.Transform) bool {
	if len(fa.tris) == 0 || len(fb.tris) == 0 {
		return false
	}
	if loc, err := wk.mq.Locate(fb.tree, moved[fa.tris[0].V[0]]); err != nil || loc != meshquery.Outside {
		return false
	}
	u := ta.ApplyInv(tb.Apply(fb.m.Verts[fb.tris[0].V[0]]))
	loc, err := wk.mq.Locate(fa.tree, u)
	return err == nil && loc == meshquery.Outside
}

// relPose returns the origin and rotation of the body with the smaller
// radius (A on a tie) in the frame of the other, and that radius.
func relPose(a, b geom.Pose, ra, rb float64) (geom.Vec3, geom.Quat, float64) {
	if rb < ra {
		a, b, ra = b, a, rb
	}
	bi := b.Q.Conj()
	return bi.Rotate(a.P.Sub(b.P)), bi.Mul(a.Q), ra
}

// deepTol is the relative tolerance (of the smaller radius) added to the
// bound before a check is skipped, for the rounding of the separations.
const deepTol = 1e-9

// deepPair appends to recs the records of the overlap of bodies fa and fb,
// at poses a0 and b0 (transforms ta and tb), deeper than depthTol, when the
// pair's cache dc does not rule it out, and updates the cache.
//
// moved and abox are A's vertices in B's frame at these poses and their box
// (probe.pair's), or moved is empty; the surfaces are at least gap apart.
func (wk *worker) deepPair(dc *deepCache, fa, fb *features, a0, b0 geom.Pose, ta, tb *geom.Transform, moved []geom.Vec3, abox *geom.AABB, gap, depthTol float64, recs []contact.Contact) []contact.Contact {
	convexPair := fa.poly != nil && fb.poly != nil
	if !convexPair && (fa.tree == nil || fb.tree == nil) {
		return recs
	}
	t, q, r := relPose(a0, b0, fa.radius, fb.radius)
	var rel geom.Transform
	if !convexPair {
		rel = tb.Inverse().Mul(*ta)
	}
	if dc.ok {
		th := turn(dc.q, q)
		if dc.sep-t.Sub(dc.t).Norm()-th*r-deepTol*r >= -depthTol {
			return recs
		}
		if !convexPair && len(moved) == len(fa.m.Verts) {
			lim := dc.sep + depthTol - deepTol*r
			if regionMotion(fb, abox, &dc.rel, &rel, th) <= lim || vertexMotion(fa, fb, moved, abox, &dc.rel, &rel, lim) {
				return recs
			}
		}
	}
	dc.ok = false
	if !convexPair && gap > 0 && len(moved) == len(fa.m.Verts) && wk.disjoint(fa, fb, moved, ta, tb) {
		// Apart by gap: every vertex is at least that far outside.
		*dc = deepCache{ok: true, t: t, q: q, sep: gap, rel: rel}
		return recs
	}
	var sep float64
	if convexPair {
		d, err := wk.sv.SignedDistance(fa.poly, ta, fb.poly, tb, nil)
		if err != nil {
			return recs
		}
		sep = d.Separation
		if sep < -depthTol {
			if c, ok := d.Record(0); ok {
				c.Time = 0
				recs = append(recs, c)
			}
		}
	} else {
		n := len(recs)
		out, deepest, err := wk.mq.PenetratingVertices(fa.tree, ta, fb.tree, tb, recs)
		if err != nil {
			return recs[:n]
		}
		sep, recs = -deepest, out[:n]
		for _, c := range out[n:] {
			if c.Separation < -depthTol {
				c.Time = 0
				recs = append(recs, c)
			}
		}
	}
	*dc = deepCache{ok: true, t: t, q: q, sep: sep, rel: rel}
	return recs
}
