//go:build amd64 && !purego

package convex

// minFacesVec is minFacesGo with AVX2 (four faces per instruction, the same
// products and sums, no fused multiply-adds) for ngroups >= 1.
//
//go:noescape
func minFacesVec(groups *float64, ngroups int, pts *float64, stride, npts int, vals *float64, idx *int64)

// minFaces is minFacesVec where the processor has AVX2, else minFacesGo.
func minFaces(groups []float64, ngroups int, pts *soa, st, npts int, vals *[faceSlots]float64, idx *[faceSlots]int64) {
	if haveVec && ngroups > 0 && ngroups <= faceSlots/4 && len(groups) >= 12*ngroups {
		minFacesVec(&groups[0], ngroups, &pts[0], st, npts, &vals[0], &idx[0])
		return
	}
	minFacesGo(groups, ngroups, pts, st, npts, vals, idx)
}
