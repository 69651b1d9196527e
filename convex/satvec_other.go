//go:build !amd64 || purego

package convex

// minFaces is minFacesGo (no vector kernels on this build).
func minFaces(groups []float64, ngroups int, pts *soa, st, npts int, vals *[faceSlots]float64, idx *[faceSlots]int64) {
	minFacesGo(groups, ngroups, pts, st, npts, vals, idx)
}
