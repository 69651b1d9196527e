package toc

import (
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
)

// pnode is a node of a shape's point tree: a bounding sphere (centre c,
// radius r, local frame) of the distinct sample points porder[lo:hi];
// kid is the first of its two children (kid, kid+1), -1 for a leaf.
type pnode struct {
	c      geom.Vec3
	h      geom.Vec3 // half extents of the points' box (centre c)
	r      float64
	lo, hi int32
	kid    int32
}

// pleafSize is the largest number of points in a leaf of the point tree.
const pleafSize = 8

// buildPointTree builds sh.pnodes over the distinct samples sh.uniq,
// splitting each node's points at the median of its box's longest axis.
func (sh *Shape) buildPointTree() {
	sh.porder = append([]int32(nil), sh.uniq...)
	if len(sh.porder) == 0 {
		return
	}
	sh.pnodes = append(sh.pnodes[:0], pnode{lo: 0, hi: int32(len(sh.porder)), kid: -1})
	for i := 0; i < len(sh.pnodes); i++ {
		n := &sh.pnodes[i]
		pts := sh.porder[n.lo:n.hi]
		bb := geom.EmptyAABB()
		for _, k := range pts {
			bb = bb.AddPoint(sh.samples[k])
		}
		n.c, n.h = bb.Center(), bb.Size().Scale(0.5)
		for _, k := range pts {
			n.r = math.Max(n.r, sh.samples[k].Dist(n.c))
		}
		if len(pts) <= pleafSize {
			continue
		}
		size := bb.Size()
		axis := 0
		if size.Y > size.Get(axis) {
			axis = 1
		}
		if size.Z > size.Get(axis) {
			axis = 2
		}
		slices.SortFunc(pts, func(a, b int32) int {
			x, y := sh.samples[a].Get(axis), sh.samples[b].Get(axis)
			switch {
			case x < y:
				return -1
			case x > y:
				return 1
			}
			return int(a - b)
		})
		mid := n.lo + int32(len(pts)/2)
		lo, hi := n.lo, n.hi
		n.kid = int32(len(sh.pnodes))
		sh.pnodes = append(sh.pnodes, pnode{lo: lo, hi: mid, kid: -1}, pnode{lo: mid, hi: hi, kid: -1})
	}
}

// pitem is a node of the point tree over a time interval, with the
// position and velocity of the node's centre at both ends (the other
// body's frame).
type pitem struct {
	node           int32
	depth          int32
	fs, fn         int32 // the parent's front: q.front[fs:fs+fn]
	fa, fb         int32 // the frames at ta and tb: q.pframes[fa], q.pframes[fb]
	ta, tb         float64
	qa, qb, va, vb geom.Vec3
}

// maxPointSplits bounds the subdivisions of one treePass; past it, a node
// is handed to pass with all its points.
const maxPointSplits = 1 << 14

