package bench

import (
	"slices"

	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
)

// Contact algorithms of package convex (Searcher.SignedDistance: GJK for a
// distance, the expanding polytope snapped to the facet of A - B for a
// depth):
//
//   - "signed-distance": a frame's pairs in one Searcher.SignedDistances
//     call, with the per-pair DistanceCache carried from frame to frame
//     (the cached closest features, overlap axis, GJK's last direction
//     and supporting vertices); Reset clears the caches.
//   - "signed-distance-pair": the same, one SignedDistance call per pair.
//   - "signed-distance-cold": every query from scratch.
func init() {
	RegisterContact("signed-distance", func(w *Workload) (ContactAlgo, error) {
		ps, err := convexBodies(w)
		return &sdFrameAlgo{sdAlgo: sdAlgo{polys: ps, warm: true}}, err
	})
	RegisterContact("signed-distance-pair", func(w *Workload) (ContactAlgo, error) {
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

// cache returns the cache of pair (i, j), nil for the cold algorithm.
func (a *sdAlgo) cache(i, j int) *convex.DistanceCache {
	if !a.warm {
		return nil
	}
	if a.caches.slot == nil && len(a.polys) <= slotMax {
		a.Reset()
	}
	return a.caches.get(i, j)
}

// answer turns a signed distance into the bench's answer.
func answer(d *convex.Distance) ContactAnswer {
	return ContactAnswer{Hit: d.Separation <= 0 || d.Status().Colliding(), SD: d.Separation, N: d.Normal, HasSD: true, HasN: true}
}

func (a *sdAlgo) Contact(_, i, j int, ti, tj *geom.Transform, out *ContactAnswer) {
	d, err := a.s.SignedDistance(a.polys[i], ti, a.polys[j], tj, a.cache(i, j))
	if err != nil {
		*out = ContactAnswer{}
		return
	}
	*out = answer(&d)
}

// sdFrameAlgo answers a frame's pairs in one Searcher.SignedDistances call.
type sdFrameAlgo struct {
	sdAlgo
	qs []convex.PairQuery
}

func (a *sdFrameAlgo) ContactFrame(_ int, tf []geom.Transform, pairs []Pair, out []ContactAnswer) {
	// The pointers to the caches must stay valid through the call: in the
	// flat table, room for every pair of the frame is made first (a new
	// pair appends); in the hash map, every pair is added by a first pass.
	if a.caches.slot == nil && len(a.polys) <= slotMax {
		a.Reset()
	}
	if a.caches.slot != nil {
		a.caches.caches = slices.Grow(a.caches.caches, len(pairs))
	} else {
		for _, p := range pairs {
			a.cache(int(p.A), int(p.B))
		}
	}
	qs := a.qs[:0]
	for _, p := range pairs {
		qs = append(qs, convex.PairQuery{A: int32(p.A), B: int32(p.B), Cache: a.cache(int(p.A), int(p.B))})
	}
	a.s.SignedDistances(a.polys, tf, qs)
	for k := range qs {
		if qs[k].Err != nil {
			out[k] = ContactAnswer{}
			continue
		}
		out[k] = answer(&qs[k].Out)
	}
	a.qs = qs
}
