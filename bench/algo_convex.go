package bench

import (
	"fmt"

	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
)

// Narrow-phase algorithms of package convex (Chung and Wang,
// ../shared/papers/003):
//
//   - "sepvec": the separating-vector search with the per-pair cache of
//     the last separating vector and supporting vertices carried from
//     frame to frame (Sec. 2.2); Reset clears the caches.
//   - "gjk": GJK stopped at the first separating direction, started each
//     time from the centroids (no coherence).
//   - "gjk-warm": the same GJK warm-started from the pair's previous
//     direction and supporting vertices.
func init() {
	RegisterNarrow("sepvec", func(w *Workload) (NarrowAlgo, error) {
		ps, err := convexBodies(w)
		return &sepvecAlgo{polys: ps}, err
	})
	RegisterNarrow("gjk", func(w *Workload) (NarrowAlgo, error) {
		ps, err := convexBodies(w)
		return &gjkAlgo{polys: ps}, err
	})
	RegisterNarrow("gjk-warm", func(w *Workload) (NarrowAlgo, error) {
		ps, err := convexBodies(w)
		return &gjkAlgo{polys: ps, warm: true}, err
	})
}

// convexBodies prepares one polytope per mesh (untimed preprocessing) and
// returns the polytope of every body.
func convexBodies(w *Workload) ([]*convex.Polytope, error) {
	per := make([]*convex.Polytope, len(w.Meshes))
	for i, m := range w.Meshes {
		p, err := convex.New(m)
		if err != nil {
			return nil, fmt.Errorf("mesh %s: %w", w.MeshNames[i], err)
		}
		per[i] = p
	}
	out := make([]*convex.Polytope, len(w.BodyMesh))
	for b, mi := range w.BodyMesh {
		out[b] = per[mi]
	}
	return out, nil
}

type sepvecAlgo struct {
	polys  []*convex.Polytope
	s      convex.Searcher
	caches convex.PairMap[convex.Cache]
}

func (a *sepvecAlgo) Reset() { a.caches.Reset() }

func (a *sepvecAlgo) Test(_, i, j int, ti, tj *geom.Transform) bool {
	r := a.s.Intersect(a.polys[i], ti, a.polys[j], tj, a.caches.Get(i, j))
	return r.Status != convex.Separated
}

type gjkAlgo struct {
	polys  []*convex.Polytope
	warm   bool
	caches convex.PairMap[convex.GJKCache]
}

func (a *gjkAlgo) Reset() { a.caches.Reset() }

func (a *gjkAlgo) Test(_, i, j int, ti, tj *geom.Transform) bool {
	var c *convex.GJKCache
	if a.warm {
		c = a.caches.Get(i, j)
	}
	return convex.GJKIntersect(a.polys[i], ti, a.polys[j], tj, c, nil).Status != convex.Separated
}
