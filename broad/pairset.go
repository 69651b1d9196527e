package broad

// pairSet is a set of pairs with O(1) insertion and deletion and a dense
// array for listing: an open-addressing hash table (linear probing,
// backward-shift deletion) from the pair key to its index in the array.
type pairSet struct {
	list  []Pair
	slots []int32 // index into list + 1; 0 = empty
	mask  uint64
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// hash mixes a key (the finalizer of MurmurHash3's 64-bit variant).
func hash(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

func (s *pairSet) clear() {
	s.list = s.list[:0]
	clear(s.slots)
}

func (s *pairSet) len() int { return len(s.list) }

func (s *pairSet) grow() {
	n := 2 * len(s.slots)
	if n < 64 {
		n = 64
	}
	s.slots = make([]int32, n)
	s.mask = uint64(n - 1)
	for i, p := range s.list {
		h := hash(pairKey(p.A, p.B)) & s.mask
		for s.slots[h] != 0 {
			h = (h + 1) & s.mask
		}
		s.slots[h] = int32(i + 1)
	}
}

// find returns the slot holding pair (a, b) or -1.
func (s *pairSet) find(a, b int32) int {
	if len(s.slots) == 0 {
		return -1
	}
	k := pairKey(a, b)
	h := hash(k) & s.mask
	for {
		v := s.slots[h]
		if v == 0 {
			return -1
		}
		p := s.list[v-1]
		if p.A == a && p.B == b {
			return int(h)
		}
		h = (h + 1) & s.mask
	}
}

// add inserts (a, b), a < b; it reports false if the pair was present.
func (s *pairSet) add(a, b int32) bool {
	if 2*(len(s.list)+1) > len(s.slots) {
		s.grow()
	}
	h := hash(pairKey(a, b)) & s.mask
	for {
		v := s.slots[h]
		if v == 0 {
			break
		}
		if p := s.list[v-1]; p.A == a && p.B == b {
			return false
		}
		h = (h + 1) & s.mask
	}
	s.list = append(s.list, Pair{a, b})
	s.slots[h] = int32(len(s.list))
	return true
}

// remove deletes (a, b), a < b; it reports false if the pair was absent.
func (s *pairSet) remove(a, b int32) bool {
	h := s.find(a, b)
	if h < 0 {
		return false
	}
	idx := int(s.slots[h] - 1)
	s.deleteSlot(uint64(h))
	last := len(s.list) - 1
	if idx != last {
		p := s.list[last]
		// Point the moved pair's slot at its new index.
		j := s.find(p.A, p.B)
		s.slots[j] = int32(idx + 1)
		s.list[idx] = p
	}
	s.list = s.list[:last]
	return true
}

// deleteSlot empties slot h and shifts later entries of its probe run back
// so that lookups never stop early (Knuth's Algorithm R).
func (s *pairSet) deleteSlot(h uint64) {
	i := h
	for {
		s.slots[i] = 0
		j := i
		for {
			j = (j + 1) & s.mask
			v := s.slots[j]
			if v == 0 {
				return
			}
			p := s.list[v-1]
			home := hash(pairKey(p.A, p.B)) & s.mask
			// Move v to i unless its home lies cyclically in (i, j].
			if (i <= j && (i < home && home <= j)) || (i > j && (i < home || home <= j)) {
				continue
			}
			s.slots[i] = v
			i = j
			break
		}
	}
}
