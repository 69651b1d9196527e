//go:build amd64 && !purego

package convex

import "github.com/collide-go/collide/geom"

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
