package meshquery

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/robust"
)

// Location is where a point lies with respect to a closed surface.
type Location int8

const (
	// Outside the solid.
	Outside Location = iota - 1
	// OnSurface: exactly on a triangle.
	OnSurface
	// Inside the solid.
	Inside
)

// String returns "outside", "on surface" or "inside".
func (l Location) String() string {
	if l >= Outside && l <= Inside {
		return locationNames[l-Outside]
	}
	return fmt.Sprintf("Location(%d)", int8(l))
}

var locationNames = [...]string{"outside", "on surface", "inside"}

// rayDirs are the directions tried by Locate, in order, until a ray meets
// no edge or vertex of the surface (irrational-looking components so that
// axis-aligned and symmetric meshes rarely make the first one degenerate).
var rayDirs = [...]geom.Vec3{
	{X: 0.5773502691896257, Y: 0.6172133998483676, Z: 0.5345224838248488},
	{X: -0.7071067811865475, Y: 0.3162277660168379, Z: 0.6324555320336759},
	{X: 0.2672612419124244, Y: -0.8017837257372732, Z: 0.5345224838248488},
	{X: 0.4082482904638631, Y: 0.4082482904638631, Z: -0.8164965809277261},
	{X: -0.3713906763541037, Y: -0.5570860145311556, Z: -0.7427813527082074},
	{X: 0.9128709291752769, Y: -0.1825741858350554, Z: 0.3651483716701107},
	{X: -0.1825741858350554, Y: 0.9128709291752769, Z: -0.3651483716701107},
	{X: 0.7745966692414834, Y: 0.5163977794943222, Z: -0.3651483716701107},
}

// Locate tells whether the point p (in t's local frame) is inside,
// outside or exactly on the closed surface t, by the parity of the
// crossings of a ray from p with the triangles, every crossing decided
// with exact orientation predicates (robust.Orient3D); a ray through an
// edge or a vertex is replaced by the next direction. The surface must be
// closed (Tree.Closed); for an open surface the answer is meaningless and
// an error is returned. An error is also returned when p is not finite or
// when every direction meets an edge (not seen in practice).
func (q *Scratch) Locate(t *Tree, p geom.Vec3) (Location, error) {
	if t == nil {
		return Outside, fmt.Errorf("%w: nil tree", ErrInput)
	}
	if !t.closed {
		return Outside, fmt.Errorf("%w: Locate needs a closed surface", ErrInput)
	}
	if !p.IsFinite() || p.MaxAbs() > geom.MaxCoord {
		return Outside, fmt.Errorf("%w: point %v not finite or above %g", ErrInput, p, geom.MaxCoord)
	}
	return q.locate(t, p)
}

func (q *Scratch) locate(t *Tree, p geom.Vec3) (Location, error) {
	if !t.bounds.Contains(p) {
		return Outside, nil
	}
	L := 2*(t.radius+p.Dist(t.center)) + 1
	for _, d := range rayDirs {
		e := p.AddScaled(L, d)
		loc, ok := q.castParity(t, p, e)
		if ok {
			return loc, nil
		}
	}
	return Outside, fmt.Errorf("meshquery: every ray from %v meets an edge or vertex", p)
}

// castParity counts the crossings of segment pe with t's triangles; ok is
// false when the segment meets an edge or vertex (or e lies on a
// triangle's plane inside it), so the parity would be ambiguous.
func (q *Scratch) castParity(t *Tree, p, e geom.Vec3) (loc Location, ok bool) {
	lo, hi := vmin(p, e), vmax(p, e)
	inv := geom.Vec3{X: 1 / (e.X - p.X), Y: 1 / (e.Y - p.Y), Z: 1 / (e.Z - p.Z)}
	st := append(q.stack[:0], pairItem{})
	defer func() { q.stack = st[:0] }()
	odd := false
	for len(st) > 0 {
		n := &t.nodes[st[len(st)-1].a]
		st = st[:len(st)-1]
		if !segBox(p, inv, lo, hi, n) {
			continue
		}
		if n.left >= 0 {
			st = append(st, pairItem{a: n.left}, pairItem{a: n.left + 1})
			continue
		}
		for i := n.start; i < n.start+n.count; i++ {
			x := &t.tris[i]
			sp := robust.Orient3D(x.a, x.b, x.c, p)
			if sp == 0 {
				if segTri(p, p, x.a, x.b, x.c) {
					return OnSurface, true
				}
				continue
			}
			se := robust.Orient3D(x.a, x.b, x.c, e)
			if se == 0 {
				if segTri(e, e, x.a, x.b, x.c) {
					return Outside, false
				}
				continue
			}
			if sp == se {
				continue
			}
			o0 := robust.Orient3D(p, e, x.a, x.b)
			o1 := robust.Orient3D(p, e, x.b, x.c)
			o2 := robust.Orient3D(p, e, x.c, x.a)
			switch {
			case o0 > 0 && o1 > 0 && o2 > 0, o0 < 0 && o1 < 0 && o2 < 0:
				odd = !odd
			case o0 >= 0 && o1 >= 0 && o2 >= 0, o0 <= 0 && o1 <= 0 && o2 <= 0:
				return Outside, false // through an edge or vertex
			}
		}
	}
	if odd {
		return Inside, true
	}
	return Outside, true
}

