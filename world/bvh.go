package world

import (
	"sort"

	"github.com/collide-go/collide/geom"
)

// bvh is a static binary tree of boxes built by median splits along the
// longest axis. Leaves hold up to leafSize items.
type bvh struct {
	nodes []bvhNode
	items []int32     // item indices, grouped by leaf
	boxes []geom.AABB // item boxes, in items order
}

type bvhNode struct {
	box         geom.AABB
	left, right int32 // children; left < 0 for a leaf
	start, end  int32 // items[start:end] for a leaf
}

const leafSize = 4

func buildBVH(boxes []geom.AABB) bvh {
	t := bvh{items: make([]int32, len(boxes))}
	for i := range t.items {
		t.items[i] = int32(i)
	}
	if len(boxes) == 0 {
		return t
	}
	t.nodes = make([]bvhNode, 0, 2*len(boxes)/leafSize+2)
	t.build(boxes, 0, int32(len(boxes)))
	t.boxes = make([]geom.AABB, len(boxes))
	for i, it := range t.items {
		t.boxes[i] = boxes[it]
	}
	return t
}

func (t *bvh) build(boxes []geom.AABB, start, end int32) int32 {
	box := geom.EmptyAABB()
	cent := geom.EmptyAABB()
	for _, it := range t.items[start:end] {
		box = box.Union(boxes[it])
		cent = cent.AddPoint(boxes[it].Center())
	}
	id := int32(len(t.nodes))
	t.nodes = append(t.nodes, bvhNode{box: box, left: -1, right: -1, start: start, end: end})
	if end-start <= leafSize {
		return id
	}
	axis := cent.Size().MaxAxis()
	sub := t.items[start:end]
	sort.Slice(sub, func(i, j int) bool {
		ci, cj := boxes[sub[i]].Center().Get(axis), boxes[sub[j]].Center().Get(axis)
		if ci != cj {
			return ci < cj
		}
		return sub[i] < sub[j]
	})
	mid := start + (end-start)/2
	l := t.build(boxes, start, mid)
	r := t.build(boxes, mid, end)
	t.nodes[id].left, t.nodes[id].right = l, r
	return id
}

// query appends to dst the items whose boxes overlap q, depth first, the
// right subtree before the left. stack is scratch.
func (t *bvh) query(q geom.AABB, dst []int32, stack []int32) ([]int32, []int32) {
	if len(t.nodes) == 0 || !t.nodes[0].box.Overlaps(q) {
		return dst, stack
	}
	stack = append(stack[:0], 0)
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		// Descend while a child overlaps q (the node itself does),
		// keeping the left child for later when both do.
		for {
			n := &t.nodes[i]
			if n.left < 0 {
				for k := n.start; k < n.end; k++ {
					if t.boxes[k].Overlaps(q) {
						dst = append(dst, t.items[k])
					}
				}
				break
			}
			lo, ro := t.nodes[n.left].box.Overlaps(q), t.nodes[n.right].box.Overlaps(q)
			if ro {
				if lo {
					stack = append(stack, n.left)
				}
				i = n.right
				continue
			}
			if !lo {
				break
			}
			i = n.left
		}
	}
	return dst, stack
}
