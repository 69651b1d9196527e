package sim

import (
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// shape is a mesh prepared for contact generation: its faces' triangles,
// its sharp edges with their two face normals, and box trees over faces and
// edges, all in the mesh's own frame. Bodies sharing a mesh share its shape.
type shape struct {
	m      *mesh.Mesh
	radius float64 // largest distance of a vertex from the origin
	box    geom.AABB
	// faceTri[f] lists face f's triangles in tris.
	tris      []mesh.Tri
	faceTri   []int32 // triangles of face f: tris[faceTri[f]:faceTri[f+1]]
	faces     bvh
	edges     []sharpEdge
	edgeTree  bvh
	edgeBoxes []geom.AABB // box of edges[k]
	faceBoxes []geom.AABB
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

func newShape(m *mesh.Mesh) *shape {
	s := &shape{m: m, box: m.Bounds()}
	for _, v := range m.Verts {
		s.radius = math.Max(s.radius, v.Norm())
	}
	tris := m.Triangles(nil)
	// Group the triangles by face (Triangles emits them face by face).
	nf := m.NumFaces()
	s.faceTri = make([]int32, nf+1)
	count := make([]int32, nf)
	for _, t := range tris {
		count[t.Face]++
	}
	for f := 0; f < nf; f++ {
		s.faceTri[f+1] = s.faceTri[f] + count[f]
	}
	s.tris = make([]mesh.Tri, len(tris))
	next := append([]int32(nil), s.faceTri[:nf]...)
	for _, t := range tris {
		s.tris[next[t.Face]] = t
		next[t.Face]++
	}
	s.faceBoxes = make([]geom.AABB, nf)
	for f := 0; f < nf; f++ {
		b := geom.EmptyAABB()
		for _, v := range m.Face(f) {
			b = b.AddPoint(m.Verts[v])
		}
		s.faceBoxes[f] = b
	}
	s.faces = buildBVH(s.faceBoxes)
	s.vnorm = make([]geom.Vec3, len(m.Verts))
	for f := 0; f < nf; f++ {
		for _, v := range m.Face(f) {
			s.vnorm[v] = s.vnorm[v].Add(m.Planes[f].N)
		}
	}
	for v := range s.vnorm {
		if n, ok := s.vnorm[v].Normalize(); ok {
			s.vnorm[v] = n
		}
	}
	var eboxes []geom.AABB // edgeBoxes
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
		eboxes = append(eboxes, geom.AABBOf(m.Verts[e.V[0]], m.Verts[e.V[1]]))
	}
	s.edgeTree = buildBVH(eboxes)
	s.edgeBoxes = eboxes
	return s
}

// inFace reports whether q, a point on face f's plane, lies in the face
// (closed, within a relative tolerance).
func (s *shape) inFace(f int32, q geom.Vec3, n geom.Vec3) bool {
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
