package broad

import "github.com/collide-go/collide/geom"

// Brute is the brute-force broad phase: Pairs tests every pair of boxes,
// O(n²). It is the reference the other structures are checked against and
// is the fastest choice below a few dozen bodies. The zero value is an
// empty set ready to use.
type Brute struct {
	boxTable
	live   []int32 // scratch: present ids in increasing order
	packed []box6  // scratch: their boxes
}

// Set inserts or moves the box of body id.
func (s *Brute) Set(id int, box geom.AABB) error {
	if err := checkBox(id, box); err != nil {
		return err
	}
	s.add(id)
	s.boxes[id] = toBox6(box)
	return nil
}

// Box returns the box of body id and whether id is present.
func (s *Brute) Box(id int) (geom.AABB, bool) {
	if !s.has(id) {
		return geom.AABB{}, false
	}
	return s.boxes[id].aabb(), true
}

// Pairs appends every overlapping pair a < b to dst, ordered by a then b.
func (s *Brute) Pairs(dst []Pair) []Pair {
	s.live, s.packed = s.live[:0], s.packed[:0]
	for i, p := range s.present {
		if p {
			s.live = append(s.live, int32(i))
			s.packed = append(s.packed, s.boxes[i])
		}
	}
	bs := s.packed
	for i := range bs {
		a := &bs[i]
		for j := i + 1; j < len(bs); j++ {
			if overlap6(a, &bs[j]) {
				dst = append(dst, Pair{s.live[i], s.live[j]})
			}
		}
	}
	return dst
}
