package broad

import (
	"cmp"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
)

// Sweep is sweep and prune along one axis ("sort and sweep", Baraff 1992)
// run inside the cells of a coarse grid on the two other axes.
//
// The boxes are kept sorted by their lower x bound; from frame to frame the
// order is repaired by insertion sort, which costs O(n + swaps) on coherent
// motion. Each frame the boxes are then distributed, in that order, into
// the cells of a uniform y-z grid whose cells are about twice as large as
// the boxes on average (so a box lands in one to four cells and every cell list is sorted
// by x), and each cell is swept along x: the partners of a box are the
// following boxes of its cell whose lower x is at most its upper x. A pair
// found in several cells is reported only in the cell holding the lower
// corner of the two boxes' y-z intersection. Compared with one sweep over
// all boxes, the cells cut the pairs tested from those overlapping on x to
// those overlapping on x and sharing a cell — a factor of about 4w/L per
// grid axis for boxes of width w in a scene of width L.
//
// Sweep keeps no pair set: every call to Pairs lists all pairs afresh in
// O(n + swaps + pairs tested). It is the fastest structure here for scenes
// of many moving bodies whose full pair list is wanted every frame.
//
// The zero value is an empty set ready to use. A Sweep is not safe for
// concurrent use.
type Sweep struct {
	boxes   []box6
	present []bool
	n       int
	order   []int32   // present ids sorted by lower x (removed ids cleaned lazily)
	key     []float64 // lower x, in order
	dirty   bool      // ids were removed since the last Pairs
	stats   SweepStats

	// Scratch, by position in order.
	c0, c1 []uint32 // first and last cell: cy | cz<<16
	// Scratch, by slot of the cell lists.
	start   []int32 // cell start offsets (len cells+1)
	slot    []slotBox
	hits    []uint64   // sweep survivors: slot<<32 | slot
	sortBuf []endpoint // full-sort scratch
}

// slotBox is a box in a cell list: its position in order and its bounds.
type slotBox struct {
	lox, hix           float64
	ylo, yhi, zlo, zhi float64
	pos                int32
	c0                 uint32 // the box's first cell, for duplicate removal
}

// SweepStats counts the work of the last call to Pairs.
type SweepStats struct {
	Swaps      int // insertion-sort swaps
	Cells      int // grid cells (ny*nz)
	Entries    int // boxes in cell lists (a box counts once per cell)
	Candidates int // pairs overlapping on x in a cell, tested on y and z
}

// Set inserts or moves the box of body id.
func (s *Sweep) Set(id int, box geom.AABB) error {
	if err := checkBox(id, box); err != nil {
		return err
	}
	for id >= len(s.boxes) {
		s.boxes = append(s.boxes, box6{})
		s.present = append(s.present, false)
	}
	if !s.present[id] {
		s.present[id] = true
		s.n++
		// A removed id still in order (dirty) must not be listed twice.
		if !s.dirty || !slices.Contains(s.order, int32(id)) {
			s.order = append(s.order, int32(id))
		}
	}
	b := &s.boxes[id]
	b.lo[0], b.lo[1], b.lo[2] = box.Min.X, box.Min.Y, box.Min.Z
	b.hi[0], b.hi[1], b.hi[2] = box.Max.X, box.Max.Y, box.Max.Z
	return nil
}

// Remove deletes body id and reports whether it was present.
func (s *Sweep) Remove(id int) bool {
	if id < 0 || id >= len(s.present) || !s.present[id] {
		return false
	}
	s.present[id] = false
	s.n--
	s.dirty = true
	return true
}

// Len returns the number of bodies.
func (s *Sweep) Len() int { return s.n }

// Stats returns the work counters of the last call to Pairs.
func (s *Sweep) Stats() SweepStats { return s.stats }

// maxCellsPerAxis bounds the grid; cells beyond a few per box buy nothing.
const maxCellsPerAxis = 256

