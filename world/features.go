package world

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// features is a closed mesh prepared for FeatureContacts: its faces'
// triangles, its sharp edges with their two face normals, and box trees over
// faces and edges, all in the mesh's own frame.
type features struct {
	m      *mesh.Mesh
	radius float64 // largest distance of a vertex from the origin
	box    geom.AABB
	// tris holds the triangles face by face: face f's are
	// tris[faceTri[f]:faceTri[f+1]].
	tris      []mesh.Tri
	faceTri   []int32
	faces     bvh
	faceBoxes []geom.AABB
	edges     []sharpEdge
	edgeTree  bvh
	edgeBoxes []geom.AABB // box of edges[k]
	// vnorm[v] is the mean of the normals of the faces around vertex v: a
	// vertex only touches faces whose outward normal opposes it.
	vnorm []geom.Vec3
}

// sharpEdge is an edge whose two faces are not coplanar: only those can
// touch another body's edge.
type sharpEdge struct {
	index  int32 // edge index in the mesh
	a, b   int32 // vertices
	n1, n2 geom.Vec3
	len    float64 // length
	w      float64 // sign of (n1 x n2) . (b - a): which way the wedge turns
}

// flatCos is the cosine above which two faces are treated as coplanar.
const flatCos = 1 - 1e-9

func newFeatures(m *mesh.Mesh) *features {
	s := &features{m: m, box: m.Bounds()}
	for _, v := range m.Verts {
		s.radius = math.Max(s.radius, v.Norm())
	}
	tris := m.Triangles(nil)
	// Group the triangles by face.
	nf := m.NumFaces()
	s.faceTri = make([]int32, nf+1)
	for _, t := range tris {
		s.faceTri[t.Face+1]++
	}
	for f := 0; f < nf; f++ {
		s.faceTri[f+1] += s.faceTri[f]
	}
	s.tris = make([]mesh.Tri, len(tris))
	next := append([]int32(nil), s.faceTri[:nf]...)
	for _, t := range tris {
		s.tris[next[t.Face]] = t
		next[t.Face]++
	}
	s.faceBoxes = make([]geom.AABB, nf)
	s.vnorm = make([]geom.Vec3, len(m.Verts))
	for f := 0; f < nf; f++ {
		b := geom.EmptyAABB()
		for _, v := range m.Face(f) {
			b = b.AddPoint(m.Verts[v])
			s.vnorm[v] = s.vnorm[v].Add(m.Planes[f].N)
		}
		s.faceBoxes[f] = b
	}
	s.faces = buildBVH(s.faceBoxes)
	for v := range s.vnorm {
		if n, ok := s.vnorm[v].Normalize(); ok {
			s.vnorm[v] = n
		}
	}
	for i, e := range m.Edges {
		if e.Right < 0 || e.Left < 0 {
			continue
		}
		n1, n2 := m.Planes[e.Left].N, m.Planes[e.Right].N
		if n1.Dot(n2) > flatCos {
			continue
		}
		d := m.Verts[e.V[1]].Sub(m.Verts[e.V[0]])
		w := 1.0
		if n1.Cross(n2).Dot(d) < 0 {
			w = -1
		}
		s.edges = append(s.edges, sharpEdge{index: int32(i), a: e.V[0], b: e.V[1], n1: n1, n2: n2, len: d.Norm(), w: w})
		s.edgeBoxes = append(s.edgeBoxes, geom.AABBOf(m.Verts[e.V[0]], m.Verts[e.V[1]]))
	}
	s.edgeTree = buildBVH(s.edgeBoxes)
	return s
}

