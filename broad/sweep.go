package broad

import (
	"cmp"
	"math"
	"slices"
	"unsafe"

	"github.com/collide-go/collide/geom"
)

// Sweep is sweep and prune along one axis ("sort and sweep", Baraff 1992)
// run inside the cells of a coarse grid on the two other axes.
//
// The boxes are kept sorted by their lower x bound; from frame to frame the
// order is repaired by insertion sort, which costs O(n + swaps) on coherent
// motion (a box moved by at most three places, the common case, is put in
// place with conditional moves instead of branches). Each frame the boxes
// are then distributed, in that order, into the cells of a uniform y-z
// grid whose cells are about twice as large as the boxes on average (so a
// box lands in one to four cells and every cell list is sorted by x), and
// each cell is swept along x: the partners of a box are the following
// boxes of its cell whose lower x is at most its upper x. A pair found in
// several cells is reported only in the cell holding the lower corner of
// the two boxes' y-z intersection. Compared with one sweep over all boxes,
// the cells cut the pairs tested from those overlapping on x to those
// overlapping on x and sharing a cell — a factor of about 4w/L per grid
// axis for boxes of width w in a scene of width L.
//
// The cell lists hold 16-byte entries (lower x, id and two flags), each
// list ended by a sentinel of lower x +Inf so that a scan needs no bounds
// test; the y-z test of a candidate and the choice of the reporting cell
// are done without branches (the pair is written, the output position
// advances by the test's 0 or 1).
//
// Sweep keeps no pair set: every call to Pairs lists all pairs afresh in
// O(n + swaps + pairs tested). It is the fastest structure here for scenes
// of many moving bodies whose full pair list is wanted every frame.
//
// The zero value is an empty set ready to use. A Sweep is not safe for
// concurrent use.
type Sweep struct {
	boxTable
	order []int32 // present ids sorted by lower x (removed ids cleaned lazily)
	key   []int64 // lower x as sortKey, in order
	dirty bool    // ids were removed since the last Pairs
	added int     // ids appended to order since the last Pairs
	stats SweepStats

	// Scratch.
	info    []uint32     // by position in order: first cell | dy<<16 | dz<<24
	start   []int32      // cell counts, then start offsets (len cells+ny+2)
	ents    []sweepEntry // cell lists, each in x order and ended by a sentinel
	sortBuf []keyID      // full-sort scratch
}

