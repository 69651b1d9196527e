//go:build amd64 && !purego

package convex

import "github.com/collide-go/collide/geom"

// faceUnionVec is faceUnionGo with SSE2 (two faces per step) for an even
// n >= 2 faces: fe, gs and gds point to n values each.
//
//go:noescape
func faceUnionVec(fe *uint64, gs, gds *float64, n int, U float64) (c, d uint64)

// faceUnion is faceUnionGo computed by faceUnionVec over an even number
// of faces: an odd count takes one face more where the slices have room
// for it (the arrays of the test and newFaceEdges's padding, a zero edge
// word, so that its values do not count).
func faceUnion(fe []uint64, g, gd []float64, U float64) (c, d uint64) {
	m := (len(g) + 1) &^ 1
	if m == 0 || len(fe) < m || cap(g) < m || cap(gd) < m {
		return faceUnionGo(fe, g, gd, U)
	}
	return faceUnionVec(&fe[0], &g[0], &gd[0], m, U)
}

// faceBoundsVec is faceBoundsGo with AVX for ngroups >= 1 groups of
// newFaceGroups (its planes' offsets after them); pts holds c then y, and
// lo, lod take 4*ngroups values each.
//
//go:noescape
func faceBoundsVec(groups *float64, ngroups int, pts *float64, lo, lod *float64)

// faceBounds is faceBoundsGo, computed by faceBoundsVec where the
// processor has the vector kernels.
func faceBounds(p *Polytope, c, y geom.Vec3, lo, lod *[faceSlots]float64) {
	ng := (len(p.planes) + 3) / 4
	if haveVec && ng > 0 && ng <= faceSlots/4 && len(p.faceGroups) >= 16*ng {
		pts := [6]float64{c.X, c.Y, c.Z, y.X, y.Y, y.Z}
		faceBoundsVec(&p.faceGroups[0], ng, &pts[0], &lo[0], &lod[0])
		return
	}
	faceBoundsGo(p.planes, c, y, lo, lod)
}
