//go:build !amd64 || purego

package convex

import "github.com/collide-go/collide/geom"

// faceUnion is faceUnionGo (no vector kernel on this build).
func faceUnion(fe []uint64, g, gd []float64, U float64) (c, d uint64) {
	return faceUnionGo(fe, g, gd, U)
}

// faceBounds is faceBoundsGo (no vector kernels on this build).
func faceBounds(p *Polytope, c, y geom.Vec3, lo, lod *[faceSlots]float64) {
	faceBoundsGo(p.planes, c, y, lo, lod)
}
