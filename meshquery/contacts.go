package meshquery

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// DefaultMaxContacts is the default of ContactOptions.MaxContacts.
const DefaultMaxContacts = 8

// DefaultRelTouchTol is the default touching tolerance, as a fraction of
// the mean Scale of the two trees.
const DefaultRelTouchTol = 1e-9

// ContactOptions tune Contacts. The zero value means the documented
// defaults.
type ContactOptions struct {
	// Margin (length) is the speculative distance: features closer than
	// Margin give Near records (default 0: touching and penetrating
	// contacts only).
	Margin float64
	// MaxContacts bounds the records of one call (default
	// DefaultMaxContacts); when there are more, the deepest is kept and
	// then, one at a time, the record farthest from those kept.
	MaxContacts int
	// TouchTol (length): a separation within ±TouchTol is Touching
	// (default DefaultRelTouchTol times the mean Scale of the two trees).
	TouchTol float64
}

// Contacts appends to dst the contact records of a (placed by ta) and b
// (placed by tb), at most MaxContacts, in the package contact's
// conventions (Time 1: the poses given; Normal from A towards B; Point
// halfway between the two features, world frame) and returns the
// extended slice. Nothing is appended when the surfaces are farther apart
// than the margin.
//
//   - Vertex records: each vertex of either mesh within the margin of the
//     other surface, or inside the other body when that body is closed
//     (Tree.Closed), gives a record with its signed distance to the other
//     surface (negative inside: Penetrating, the depth of that vertex),
//     FeatureA/FeatureB the vertex and the feature of the other surface
//     closest to it. Penetrating vertices are followed through the mesh
//     (a flood fill over the vertices inside) so the deepest are found.
//   - Edge records: two sides closest to each other within the margin,
//     each at an interior point, give an edge-edge record (sides that are
//     diagonals inside a polygon face do not: the face's vertices cover
//     them).
//   - Crossing records: where the surfaces cross and no vertex of either
//     is inside the other (open surfaces, or closed bodies crossing edge
//     through edge, or along coplanar faces), a record at a common point:
//     Touching for open surfaces; for closed bodies Penetrating along
//     A's outward triangle normal or against B's, whichever needs the
//     shorter translation of B's triangle to clear A's, that translation
//     being the depth.
//   - Containment: a closed body entirely inside the other gives the
//     records of its vertices.
//
// The features are those of the meshes (New) or of the soup (NewSoup), so
// a record's ID() stays the same from frame to frame while the same
// features touch. opt may be nil. Errors as for Intersect, and for
// options out of range.
func (q *Scratch) Contacts(a *Tree, ta *geom.Transform, b *Tree, tb *geom.Transform, opt *ContactOptions, dst []contact.Contact) ([]contact.Contact, error) {
	if err := q.setup(a, ta, b, tb); err != nil {
		return dst, err
	}
	margin, maxN, tol := 0.0, DefaultMaxContacts, DefaultRelTouchTol*(a.radius+b.radius)/2
	if opt != nil {
		if !(opt.Margin >= 0) || opt.Margin > geom.MaxCoord {
			return dst, fmt.Errorf("%w: Margin %v must be in [0, %g]", ErrInput, opt.Margin, geom.MaxCoord)
		}
		if opt.MaxContacts < 0 {
			return dst, fmt.Errorf("%w: MaxContacts %d must be >= 0", ErrInput, opt.MaxContacts)
		}
		if !(opt.TouchTol >= 0) || opt.TouchTol > geom.MaxCoord {
			return dst, fmt.Errorf("%w: TouchTol %v must be in [0, %g]", ErrInput, opt.TouchTol, geom.MaxCoord)
		}
		margin = opt.Margin
		if opt.MaxContacts > 0 {
			maxN = opt.MaxContacts
		}
		if opt.TouchTol > 0 {
			tol = opt.TouchTol
		}
	}
	reach := max(margin, tol)
	q.recs = q.recs[:0]
	q.pairs = q.pairs[:0]
	q.chosen = q.chosen[:0]
	q.startQueue(a, b)
	// Triangle pairs within reach: crossing pairs, edge-edge records, and
	// the vertices to examine.
	q.nearPairs(reach*reach, tol)
	nA := len(a.verts)
	for _, p := range q.pairs {
		for _, v := range a.info[a.tris[p.A].id].v {
			q.pushVertex(v)
		}
		for _, v := range b.info[b.tris[p.B].id].v {
			q.pushVertex(int32(nA) + v)
		}
	}
	if len(q.pairs) == 0 {
		q.pushContained(a, b)
	}
	if !q.queuedRecords(a, b, reach, tol) {
		q.crossingRecords(tol)
	}
	return q.reduce(dst, maxN), nil
}

