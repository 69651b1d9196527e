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
	added   int       // ids appended to order since the last Pairs
	stats   SweepStats

	// Scratch, by id.
	c0, c1 []uint32 // first and last cell: cy | cz<<16
	// Scratch, by slot of the cell lists.
	start   []int32    // cell start offsets (len cells+2)
	slot    []int32    // ids, in x order per cell
	hits    []uint64   // sweep survivors: id<<32 | id
	sortBuf []endpoint // full-sort scratch
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
			s.added++
		}
	}
	b := &s.boxes[id]
	b.lo[0], b.lo[1], b.lo[2] = box.Min.X, box.Min.Y, box.Min.Z
	b.hi[0], b.hi[1], b.hi[2] = box.Max.X, box.Max.Y, box.Max.Z
	return nil
}

// SetAll sets the boxes of bodies 0 to len(boxes)-1, as many calls of Set
// would, with less overhead per box. On an invalid box it returns the
// error of Set for the first one, having set the boxes before it.
func (s *Sweep) SetAll(boxes []geom.AABB) error {
	for len(s.boxes) < len(boxes) {
		s.boxes = append(s.boxes, box6{})
		s.present = append(s.present, false)
	}
	bs, present := s.boxes[:len(boxes)], s.present[:len(boxes)]
	for id := range boxes {
		box := &boxes[id]
		if !(box.Min.X <= box.Max.X && box.Min.Y <= box.Max.Y && box.Min.Z <= box.Max.Z) ||
			!finite(box.Min.X) || !finite(box.Min.Y) || !finite(box.Min.Z) ||
			!finite(box.Max.X) || !finite(box.Max.Y) || !finite(box.Max.Z) {
			return checkBox(id, *box)
		}
		if !present[id] {
			if err := s.Set(id, *box); err != nil {
				return err
			}
			continue
		}
		b := &bs[id]
		b.lo[0], b.lo[1], b.lo[2] = box.Min.X, box.Min.Y, box.Min.Z
		b.hi[0], b.hi[1], b.hi[2] = box.Max.X, box.Max.Y, box.Max.Z
	}
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

// smallN is the number of boxes up to which Pairs tests all pairs.
const smallN = 24

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
	if n <= smallN {
		// A few boxes: all pairs is faster than sorting.
		for i, a := range order {
			for _, b := range order[i+1:] {
				if overlap6(&boxes[a], &boxes[b]) {
					dst = append(dst, ordered(a, b))
				}
			}
		}
		s.stats = SweepStats{Candidates: n * (n - 1) / 2}
		return dst
	}
	if cap(s.key) < n {
		s.key = make([]float64, n, 2*n)
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
	if 4*s.added > n {
		s.sortAll(key) // mass insertion: the new ids are in no order
	}
	s.added = 0
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
			s.sortAll(key)
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
	if len(s.c0) < len(boxes) {
		s.c0 = make([]uint32, len(boxes), cap(boxes))
		s.c1 = make([]uint32, len(boxes), cap(boxes))
	}
	c0, c1 := s.c0[:len(boxes)], s.c1[:len(boxes)]
	// By id, sequentially: find the cells, count the boxes per cell.
	entries := 0
	present := s.present[:len(boxes)]
	for id := range boxes {
		if !present[id] {
			continue
		}
		b := &boxes[id]
		y0, y1 := gy.cell(b.lo[1]), gy.cell(b.hi[1])
		z0, z1 := gz.cell(b.lo[2]), gz.cell(b.hi[2])
		c0[id], c1[id] = uint32(y0)|uint32(z0)<<16, uint32(y1)|uint32(z1)<<16
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
	// The dummy cell's slot follows the real ones; its cursor is reset to
	// it after every write. Then two slots of padding for the sweep's
	// look-ahead.
	junk := int32(entries)
	start[cells] = junk
	if cap(s.slot) < entries+3 {
		s.slot = make([]int32, entries+3, 2*entries+3)
	}
	slot := s.slot[:entries+3]
	slot[entries+1], slot[entries+2] = order[0], order[0]
	// Fill the cell lists with ids in x order; start[c] runs to the end of
	// cell c, then is shifted back below.
	for _, id := range order {
		y0, z0 := int(c0[id]&0xffff), int(c0[id]>>16)
		y1, z1 := int(c1[id]&0xffff), int(c1[id]>>16)
		dy, dz := y1-y0, z1-z0
		if dy|dz <= 1 {
			c := z0*gy.n + y0
			slot[start[c]] = id
			start[c]++
			for _, d := range [3]int{pick(dy, c+1, cells), pick(dz, c+gy.n, cells), pick(dy&dz, c+gy.n+1, cells)} {
				slot[start[d]] = id
				start[d]++
				start[cells] = junk
			}
			continue
		}
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				c := z*gy.n + y
				slot[start[c]] = id
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
		list := slot[start[c]:start[c+1]]
		if len(list) < 2 {
			continue
		}
		k := 0
		base := int(start[c])
		for a, ia := range list {
			A := &boxes[ia]
			hx := A.hi[0]
			if len(hits)-k < len(list)-a {
				hits = append(hits[:k], make([]uint64, len(list)-a+len(hits))...)
				hits = hits[:cap(hits)]
			}
			tag := uint64(ia) << 32
			// The next two entries without branches (slot is padded, and
			// an entry past the list is masked out).
			i1, i2 := slot[base+a+1], slot[base+a+2]
			B1, B2 := &boxes[i1], &boxes[i2]
			in1 := b2i(a+1 < len(list)) & b2i(B1.lo[0] <= hx)
			in2 := in1 & b2i(a+2 < len(list)) & b2i(B2.lo[0] <= hx)
			hits[k] = tag | uint64(i1)
			k += in1 & b2i(A.lo[1] <= B1.hi[1]) & b2i(B1.lo[1] <= A.hi[1]) & b2i(A.lo[2] <= B1.hi[2]) & b2i(B1.lo[2] <= A.hi[2])
			hits[k] = tag | uint64(i2)
			k += in2 & b2i(A.lo[1] <= B2.hi[1]) & b2i(B2.lo[1] <= A.hi[1]) & b2i(A.lo[2] <= B2.hi[2]) & b2i(B2.lo[2] <= A.hi[2])
			cands += in1 + in2
			if in2 == 0 {
				continue
			}
			t := a + 3
			for ; t < len(list); t++ {
				B := &boxes[list[t]]
				if B.lo[0] > hx {
					break
				}
				hits[k] = tag | uint64(list[t])
				k += b2i(A.lo[1] <= B.hi[1]) & b2i(B.lo[1] <= A.hi[1]) & b2i(A.lo[2] <= B.hi[2]) & b2i(B.lo[2] <= A.hi[2])
			}
			cands += t - a - 3
		}
		cy, cz := uint32(c%gy.n), uint32(c/gy.n)
		dst = slices.Grow(dst, k)
		d := dst[len(dst) : len(dst)+k]
		w := 0
		for _, h := range hits[:k] {
			ia, ib := int32(h>>32), int32(uint32(h))
			d[w] = Pair{min(ia, ib), max(ia, ib)}
			w += b2i(max(c0[ia]&0xffff, c0[ib]&0xffff) == cy) & b2i(max(c0[ia]>>16, c0[ib]>>16) == cz)
		}
		dst = dst[:len(dst)+w]
	}
	s.hits = hits
	s.stats = SweepStats{Swaps: swaps, Cells: cells, Entries: entries, Candidates: cands}
	return dst
}

// sortAll sorts order and key (the lower x of order, len(order) long) by
// key from scratch.
func (s *Sweep) sortAll(key []float64) {
	buf := s.sortBuf[:0]
	for i, id := range s.order {
		buf = append(buf, endpoint{key[i], uint32(id)})
	}
	slices.SortFunc(buf, func(x, y endpoint) int { return cmp.Compare(x.v, y.v) })
	for i, e := range buf {
		key[i], s.order[i] = e.v, int32(e.h)
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
