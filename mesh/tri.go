package mesh

import "github.com/collide-go/collide/geom"

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
	var work []int32
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		if len(l) == 3 || m.faceConvex(f) {
			for k := 1; k+1 < len(l); k++ {
				dst = append(dst, Tri{V: [3]int32{l[0], l[k], l[k+1]}, Face: int32(f)})
			}
			continue
		}
		work = append(work[:0], l...)
		dst = m.earClip(f, work, dst)
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

// earClip triangulates the loop poly of face f by ear clipping (O(n^2)).
func (m *Mesh) earClip(f int, poly []int32, dst []Tri) []Tri {
	n := m.Planes[f].N
	u, w := n.Orthonormal()
	p2 := func(i int32) (float64, float64) { v := m.Verts[i]; return v.Dot(u), v.Dot(w) }
	cross := func(a, b, c int32) float64 {
		ax, ay := p2(a)
		bx, by := p2(b)
		cx, cy := p2(c)
		return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	}
	inside := func(p, a, b, c int32) bool {
		return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0
	}
	for len(poly) > 3 {
		k := len(poly)
		found := false
		for i := 0; i < k; i++ {
			a, b, c := poly[(i+k-1)%k], poly[i], poly[(i+1)%k]
			if cross(a, b, c) <= 0 {
				continue
			}
			ear := true
			for _, p := range poly {
				if p != a && p != b && p != c && inside(p, a, b, c) {
					ear = false
					break
				}
			}
			if ear {
				dst = append(dst, Tri{V: [3]int32{a, b, c}, Face: int32(f)})
				poly = append(poly[:i], poly[i+1:]...)
				found = true
				break
			}
		}
		if !found { // numerically stuck: fall back to a fan of what is left
			for i := 1; i+1 < len(poly); i++ {
				dst = append(dst, Tri{V: [3]int32{poly[0], poly[i], poly[i+1]}, Face: int32(f)})
			}
			return dst
		}
	}
	return append(dst, Tri{V: [3]int32{poly[0], poly[1], poly[2]}, Face: int32(f)})
}

// TriangleVerts returns the three positions of t in m's local frame.
func (m *Mesh) TriangleVerts(t Tri) (a, b, c geom.Vec3) {
	return m.Verts[t.V[0]], m.Verts[t.V[1]], m.Verts[t.V[2]]
}