// startQueue empties the queue of vertices to examine (A's, then nA + B's)
// and their marks.
func (q *Scratch) startQueue(a, b *Tree) {
	q.flood = q.flood[:0]
	q.mgen++
	if nm := len(a.verts) + len(b.verts); len(q.marks) < nm || q.mgen == 0 {
		q.marks = make([]uint32, max(nm, len(q.marks)))
		q.mgen = 1
	}
}

// pushContained queues, for each closed body, the first vertex of the
// other when it lies inside: a closed body inside the other crosses and
// touches nothing, and the flood from that vertex reaches the rest.
func (q *Scratch) pushContained(a, b *Tree) {
	if b.closed && len(a.verts) > 0 {
		if loc, err := q.locate(b, q.toB(a.verts[a.info[0].v[0]])); err == nil && loc == Inside {
			q.pushVertex(a.info[0].v[0])
		}
	}
	if a.closed && len(b.verts) > 0 {
		if loc, err := q.locate(a, q.toA(b.verts[b.info[0].v[0]])); err == nil && loc == Inside {
			q.pushVertex(int32(len(a.verts)) + b.info[0].v[0])
		}
	}
}

// queuedRecords makes the records of the queued vertices, and of those
// the flood from them queues, within reach of the other surface or inside
// it, and reports whether any is inside.
func (q *Scratch) queuedRecords(a, b *Tree, reach, tol float64) bool {
	nA := int32(len(a.verts))
	penetrating := false
	for k := 0; k < len(q.flood); k++ {
		if v := q.flood[k]; v < nA {
			penetrating = q.vertexRecord(a, b, v, false, reach, tol) || penetrating
		} else {
			penetrating = q.vertexRecord(b, a, v-nA, true, reach, tol) || penetrating
		}
	}
	return penetrating
}

// pushVertex queues vertex v (A's, or nA + B's) once.
func (q *Scratch) pushVertex(v int32) {
	if q.marks[v] != q.mgen {
		q.marks[v] = q.mgen
		q.flood = append(q.flood, v)
	}
}

// toB takes a point of A's local frame to B's.
func (q *Scratch) toB(p geom.Vec3) geom.Vec3 { return q.tb.ApplyInv(q.ta.Apply(p)) }

