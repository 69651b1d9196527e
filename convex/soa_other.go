//go:build !amd64 || purego

package convex

import "github.com/collide-go/collide/geom"

// haveVec is false: there are no vector kernels for this architecture
// (or the purego build tag asks for none).
const haveVec = false

// scanSoA2 is scanSoA2Go (vec is always false here).
func scanSoA2(a *soa, na int, b *soa, nb int, d geom.Vec3, vec bool) (int32, float64, int32, float64) {
	return scanSoA2Go(a, na, b, nb, d)
}

// poseSoA is poseGo; it returns false (no vector scans).
func poseSoA(dst, src *soa, n int, t *geom.Transform) bool {
	poseGo(dst, src, n, t)
	return false
}

// supportLoc reports ok = false: there is no vector scan here.
func (p *Polytope) supportLoc(d geom.Vec3) (int32, float64, bool) { return 0, 0, false }
