package world

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// RayHit is where a ray meets a body's surface.
type RayHit struct {
	Body BodyID
	// T is the ray parameter of the hit: the point is origin + T dir.
	T     float64
	Point geom.Vec3
	// Normal is the unit normal of the face hit, in world coordinates,
	// turned to face the ray's origin side.
	Normal geom.Vec3
	// Face is the face of the body's mesh that the ray meets.
	Face contact.Feature
}

// PointQuery is the answer of ClosestBody.
type PointQuery struct {
	Body BodyID
	// Distance from the query point to the body's surface, and the
	// closest surface point (world coordinates).
	Distance float64
	Point    geom.Vec3
	// Face is the face of the body's mesh the closest point lies on.
	Face contact.Feature
	// Inside is set when the body bounds a solid (kinds Convex and
	// Polyhedron) and the query point lies inside it.
	Inside bool
}

// updateQueries brings the query tree up to the bodies' current poses.
func (w *World) updateQueries() {
	if !w.qdirty {
		return
	}
	w.qbounds = geom.EmptyAABB()
	for i := range w.bodies {
		b := &w.bodies[i]
		if !b.live {
			continue
		}
		box := tightBox(b.sh, b.p0)
		w.qbounds = w.qbounds.Union(box)
		// The boxes were checked when the poses were set.
		_ = w.qtree.Set(i, box)
	}
	w.qdirty = false
}

// tris returns the triangulation of a shape's mesh, built on first use.
func (sh *shape) triangles() {
	if sh.tris == nil {
		sh.tris = sh.mesh.Triangles(nil)
	}
}

// RayCast returns the first surface hit by the ray origin + t dir, t in
// [0, maxT], among the bodies at their current poses (the start of the next
// step), and whether there is one. maxT may be +Inf. dir need not be unit
// (T is in multiples of it) but must not be zero. Hits are decided with
// exact orientation signs, so a ray through an edge shared by two faces
// hits one of them. Bodies excluded by filter (if not nil) are skipped.
func (w *World) RayCast(origin, dir geom.Vec3, maxT float64, filter func(BodyID) bool) (RayHit, bool) {
	var best RayHit
	found := false
	w.rayCast(origin, dir, maxT, filter, true, func(h RayHit) {
		if !found || h.T < best.T || h.T == best.T && h.Body < best.Body {
			best, found = h, true
		}
	})
	return best, found
}

// RayCastAll appends every body the ray origin + t dir, t in [0, maxT],
// hits to dst, one hit per body (its first), in increasing T (ties by
// body id), and returns the extended slice.
func (w *World) RayCastAll(origin, dir geom.Vec3, maxT float64, filter func(BodyID) bool, dst []RayHit) []RayHit {
	k := len(dst)
	w.rayCast(origin, dir, maxT, filter, false, func(h RayHit) { dst = append(dst, h) })
	hits := dst[k:]
	for i := 1; i < len(hits); i++ { // insertion sort: few hits
		for j := i; j > 0 && (hits[j].T < hits[j-1].T || hits[j].T == hits[j-1].T && hits[j].Body < hits[j-1].Body); j-- {
			hits[j], hits[j-1] = hits[j-1], hits[j]
		}
	}
	return dst
}

func (w *World) rayCast(origin, dir geom.Vec3, maxT float64, filter func(BodyID) bool, clip bool, emit func(RayHit)) {
	if !origin.IsFinite() || !dir.IsFinite() || dir == (geom.Vec3{}) || !(maxT >= 0) {
		return
	}
	w.updateQueries()
	if math.IsInf(maxT, 1) {
		// Clip to where the ray leaves the box of all bodies.
		maxT = 0
		for k := 0; k < 3; k++ {
			if d := dir.Get(k); d != 0 {
				for _, x := range [2]float64{w.qbounds.Min.Get(k), w.qbounds.Max.Get(k)} {
					maxT = math.Max(maxT, (x-origin.Get(k))/d)
				}
			}
		}
		maxT *= 1 + 1e-9
	}
	w.qtree.RayCast(origin, dir, maxT, func(id int, tEnter float64) float64 {
		if filter != nil && !filter(BodyID(id)) {
			return maxT
		}
		if h, ok := w.rayBody(BodyID(id), origin, dir, maxT); ok {
			emit(h)
			if clip {
				return h.T
			}
		}
		return maxT
	})
}

