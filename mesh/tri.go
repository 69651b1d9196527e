package mesh

import (
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/earclip"
)

// Tri is a triangle of a mesh's triangulation: three vertex indices
// (counter-clockwise seen from outside, like the face) and the face it
// comes from.
type Tri struct {
	V    [3]int32
	Face int32
}

// Triangles appends a triangulation of every face to dst and returns it.
// Convex faces are fanned from their first vertex; non-convex faces are
// ear-clipped in their plane. A face of n vertices gives n-2 triangles.
func (m *Mesh) Triangles(dst []Tri) []Tri {
	var (
		pt   [][2]float64
		idx  []int
		tris [][3]int
	)
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		if len(l) == 3 || m.faceConvex(f) {
			for k := 1; k+1 < len(l); k++ {
				dst = append(dst, Tri{V: [3]int32{l[0], l[k], l[k+1]}, Face: int32(f)})
			}
			continue
		}
		// Ear clipping in the face's plane.
		u, w := m.Planes[f].N.Orthonormal()
		pt = pt[:0]
		for _, v := range l {
			p := m.Verts[v]
			pt = append(pt, [2]float64{p.Dot(u), p.Dot(w)})
		}
		tris, idx = earclip.Triangulate(pt, idx, tris[:0])
		for _, t := range tris {
			dst = append(dst, Tri{V: [3]int32{l[t[0]], l[t[1]], l[t[2]]}, Face: int32(f)})
		}
	}
	return dst
}

// faceConvex reports whether every corner of face f turns left about the
// face normal (collinear corners allowed).
func (m *Mesh) faceConvex(f int) bool {
	l := m.Face(f)
	n := m.Planes[f].N
	for k := range l {
		a, b, c := m.Verts[l[k]], m.Verts[l[(k+1)%len(l)]], m.Verts[l[(k+2)%len(l)]]
		if b.Sub(a).Cross(c.Sub(b)).Dot(n) < 0 {
			return false
		}
	}
	return true
}

// TriangleVerts returns the three positions of t in m's local frame.
func (m *Mesh) TriangleVerts(t Tri) (a, b, c geom.Vec3) {
	return m.Verts[t.V[0]], m.Verts[t.V[1]], m.Verts[t.V[2]]
}