// nearPairs collects into q.pairs the triangle pairs (BVH positions) that
// intersect or are at squared distance at most reach2, lists the indices
// of the intersecting ones in q.chosen, and appends the edge-edge records
// of the others.
func (q *Scratch) nearPairs(reach2, tol float64) {
	a, b := q.a, q.b
	st := append(q.stack[:0], pairItem{0, 0, 0})
	defer func() { q.stack = st[:0] }()
	for len(st) > 0 {
		it := st[len(st)-1]
		st = st[:len(st)-1]
		na, nb := &a.nodes[it.a], &b.nodes[it.b]
		if lb := q.lowerBound(&a.boxes[it.a], it.b); lb > 0 && lb*lb > reach2 {
			continue
		}
		if na.left >= 0 || nb.left >= 0 {
			if splitA(na, nb) {
				st = append(st, pairItem{na.left + 1, it.b, 0}, pairItem{na.left, it.b, 0})
			} else {
				st = append(st, pairItem{it.a, nb.left + 1, 0}, pairItem{it.a, nb.left, 0})
			}
			continue
		}
		for i := na.start; i < na.start+na.count; i++ {
			t := &a.tris[i]
			ta := [3]geom.Vec3{t.a, t.b, t.c}
			for j := nb.start; j < nb.start+nb.count; j++ {
				x := q.btri(j)
				if triTriIntersect(ta[0], ta[1], ta[2], x[0], x[1], x[2]) {
					q.chosen = append(q.chosen, len(q.pairs))
					q.pairs = append(q.pairs, Pair{i, j})
					continue
				}
				r := triTriClosest(&ta, x, reach2*(1+1e-12)+tol*tol)
				if r.d2 > reach2 {
					continue
				}
				q.pairs = append(q.pairs, Pair{i, j})
				if r.fa.kind == fSide && r.fb.kind == fSide &&
					a.info[t.id].e[r.fa.index] != diagonal && b.info[b.tris[j].id].e[r.fb.index] != diagonal {
					d := math.Sqrt(r.d2)
					n, ok := r.pb.Sub(r.pa).Normalize()
					if !ok {
						n = q.pairNormal(i, j)
					}
					q.recs = append(q.recs, contact.Contact{
						Status: q.status(d, tol), Time: 1,
						Point:      q.ta.Apply(r.pa.Lerp(r.pb, 0.5)),
						Normal:     q.ta.ApplyDir(n),
						Separation: d,
						FeatureA:   a.feature(t.id, r.fa), FeatureB: b.feature(b.tris[j].id, r.fb),
					})
				}
			}
		}
	}
}

func (q *Scratch) status(sep, tol float64) contact.Status {
	switch {
	case sep > tol:
		return contact.Near
	case sep < -tol:
		return contact.Penetrating
	}
	return contact.Touching
}

// pairNormal is a normal (A's frame, from A towards B) of two touching
// triangles (BVH positions): the difference of A's and B's triangle
// normals, or A's normal when they cancel.
func (q *Scratch) pairNormal(i, j int32) geom.Vec3 {
	t := &q.a.tris[i]
	x := q.btri(j)
	na, _ := t.b.Sub(t.a).Cross(t.c.Sub(t.a)).Normalize()
	nb, _ := x[1].Sub(x[0]).Cross(x[2].Sub(x[0])).Normalize()
	if n, ok := na.Sub(nb).Normalize(); ok {
		return n
	}
	if na != (geom.Vec3{}) {
		return na
	}
	return geom.Vec3{Z: 1}
}

// vertexRecord examines vertex v of s against surface o (onB: v is B's
// and o is A) and appends its record when v is within reach of o or
// inside o (closed); inside, its neighbours are queued. It reports
// whether v is inside.
func (q *Scratch) vertexRecord(s, o *Tree, v int32, onB bool, reach, tol float64) bool {
	// p in o's frame.
	var p geom.Vec3
	if onB {
		p = q.toA(s.verts[v])
	} else {
		p = q.toB(s.verts[v])
	}
	inside := false
	if o.closed {
		if loc, err := q.locate(o, p); err == nil && loc == Inside {
			inside = true
		}
	}
	bound := reach*reach*(1+1e-12) + tol*tol
	if inside {
		bound = math.Inf(1)
	}
	c, d2, pos, f := q.closestPoint(o, p, bound)
	if pos < 0 {
		return false
	}
	d := math.Sqrt(d2)
	sep := d
	if inside {
		sep = -d
		// Queue the neighbours: the penetration may go deeper.
		off := int32(0)
		if onB {
			off = int32(len(q.a.verts))
		}
		for _, tid := range s.vertTris[s.vertStart[v]:s.vertStart[v+1]] {
			for _, w := range s.info[tid].v {
				q.pushVertex(off + w)
			}
		}
	}
	// The direction from A's feature to B's feature (outside), or the
	// separating direction of B (inside): both are (B's point - A's point)
	// outside and its opposite inside.
	var pa, pb geom.Vec3 // in o's frame
	fo := o.feature(o.tris[pos].id, f)
	fs := contact.V(v)
	if onB {
		pa, pb = c, p
	} else {
		pa, pb = p, c
	}
	n, ok := pb.Sub(pa).Normalize()
	if inside {
		n = n.Neg()
	}
	if !ok || d <= tol {
		// On the surface (the gap's direction is noise): the normal of
		// the other surface there, oriented from A to B. On an edge or a
		// corner of o (a box's corner resting on the rim of a box's top
		// face, flush) several of o's triangles touch p; take the one
		// that faces the vertex's own surface most, not the side face.
		pos = q.facingTriangle(s, o, v, onB, pos, p, tol)
		t := &o.tris[pos]
		m := t.n
		if m == (geom.Vec3{}) {
			m = geom.Vec3{Z: 1}
		}
		if onB {
			n = m // A's outward normal points towards B
		} else {
			n = m.Neg()
		}
	}
	mid := pa.Lerp(pb, 0.5)
	var point, normal geom.Vec3
	if onB { // o is A: A's frame
		point, normal = q.ta.Apply(mid), q.ta.ApplyDir(n)
	} else { // o is B
		point, normal = q.tb.Apply(mid), q.tb.ApplyDir(n)
	}
	if sep > reach*(1+1e-12)+tol {
		return inside
	}
	rec := contact.Contact{Status: q.status(sep, tol), Time: 1, Point: point, Normal: normal, Separation: sep}
	if onB {
		rec.FeatureA, rec.FeatureB = fo, fs
	} else {
		rec.FeatureA, rec.FeatureB = fs, fo
	}
	q.recs = append(q.recs, rec)
	return inside
}

