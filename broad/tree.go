package broad

import (
	"fmt"

	"github.com/collide-go/collide/geom"
)

// Tree is a dynamic bounding-volume tree of boxes (after Box2D's
// b2DynamicTree): a binary tree whose leaves hold the bodies' boxes
// enlarged by a margin ("fat" boxes), built incrementally by inserting each
// leaf next to the sibling that least increases the total surface area and
// kept balanced by AVL-style rotations. Moving a body whose box stays inside
// its fat box costs nothing; a body that leaves it by a little gets a new
// fat box in place (its ancestors are enlarged, and refit before the next
// pair search, as in Box2D v3); one that moved far is removed and
// reinserted.
//
// Pairs are exact: candidates come from the fat boxes and are confirmed on
// the bodies' tight boxes. The tree suits scenes with many static bodies,
// poor coherence, or box queries; for many coherent movers SAP is faster.
//
// The zero value is an empty tree with the default options. A Tree is not
// safe for concurrent use.
type Tree struct {
	// Margin enlarges each leaf box on every side, in length units. Zero
	// means 2% of the box's largest extent (the fat box also stretches
	// along the last displacement).
	Margin float64

	nodes    []treeNode
	root     int32
	free     int32 // head of the free list (linked by parent), -1 = none
	leaf     []int32
	tight    []box6
	n        int
	stack    []int32
	inited   bool
	enlarged bool // boxes were enlarged in place since the last refit
}

type treeNode struct {
	box                    box6
	parent, child1, child2 int32 // parent doubles as the free-list link
	height                 int32 // 0 for leaves, -1 for free nodes
	id                     int32 // body id of a leaf
}

const null = -1

func (t *Tree) init() {
	if !t.inited {
		t.root, t.free, t.inited = null, null, true
	}
}

// Set inserts or moves the box of body id.
func (t *Tree) Set(id int, box geom.AABB) error {
	if err := checkBox(id, box); err != nil {
		return err
	}
	t.init()
	for id >= len(t.leaf) {
		t.leaf = append(t.leaf, null)
		t.tight = append(t.tight, box6{})
	}
	b := toBox6(box)
	prev := t.tight[id]
	t.tight[id] = b
	l := t.leaf[id]
	fat := t.fatten(b)
	if l != null {
		n := &t.nodes[l]
		if contains6(&n.box, &b) {
			return nil
		}
		// Predict the motion (Box2D's displacement multiplier): stretch
		// the fat box by the last displacement, so a body moving steadily
		// leaves its fat box less often.
		for k := 0; k < 3; k++ {
			d := (b.lo[k] + b.hi[k]) - (prev.lo[k] + prev.hi[k])
			if d < 0 {
				fat.lo[k] += d
			} else {
				fat.hi[k] += d
			}
		}
		if overlap6(&n.box, &fat) {
			// A small move: enlarge the leaf and its ancestors in place
			// (Box2D v3); Pairs refits the tree before using it.
			n.box = fat
			for p := n.parent; p != null && !contains6(&t.nodes[p].box, &fat); p = t.nodes[p].parent {
				t.nodes[p].box = union6(&t.nodes[p].box, &fat)
			}
			t.enlarged = true
			return nil
		}
		t.removeLeaf(l)
	} else {
		l = t.alloc()
		t.leaf[id] = l
		t.n++
	}
	t.nodes[l] = treeNode{box: fat, parent: null, child1: null, child2: null, id: int32(id)}
	t.insertLeaf(l)
	return nil
}

// refit recomputes every internal box as the union of its children's,
// bottom up, undoing the growth left by in-place enlargements.
func (t *Tree) refit() {
	if t.root == null {
		return
	}
	// Post-order by an explicit stack: a node is pushed twice, the second
	// time (marked by a negative index) after its children.
	st := append(t.stack[:0], t.root)
	for len(st) > 0 {
		i := st[len(st)-1]
		st = st[:len(st)-1]
		if i < 0 {
			n := &t.nodes[^i]
			n.box = union6(&t.nodes[n.child1].box, &t.nodes[n.child2].box)
			continue
		}
		if n := &t.nodes[i]; n.height > 0 {
			st = append(st, ^i, n.child1, n.child2)
		}
	}
	t.stack = st[:0]
	t.enlarged = false
}

