package bench

import (
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
)

// Narrow-phase algorithms of package convex (Chung and Wang, Quick
// Collision Detection of Polytopes in Virtual Environments):
//
//   - "sepvec": the separating-vector search with the per-pair cache of
//     the last separating vector and supporting vertices carried from
//     frame to frame (Sec. 2.2); Reset clears the caches. Bodies of at
//     most 16 vertices are posed (world vertices computed once per frame,
//     in one pass before the frame's tests, timed) and searched by
//     scanning their world vertices; larger ones with directions turned
//     into the body's frame (a vector scan of the local vertices up to
//     160 vertices on AVX2 processors, hill climbing beyond).
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
	per, err := prepareMeshes(w, convex.New)
	if err != nil {
		return nil, err
	}
	out := make([]*convex.Polytope, len(w.BodyMesh))
	for b, mi := range w.BodyMesh {
		out[b] = per[mi]
	}
	return out, nil
}

// poseMax is the largest vertex count for which sepvec transforms a body's
// vertices to world coordinates once per frame (convex.Posed, timed: it
// happens in TestFrame before the frame's tests, or inside Test at the
// body's first test of the frame) instead of turning every search
// direction into the body's frame.
const poseMax = 16

// slotMax is the largest number of bodies for which sepvec finds a pair's
// cache through a flat n x n table (4 bytes per entry) instead of a hash
// map.
const slotMax = 2048

// pairCaches finds the cache of a pair of bodies (i, j): through a flat
// n x n table, slot[i*n+j] being 1 + the index into caches and 0 for a pair
// not seen since reset, when n <= slotMax; else through a map.
type pairCaches[T any] struct {
	n      int
	slot   []int32
	caches []T
	pairs  convex.PairMap[T]
}

// reset forgets every pair of n bodies.
func (p *pairCaches[T]) reset(n int) {
	if p.slot == nil && n <= slotMax {
		p.slot = make([]int32, n*n)
	}
	p.n = n
	clear(p.slot)
	p.caches = p.caches[:0]
	p.pairs.Reset()
}

// get returns the cache of pair (i, j), a zero one for a new pair.
func (p *pairCaches[T]) get(i, j int) *T {
	if p.slot == nil {
		return p.pairs.Get(i, j)
	}
	k := &p.slot[i*p.n+j]
	if *k == 0 {
		var zero T
		p.caches = append(p.caches, zero)
		*k = int32(len(p.caches))
	}
	return &p.caches[*k-1]
}

type sepvecAlgo struct {
	polys  []*convex.Polytope
	s      convex.Searcher
	ready  bool
	caches pairCaches[convex.Cache]
	// Posed bodies and the frame (+1) they were posed for; small[b]: body
	// b has at most poseMax vertices; want[b]: the frame (+1) whose
	// TestFrame found b in a pair of two small bodies.
	posed []convex.Posed
	stamp []int32
	small []bool
	want  []int32
}

func (a *sepvecAlgo) Reset() {
	n := len(a.polys)
	if !a.ready {
		a.posed = make([]convex.Posed, n)
		a.stamp = make([]int32, n)
		a.want = make([]int32, n)
		a.small = make([]bool, n)
		for b, p := range a.polys {
			a.small[b] = p.NumVerts() <= poseMax
		}
		a.ready = true
	}
	a.caches.reset(n)
	clear(a.stamp)
	clear(a.want)
}

func (a *sepvecAlgo) pose(frame, i int, t *geom.Transform) *convex.Posed {
	x := &a.posed[i]
	if a.stamp[i] != int32(frame+1) {
		a.stamp[i] = int32(frame + 1)
		x.Set(a.polys[i], t)
	}
	return x
}

func (a *sepvecAlgo) Test(frame, i, j int, ti, tj *geom.Transform) bool {
	if !a.ready {
		a.Reset()
	}
	c := a.caches.get(i, j)
	if a.small[i] && a.small[j] {
		return a.s.IntersectPosedStatus(a.pose(frame, i, ti), a.pose(frame, j, tj), c) != convex.Separated
	}
	return a.s.IntersectStatus(a.polys[i], ti, a.polys[j], tj, c) != convex.Separated
}

// TestFrame first poses, in body order, every small body that is in a pair
// with another small body (one streaming pass over the transforms and
// vertices, which the processor can prefetch, where posing at each body's
// first test reads them in the scattered order of the pairs), then tests
// every pair as Test does.
func (a *sepvecAlgo) TestFrame(frame int, tf []geom.Transform, pairs []Pair, hit []bool) {
	if !a.ready {
		a.Reset()
	}
	st := int32(frame + 1)
	for _, p := range pairs {
		if a.small[p.A] && a.small[p.B] {
			a.want[p.A], a.want[p.B] = st, st
		}
	}
	for b, w := range a.want {
		if w == st && a.stamp[b] != st {
			a.stamp[b] = st
			a.posed[b].Set(a.polys[b], &tf[b])
		}
	}
	for k, p := range pairs {
		i, j := int(p.A), int(p.B)
		c := a.caches.get(i, j)
		if a.small[i] && a.small[j] {
			hit[k] = a.s.IntersectPosedStatus(&a.posed[i], &a.posed[j], c) != convex.Separated
		} else {
			hit[k] = a.s.IntersectStatus(a.polys[i], &tf[i], a.polys[j], &tf[j], c) != convex.Separated
		}
	}
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