// facingTriangle returns, among the triangle at BVH position pos of o and
// the triangles sharing one of its vertices that also lie within tol of p
// (o's frame), the one whose normal is most opposed to the average normal
// of s's triangles around vertex v: the face vertex v's surface rests on.
func (q *Scratch) facingTriangle(s, o *Tree, v int32, onB bool, pos int32, p geom.Vec3, tol float64) int32 {
	var nv geom.Vec3
	for _, tid := range s.vertTris[s.vertStart[v]:s.vertStart[v+1]] {
		nv = nv.Add(s.tris[s.pos[tid]].n)
	}
	// s's frame to o's frame: rotations only.
	if onB {
		nv = q.ta.ApplyDirInv(q.tb.ApplyDir(nv))
	} else {
		nv = q.tb.ApplyDirInv(q.ta.ApplyDir(nv))
	}
	best, bestScore := pos, -o.tris[pos].n.Dot(nv)
	for _, w := range o.info[o.tris[pos].id].v {
		for _, tid := range o.vertTris[o.vertStart[w]:o.vertStart[w+1]] {
			j := o.pos[tid]
			t := &o.tris[j]
			if t.n == (geom.Vec3{}) {
				continue
			}
			if _, _, c := geom.ClosestTrianglePoint(p, t.a, t.b, t.c); c.Sub(p).Norm() > tol {
				continue
			}
			if sc := -t.n.Dot(nv); sc > bestScore {
				best, bestScore = j, sc
			}
		}
	}
	return best
}

// crossingRecords appends a record per crossing triangle pair (listed in
// q.chosen by nearPairs); see Contacts.
func (q *Scratch) crossingRecords(tol float64) {
	a, b := q.a, q.b
	solid := a.closed && b.closed
	var dir geom.Vec3
	if solid {
		dir = q.crossingDirection()
	}
	for _, k := range q.chosen {
		p := q.pairs[k]
		t := &a.tris[p.A]
		s := [3]geom.Vec3{t.a, t.b, t.c}
		x := q.btri(p.B)
		pt := intersectionPoint(&s, x)
		n, sep := q.pairNormal(p.A, p.B), 0.0
		if solid {
			n, sep = dir, min(0, pairGap(&s, x, dir))
		}
		q.recs = append(q.recs, contact.Contact{
			Status: q.status(sep, tol), Time: 1, Point: q.ta.Apply(pt), Normal: q.ta.ApplyDir(n), Separation: sep,
			FeatureA: contact.F(a.info[t.id].face), FeatureB: contact.F(b.info[b.tris[p.B].id].face),
		})
	}
	q.chosen = q.chosen[:0]
}