// sweepEntry is a box in a cell list, with flags: bit 0 set if the cell
// is the box's first on y, bit 1 likewise for z.
type sweepEntry struct {
	x0 float64 // lower x
	w  uint32  // id<<2 | flags
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
	if s.add(id) {
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
	if k := len(boxes) - len(s.boxes); k > 0 {
		s.boxes = append(s.boxes, make([]box6, k)...)
		s.present = append(s.present, make([]bool, k)...)
		s.order = slices.Grow(s.order, k)
	}
	bs, present := s.boxes[:len(boxes)], s.present[:len(boxes)]
	for id := range boxes {
		box := &boxes[id]
		if !validBox(box) {
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
	if !s.boxTable.Remove(id) {
		return false
	}
	s.dirty = true
	return true
}

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
		s.key = make([]int64, n, 2*n)
		s.info = make([]uint32, n, 2*n)
	}
	key := s.key[:n]
	// Insertion sort of the ids by lower x, loading each box as it is
	// inserted (and taking the y-z extent for the grid); when coherence
	// is lost (teleports, mass insertion) and the swaps exceed a budget,
	// a full sort finishes the job.
	ylo, yhi, zlo, zhi := inf, -inf, inf, -inf
	wy, wz := 0.0, 0.0
	swaps := 0
	budget := 16*n + 256
	full := 4*s.added > n // mass insertion: the new ids are in no order
	s.added = 0
	for i := 0; i < n; i++ {
		id := order[i]
		b := &boxes[id]
		v := sortKey(b.lo[0])
		if b.lo[1] < ylo {
			ylo = b.lo[1]
		}
		if b.hi[1] > yhi {
			yhi = b.hi[1]
		}
		if b.lo[2] < zlo {
			zlo = b.lo[2]
		}
		if b.hi[2] > zhi {
			zhi = b.hi[2]
		}
		wy += b.hi[1] - b.lo[1]
		wz += b.hi[2] - b.lo[2]
		if i >= 4 && !full && key[i-4] <= v {
			// Moved by at most three places (the common case): the
			// last four places are rewritten with conditional moves,
			// not branches.
			k1, k2, k3 := key[i-1], key[i-2], key[i-3]
			o1, o2, o3 := order[i-1], order[i-2], order[i-3]
			c1, c2, c3 := k1 > v, k2 > v, k3 > v
			key[i], order[i] = sel(c1, k1, v), sel(c1, o1, id)
			key[i-1], order[i-1] = sel(c2, k2, sel(c1, v, k1)), sel(c2, o2, sel(c1, id, o1))
			key[i-2], order[i-2] = sel(c3, k3, sel(c2, v, k2)), sel(c3, o3, sel(c2, id, o2))
			key[i-3], order[i-3] = sel(c3, v, k3), sel(c3, id, o3)
			swaps += b2i(c1) + b2i(c2) + b2i(c3)
			continue
		}
		j := i - 1
		if !full && j >= 0 && key[j] > v {
			key[i], order[i] = key[j], order[j]
			j--
			for j >= 0 && key[j] > v {
				key[j+1], order[j+1] = key[j], order[j]
				j--
			}
			swaps += i - 1 - j
			full = swaps > budget
		}
		key[j+1], order[j+1] = v, id
	}
	if full {
		s.sortAll(key)
	}
	// Grid on y and z from the extent and the mean box size.
	gy := gridAxis(ylo, yhi, wy, n)
	gz := gridAxis(zlo, zhi, wz, n)
	cells := gy.n * gz.n
	// Counters and cursors run gy.n+2 past the last cell: the branch-free
	// four-cell case below touches cells c+1, c+gy.n and c+gy.n+1 (adding
	// zero when the box does not cover them).
	nc := cells + gy.n + 2
	if cap(s.start) < nc {
		s.start = make([]int32, nc, 2*nc)
	}
	start := s.start[:nc]
	clear(start)
	entries := s.countCells(gy, gz, start)
	// Cell c's entries, then a sentinel with lower x = +Inf that stops
	// the sweep; then one junk slot that receives the writes for cells a
	// box does not cover.
	for c := 1; c <= cells; c++ {
		start[c] += start[c-1] + 1
	}
	total := int(start[cells]) + 1
	junk := int32(total - 1)
	for c := cells; c < nc; c++ {
		start[c] = junk
	}
	if cap(s.ents) < total {
		s.ents = make([]sweepEntry, total, 2*total)
	}
	ents := s.ents[:total]
	for c := 1; c <= cells; c++ {
		ents[start[c]-1] = sweepEntry{x0: inf}
	}
	s.fillCells(gy, ents, start, junk)
	// Now start[c] is the sentinel of cell c.
	copy(start[1:], start[:cells])
	start[0] = 0
	for c := 1; c <= cells; c++ {
		start[c]++
	}

	// Sweep each cell: the partners of a box are the following entries of
	// the cell whose lower x is at most its upper x (the sentinel ends the
	// scan). Each is tested on y and z without branches: the pair is
	// written and the write position advances only if it passes. A pair
	// is kept only in the cell holding the lower corner of the two boxes'
	// y-z intersection: the cell (max first y cell, max first z cell),
	// that is, where the flags of the two entries cover both axes.
	cands := 0
	for c := 0; c < cells; c++ {
		list := ents[start[c]:start[c+1]]
		if len(list) < 3 {
			continue
		}
		// At most m(m-1)/2 pairs for m entries; grow by the bound
		// only when the spare room might not do.
		if m := len(list) - 1; cap(dst)-len(dst) < m*(m-1)/2 {
			dst = slices.Grow(dst, min(m*(m-1)/2, max(len(dst), 4*m)))
		}
		var nc int
		dst, nc = sweepCell(list, boxes, dst)
		cands += nc
	}
	s.stats = SweepStats{Swaps: swaps, Cells: cells, Entries: entries, Candidates: cands}
	return dst
}

// countCells finds the cells of every box (info, by position in order)
// and counts the entries of cell c in start[c+1]; it returns the number of
// entries.
func (s *Sweep) countCells(gy, gz grid, start []int32) int {
	order, boxes, info := s.order, s.boxes, s.info[:len(s.order)]
	entries := 0
	ny := gy.n
	for i, id := range order {
		b := &boxes[id]
		y0, y1 := gy.cell(b.lo[1]), gy.cell(b.hi[1])
		z0, z1 := gz.cell(b.lo[2]), gz.cell(b.hi[2])
		c := z0*ny + y0
		dy, dz := y1-y0, z1-z0
		info[i] = uint32(c) | uint32(dy)<<16 | uint32(dz)<<24
		entries += (dy + 1) * (dz + 1)
		if dy|dz <= 1 {
			start[c+1]++
			start[c+2] += int32(dy)
			start[c+ny+1] += int32(dz)
			start[c+ny+2] += int32(dy & dz)
			continue
		}
		for z := z0; z <= z1; z++ {
			for y := y0; y <= y1; y++ {
				start[z*ny+y+1]++
			}
		}
	}
	return entries
}

// fillCells writes the entries of every box into the cell lists, in x
// order; cur[c] is the next slot of cell c and ends at its sentinel.
func (s *Sweep) fillCells(gy grid, ents []sweepEntry, cur []int32, junk int32) {
	order, key, info := s.order, s.key[:len(s.order)], s.info[:len(s.order)]
	ny := gy.n
	for i, id := range order {
		x0, w := fromSortKey(key[i]), uint32(id)<<2
		code := info[i]
		c, dy, dz := int(code&0xffff), int(code>>16&0xff), int(code>>24)
		if dy|dz <= 1 {
			// Flags: bit 0 if the cell is the box's first on y, bit 1
			// likewise for z. Cells not covered get the junk slot.
			p := cur[c]
			ents[p] = sweepEntry{x0, w | 3}
			cur[c] = p + 1
			p = cur[c+1]
			ents[pick32(dy, p, junk)] = sweepEntry{x0, w | 2}
			cur[c+1] = p + int32(dy)
			p = cur[c+ny]
			ents[pick32(dz, p, junk)] = sweepEntry{x0, w | 1}
			cur[c+ny] = p + int32(dz)
			p = cur[c+ny+1]
			ents[pick32(dy&dz, p, junk)] = sweepEntry{x0, w}
			cur[c+ny+1] = p + int32(dy&dz)
			continue
		}
		y0, z0 := c%ny, c/ny
		for z := z0; z <= z0+dz; z++ {
			for y := y0; y <= y0+dy; y++ {
				d := z*ny + y
				ents[cur[d]] = sweepEntry{x0, w | uint32(b2i(y == y0)|b2i(z == z0)<<1)}
				cur[d]++
			}
		}
	}
}

// sweepCell appends the pairs of one cell list (ended by its sentinel) to
// dst and returns the number of candidates tested.
func sweepCell(list []sweepEntry, boxes []box6, dst []Pair) ([]Pair, int) {
	m := len(list) - 1
	cands := 0
	for a := 0; a < m-1; {
		if cap(dst)-len(dst) < m {
			dst = slices.Grow(dst, m)
		}
		var k, nc int
		k, nc, a = sweepRun(list, a, boxes, dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+k]
		cands += nc
	}
	return dst, cands
}

// sweepRun sweeps the entries of list from a on while out has room for
// the partners of one more entry; it returns the pairs written to out, the
// candidates tested and the entry to continue from.
//
// The loop runs on raw pointers: list ends with a sentinel whose lower x
// (+Inf) stops every scan before the end, entry ids index boxes, and out
// has room for m pairs per entry (checked before each), so every access
// is in bounds.
func sweepRun(list []sweepEntry, a int, boxes []box6, out []Pair) (k, cands, next int) {
	m := len(list) - 1
	bp := unsafe.Pointer(unsafe.SliceData(boxes))
	const bsz = unsafe.Sizeof(box6{})
	for ; a < m-1 && len(out)-k >= m; a++ {
		wa := list[a].w
		A := &boxes[wa>>2]
		hx := A.hi[0]
		y0, y1, z0, z1 := A.lo[1], A.hi[1], A.lo[2], A.hi[2]
		tag := int32(wa)
		op := unsafe.Pointer(&out[k])
		// The next entry without branches: a+1 <= m, the sentinel at
		// the latest.
		E1 := &list[a+1]
		in1 := b2i(E1.x0 <= hx)
		w1 := E1.w
		B1 := (*box6)(unsafe.Add(bp, uintptr(w1>>2)*bsz))
		*(*Pair)(op) = Pair{tag, int32(w1)}
		j := uintptr(in1&b2i(y0 <= B1.hi[1])&b2i(B1.lo[1] <= y1)&b2i(z0 <= B1.hi[2])&b2i(B1.lo[2] <= z1)) * unsafe.Sizeof(Pair{})
		cands += in1
		if in1 != 0 {
			e := unsafe.Pointer(&list[a+2])
			for {
				E := (*sweepEntry)(e)
				if E.x0 > hx {
					break
				}
				w := E.w
				B := (*box6)(unsafe.Add(bp, uintptr(w>>2)*bsz))
				*(*Pair)(unsafe.Add(op, j)) = Pair{tag, int32(w)}
				j += uintptr(b2i(y0 <= B.hi[1])&b2i(B.lo[1] <= y1)&b2i(z0 <= B.hi[2])&b2i(B.lo[2] <= z1)) * unsafe.Sizeof(Pair{})
				e = unsafe.Add(e, unsafe.Sizeof(sweepEntry{}))
			}
			t := int((uintptr(e) - uintptr(unsafe.Pointer(&list[0]))) / unsafe.Sizeof(sweepEntry{}))
			cands += t - a - 2
		}
		k += int(j / 8)
	}
	// Keep a pair only where the flags of its two entries cover both
	// axes, as a < b.
	n := 0
	for _, h := range out[:k] {
		wa, wb := uint32(h.A), uint32(h.B)
		ia, ib := int32(wa>>2), int32(wb>>2)
		out[n] = Pair{min(ia, ib), max(ia, ib)}
		n += b2i((wa|wb)&3 == 3)
	}
	return n, cands, a
}

// sortAll sorts order and key (the lower x of order, len(order) long) by
// key from scratch: a bucket sort on the value (n buckets over its range,
// a monotone map) leaves the lists nearly sorted, insertion sort finishes;
// if that takes too many swaps (very uneven values), a comparison sort
// does.
func (s *Sweep) sortAll(key []int64) {
	n := len(key)
	order := s.order[:n]
	buf := slices.Grow(s.sortBuf[:0], n)[:n]
	s.sortBuf = buf
	lo, hi := inf, -inf
	for _, k := range key {
		x := fromSortKey(k)
		lo, hi = min(lo, x), max(hi, x)
	}
	scale := 0.0 // and lo 0: every value in bucket 0
	if ext := hi - lo; ext > 0 && finite(ext) {
		scale = float64(n-1) / ext
	} else {
		lo = 0
	}
	if cap(s.start) < n+1 {
		s.start = make([]int32, n+1)
	}
	cnt := s.start[:n+1]
	clear(cnt)
	bucket := func(k int64) int {
		return max(min(int((fromSortKey(k)-lo)*scale), n-1), 0)
	}
	for _, k := range key {
		cnt[bucket(k)+1]++
	}
	for b := 1; b <= n; b++ {
		cnt[b] += cnt[b-1]
	}
	for i, k := range key {
		b := bucket(k)
		buf[cnt[b]] = keyID{k, order[i]}
		cnt[b]++
	}
	swaps, budget := 0, 8*n+256
	for i := 1; i < n && swaps <= budget; i++ {
		e := buf[i]
		j := i - 1
		for j >= 0 && buf[j].k > e.k {
			buf[j+1] = buf[j]
			j--
		}
		swaps += i - 1 - j
		buf[j+1] = e
	}
	if swaps > budget {
		slices.SortFunc(buf, func(x, y keyID) int { return cmp.Compare(x.k, y.k) })
	}
	for i, e := range buf {
		key[i], order[i] = e.k, e.id
	}
}

type keyID struct {
	k  int64
	id int32
}

// sortKey maps a float64 to an int64 in the same order (with -0 before
// +0): the bits of a non-negative number, or of a negative one with all
// bits but the sign flipped.
func sortKey(x float64) int64 {
	b := int64(math.Float64bits(x))
	return b ^ (b >> 63 & math.MaxInt64)
}

// fromSortKey inverts sortKey.
func fromSortKey(k int64) float64 {
	return math.Float64frombits(uint64(k ^ (k >> 63 & math.MaxInt64)))
}

// sel returns a if c and b otherwise; the compiler emits a conditional
// move.
func sel[T int64 | int32](c bool, a, b T) T {
	if c {
		return a
	}
	return b
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
	g := grid{n: 1} // scale 0: every value in cell 0
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
	g.origin = lo
	g.scale = float64(cells) / ext
	return g
}

// cell maps v in [origin, origin+extent] to its cell (clamped, so that
// rounding at the top cannot leave the grid); integer min and max compile
// to conditional moves.
func (g grid) cell(v float64) int {
	return max(min(int((v-g.origin)*g.scale), g.n-1), 0)
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

// pick32 returns a if bit is 1 and b if bit is 0, without a branch.
func pick32(bit int, a, b int32) int32 { return b + int32(bit)*(a-b) }
