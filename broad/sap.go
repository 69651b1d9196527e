package broad

import (
	"cmp"
	"slices"

	"github.com/collide-go/collide/geom"
)

// SAP is sweep and prune on three axes with incremental insertion sort,
// after I-COLLIDE (Cohen et al. 1995), as cited by Chung and Wang (VRST
// 1996) Sec. 1.
//
// Each axis keeps the 2n box endpoints sorted, lower before upper at equal
// values, so that on every axis "lower endpoint of a precedes upper
// endpoint of b" is exactly lo_a <= hi_b. Between frames the lists are
// nearly sorted (temporal coherence) and insertion sort repairs them in
// O(n + swaps). Only a swap of a lower with an upper endpoint can change
// whether two boxes overlap on that axis; such a swap is an event. A pair
// can have events on several axes in one frame; it is added at the first
// axis (in x, y, z order) on which it was apart before the frame and removed
// at the first axis on which it is apart after it, so every event is
// decided with O(1) comparisons and the overlap set is updated by its
// changes alone, never by re-testing all pairs.
//
// When a frame breaks coherence (teleports, mass insertion) and the sort
// would cost more than rebuilding, SAP rebuilds: a full sort and a sweep.
//
// The zero value is an empty set ready to use. An SAP is not safe for
// concurrent use.
type SAP struct {
	cur, old []float64 // per id: lo x,y,z, hi x,y,z (stride 6); old = at the last Pairs
	flags    []uint8
	n        int // bodies present
	inArrays int // bodies with endpoints in the axis lists
	axes     [3]sapAxis
	set      pairSet
	born     []int32 // ids inserted since the last Pairs
	dead     []int32 // ids removed since the last Pairs
	stats    SAPStats

	adds, rems []uint64 // event buffers: moving handle<<32 | passed handle
	rb         *Sweep   // rebuild: finds all pairs
	pairBuf    []Pair
	sortBuf    []endpoint
}

// SAPStats counts the work of the last call to Pairs.
type SAPStats struct {
	Swaps   int  // endpoint swaps made by the insertion sorts
	Events  int  // swaps of a lower with an upper endpoint
	Rebuilt bool // whether the lists were rebuilt from scratch
}

type sapAxis struct {
	val []float64 // endpoint values, sorted
	h   []uint32  // endpoint handles: id<<1 | 1 for upper
}

type endpoint struct {
	v float64
	h uint32
}

const (
	flagIn   = 1 << iota // endpoints are in the axis lists
	flagBorn             // inserted since the last Pairs
	flagDead             // removed since the last Pairs (still in the lists)
)

// Set inserts or moves the box of body id.
func (s *SAP) Set(id int, box geom.AABB) error {
	if err := checkBox(id, box); err != nil {
		return err
	}
	if id >= len(s.flags) {
		s.growTo(id + 1)
	}
	f := s.flags[id]
	switch {
	case f&flagIn == 0:
		s.flags[id] = flagIn | flagBorn
		s.born = append(s.born, int32(id))
		for k := range s.axes {
			ax := &s.axes[k]
			ax.val = append(ax.val, 0, 0)
			ax.h = append(ax.h, uint32(id)<<1, uint32(id)<<1|1)
		}
		s.n++
		s.inArrays++
	case f&flagDead != 0:
		s.flags[id] = f &^ flagDead
		s.n++
	}
	c := s.cur[6*id : 6*id+6 : 6*id+6]
	c[0], c[1], c[2] = box.Min.X, box.Min.Y, box.Min.Z
	c[3], c[4], c[5] = box.Max.X, box.Max.Y, box.Max.Z
	return nil
}

func (s *SAP) growTo(n int) {
	m := max(n, 2*len(s.flags), 16)
	s.flags = append(s.flags, make([]uint8, m-len(s.flags))...)
	s.cur = append(s.cur, make([]float64, 6*m-len(s.cur))...)
	s.old = append(s.old, make([]float64, 6*m-len(s.old))...)
}

// SetAll sets the boxes of bodies 0 to len(boxes)-1, as many calls of Set
// would, with less overhead per box. On an invalid box it returns the
// error of Set for the first one, having set the boxes before it.
func (s *SAP) SetAll(boxes []geom.AABB) error {
	for id := range boxes {
		box := &boxes[id]
		if !validBox(box) {
			return checkBox(id, *box)
		}
		if id >= len(s.flags) || s.flags[id]&(flagIn|flagDead) != flagIn {
			if err := s.Set(id, *box); err != nil {
				return err
			}
			continue
		}
		c := s.cur[6*id : 6*id+6 : 6*id+6]
		c[0], c[1], c[2] = box.Min.X, box.Min.Y, box.Min.Z
		c[3], c[4], c[5] = box.Max.X, box.Max.Y, box.Max.Z
	}
	return nil
}

// Remove deletes body id and reports whether it was present.
func (s *SAP) Remove(id int) bool {
	if id < 0 || id >= len(s.flags) {
		return false
	}
	f := s.flags[id]
	if f&flagIn == 0 || f&flagDead != 0 {
		return false
	}
	s.flags[id] = f | flagDead
	s.dead = append(s.dead, int32(id))
	s.n--
	return true
}