// pairGap is the gap along d between triangle s (A's) and x (B's): the
// least projection of x minus the largest of s (negative: B's triangle
// must move by minus that along d to clear A's).
func pairGap(s, x *[3]geom.Vec3, d geom.Vec3) float64 {
	return min(x[0].Dot(d), x[1].Dot(d), x[2].Dot(d)) - max(s[0].Dot(d), s[1].Dot(d), s[2].Dot(d))
}

// crossingDirection picks, among the outward normals of the crossing
// triangles (A's, and minus B's), the direction (A's frame) along which
// the translation of B that clears every crossing pair is shortest.
func (q *Scratch) crossingDirection() geom.Vec3 {
	const maxCandidates = 64
	step := max(1, len(q.chosen)/maxCandidates)
	best, bestDepth := geom.Vec3{Z: 1}, math.Inf(1)
	for c := 0; c < len(q.chosen); c += step {
		p := q.pairs[q.chosen[c]]
		t := &q.a.tris[p.A]
		x := q.btri(p.B)
		na, _ := t.b.Sub(t.a).Cross(t.c.Sub(t.a)).Normalize()
		nb, _ := x[1].Sub(x[0]).Cross(x[2].Sub(x[0])).Normalize()
		for _, d := range [2]geom.Vec3{na, nb.Neg()} {
			if d == (geom.Vec3{}) {
				continue
			}
			depth := 0.0
			for _, k := range q.chosen {
				pk := q.pairs[k]
				tk := &q.a.tris[pk.A]
				s := [3]geom.Vec3{tk.a, tk.b, tk.c}
				if depth = max(depth, -pairGap(&s, q.btri(pk.B), d)); depth >= bestDepth {
					break
				}
			}
			if depth < bestDepth {
				best, bestDepth = d, depth
			}
		}
	}
	return best
}

// reduce appends to dst at most maxN of q.recs, duplicates (same feature
// pair) removed: the deepest first, then the record farthest from those
// kept, one at a time; the kept records go out in ID order so that the
// order is stable from frame to frame.
func (q *Scratch) reduce(dst []contact.Contact, maxN int) []contact.Contact {
	q.chosen = q.chosen[:0]
	rs := q.recs
	slices.SortStableFunc(rs, func(x, y contact.Contact) int {
		if c := cmp.Compare(x.ID(), y.ID()); c != 0 {
			return c
		}
		return cmp.Compare(x.Separation, y.Separation)
	})
	// Deduplicate by feature pair, keeping the smallest separation.
	n := 0
	for i := range rs {
		if n > 0 && rs[n-1].ID() == rs[i].ID() {
			continue
		}
		rs[n] = rs[i]
		n++
	}
	rs = rs[:n]
	if len(rs) <= maxN {
		return append(dst, rs...)
	}
	deepest := 0
	for i := range rs {
		if rs[i].Separation < rs[deepest].Separation {
			deepest = i
		}
	}
	// Farthest-point selection: dist[i] is record i's squared distance
	// to the nearest kept record.
	dist := q.dist(len(rs))
	for i := range dist {
		dist[i] = math.Inf(1)
	}
	pick := deepest
	for len(q.chosen) < maxN {
		q.chosen = append(q.chosen, pick)
		next, far := -1, -1.0
		for i := range rs {
			d := rs[i].Point.Dist2(rs[pick].Point)
			if d < dist[i] {
				dist[i] = d
			}
			if dist[i] > far {
				next, far = i, dist[i]
			}
		}
		if next < 0 || far == 0 {
			break
		}
		pick = next
	}
	slices.Sort(q.chosen)
	for _, i := range q.chosen {
		dst = append(dst, rs[i])
	}
	return dst
}

// dist returns a scratch float slice of length n.
func (q *Scratch) dist(n int) []float64 {
	if cap(q.dists) < n {
		q.dists = make([]float64, n)
	}
	return q.dists[:n]
}