// rayBody returns the first hit of the ray on body id's surface.
func (w *World) rayBody(id BodyID, origin, dir geom.Vec3, maxT float64) (RayHit, bool) {
	b := &w.bodies[id]
	b.sh.triangles()
	inv := b.p0.Inverse()
	p := inv.Apply(origin)
	q := inv.Apply(origin.AddScaled(maxT, dir))
	m := b.sh.mesh
	best := RayHit{T: math.Inf(1)}
	for _, tr := range b.sh.tris {
		v0, v1, v2 := m.Verts[tr.V[0]], m.Verts[tr.V[1]], m.Verts[tr.V[2]]
		s, hit := geom.SegmentTriangle(p, q, v0, v1, v2)
		if !hit || s*maxT >= best.T {
			continue
		}
		best.T = s * maxT
		best.Face = contact.F(tr.Face)
		best.Normal = v1.Sub(v0).Cross(v2.Sub(v0))
	}
	if math.IsInf(best.T, 1) {
		return RayHit{}, false
	}
	n, ok := b.p0.ApplyDir(best.Normal).Normalize()
	if !ok {
		n = dir.Neg()
		n, _ = n.Normalize()
	}
	if n.Dot(dir) > 0 {
		n = n.Neg()
	}
	best.Body, best.Normal, best.Point = id, n, origin.AddScaled(best.T, dir)
	return best, true
}

// QueryBox appends to dst the bodies whose boxes at their current poses
// overlap box (closed boxes: touching counts), in no particular order, and
// returns the extended slice. It is a broad-phase query: a body listed may
// not itself reach into the box.
func (w *World) QueryBox(box geom.AABB, dst []BodyID) []BodyID {
	if !box.Min.IsFinite() || !box.Max.IsFinite() {
		return dst
	}
	w.updateQueries()
	w.qtree.Query(box, func(id int) bool {
		dst = append(dst, BodyID(id))
		return true
	})
	return dst
}

// ClosestBody returns the body whose surface is nearest to p among the
// bodies within maxDist of p (maxDist may be +Inf), at their current poses,
// with the distance, the closest point and its face; ok is false when no
// body is that close. A point inside a closed body is at distance 0 from it
// (PointQuery.Inside is set, and Distance and Point still describe the
// nearest surface point). Bodies excluded by filter (if not nil) are
// skipped. Ties go to the smaller id.
func (w *World) ClosestBody(p geom.Vec3, maxDist float64, filter func(BodyID) bool) (PointQuery, bool) {
	if !p.IsFinite() || !(maxDist >= 0) {
		return PointQuery{}, false
	}
	w.updateQueries()
	best := PointQuery{Body: -1}
	bestKey := math.Inf(1)
	w.qtree.Nearest(p, maxDist, func(id int, boxDist float64) float64 {
		if filter != nil && !filter(BodyID(id)) {
			return maxDist
		}
		pq := w.pointBody(BodyID(id), p)
		key := pq.Distance
		if pq.Inside {
			key = 0
		}
		if key <= maxDist && (key < bestKey || key == bestKey && pq.Body < best.Body) {
			best, bestKey = pq, key
			maxDist = key
		}
		return maxDist
	})
	return best, best.Body >= 0
}

// pointBody returns the distance from p to body id's surface and whether
// p is inside the body's solid.
func (w *World) pointBody(id BodyID, p geom.Vec3) PointQuery {
	b := &w.bodies[id]
	b.sh.triangles()
	x := b.p0.Inverse().Apply(p)
	m := b.sh.mesh
	best := PointQuery{Body: id, Distance: math.Inf(1)}
	winding := 0.0
	for _, tr := range b.sh.tris {
		v0, v1, v2 := m.Verts[tr.V[0]], m.Verts[tr.V[1]], m.Verts[tr.V[2]]
		_, _, q := geom.ClosestTrianglePoint(x, v0, v1, v2)
		if d := q.Sub(x).Norm(); d < best.Distance {
			best.Distance, best.Point, best.Face = d, q, contact.F(tr.Face)
		}
		if b.kind != Soup {
			winding += solidAngle(x, v0, v1, v2)
		}
	}
	best.Point = b.p0.Apply(best.Point)
	// The solid angles of a closed, outward-oriented surface sum to 4 pi
	// at points inside it and to 0 outside (the winding number).
	best.Inside = b.kind != Soup && winding > 2*math.Pi && best.Distance > 0
	return best
}

// solidAngle returns the signed solid angle of triangle abc seen from p
// (Van Oosterom and Strackee, The Solid Angle of a Plane Triangle, IEEE
// Trans. Biomed. Eng. 30(2), 1983).
func solidAngle(p, a, b, c geom.Vec3) float64 {
	x, y, z := a.Sub(p), b.Sub(p), c.Sub(p)
	lx, ly, lz := x.Norm(), y.Norm(), z.Norm()
	num := x.Dot(y.Cross(z))
	den := lx*ly*lz + x.Dot(y)*lz + y.Dot(z)*lx + z.Dot(x)*ly
	return 2 * math.Atan2(num, den)
}