// Len returns the number of bodies.
func (s *SAP) Len() int { return s.n }

// Box returns the box of body id and whether id is present.
func (s *SAP) Box(id int) (geom.AABB, bool) {
	if id < 0 || id >= len(s.flags) || s.flags[id]&flagIn == 0 || s.flags[id]&flagDead != 0 {
		return geom.AABB{}, false
	}
	c := s.cur[6*id:]
	return geom.AABB{Min: geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, Max: geom.Vec3{X: c[3], Y: c[4], Z: c[5]}}, true
}

// Stats returns the work counters of the last call to Pairs.
func (s *SAP) Stats() SAPStats { return s.stats }

// Pairs brings the sorted lists and the overlap set up to date with the
// boxes given since the last call and appends every overlapping pair to
// dst.
func (s *SAP) Pairs(dst []Pair) []Pair {
	s.update()
	return append(dst, s.set.list...)
}

// update repairs the lists and the overlap set.
func (s *SAP) update() {
	s.stats = SAPStats{}
	if len(s.dead) > 0 {
		s.purgeDead()
	}
	// Mass insertion: a sort from scratch beats insertion sort.
	if len(s.born) > 64 && 4*len(s.born) > s.inArrays {
		s.rebuild()
		return
	}
	budget := 64*s.inArrays + 1024
	for k := range s.axes {
		s.gather(k)
		if !s.sortAxis(k, &budget) {
			s.rebuild()
			return
		}
	}
	s.finish()
}

// finish ends a frame: clears the born marks and remembers the boxes.
func (s *SAP) finish() {
	for _, id := range s.born {
		s.flags[id] &^= flagBorn
	}
	s.born = s.born[:0]
	copy(s.old, s.cur)
}

// purgeDead drops removed bodies from the lists and their pairs from the
// set; removing elements keeps a sorted list sorted.
func (s *SAP) purgeDead() {
	for k := range s.axes {
		ax := &s.axes[k]
		w := 0
		for i, h := range ax.h {
			if s.flags[h>>1]&flagDead == 0 {
				ax.h[w] = h
				ax.val[w] = ax.val[i]
				w++
			}
		}
		ax.h, ax.val = ax.h[:w], ax.val[:w]
	}
	l := s.set.list
	for i := len(l) - 1; i >= 0; i-- {
		if p := s.set.list[i]; s.flags[p.A]&flagDead != 0 || s.flags[p.B]&flagDead != 0 {
			s.set.remove(p.A, p.B)
		}
	}
	for _, id := range s.dead {
		if s.flags[id]&flagDead != 0 { // not revived by Set
			if s.flags[id]&flagBorn != 0 {
				i := slices.Index(s.born, id)
				s.born = slices.Delete(s.born, i, i+1)
			}
			s.flags[id] = 0
			s.inArrays--
		}
	}
	s.dead = s.dead[:0]
}

// gather loads the current endpoint values of axis k into its list.
func (s *SAP) gather(k int) {
	ax := &s.axes[k]
	cur := s.cur
	val := ax.val[:len(ax.h)]
	for i, h := range ax.h {
		val[i] = cur[int(h>>1)*6+int(h&1)*3+k]
	}
}

// sortAxis insertion-sorts axis k and then handles its events. It returns
// false when the budget of swaps runs out (the caller rebuilds).
//
// The sort only records events: an element moving left is a lower or an
// upper endpoint for its whole move, so each endpoint it passes is written
// to the add or the remove buffer chosen once per element, and the buffer
// index advances only when the passed endpoint is of the other kind. This
// keeps the inner loop free of unpredictable branches.
func (s *SAP) sortAxis(k int, budget *int) bool {
	ax := &s.axes[k]
	val, hs := ax.val, ax.h[:len(ax.val)]
	swaps := 0
	adds, rems := s.adds[:0], s.rems[:0]
	for i := 1; i < len(val); i++ {
		v, h := val[i], hs[i]
		pv, ph := val[i-1], hs[i-1]
		if !(v < pv || (v == pv && h&1 < ph&1)) {
			continue
		}
		// Room for every event of this element (at most i).
		buf := &adds
		if h&1 != 0 {
			buf = &rems
		}
		b := *buf
		nb := len(b)
		if cap(b)-nb < i {
			b = append(b[:nb], make([]uint64, i)...)
		}
		b = b[:cap(b)]
		tag := uint64(h) << 32
		j := i - 1
		for {
			b[nb] = tag | uint64(ph)
			nb += int((h ^ ph) & 1)
			val[j+1], hs[j+1] = pv, ph
			j--
			if j < 0 {
				break
			}
			pv, ph = val[j], hs[j]
			if !(v < pv || (v == pv && h&1 < ph&1)) {
				break
			}
		}
		swaps += i - 1 - j
		*buf = b[:nb]
		val[j+1], hs[j+1] = v, h
		if swaps > *budget {
			s.adds, s.rems = adds[:0], rems[:0]
			return false
		}
	}
	*budget -= swaps
	s.stats.Swaps += swaps
	s.stats.Events += len(adds) + len(rems)
	// The other two axes, tested first: a pair with an event on axis k
	// usually does not overlap on them, so most events end at the first
	// comparison.
	j1, j2 := (k+1)%3, (k+2)%3
	cur, old := s.cur, s.old
	// The six comparisons are combined without branches: most events
	// fail one of them, in no predictable pattern, and the one branch
	// left is rarely taken.
	for _, e := range adds {
		a, b := int(e>>33), int(uint32(e)>>1)
		ca, cb := cur[6*a:6*a+6:6*a+6], cur[6*b:6*b+6:6*b+6]
		if b2i(ca[j1] <= cb[j1+3])&b2i(cb[j1] <= ca[j1+3])&b2i(ca[j2] <= cb[j2+3])&b2i(cb[j2] <= ca[j2+3])&b2i(ca[k] <= cb[k+3])&b2i(cb[k] <= ca[k+3]) != 0 {
			s.addEvent(k, a, b)
		}
	}
	for _, e := range rems {
		a, b := int(e>>33), int(uint32(e)>>1)
		oa, ob := old[6*a:6*a+6:6*a+6], old[6*b:6*b+6:6*b+6]
		if b2i(oa[j1] <= ob[j1+3])&b2i(ob[j1] <= oa[j1+3])&b2i(oa[j2] <= ob[j2+3])&b2i(ob[j2] <= oa[j2+3])&b2i(oa[k] <= ob[k+3])&b2i(ob[k] <= oa[k+3]) != 0 {
			s.removeEvent(k, a, b)
		}
	}
	s.adds, s.rems = adds[:0], rems[:0]
	return true
}

