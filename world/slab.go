package world

import "github.com/collide-go/collide/geom"

// fewFaces is the most faces a body may have for slabCandidates to take
// its pair.
const fewFaces = 8

// slabCandidates sets p.vf, p.fv and p.ee to the candidates of the pair
// of sa (its vertices in sb's frame at p.moved, abox their box) and sb,
// as candidates does, without the traversal of the face trees, when one
// of the two bodies has at most fewFaces faces and none of its vertices
// or sharp edges comes within pad of the other body's box: a plate, a
// slab or a backstop under a body much smaller than its faces. Every
// candidate then pairs a vertex of the other body with a face of the few,
// and the candidates are exactly those pairs whose vertex comes within pad
// of the face's box (the traversal's leaf test; the box of the vertex's
// own face contains the vertex, so the traversal reaches that pair). It
// reports false, setting nothing, when neither body qualifies.
func (p *probe) slabCandidates(sa, sb *features, abox *geom.AABB, pad float64) bool {
	switch {
	case len(sb.faces.items) <= fewFaces && p.clearOf(sb, abox, pad):
		p.vf, p.fv, p.ee = p.vf[:0], p.fv[:0], p.ee[:0]
		for k, fb := range sb.faces.items {
			bb := &sb.faces.boxes[k]
			if !near(bb, abox, pad) {
				continue
			}
			for _, v := range sa.ownV {
				if q := p.moved[v]; near(&geom.AABB{Min: q, Max: q}, bb, pad) {
					p.vf = append(p.vf, [2]int32{v, fb})
				}
			}
		}
		return true
	case len(sa.faces.items) <= fewFaces && p.movedClearOf(sa, &sb.box, pad):
		p.vf, p.fv, p.ee = p.vf[:0], p.fv[:0], p.ee[:0]
		for _, fa := range sa.faces.items {
			vs := sa.m.Face(int(fa))
			ba := geom.AABB{Min: p.moved[vs[0]], Max: p.moved[vs[0]]}
			for _, v := range vs[1:] {
				grow(&ba, p.moved[v])
			}
			if !near(&ba, &sb.box, pad) {
				continue
			}
			for _, v := range sb.ownV {
				if q := sb.m.Verts[v]; near(&geom.AABB{Min: q, Max: q}, &ba, pad) {
					p.fv = append(p.fv, [2]int32{v, fa})
				}
			}
		}
		return true
	}
	return false
}

// clearOf reports whether no vertex and no sharp edge of s (in its own
// frame) comes within pad of box.
func (p *probe) clearOf(s *features, box *geom.AABB, pad float64) bool {
	for _, q := range s.m.Verts {
		if near(&geom.AABB{Min: q, Max: q}, box, pad) {
			return false
		}
	}
	for k := range s.edges {
		if near(&s.edgeBoxes[k], box, pad) {
			return false
		}
	}
	return true
}

// movedClearOf is clearOf for s placed at p.moved.
func (p *probe) movedClearOf(s *features, box *geom.AABB, pad float64) bool {
	for _, q := range p.moved {
		if near(&geom.AABB{Min: q, Max: q}, box, pad) {
			return false
		}
	}
	for k := range s.edges {
		e := &s.edges[k]
		b := geom.AABB{Min: p.moved[e.a], Max: p.moved[e.a]}
		grow(&b, p.moved[e.b])
		if near(&b, box, pad) {
			return false
		}
	}
	return true
}
