package bench

import (
	"fmt"

	"github.com/collide-go/collide/screw"
)

// Continuous collision algorithms of package screw (Buss, "Collision
// Detection with Relative Screw Motion"), one name per
// collision-screen resolution of the paper's Sec. 9.1: a typical short edge
// is about 6 ("screw-px6"), 12 ("screw-px12", the default) or 24
// ("screw-px24") pixels long. The motions of the workloads are exactly the
// screw motions the detector assumes (FORMAT.md Sec. 6), so its answers are
// exact at every resolution; the resolution only changes the work. hit and
// toc are the earliest contact the detector reports (Detector.FirstContact).
func init() {
	for _, ppe := range []int{6, 12, 24} {
		ppe := ppe
		RegisterCCD(fmt.Sprintf("screw-px%d", ppe), func(w *Workload) (CCDAlgo, error) {
			d := screw.NewDetector()
			for _, m := range w.Meshes {
				d.Prepare(m) // untimed per-mesh preprocessing (bounding spheres, clusters)
			}
			return &screwAlgo{w: w, d: d, opt: screw.Options{PixelsPerEdge: float64(ppe)}}, nil
		})
	}
}

type screwAlgo struct {
	w   *Workload
	d   *screw.Detector
	opt screw.Options
}

func (a *screwAlgo) Query(q *Query) (bool, float64) {
	ma, mb := a.w.Meshes[q.MeshA], a.w.Meshes[q.MeshB]
	hit, toc, err := a.d.FirstContact(ma, mb, q.A0, q.A1, q.B0, q.B1, &a.opt)
	if err != nil {
		return false, 0
	}
	return hit, toc
}