// addEvent: the lower endpoint of a moved before the upper endpoint of b on
// axis k, so a and b were apart on k before the frame and now overlap on k.
// The pair is added if it overlaps now on all axes and k is the first axis
// on which it was apart.
//
// The caller has checked that the pair overlaps now.
func (s *SAP) addEvent(k, a, b int) {
	if (s.flags[a]|s.flags[b])&flagBorn != 0 {
		if k != 0 { // a new body was apart from everything on every axis
			return
		}
	} else if apartBefore(s.old, k, a, b) {
		return
	}
	p := ordered(int32(a), int32(b))
	s.set.add(p.A, p.B)
}

// removeEvent: the upper endpoint of a moved before the lower endpoint of
// b on axis k, so a and b overlapped on k before the frame and are apart on
// k now. The pair is removed if it overlapped before on all axes and k is
// the first axis on which it is apart now.
//
// The caller has checked that the pair overlapped before.
func (s *SAP) removeEvent(k, a, b int) {
	if (s.flags[a]|s.flags[b])&flagBorn != 0 {
		return
	}
	if apartBefore(s.cur, k, a, b) {
		return
	}
	p := ordered(int32(a), int32(b))
	s.set.remove(p.A, p.B)
}

// apartBefore reports whether the boxes of a and b in v (six numbers a
// body: the lower ends, then the upper ends) are apart on an axis before
// axis k.
func apartBefore(v []float64, k, a, b int) bool {
	va, vb := v[6*a:6*a+6:6*a+6], v[6*b:6*b+6:6*b+6]
	for j := 0; j < k; j++ {
		if va[j] > vb[j+3] || vb[j] > va[j+3] {
			return true
		}
	}
	return false
}

// rebuild sorts every axis from scratch and finds all pairs with a grid
// sweep (Sweep).
func (s *SAP) rebuild() {
	s.stats.Rebuilt = true
	for k := range s.axes {
		ax := &s.axes[k]
		buf := s.sortBuf[:0]
		for _, h := range ax.h {
			buf = append(buf, endpoint{s.cur[int(h>>1)*6+int(h&1)*3+k], h})
		}
		slices.SortFunc(buf, func(x, y endpoint) int {
			if c := cmp.Compare(x.v, y.v); c != 0 {
				return c
			}
			return int(x.h&1) - int(y.h&1)
		})
		for i, e := range buf {
			ax.val[i], ax.h[i] = e.v, e.h
		}
		s.sortBuf = buf
	}
	// All pairs afresh, by the grid sweep (O(n + pairs) on spread-out
	// scenes, unlike a sweep of the x list alone).
	s.set.clear()
	if s.rb == nil {
		s.rb = new(Sweep)
	}
	rb := s.rb
	for _, h := range s.axes[0].h {
		if h&1 == 0 {
			id := int(h >> 1)
			c := s.cur[6*id : 6*id+6]
			rb.Set(id, geom.AABB{Min: geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, Max: geom.Vec3{X: c[3], Y: c[4], Z: c[5]}})
		}
	}
	s.pairBuf = rb.Pairs(s.pairBuf[:0])
	for _, p := range s.pairBuf {
		s.set.add(p.A, p.B)
	}
	for _, h := range s.axes[0].h {
		if h&1 == 0 {
			rb.Remove(int(h >> 1))
		}
	}
	rb.Pairs(nil) // drop the removed ids
	s.finish()
}
