//go:build !amd64 || purego

package convex

import "github.com/collide-go/collide/geom"

// haveVec is false: there are no vector kernels for this architecture
// (or the purego build tag asks for none).
const haveVec = false

// poseSoA is poseGo; it returns false (no vector scans).
func poseSoA(dst, src *soa, n int, t *geom.Transform) bool {
	poseGo(dst, src, n, t)
	return false
}

// supportLoc reports ok = false: there is no vector scan here.
func (p *Polytope) supportLoc(d geom.Vec3) (int32, float64, bool) { return 0, 0, false }

// scan2Vec is never called here: no posed body has vec set.
func scan2Vec(a, b *soa, d *geom.Vec3, nblkA, nblkB int) (ia, ib int64, ha, hb float64) {
	return -1, -1, 0, 0
}

// minDirsVec is never called here: no pair has the vector kernels.
func minDirsVec(s *soa, nblk int, dirs *float64, dstride, nd int, vals *float64, idx *int32) {}

// minFirst is never called here: haveVec is false.
func minFirst(xs *float64, n int) (idx int64) { return -1 }

// supportLoc2 reports ok = false: there is no vector scan here.
func supportLoc2(a *Polytope, da geom.Vec3, b *Polytope, db geom.Vec3) (ia int32, ha float64, ib int32, hb float64, ok bool) {
	return 0, 0, 0, 0, false
}

// facePlanesVec is never called without the vector kernels (haveVec is
// false): expand computes the planes with facePlane.
func facePlanesVec(verts *epaVert, rim *rimEdge, n int, w *geom.Vec3, faces *epaFace, dist *float64) {
}
