//go:build !amd64 || purego

package convex

// faceUnion is faceUnionGo (no vector kernel on this build).
func faceUnion(fe []uint64, g, gd []float64, U float64) (c, d uint64) {
	return faceUnionGo(fe, g, gd, U)
}