// Remove deletes body id and reports whether it was present.
func (t *Tree) Remove(id int) bool {
	if id < 0 || id >= len(t.leaf) || t.leaf[id] == null {
		return false
	}
	l := t.leaf[id]
	t.removeLeaf(l)
	t.release(l)
	t.leaf[id] = null
	t.n--
	return true
}

// Len returns the number of bodies.
func (t *Tree) Len() int { return t.n }

// Height returns the height of the tree (0 for a single leaf or none).
func (t *Tree) Height() int {
	if !t.inited || t.root == null {
		return 0
	}
	return int(t.nodes[t.root].height)
}

func (t *Tree) fatten(b box6) box6 {
	m := t.Margin
	if m <= 0 {
		m = 0.02 * max(b.hi[0]-b.lo[0], b.hi[1]-b.lo[1], b.hi[2]-b.lo[2])
	}
	for k := 0; k < 3; k++ {
		b.lo[k] -= m
		b.hi[k] += m
	}
	return b
}

func contains6(a, b *box6) bool {
	return a.lo[0] <= b.lo[0] && a.lo[1] <= b.lo[1] && a.lo[2] <= b.lo[2] &&
		b.hi[0] <= a.hi[0] && b.hi[1] <= a.hi[1] && b.hi[2] <= a.hi[2]
}

func union6(a, b *box6) box6 {
	var u box6
	for k := 0; k < 3; k++ {
		u.lo[k] = min(a.lo[k], b.lo[k])
		u.hi[k] = max(a.hi[k], b.hi[k])
	}
	return u
}

// area6 is half the surface area, the SAH cost of a box.
func area6(b *box6) float64 {
	x, y, z := b.hi[0]-b.lo[0], b.hi[1]-b.lo[1], b.hi[2]-b.lo[2]
	return x*y + y*z + z*x
}

func (t *Tree) alloc() int32 {
	if t.free != null {
		i := t.free
		t.free = t.nodes[i].parent
		return i
	}
	t.nodes = append(t.nodes, treeNode{})
	return int32(len(t.nodes) - 1)
}

func (t *Tree) release(i int32) {
	t.nodes[i] = treeNode{parent: t.free, child1: null, child2: null, height: -1, id: null}
	t.free = i
}

// insertLeaf links leaf l into the tree (Box2D v2.4 InsertLeaf).
func (t *Tree) insertLeaf(l int32) {
	if t.root == null {
		t.root = l
		t.nodes[l].parent = null
		return
	}
	lb := t.nodes[l].box
	// Descend to the sibling of least cost (surface area heuristic).
	i := t.root
	for t.nodes[i].height > 0 {
		n := &t.nodes[i]
		c1, c2 := n.child1, n.child2
		area := area6(&n.box)
		u := union6(&n.box, &lb)
		combined := area6(&u)
		cost := 2 * combined
		inherit := 2 * (combined - area)
		childCost := func(c int32) float64 {
			cu := union6(&lb, &t.nodes[c].box)
			if t.nodes[c].height == 0 {
				return area6(&cu) + inherit
			}
			return area6(&cu) - area6(&t.nodes[c].box) + inherit
		}
		cost1, cost2 := childCost(c1), childCost(c2)
		if cost < cost1 && cost < cost2 {
			break
		}
		if cost1 < cost2 {
			i = c1
		} else {
			i = c2
		}
	}
	sib := i
	oldParent := t.nodes[sib].parent
	p := t.alloc()
	t.nodes[p] = treeNode{box: union6(&lb, &t.nodes[sib].box), parent: oldParent, child1: sib, child2: l, height: t.nodes[sib].height + 1, id: null}
	if oldParent != null {
		if t.nodes[oldParent].child1 == sib {
			t.nodes[oldParent].child1 = p
		} else {
			t.nodes[oldParent].child2 = p
		}
	} else {
		t.root = p
	}
	t.nodes[sib].parent = p
	t.nodes[l].parent = p
	t.refitUp(t.nodes[l].parent)
}