// Pairs appends every overlapping pair a < b to dst.
func (s *Sweep) Pairs(dst []Pair) []Pair {
	if s.dirty {
		w := 0
		for _, id := range s.order {
			if s.present[id] {
				s.order[w] = id
				w++
			}
		}
		s.order = s.order[:w]
		s.dirty = false
	}
	order, boxes := s.order, s.boxes
	n := len(order)
	if cap(s.key) < n {
		s.key = make([]float64, n, 2*n)
		s.c0 = make([]uint32, n, 2*n)
		s.c1 = make([]uint32, n, 2*n)
	}
	key := s.key[:n]
	ylo, yhi, zlo, zhi := inf, -inf, inf, -inf
	wy, wz := 0.0, 0.0
	for i, id := range order {
		b := &boxes[id]
		key[i] = b.lo[0]
		ylo, yhi = min(ylo, b.lo[1]), max(yhi, b.hi[1])
		zlo, zhi = min(zlo, b.lo[2]), max(zhi, b.hi[2])
		wy += b.hi[1] - b.lo[1]
		wz += b.hi[2] - b.lo[2]
	}
	// Insertion sort of the ids by lower x; when coherence is lost
	// (teleports, mass insertion) and the swaps exceed a budget, a full
	// sort finishes the job.
	swaps := 0
	budget := 16*n + 256
	for i := 1; i < n; i++ {
		v := key[i]
		if v >= key[i-1] {
			continue
		}
		id := order[i]
		j := i - 1
		for j >= 0 && key[j] > v {
			key[j+1], order[j+1] = key[j], order[j]
			j--
		}
		swaps += i - 1 - j
		key[j+1], order[j+1] = v, id
		if swaps > budget {
			s.sortAll()
			break
		}
	}

	// Grid on y and z from the extent and the mean box size.
	gy := gridAxis(ylo, yhi, wy, n)
	gz := gridAxis(zlo, zhi, wz, n)
	cells := gy.n * gz.n
	if cap(s.start) < cells+2 {
		s.start = make([]int32, cells+2, 2*cells+2)
	}
	start := s.start[:cells+2] // cell c's count at c+1; cell "cells" is a dummy
	clear(start)
	c0, c1 := s.c0[:n], s.c1[:n]
	entries := 0
	for i, id := range order {
		b := &boxes[id]
		y0, y1 := gy.cell(b.lo[1]), gy.cell(b.hi[1])
		z0, z1 := gz.cell(b.lo[2]), gz.cell(b.hi[2])
		c0[i], c1[i] = uint32(y0)|uint32(z0)<<16, uint32(y1)|uint32(z1)<<16
		dy, dz := y1-y0, z1-z0
		if dy|dz <= 1 {
			// One to four cells, counted without branches: a cell not
			// covered is counted in the dummy cell "cells".
			c := z0*gy.n + y0
			start[c+1]++
			start[pick(dy, c+1, cells)+1]++
			start[pick(dz, c+gy.n, cells)+1]++
			start[pick(dy&dz, c+gy.n+1, cells)+1]++
			entries += (dy + 1) * (dz + 1)
			continue
		}
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				start[z*gy.n+y+1]++
			}
		}
		entries += (dy + 1) * (dz + 1)
	}
	for c := 1; c <= cells; c++ {
		start[c] += start[c-1]
	}
	// The dummy cell's slots follow the real ones; its cursor is reset to
	// its first slot after every write.
	junk := int32(entries)
	start[cells] = junk
	// One more slot for the dummy cell.
	if cap(s.slot) < entries+1 {
		s.slot = make([]slotBox, entries+1, 2*entries+1)
	}
	slot := s.slot[:entries+1]
	// Fill the cell lists in x order; start[c] runs to the end of cell c,
	// then is shifted back below.
	for i, id := range order {
		b := &boxes[id]
		sb := slotBox{b.lo[0], b.hi[0], b.lo[1], b.hi[1], b.lo[2], b.hi[2], int32(i), c0[i]}
		y0, z0 := int(c0[i]&0xffff), int(c0[i]>>16)
		y1, z1 := int(c1[i]&0xffff), int(c1[i]>>16)
		dy, dz := y1-y0, z1-z0
		if dy|dz <= 1 {
			c := z0*gy.n + y0
			slot[start[c]] = sb
			start[c]++
			for _, d := range [3]int{pick(dy, c+1, cells), pick(dz, c+gy.n, cells), pick(dy&dz, c+gy.n+1, cells)} {
				slot[start[d]] = sb
				start[d]++
				start[cells] = junk
			}
			continue
		}
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				c := z*gy.n + y
				slot[start[c]] = sb
				start[c]++
			}
		}
	}
	copy(start[1:], start[:cells])
	start[0] = 0

	// Sweep each cell: the partners of a box are the following boxes of
	// the cell whose lower x is at most its upper x. Each is tested on y
	// and z without branches: the candidate is written to hits and the
	// write position advances only if it passes. Then a pair is kept only
	// in the cell holding the lower corner of the two boxes' y-z
	// intersection, cell (max first y cell, max first z cell), again
	// without branches.
	cands := 0
	hits := s.hits
	for c := 0; c < cells; c++ {
		lo, hi := int(start[c]), int(start[c+1])
		if hi-lo < 2 {
			continue
		}
		k := 0
		for a := lo; a < hi; a++ {
			A := &slot[a]
			if len(hits)-k < hi-a {
				hits = append(hits[:k], make([]uint64, hi-a+len(hits))...)
				hits = hits[:cap(hits)]
			}
			tag := uint64(a) << 32
			t := a + 1
			for ; t < hi; t++ {
				B := &slot[t]
				if B.lox > A.hix {
					break
				}
				hits[k] = tag | uint64(t)
				k += b2i(A.ylo <= B.yhi) & b2i(B.ylo <= A.yhi) & b2i(A.zlo <= B.zhi) & b2i(B.zlo <= A.zhi)
			}
			cands += t - a - 1
		}
		cy, cz := uint32(c%gy.n), uint32(c/gy.n)
		dst = slices.Grow(dst, k)
		d := dst[len(dst) : len(dst)+k]
		w := 0
		for _, h := range hits[:k] {
			A, B := &slot[h>>32], &slot[uint32(h)]
			ia, ib := order[A.pos], order[B.pos]
			d[w] = Pair{min(ia, ib), max(ia, ib)}
			w += b2i(max(A.c0&0xffff, B.c0&0xffff) == cy) & b2i(max(A.c0>>16, B.c0>>16) == cz)
		}
		dst = dst[:len(dst)+w]
	}
	s.hits = hits
	s.stats = SweepStats{Swaps: swaps, Cells: cells, Entries: entries, Candidates: cands}
	return dst
}

