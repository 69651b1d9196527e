package convex

import (
	"fmt"

	"github.com/collide-go/collide/geom"
)

// PairQuery is one pair of a batch for Searcher.SignedDistances: the
// bodies' indices A and B into the batch's polytopes and transforms, the
// pair's cache (nil: none), and the answer (Out, or Err when the query
// could not be answered).
type PairQuery struct {
	A, B  int32
	Cache *DistanceCache
	Out   Distance
	Err   error
}

// batchState is the scratch space of SignedDistances: each body's
// transform checked once per call (entries valid where stamp equals gen)
// and the queries left after a stage.
type batchState struct {
	gen   uint32
	stamp []uint32
	dev   []float64
	ok    []uint8 // 1: rigid, 2: translation within geom.MaxCoord, 4: rigid and exact to rounding
	left  []int32
}

// SignedDistances answers every query of qs as SignedDistance would
// (q.Out the same Distance, bit for bit, and q.Cache updated the same
// way), with body q.A being polys[q.A] placed by tf[q.A] and body q.B
// likewise; it returns the number of queries whose Err is set (an index
// out of range, a nil polytope, a transform that SignedDistance refuses),
// whose Out is then the zero Distance.
//
// It is the form for a scene that tests many pairs per step (a frame of a
// simulation): each body's transform is checked once, not once per pair,
// and the queries are answered stage by stage over the whole batch (every
// cached closest-feature pair and its walk, then every cached overlap
// axis, then GJK and what follows it for the rest), so that a stage's code
// is reused from one pair to the next while it is in the instruction
// cache. The caches must stay where they are during the call (pointers
// into a slice that is not appended to). Queries allocate nothing once
// the searcher's scratch space has grown to the number of bodies and
// queries.
func (s *Searcher) SignedDistances(polys []*Polytope, tf []geom.Transform, qs []PairQuery) int {
	bs := &s.batch
	if len(bs.stamp) < len(polys) {
		bs.stamp = make([]uint32, len(polys))
		bs.dev = make([]float64, len(polys))
		bs.ok = make([]uint8, len(polys))
		bs.gen = 0
	}
	bs.gen++
	if bs.gen == 0 {
		clear(bs.stamp)
		bs.gen = 1
	}
	nbody := min(len(polys), len(tf))
	left := bs.left[:0]
	bad := 0
	for k := range qs {
		q := &qs[k]
		q.Out, q.Err = Distance{}, nil
		if uint32(q.A) >= uint32(nbody) || uint32(q.B) >= uint32(nbody) {
			q.Err = fmt.Errorf("convex: query %d: body %d or %d out of range (%d bodies)", k, q.A, q.B, nbody)
			bad++
			continue
		}
		a, b := polys[q.A], polys[q.B]
		if a == nil || b == nil {
			q.Err = fmt.Errorf("convex: query %d: nil polytope", k)
			bad++
			continue
		}
		okA, okB := bs.check(q.A, &tf[q.A]), bs.check(q.B, &tf[q.B])
		if okA&2 == 0 || okB&2 == 0 {
			q.Err = fmt.Errorf("convex: query %d: %w: a translation is beyond geom.MaxCoord", k, ErrTransform)
			bad++
			continue
		}
		q.Out.Tol = s.Options.tol(a, b)
		if !s.sdFeature(a, &tf[q.A], b, &tf[q.B], q.Cache, &q.Out, bs.exact(q.A, q.B)) {
			left = append(left, int32(k))
		}
	}
	n := 0
	for _, k := range left {
		q := &qs[k]
		if !s.sdAxis(polys[q.A], &tf[q.A], polys[q.B], &tf[q.B], q.Cache, &q.Out, bs.exact(q.A, q.B)) {
			left[n] = k
			n++
		}
	}
	for _, k := range left[:n] {
		q := &qs[k]
		okT := bs.ok[q.A]&bs.ok[q.B]&1 != 0
		if err := s.sdSearch(polys[q.A], &tf[q.A], polys[q.B], &tf[q.B], q.Cache, &q.Out, okT, max(bs.dev[q.A], bs.dev[q.B])); err != nil {
			q.Out, q.Err = Distance{}, fmt.Errorf("convex: query %d: %w", k, err)
			bad++
		}
	}
	bs.left = left
	return bad
}

// check returns body i's transform checks (the bits of batchState.ok),
// computing them at the body's first query of the call (small enough to
// be inlined: the checks are made once per body, read once per query).
func (bs *batchState) check(i int32, t *geom.Transform) uint8 {
	if bs.stamp[i] != bs.gen {
		bs.setCheck(i, t)
	}
	return bs.ok[i]
}

// setCheck computes body i's transform checks for check.
func (bs *batchState) setCheck(i int32, t *geom.Transform) {
	ok, dev := rigid(t)
	exact := ok && dev <= exactRotation
	bs.ok[i] = uint8(b2i(ok) | b2i(withinMaxCoord(t.T))<<1 | b2i(exact)<<2)
	bs.dev[i] = dev
	bs.stamp[i] = bs.gen
}

// exact reports whether both bodies' rotations are exact to rounding (the
// condition of the cached stages: both rigid and the larger deviation at
// most exactRotation, that is each body's).
func (bs *batchState) exact(i, j int32) bool {
	return bs.ok[i]&bs.ok[j]&4 != 0
}
