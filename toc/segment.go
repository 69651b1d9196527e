package toc

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// segBox is a segment prepared for slab tests against BVH nodes.
type segBox struct {
	p, d, inv geom.Vec3
}

func (sb *segBox) overlapsNode(n *node, tmax float64) bool {
	lo, hi := 0.0, tmax
	for k := 0; k < 3; k++ {
		p, d, inv := sb.p.Get(k), sb.d.Get(k), sb.inv.Get(k)
		mn, mx := n.min.Get(k), n.max.Get(k)
		if d == 0 {
			if p < mn || p > mx {
				return false
			}
			continue
		}
		t0, t1 := (mn-p)*inv, (mx-p)*inv
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		// widen by a relative guard so rounding cannot cull a touching
		// segment.
		g := 1e-12 * (math.Abs(t0) + math.Abs(t1) + 1)
		lo, hi = math.Max(lo, t0-g), math.Min(hi, t1+g)
		if lo > hi {
			return false
		}
	}
	return true
}

// firstSegment returns the BVH position of the triangle first met by the
// segment p-q with its parameter, or -1.
func (s *Soup) firstSegment(p, q geom.Vec3, sp *[]int32) (int32, float64) {
	d := q.Sub(p)
	sb := segBox{p: p, d: d, inv: geom.Vec3{X: 1 / d.X, Y: 1 / d.Y, Z: 1 / d.Z}}
	best, bestS := int32(-1), math.Inf(1)
	stack := append((*sp)[:0], 0)
	for len(stack) > 0 {
		ni := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &s.nodes[ni]
		lim := 1.0
		if bestS < lim {
			lim = bestS
		}
		if !sb.overlapsNode(n, lim) {
			continue
		}
		if n.left < 0 {
			for i := n.start; i < n.start+n.count; i++ {
				t := &s.tris[i]
				if sv, ok := geom.SegmentTriangle(p, q, t.a, t.b, t.c); ok && sv < bestS {
					best, bestS = i, sv
				}
			}
			continue
		}
		stack = append(stack, n.left+1, n.left)
	}
	*sp = stack
	return best, bestS
}
