package meshquery

import (
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// PenetratingVertices appends to dst the records of the vertices of each
// closed body that lie inside the other, as Contacts gives them (Time 1,
// negative Separation: the vertex's depth, its distance to the other
// surface; Normal from A towards B along the vertex's shortest way out;
// Point halfway between the vertex and the nearest point of the other
// surface; the vertex and the feature of the other surface nearest it as
// features), found the same way (the vertices of the intersecting triangle
// pairs, then a flood fill over the vertices inside, and one vertex of
// each body for containment), but without Contacts' margin, edge and
// crossing records and its reduction: every penetrating vertex, once. It
// returns the extended slice and the depth of the deepest vertex (0 when
// none is inside). A tree that is not closed has no inside: its vertices
// are not tested against it. Errors as for Intersect.
//
// The depth of the deepest vertex is the measure of interpenetration of
// two solids that simulators are judged by; a simulator that holds the
// shallow part of an overlap with its own contacts can take from this the
// records of the part deeper than its contacts see.
func (q *Scratch) PenetratingVertices(a *Tree, ta *geom.Transform, b *Tree, tb *geom.Transform, dst []contact.Contact) ([]contact.Contact, float64, error) {
	if err := q.setup(a, ta, b, tb); err != nil {
		return dst, 0, err
	}
	tol := DefaultRelTouchTol * (a.radius + b.radius) / 2
	q.recs = q.recs[:0]
	q.startQueue(a, b)
	nA := int32(len(a.verts))
	crossing := false
	q.traverse(func(pa, pb int32) bool {
		crossing = true
		for _, v := range a.info[a.tris[pa].id].v {
			q.pushVertex(v)
		}
		for _, v := range b.info[b.tris[pb].id].v {
			q.pushVertex(nA + v)
		}
		return true
	})
	if !crossing {
		q.pushContained(a, b)
	}
	q.queuedRecords(a, b, 0, tol)
	deepest := 0.0
	for _, r := range q.recs {
		if r.Separation < 0 {
			dst = append(dst, r)
			deepest = max(deepest, -r.Separation)
		}
	}
	return dst, deepest, nil
}