// sortAll sorts order and key by key from scratch.
func (s *Sweep) sortAll() {
	buf := s.sortBuf[:0]
	for i, id := range s.order {
		buf = append(buf, endpoint{s.key[i], uint32(id)})
	}
	slices.SortFunc(buf, func(x, y endpoint) int { return cmp.Compare(x.v, y.v) })
	for i, e := range buf {
		s.key[i], s.order[i] = e.v, int32(e.h)
	}
	s.sortBuf = buf
}

// grid is the cell map of one axis: cell(v) = floor((v - origin) * scale)
// clamped to [0, n-1], a monotone map, so a box covering [lo, hi] lies in
// cells cell(lo)..cell(hi) and the lower end of two intervals'
// intersection lies in the larger of their first cells.
type grid struct {
	origin, scale float64
	n             int
}

// gridAxis picks cells about two mean box widths wide over [lo, hi], at
// most maxCellsPerAxis and at most about sqrt(n) per axis.
func gridAxis(lo, hi, sumWidth float64, n int) grid {
	g := grid{origin: lo, n: 1}
	ext := hi - lo
	if n < 32 || !(ext > 0) {
		return g
	}
	w := 2 * sumWidth / float64(n)
	if !finite(ext) || !finite(w) {
		return g
	}
	cells := maxCellsPerAxis
	if r := ext / w; w > 0 && r < maxCellsPerAxis {
		cells = int(r)
	}
	cells = min(cells, int(math.Sqrt(float64(n))))
	if cells < 2 {
		return g
	}
	g.n = cells
	g.scale = float64(cells) / ext
	return g
}

func (g grid) cell(v float64) int {
	f := (v - g.origin) * g.scale
	if !(f > 0) {
		return 0
	}
	if f >= float64(g.n-1) {
		return g.n - 1
	}
	return int(f)
}

// b2i converts a comparison result to 0 or 1; the compiler emits a SETcc,
// not a branch.
func b2i(b bool) int {
	var x int
	if b {
		x = 1
	}
	return x
}

// pick returns a if bit is 1 and b if bit is 0, without a branch.
func pick(bit, a, b int) int { return b + bit*(a-b) }