// refitUp rebalances and refits the ancestors from i to the root.
func (t *Tree) refitUp(i int32) {
	for i != null {
		i = t.balance(i)
		n := &t.nodes[i]
		c1, c2 := &t.nodes[n.child1], &t.nodes[n.child2]
		n.height = 1 + max(c1.height, c2.height)
		n.box = union6(&c1.box, &c2.box)
		i = n.parent
	}
}

// removeLeaf unlinks leaf l (it is not freed).
func (t *Tree) removeLeaf(l int32) {
	if l == t.root {
		t.root = null
		return
	}
	p := t.nodes[l].parent
	gp := t.nodes[p].parent
	sib := t.nodes[p].child1
	if sib == l {
		sib = t.nodes[p].child2
	}
	if gp != null {
		if t.nodes[gp].child1 == p {
			t.nodes[gp].child1 = sib
		} else {
			t.nodes[gp].child2 = sib
		}
		t.nodes[sib].parent = gp
		t.release(p)
		t.refitUp(gp)
	} else {
		t.root = sib
		t.nodes[sib].parent = null
		t.release(p)
	}
}

// balance performs a left or right rotation if node a is imbalanced and
// returns the new root of the subtree (Box2D v2.4 Balance).
func (t *Tree) balance(ia int32) int32 {
	a := &t.nodes[ia]
	if a.height < 2 {
		return ia
	}
	ib, ic := a.child1, a.child2
	b, c := &t.nodes[ib], &t.nodes[ic]
	bal := c.height - b.height
	if bal > 1 { // rotate c up
		return t.rotate(ia, ic, ib, false)
	}
	if bal < -1 { // rotate b up
		return t.rotate(ia, ib, ic, true)
	}
	return ia
}

// rotate lifts child iu (the taller) of ia over ia; io is ia's other child;
// uIsChild1 says which slot of ia iu occupied.
func (t *Tree) rotate(ia, iu, io int32, uIsChild1 bool) int32 {
	a, u := &t.nodes[ia], &t.nodes[iu]
	fi, gi := u.child1, u.child2
	f, g := &t.nodes[fi], &t.nodes[gi]
	// Swap a and u.
	u.child1 = ia
	u.parent = a.parent
	a.parent = iu
	if u.parent != null {
		pp := &t.nodes[u.parent]
		if pp.child1 == ia {
			pp.child1 = iu
		} else {
			pp.child2 = iu
		}
	} else {
		t.root = iu
	}
	o := &t.nodes[io]
	// Keep the taller grandchild under u, give the other to a.
	keep, give := iff(f.height > g.height, fi, gi), iff(f.height > g.height, gi, fi)
	u.child2 = keep
	if uIsChild1 {
		a.child1 = give
	} else {
		a.child2 = give
	}
	t.nodes[give].parent = ia
	a.box = union6(&o.box, &t.nodes[give].box)
	a.height = 1 + max(o.height, t.nodes[give].height)
	u.box = union6(&a.box, &t.nodes[keep].box)
	u.height = 1 + max(a.height, t.nodes[keep].height)
	return iu
}

func iff(c bool, a, b int32) int32 {
	if c {
		return a
	}
	return b
}

// Query calls fn with the id of every body whose box overlaps box (closed
// intervals), in no particular order, until fn returns false.
func (t *Tree) Query(box geom.AABB, fn func(id int) bool) {
	if !t.inited || t.root == null {
		return
	}
	q := toBox6(box)
	st := append(t.stack[:0], t.root)
	for len(st) > 0 {
		i := st[len(st)-1]
		st = st[:len(st)-1]
		n := &t.nodes[i]
		if !overlap6(&n.box, &q) {
			continue
		}
		if n.height == 0 {
			if overlap6(&t.tight[n.id], &q) && !fn(int(n.id)) {
				break
			}
			continue
		}
		st = append(st, n.child1, n.child2)
	}
	t.stack = st[:0]
}

