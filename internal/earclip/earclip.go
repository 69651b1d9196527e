// Package earclip triangulates a simple polygon in the plane by ear
// clipping, for the triangulations of package mesh (faces) and package
// meshio (polygons a repair splits).
package earclip

// Triangulate appends to dst a triangulation of the polygon whose corners,
// counter-clockwise, are at pt (plane coordinates), as triples of corner
// indices, and returns the extended slice. An ear is a convex corner whose
// triangle holds no other corner (boundary included); the first ear from
// corner 0 is cut each round (O(n^2)). When no ear is left (a numerically
// stuck or self-overlapping polygon) the rest is fanned from its first
// remaining corner. A polygon of n corners gives n-2 triangles. idx is
// scratch of any length; its grown version is returned for reuse.
func Triangulate(pt [][2]float64, idx []int, dst [][3]int) ([][3]int, []int) {
	cross := func(a, b, c int) float64 {
		return (pt[b][0]-pt[a][0])*(pt[c][1]-pt[a][1]) - (pt[b][1]-pt[a][1])*(pt[c][0]-pt[a][0])
	}
	inside := func(p, a, b, c int) bool {
		return cross(a, b, p) >= 0 && cross(b, c, p) >= 0 && cross(c, a, p) >= 0
	}
	idx = idx[:0]
	for k := range pt {
		idx = append(idx, k)
	}
	rest := idx
	for len(rest) > 3 {
		k := len(rest)
		cut := -1
		for i := 0; i < k && cut < 0; i++ {
			a, b, c := rest[(i+k-1)%k], rest[i], rest[(i+1)%k]
			if cross(a, b, c) <= 0 {
				continue
			}
			ear := true
			for _, q := range rest {
				if q != a && q != b && q != c && inside(q, a, b, c) {
					ear = false
					break
				}
			}
			if ear {
				dst = append(dst, [3]int{a, b, c})
				cut = i
			}
		}
		if cut < 0 {
			for i := 1; i+1 < len(rest); i++ {
				dst = append(dst, [3]int{rest[0], rest[i], rest[i+1]})
			}
			return dst, idx
		}
		rest = append(rest[:cut], rest[cut+1:]...)
	}
	if len(rest) == 3 {
		dst = append(dst, [3]int{rest[0], rest[1], rest[2]})
	}
	return dst, idx
}