// treePass runs pass for the sample points of sh against soup s during
// [ta, tb], culled by sh's point tree: a node's bounding sphere swept
// over a time interval (the trajectory box of its centre grown by its
// radius: the body is rigid, so every point stays within the radius of
// the centre) that meets no triangle of s rules out all its points in
// that interval. The tree of s is descended together with the point
// tree: each item carries its front, the nodes of s its box meets that
// are about its size, and its children start from it rather than from the
// root. Nodes are split in time while their motion over the
// interval is longer than their size (Algorithm 2 only), and in space
// otherwise; a leaf's
// points are then followed only over the intervals in which its sphere
// can meet s, earliest first, and intervals after the best time so far
// are dropped. It returns the updated best time.
func (q *Scratch) treePass(sh *Shape, onA bool, s *Soup, rel *Relative, ta, tb float64, o *opts, best float64) float64 {
	if len(sh.pnodes) == 0 {
		return best
	}
	q.fgen++ // the frame cache (of pass and tighter too) may hold the other direction's frames
	q.pframes = append(q.pframes[:0], rel.Frame(ta), rel.Frame(tb))
	fa, fb := &q.pframes[0], &q.pframes[1]
	root := &sh.pnodes[0]
	q.front = append(q.front[:0], 0) // the root of s's tree
	q.pstk = append(q.pstk[:0], pitem{fn: 1, fb: 1, ta: ta, tb: tb, qa: fa.Pos(root.c), qb: fb.Pos(root.c), va: fa.Vel(root.c), vb: fb.Vel(root.c)})
	splits := 0
	// Time is split down to a sixteenth of the body's size: below that
	// the points' own bisection is cheaper. Algorithm 3 keeps the
	// caller's interval (its chords start there).
	minSize := sh.radius / 16
	for len(q.pstk) > 0 {
		it := q.pstk[len(q.pstk)-1]
		q.pstk = q.pstk[:len(q.pstk)-1]
		if q.pruned(it.ta, best, o) {
			continue
		}
		n := &sh.pnodes[it.node]
		h := it.tb - it.ta
		k, rb := rel.Lipschitz(n.c), rel.RotationBound(n.c)
		ell := math.Min(SpeedBound(norm(it.va), norm(it.vb), k, h), q.speedGlobal(rel, rb, it.ta, it.tb)) * h
		bx, _ := trajBox(it.qa, it.qb, ell, n.r+padFor(s, it.qa, ell))
		q.tighter(&bx, rel, s, n.c, n.h, n.r, it.ta, it.tb)
		tm := (it.ta + it.tb) / 2
		canSplit := splits < maxPointSplits && it.depth < 40
		splitTime := canSplit && o.alg == Boxes && ell > 2*math.Max(n.r, minSize) && tm > it.ta && tm < it.tb
		if !splitTime && (!canSplit || n.kid < 0) {
			// The points themselves, against the triangles the box
			// meets (at most maxCand + 1: pass searches the tree for
			// longer lists).
			q.hcand = q.hcand[:0]
			q.descend(s, false, &bx, it.fs, it.fn, &q.hcand, maxCand)
			if len(q.hcand) > 0 {
				best = q.pass(sh, sh.porder[n.lo:n.hi], onA, s, q.hcand, rel, it.ta, it.tb, &q.pframes[it.fa], &q.pframes[it.fb], o, best)
			}
			continue
		}
		fs, fn := q.descend(s, false, &bx, it.fs, it.fn, nil, 0)
		if fn == 0 {
			continue
		}
		if splitTime {
			splits++
			fm := int32(len(q.pframes))
			q.pframes = append(q.pframes, rel.Frame(tm))
			qm, vm := q.pframes[fm].Pos(n.c), q.pframes[fm].Vel(n.c)
			q.pstk = append(q.pstk,
				pitem{node: it.node, depth: it.depth + 1, fs: fs, fn: fn, fa: fm, fb: it.fb, ta: tm, tb: it.tb, qa: qm, qb: it.qb, va: vm, vb: it.vb},
				pitem{node: it.node, depth: it.depth + 1, fs: fs, fn: fn, fa: it.fa, fb: fm, ta: it.ta, tb: tm, qa: it.qa, qb: qm, va: it.va, vb: vm})
		} else {
			splits++
			fa, fb := &q.pframes[it.fa], &q.pframes[it.fb]
			for c := n.kid + 1; c >= n.kid; c-- {
				u := sh.pnodes[c].c
				q.pstk = append(q.pstk, pitem{node: c, depth: it.depth + 1, fs: fs, fn: fn, fa: it.fa, fb: it.fb, ta: it.ta, tb: it.tb, qa: fa.Pos(u), qb: fb.Pos(u), va: fa.Vel(u), vb: fb.Vel(u)})
			}
		}
	}
	return best
}

// tighter replaces *b, a box that holds the points of a node (local box
// centre c, half extents h, within r of c) during [ta, tb], with the
// node's box placed at the middle of the interval and grown by the
// distance any of its points can travel in half the interval, when that
// box is the smaller: near the other body a node moves little in its
// interval and the placed box is about as thin as the node, where the
// sphere around the centre's path is as thick as the node is wide. Both
// hold the points, so either may be used.
func (q *Scratch) tighter(b *box, rel *Relative, s *Soup, c, h geom.Vec3, r, ta, tb float64) {
	fm := q.frame(rel, (ta+tb)/2)
	g := q.speedGlobal(rel, rel.RotationBound(c)+rel.dwn*r, ta, tb) * (tb - ta) / 2
	if (h.X+g)*(h.Y+g)*(h.Z+g) >= b.h[0]*b.h[1]*b.h[2] {
		return
	}
	pc := fm.Pos(c)
	abs := absFrame(fm)
	b.place(fm, &abs, pc, h, g+padFor(s, pc, g+r))
}