// inFace reports whether q, a point on face f's plane, lies in the face
// (closed, within a relative tolerance).
func (s *features) inFace(f int32, q geom.Vec3, n geom.Vec3) bool {
	for _, t := range s.tris[s.faceTri[f]:s.faceTri[f+1]] {
		a, b, c := s.m.Verts[t.V[0]], s.m.Verts[t.V[1]], s.m.Verts[t.V[2]]
		// Signed areas of the sub-triangles, along the face normal.
		ab, bc, ca := b.Sub(a), c.Sub(b), a.Sub(c)
		w0 := ab.Cross(q.Sub(a)).Dot(n)
		w1 := bc.Cross(q.Sub(b)).Dot(n)
		w2 := ca.Cross(q.Sub(c)).Dot(n)
		tol := -1e-9 * (ab.Norm2() + bc.Norm2() + ca.Norm2())
		if w0 >= tol && w1 >= tol && w2 >= tol {
			return true
		}
	}
	return false
}

// probe finds the contacts of one pair of bodies at their current poses:
// every vertex of one body within the margin in front of a face of the
// other (or slightly behind it), and every pair of sharp edges whose closest
// points are interior to both edges, whose common normal lies in both
// edges' normal wedges (the Gauss-map test of Gottschalk's separating-axis
// argument) and whose separation along that normal is within the margin.
// Together these give the corners of the contact region of two polyhedra,
// convex or not, resting on each other, and speculative contacts (positive
// separation) for bodies that may meet within the step.
type probe struct {
	cand, stack []int32
	near        []int32
	moved       []geom.Vec3 // the first body's vertices in the second's frame
	movedB      []geom.Vec3
}

// pair appends the contacts between bodies a and b (normal from a to b).
func (p *probe) pair(dst []contact.Contact, sa, sb *features, ta, tb geom.Transform, margin, depthTol float64) []contact.Contact {
	dst = p.vertices(dst, sa, sb, ta, tb, margin, depthTol, false)
	p.moved, p.movedB = p.movedB, p.moved // keep a's vertices in b's frame
	dst = p.vertices(dst, sb, sa, tb, ta, margin, depthTol, true)
	p.moved, p.movedB = p.movedB, p.moved
	dst = p.edges(dst, sa, sb, ta, tb, margin, depthTol) // uses p.moved
	return dst
}

// vertices adds the vertex-face contacts of sa's vertices on sb's faces. With
// flip the contact is reported from sb to sa's point of view swapped: the
// caller's A is sb.
func (p *probe) vertices(dst []contact.Contact, sa, sb *features, ta, tb geom.Transform, margin, depthTol float64, flip bool) []contact.Contact {
	// a's frame to b's frame.
	rel := tb.Inverse().Mul(ta)
	reach := sb.box.Expand(margin + depthTol)
	pad := math.Max(margin, depthTol)
	p.moved = p.moved[:0]
	abox := geom.EmptyAABB()
	for _, v := range sa.m.Verts {
		q := rel.Apply(v)
		p.moved = append(p.moved, q)
		if reach.Contains(q) {
			abox = abox.AddPoint(q)
		}
	}
	if abox.IsEmpty() {
		return dst
	}
	linear := p.nearby(&sb.faces, abox.Expand(pad))
	for vi, q := range p.moved {
		if !reach.Contains(q) {
			continue
		}
		vn := rel.ApplyDir(sa.vnorm[vi])
		p.candidates(&sb.faces, sb.faceBoxes, geom.AABB{Min: q, Max: q}.Expand(pad), linear)
		// Keep every face the vertex is in front of, and of the faces it is
		// behind only the nearest (the way out), so a thin plate's far face
		// never pushes a vertex through it; and none of those when the
		// vertex is nearer a face it is in front of (it is outside, just
		// over a plate thinner than the depth tolerance).
		bestNeg, bestSep := int32(-1), math.Inf(-1)
		front := math.Inf(1)
		var bestProj geom.Vec3
		for _, f := range p.cand {
			pl := sb.m.Planes[f]
			sep := pl.SignedDist(q)
			if sep < depthTol && sep > -rimFrac*depthTol && pl.N.Dot(vn) > facingCos {
				continue // the face looks away from the vertex
			}
			if sep > margin || sep < -depthTol {
				continue
			}
			proj := q.AddScaled(-sep, pl.N)
			if !sb.inFace(f, proj, pl.N) {
				continue
			}
			if sep < 0 {
				if sep > bestSep {
					bestNeg, bestSep, bestProj = f, sep, proj
				}
				continue
			}
			front = math.Min(front, sep)
			dst = appendVF(dst, tb, int32(vi), f, q, proj, pl.N, sep, flip)
		}
		if bestNeg >= 0 && -bestSep <= front {
			dst = appendVF(dst, tb, int32(vi), bestNeg, q, bestProj, sb.m.Planes[bestNeg].N, bestSep, flip)
		}
	}
	return dst
}

