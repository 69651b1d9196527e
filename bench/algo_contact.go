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
	polys []*convex.Polytope
	warm  bool
	s     convex.Searcher
	// Per-pair caches as in sepvec: slot[a*n+b] is 1 + the index into
	// caches (n <= slotMax), else the map.
	slot   []int32
	caches []convex.DistanceCache
	pairs  convex.PairMap[convex.DistanceCache]
}

func (a *sdAlgo) Reset() {
	if n := len(a.polys); a.slot == nil && n <= slotMax {
		a.slot = make([]int32, n*n)
	}
	clear(a.slot)
	a.caches = a.caches[:0]
	a.pairs.Reset()
}

func (a *sdAlgo) cache(i, j int) *convex.DistanceCache {
	if a.slot == nil {
		return a.pairs.Get(i, j)
	}
	k := &a.slot[i*len(a.polys)+j]
	if *k == 0 {
		a.caches = append(a.caches, convex.DistanceCache{})
		*k = int32(len(a.caches))
	}
	return &a.caches[*k-1]
}

func (a *sdAlgo) Contact(_, i, j int, ti, tj *geom.Transform, out *ContactAnswer) {
	var c *convex.DistanceCache
	if a.warm {
		if a.slot == nil && len(a.polys) <= slotMax {
			a.Reset()
		}
		c = a.cache(i, j)
	}
	d, err := a.s.SignedDistance(a.polys[i], ti, a.polys[j], tj, c)
	if err != nil {
		*out = ContactAnswer{}
		return
	}
	*out = ContactAnswer{Hit: d.Separation <= 0 || d.Status().Colliding(), SD: d.Separation, N: d.Normal, HasSD: true, HasN: true}
}