// place sets b to the box of local half extents h placed by the frame f
// with its centre at c (f's image of the local centre), grown by g on
// every side; abs is f.A with its entries' magnitudes (absFrame).
func (b *box) place(f *Frame, abs *geom.Mat3, c, h geom.Vec3, g float64) {
	b.c, b.ax = c, [3]geom.Vec3{f.A.Col(0), f.A.Col(1), f.A.Col(2)}
	b.abs = [3]geom.Vec3{abs.Col(0), abs.Col(1), abs.Col(2)}
	b.h = [3]float64{h.X + g, h.Y + g, h.Z + g}
	b.boundAbs()
}

// absFrame returns f.A with its entries' magnitudes.
func absFrame(f *Frame) geom.Mat3 {
	var abs geom.Mat3
	for i := range 3 {
		for j := range 3 {
			abs[i][j] = math.Abs(f.A[i][j])
		}
	}
	return abs
}

// descend walks the subtrees of t rooted at the front q.front[fs:fs+fn]
// that overlap b; t is a soup's tree of triangles or, with seg, of edges.
// With dst it appends the positions of the entries that overlap b to
// *dst, stopping once it has appended more than max when max > 0.
// Otherwise it appends to q.front, and returns the range of, the new
// front: the nodes whose diagonal is at most half b's that overlap b, or
// larger leaves with an entry that overlaps b, provided one of them has
// such an entry; nothing is appended when no entry of t can overlap b.
func (q *Scratch) descend(t *Soup, seg bool, b *box, fs, fn int32, dst *[]int32, max int) (int32, int32) {
	start := int32(len(q.front))
	size2 := b.h[0]*b.h[0] + b.h[1]*b.h[1] + b.h[2]*b.h[2] // half b's diagonal, squared
	stack := append(q.stack[:0], q.front[fs:fs+fn]...)
	limit, verified := 0, false
	if dst != nil {
		limit = len(*dst) + max
	}
	for len(stack) > 0 {
		ni := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &t.nodes[ni]
		if !b.overlapsNode(n) {
			continue
		}
		if n.left < 0 {
			for i := n.start; i < n.start+n.count; i++ {
				if seg && !b.overlapsSegTri(&t.tris[i]) || !seg && !b.overlapsTri(&t.tris[i]) {
					continue
				}
				if dst == nil {
					verified = true
					q.front = append(q.front, ni)
					break
				}
				*dst = append(*dst, i)
				if max > 0 && len(*dst) > limit {
					q.stack = stack[:0]
					return start, 0
				}
			}
			continue
		}
		if dst == nil && n.max.Sub(n.min).Norm2() <= size2 {
			// Once one node of the front is known to hold an entry
			// that overlaps b, the others are kept unverified: the
			// front is only to start the children's descent.
			if verified || q.anyUnder(t, seg, b, ni) {
				verified = true
				q.front = append(q.front, ni)
			}
			continue
		}
		stack = append(stack, n.left+1, n.left)
	}
	q.stack = stack
	return start, int32(len(q.front)) - start
}

// anyUnder reports whether an entry of t's subtree rooted at node ni
// overlaps b.
func (q *Scratch) anyUnder(t *Soup, seg bool, b *box, ni int32) bool {
	stack := append(q.stack2[:0], ni)
	found := false
	for len(stack) > 0 && !found {
		n := &t.nodes[stack[len(stack)-1]]
		stack = stack[:len(stack)-1]
		if !b.overlapsNode(n) {
			continue
		}
		if n.left >= 0 {
			stack = append(stack, n.left+1, n.left)
			continue
		}
		for i := n.start; i < n.start+n.count && !found; i++ {
			found = seg && b.overlapsSegTri(&t.tris[i]) || !seg && b.overlapsTri(&t.tris[i])
		}
	}
	q.stack2 = stack
	return found
}
