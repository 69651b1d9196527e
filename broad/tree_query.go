package broad

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// rayBox returns the parameter interval [t0, t1] in which the ray o + t d
// (t in [0, tmax]) lies in the box, and whether it is non-empty. inv holds
// 1/d per axis (infinite for a zero component).
func rayBox(b *box6, o, inv [3]float64, tmax float64) (float64, bool) {
	t0, t1 := 0.0, tmax
	for k := 0; k < 3; k++ {
		a := (b.lo[k] - o[k]) * inv[k]
		c := (b.hi[k] - o[k]) * inv[k]
		if math.IsNaN(a) || math.IsNaN(c) {
			// d[k] = 0 with o[k] on a slab plane: inside iff lo <= o <= hi.
			if o[k] < b.lo[k] || o[k] > b.hi[k] {
				return 0, false
			}
			continue
		}
		if a > c {
			a, c = c, a
		}
		t0, t1 = max(t0, a), min(t1, c)
		if t0 > t1 {
			return 0, false
		}
	}
	return t0, true
}

// RayCast calls fn for every body whose tight box the ray origin + t dir, t
// in [0, maxT], enters, with the parameter tEnter at which it enters the
// box. fn returns the new maxT: return a smaller value (the parameter of a
// hit found on the body) to clip the ray and skip boxes beyond it, maxT
// unchanged to see every body, or a negative value to stop. dir need not be
// unit; t is in multiples of dir. Bodies are not visited in order of
// distance.
func (t *Tree) RayCast(origin, dir geom.Vec3, maxT float64, fn func(id int, tEnter float64) float64) {
	if !t.inited || t.root == null || !(maxT >= 0) {
		return
	}
	o := [3]float64{origin.X, origin.Y, origin.Z}
	inv := [3]float64{1 / dir.X, 1 / dir.Y, 1 / dir.Z}
	st := append(t.stack[:0], t.root)
	for len(st) > 0 {
		i := st[len(st)-1]
		st = st[:len(st)-1]
		n := &t.nodes[i]
		if _, ok := rayBox(&n.box, o, inv, maxT); !ok {
			continue
		}
		if n.height == 0 {
			if te, ok := rayBox(&t.tight[n.id], o, inv, maxT); ok {
				maxT = fn(int(n.id), te)
				if maxT < 0 {
					break
				}
			}
			continue
		}
		st = append(st, n.child1, n.child2)
	}
	t.stack = st[:0]
}

// boxDist2 returns the squared distance from p to the box (0 inside).
func boxDist2(b *box6, p [3]float64) float64 {
	s := 0.0
	for k := 0; k < 3; k++ {
		if d := b.lo[k] - p[k]; d > 0 {
			s += d * d
		} else if d := p[k] - b.hi[k]; d > 0 {
			s += d * d
		}
	}
	return s
}

// Nearest calls fn for the bodies whose tight boxes are within maxDist of
// p, nearer boxes first where the tree allows, with the distance from p to
// the body's box (a lower bound of the distance to the body). fn returns
// the new maxDist (the exact distance of the body when it is the nearest so
// far, else maxDist unchanged); subtrees whose boxes lie farther are
// skipped. This is the branch and bound of a closest-body query.
func (t *Tree) Nearest(p geom.Vec3, maxDist float64, fn func(id int, boxDist float64) float64) {
	if !t.inited || t.root == null || !(maxDist >= 0) {
		return
	}
	q := [3]float64{p.X, p.Y, p.Z}
	st := append(t.stack[:0], t.root)
	for len(st) > 0 {
		i := st[len(st)-1]
		st = st[:len(st)-1]
		n := &t.nodes[i]
		if boxDist2(&n.box, q) > maxDist*maxDist {
			continue
		}
		if n.height == 0 {
			if d2 := boxDist2(&t.tight[n.id], q); d2 <= maxDist*maxDist {
				maxDist = fn(int(n.id), math.Sqrt(d2))
			}
			continue
		}
		// Push the farther child first so the nearer one is visited first.
		c1, c2 := n.child1, n.child2
		if boxDist2(&t.nodes[c1].box, q) < boxDist2(&t.nodes[c2].box, q) {
			c1, c2 = c2, c1
		}
		st = append(st, c1, c2)
	}
	t.stack = st[:0]
}