// Pairs appends every overlapping pair a < b to dst: one traversal of the
// tree against itself, descending only into overlapping fat boxes, with
// the tight boxes deciding at the leaves.
func (t *Tree) Pairs(dst []Pair) []Pair {
	if !t.inited || t.root == null || t.nodes[t.root].height == 0 {
		return dst
	}
	if t.enlarged {
		t.refit()
	}
	// Stack of node pairs; (i, i) means "all pairs within subtree i".
	st := t.stack[:0]
	st = append(st, t.root, t.root)
	for len(st) > 0 {
		i, j := st[len(st)-2], st[len(st)-1]
		st = st[:len(st)-2]
		a, b := &t.nodes[i], &t.nodes[j]
		if i == j {
			if a.height > 0 {
				st = append(st, a.child1, a.child1, a.child2, a.child2, a.child1, a.child2)
			}
			continue
		}
		if !overlap6(&a.box, &b.box) {
			continue
		}
		switch {
		case a.height == 0 && b.height == 0:
			if overlap6(&t.tight[a.id], &t.tight[b.id]) {
				dst = append(dst, ordered(a.id, b.id))
			}
		case a.height >= b.height:
			st = append(st, a.child1, j, a.child2, j)
		default:
			st = append(st, i, b.child1, i, b.child2)
		}
	}
	t.stack = st[:0]
	return dst
}

// Validate checks the tree's invariants: parent and child links agree,
// heights are consistent, every internal box
// contains its children's, every leaf's fat box contains its body's box,
// and the leaf and free-node counts add up.
func (t *Tree) Validate() error {
	if !t.inited || t.root == null {
		if t.n != 0 {
			return fmt.Errorf("broad: tree: empty but Len = %d", t.n)
		}
		return nil
	}
	if t.nodes[t.root].parent != null {
		return fmt.Errorf("broad: tree: root %d has parent %d", t.root, t.nodes[t.root].parent)
	}
	leaves, internal := 0, 0
	var walk func(i int32) error
	walk = func(i int32) error {
		n := &t.nodes[i]
		if n.height == 0 {
			leaves++
			if n.id < 0 || int(n.id) >= len(t.leaf) || t.leaf[n.id] != i {
				return fmt.Errorf("broad: tree: leaf %d has id %d not mapped back", i, n.id)
			}
			if !contains6(&n.box, &t.tight[n.id]) {
				return fmt.Errorf("broad: tree: leaf %d fat box %v does not contain body %d box %v", i, n.box.aabb(), n.id, t.tight[n.id].aabb())
			}
			return nil
		}
		internal++
		c1, c2 := n.child1, n.child2
		for _, c := range []int32{c1, c2} {
			if c < 0 || int(c) >= len(t.nodes) || t.nodes[c].parent != i {
				return fmt.Errorf("broad: tree: node %d child %d does not link back", i, c)
			}
			if !contains6(&n.box, &t.nodes[c].box) {
				return fmt.Errorf("broad: tree: node %d box does not contain child %d", i, c)
			}
		}
		h1, h2 := t.nodes[c1].height, t.nodes[c2].height
		if n.height != 1+max(h1, h2) {
			return fmt.Errorf("broad: tree: node %d height %d, children %d and %d", i, n.height, h1, h2)
		}
		if err := walk(c1); err != nil {
			return err
		}
		return walk(c2)
	}
	if err := walk(t.root); err != nil {
		return err
	}
	if leaves != t.n {
		return fmt.Errorf("broad: tree: %d leaves, Len = %d", leaves, t.n)
	}
	free := 0
	for i := t.free; i != null; i = t.nodes[i].parent {
		free++
		if free > len(t.nodes) {
			return fmt.Errorf("broad: tree: free list has a cycle")
		}
	}
	if leaves+internal+free != len(t.nodes) {
		return fmt.Errorf("broad: tree: %d leaves + %d internal + %d free != %d nodes", leaves, internal, free, len(t.nodes))
	}
	return nil
}
