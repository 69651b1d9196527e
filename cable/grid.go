package cable

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// grid is a uniform grid over the union of a set of boxes, stored as
// compressed cell lists: the items of cell c are items[start[c]:start[c+1]].
// A box is listed in every cell it overlaps.
type grid struct {
	org   geom.Vec3
	inv   float64 // 1 / cell size
	n     [3]int
	start []int32
	items []int32
	fill  []int32
}

// build lists the boxes in cells of the given size, enlarged where needed
// so that no axis has more than maxDim cells.
func (g *grid) build(boxes []geom.AABB, cell float64, maxDim int) {
	b := geom.EmptyAABB()
	for _, x := range boxes {
		b = b.Union(x)
	}
	if len(boxes) == 0 || b.IsEmpty() {
		g.n = [3]int{0, 0, 0}
		g.start = g.start[:0]
		g.items = g.items[:0]
		return
	}
	size := b.Size()
	if m := size.MaxAbs() / float64(maxDim); cell < m {
		cell = m
	}
	g.org = b.Min
	g.inv = 1 / cell
	if !(cell > 0) || !size.IsFinite() || !(g.inv > 0) || math.IsInf(g.inv, 0) {
		// Coordinates so large that their differences overflow: one
		// cell holding everything (cellRange then returns it for every
		// box).
		g.inv = 0
	}
	cells := 1
	for k := 0; k < 3; k++ {
		g.n[k] = 1
		if g.inv > 0 {
			g.n[k] = int(math.Min(size.Get(k)*g.inv, float64(maxDim))) + 1
		}
		if g.n[k] > maxDim {
			g.n[k] = maxDim
		}
		cells *= g.n[k]
	}
	if cap(g.start) < cells+1 {
		g.start = make([]int32, cells+1)
	}
	g.start = g.start[:cells+1]
	for i := range g.start {
		g.start[i] = 0
	}
	g.place(boxes, false)
	for i := 1; i <= cells; i++ {
		g.start[i] += g.start[i-1]
	}
	total := int(g.start[cells])
	if cap(g.items) < total {
		g.items = make([]int32, total)
	}
	g.items = g.items[:total]
	if cap(g.fill) < cells {
		g.fill = make([]int32, cells)
	}
	g.fill = g.fill[:cells]
	copy(g.fill, g.start[:cells])
	g.place(boxes, true)
}

// place visits the cells of every box: it counts them in start[c+1] (fill
// false), or lists the box in items at fill[c] and advances fill[c] (fill
// true), the two passes of the counting sort that build makes.
func (g *grid) place(boxes []geom.AABB, fill bool) {
	for id, x := range boxes {
		lo, hi := g.cellRange(x)
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				base := (z*g.n[1] + y) * g.n[0]
				if !fill {
					for c := base + lo[0]; c <= base+hi[0]; c++ {
						g.start[c+1]++
					}
					continue
				}
				for c := base + lo[0]; c <= base+hi[0]; c++ {
					g.items[g.fill[c]] = int32(id)
					g.fill[c]++
				}
			}
		}
	}
}

// cellRange returns the range of cells a box overlaps, clamped to the
// grid; hi < lo on some axis when the box misses the grid.
func (g *grid) cellRange(b geom.AABB) (lo, hi [3]int) {
	if g.inv == 0 {
		return lo, hi // the single cell
	}
	for k := 0; k < 3; k++ {
		l := math.Floor((b.Min.Get(k) - g.org.Get(k)) * g.inv)
		h := math.Floor((b.Max.Get(k) - g.org.Get(k)) * g.inv)
		n := float64(g.n[k] - 1)
		if l < 0 {
			l = 0
		}
		if h > n {
			h = n
		}
		if !(l <= n) || !(h >= 0) {
			return [3]int{0, 0, 0}, [3]int{-1, -1, -1}
		}
		lo[k], hi[k] = int(l), int(h)
	}
	return lo, hi
}

// empty reports whether the grid holds nothing.
func (g *grid) empty() bool { return g.n[0] == 0 }