// segBox is a slab test of the segment from p (with inverse direction
// inv and box lo..hi) against node n, padded so that it never misses.
func segBox(p, inv, lo, hi geom.Vec3, n *node) bool {
	pad := 1e-12 * (n.h.X + n.h.Y + n.h.Z + n.c.MaxAbs())
	nlo := n.c.Sub(n.h).Sub(geom.Vec3{X: pad, Y: pad, Z: pad})
	nhi := n.c.Add(n.h).Add(geom.Vec3{X: pad, Y: pad, Z: pad})
	if lo.X > nhi.X || hi.X < nlo.X || lo.Y > nhi.Y || hi.Y < nlo.Y || lo.Z > nhi.Z || hi.Z < nlo.Z {
		return false
	}
	t0, t1 := 0.0, 1.0
	for k := 0; k < 3; k++ {
		a := (nlo.Get(k) - p.Get(k)) * inv.Get(k)
		b := (nhi.Get(k) - p.Get(k)) * inv.Get(k)
		if a > b {
			a, b = b, a
		}
		if math.IsNaN(a) || math.IsNaN(b) {
			continue // parallel to the slab and inside it (checked above)
		}
		t0, t1 = max(t0, a), min(t1, b)
	}
	return t0 <= t1*(1+1e-9)+1e-12
}

// closestPoint returns the point of t's surface closest to p (local
// frame), its squared distance, and the BVH position and feature of its
// triangle; only distances below bound2 are searched (pos -1 when none).
func (q *Scratch) closestPoint(t *Tree, p geom.Vec3, bound2 float64) (geom.Vec3, float64, int32, feature) {
	best, bd, bpos := geom.Vec3{}, bound2, int32(-1)
	var bf feature
	st := append(q.stack[:0], pairItem{})
	defer func() { q.stack = st[:0] }()
	for len(st) > 0 {
		it := st[len(st)-1]
		st = st[:len(st)-1]
		if it.lb2 >= bd {
			continue
		}
		n := &t.nodes[it.a]
		if n.left < 0 {
			for i := n.start; i < n.start+n.count; i++ {
				x := &t.tris[i]
				c, r := closestOnTri(p, x.a, x.b, x.c)
				if d := c.Dist2(p); d < bd {
					best, bd, bpos, bf = c, d, i, regionFeature(r)
				}
			}
			continue
		}
		l0, l1 := boxDist2(p, &t.nodes[n.left]), boxDist2(p, &t.nodes[n.left+1])
		c0, c1 := pairItem{a: n.left, lb2: l0}, pairItem{a: n.left + 1, lb2: l1}
		if l0 > l1 {
			c0, c1 = c1, c0
		}
		if c1.lb2 < bd {
			st = append(st, c1)
		}
		if c0.lb2 < bd {
			st = append(st, c0)
		}
	}
	return best, bd, bpos, bf
}

// boxDist2 is the squared distance from p to node n's box.
func boxDist2(p geom.Vec3, n *node) float64 {
	d := p.Sub(n.c).Abs().Sub(n.h)
	return max(d.X, 0)*max(d.X, 0) + max(d.Y, 0)*max(d.Y, 0) + max(d.Z, 0)*max(d.Z, 0)
}
