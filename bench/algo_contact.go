package bench

import (
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
)

// Contact algorithms of package convex (Searcher.SignedDistance: GJK for a
// distance, the expanding polytope snapped to the facet of A - B for a
// depth):
//
//   - "signed-distance": with the per-pair DistanceCache carried from frame
//     to frame (GJK warm-started from the last direction and supporting
//     vertices); Reset clears the caches.
//   - "signed-distance-cold": every query from scratch.
func init() {
	RegisterContact("signed-distance", func(w *Workload) (ContactAlgo, error) {
		ps, err := convexBodies(w)
		return &sdAlgo{polys: ps, warm: true}, err
	})
	RegisterContact("signed-distance-cold", func(w *Workload) (ContactAlgo, error) {
		ps, err := convexBodies(w)
		return &sdAlgo{polys: ps}, err
	})
}

type sdAlgo struct {
	polys  []*convex.Polytope
	warm   bool
	s      convex.Searcher
	caches pairCaches[convex.DistanceCache] // per pair, as in sepvec
}

func (a *sdAlgo) Reset() { a.caches.reset(len(a.polys)) }

func (a *sdAlgo) Contact(_, i, j int, ti, tj *geom.Transform, out *ContactAnswer) {
	var c *convex.DistanceCache
	if a.warm {
		if a.caches.slot == nil && len(a.polys) <= slotMax {
			a.Reset()
		}
		c = a.caches.get(i, j)
	}
	d, err := a.s.SignedDistance(a.polys[i], ti, a.polys[j], tj, c)
	if err != nil {
		*out = ContactAnswer{}
		return
	}
	*out = ContactAnswer{Hit: d.Separation <= 0 || d.Status().Colliding(), SD: d.Separation, N: d.Normal, HasSD: true, HasN: true}
}