func appendVF(dst []contact.Contact, tb geom.Transform, v, f int32, q, proj, n geom.Vec3, sep float64, flip bool) []contact.Contact {
	mid := q.Add(proj).Scale(0.5)
	c := contact.Contact{
		Status:     statusOf(sep),
		Point:      tb.Apply(mid),
		Normal:     tb.ApplyDir(n).Neg(), // from the vertex's body to the face's
		Separation: sep,
		FeatureA:   contact.V(v),
		FeatureB:   contact.F(f),
	}
	if flip {
		c = c.Flip()
	}
	return append(dst, c)
}

func statusOf(sep float64) contact.Status {
	switch {
	case sep > 0:
		return contact.Near
	case sep < 0:
		return contact.Penetrating
	}
	return contact.Touching
}

// edges adds the edge-edge contacts between sa's and sb's sharp edges.
func (p *probe) edges(dst []contact.Contact, sa, sb *features, ta, tb geom.Transform, margin, depthTol float64) []contact.Contact {
	if len(sa.edges) == 0 || len(sb.edges) == 0 {
		return dst
	}
	rel := tb.Inverse().Mul(ta)
	reach := sb.box.Expand(margin + depthTol)
	pad := math.Max(margin, depthTol)
	far2 := 4 * pad * pad
	abox := geom.EmptyAABB()
	for _, ea := range sa.edges {
		a0, a1 := p.moved[ea.a], p.moved[ea.b]
		if box := (geom.AABB{Min: a0.Min(a1), Max: a0.Max(a1)}); box.Overlaps(reach) {
			abox = abox.Union(box)
		}
	}
	if abox.IsEmpty() {
		return dst
	}
	linear := p.nearby(&sb.edgeTree, abox.Expand(pad))
	for _, ea := range sa.edges {
		a0, a1 := p.moved[ea.a], p.moved[ea.b]
		box := geom.AABB{Min: a0.Min(a1), Max: a0.Max(a1)}
		if !box.Overlaps(reach) {
			continue
		}
		na1, na2 := rel.ApplyDir(ea.n1), rel.ApplyDir(ea.n2)
		da := a1.Sub(a0)
		p.candidates(&sb.edgeTree, sb.edgeBoxes, box.Expand(pad), linear)
		for _, k := range p.cand {
			eb := &sb.edges[k]
			b0, b1 := sb.m.Verts[eb.a], sb.m.Verts[eb.b]
			db := b1.Sub(b0)
			n := da.Cross(db)
			// The lines farther apart than both bounds of the test below,
			// before normalizing: most candidates end here.
			if dn := a0.Sub(b0).Dot(n); dn*dn > far2*n.Norm2() {
				continue
			}
			nn := n.Norm()
			if nn <= 1e-9*math.Sqrt(da.Norm2()*db.Norm2()) {
				continue // parallel edges: the vertex-face contacts cover them
			}
			n = n.Scale(1 / nn)
			if n.Dot(eb.n1.Add(eb.n2)) < 0 {
				n = n.Neg()
			}
			// The lines' distance along n: the separation when the closest
			// points are interior to both edges.
			if d := a0.Sub(b0).Dot(n); d > 2*margin || d < -2*depthTol {
				continue
			}
			// An edge lying on a face of the other body (the corner of a
			// face-face contact) has a common normal that wobbles about the
			// face normal: take the face normal itself.
			switch {
			case n.Dot(eb.n1) > cosSnap:
				n = eb.n1
			case n.Dot(eb.n2) > cosSnap:
				n = eb.n2
			case -n.Dot(na1) > cosSnap:
				n = na1.Neg()
			case -n.Dot(na2) > cosSnap:
				n = na2.Neg()
			}
			// n must be an outward normal of b at its edge and -n one of a
			// at its edge.
			if !inWedge(n, eb.n1, eb.n2, db, eb.len, eb.w) || !inWedge(n.Neg(), na1, na2, da, ea.len, ea.w) {
				continue
			}
			s, u, pa, pb := geom.ClosestSegmentPoints(a0, a1, b0, b1)
			if s <= 0 || s >= 1 || u <= 0 || u >= 1 {
				continue
			}
			sep := pa.Sub(pb).Dot(n)
			if sep > margin || sep < -depthTol {
				continue
			}
			dst = append(dst, contact.Contact{
				Status:     statusOf(sep),
				Point:      tb.Apply(pa.Add(pb).Scale(0.5)),
				Normal:     tb.ApplyDir(n).Neg(),
				Separation: sep,
				FeatureA:   contact.E(ea.index),
				FeatureB:   contact.E(eb.index),
			})
		}
	}
	return dst
}

