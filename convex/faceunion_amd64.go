//go:build amd64 && !purego

package convex

// faceUnionVec is faceUnionGo with SSE2 (two faces per step) for n >= 1
// faces: fe, gs and gds point to n values each.
//
//go:noescape
func faceUnionVec(fe *uint64, gs, gds *float64, n int, U float64) (c, d uint64)

// faceUnion is faceUnionGo computed by faceUnionVec.
func faceUnion(fe []uint64, g, gd []float64, U float64) (c, d uint64) {
	n := len(g)
	if n == 0 || len(fe) < n || len(gd) < n {
		return faceUnionGo(fe, g, gd, U)
	}
	return faceUnionVec(&fe[0], &g[0], &gd[0], n, U)
}