// nearby sets p.near to the items of tree near any of the query features
// (whose boxes make up box), found once, and reports whether they are few
// enough for each feature to scan them instead of descending the tree.
func (p *probe) nearby(tree *bvh, box geom.AABB) (linear bool) {
	p.near, p.stack = tree.query(box, p.near[:0], p.stack)
	return len(p.near) <= linearScan
}

// candidates sets p.cand to the items of tree (whose boxes are boxes, by
// item) that overlap qb: from the list p.near of the items near the whole
// query when linear, by descending the tree otherwise (same items, same
// order).
func (p *probe) candidates(tree *bvh, boxes []geom.AABB, qb geom.AABB, linear bool) {
	if !linear {
		p.cand, p.stack = tree.query(qb, p.cand[:0], p.stack)
		return
	}
	p.cand = p.cand[:0]
	for _, k := range p.near {
		if boxes[k].Overlaps(qb) {
			p.cand = append(p.cand, k)
		}
	}
}

// linearScan is the number of candidate features below which a pair's
// queries scan a list instead of descending a tree.
const linearScan = 24

// facingCos: a vertex is tested against a face unless the face's normal is
// within 60 degrees of the vertex's mean normal (then the vertex lies on the
// face's rim, seen from the side, as where two equal boxes are stacked
// flush, and the face beside it is not the one it rests on).
const facingCos = 0.5

// rimFrac: a vertex deeper behind a face than this fraction of the depth
// tolerance (1% of the smaller bounding radius) is matched with it even if
// the face looks away from the vertex: it has passed the rim and gone in
// through the side, and that face may be its only way out.
const rimFrac = 0.1

// cosSnap is the cosine of the angle within which an edge-edge normal is
// replaced by a face normal.
const cosSnap = 0.995

// inWedge reports whether n, projected on the plane perpendicular to the edge
// vector e (of length elen), lies between the edge's face normals n1 and n2
// (within the snapping angle); w is the sign of (n1 x n2) . e.
func inWedge(n, n1, n2, e geom.Vec3, elen, w float64) bool {
	// (n1 x n) . e is |e| |n projected| times the sine of the angle from n1
	// to n about e: the part of n along e drops out.
	a := n1.Cross(n).Dot(e)
	b := n.Cross(n2).Dot(e)
	const tol = 0.1 // sine of the snapping angle, rounded up
	t := tol * elen
	if w >= 0 {
		return a >= -t && b >= -t
	}
	return a <= t && b <= t
}
