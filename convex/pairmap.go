package convex

// PairMap holds per-pair state (a Cache or GJKCache) for pairs of body ids,
// in an open-addressing hash table, so a scene can carry each pair's
// separating vector from frame to frame (Sec. 2.2) without a map lookup's
// allocations. The zero value is an empty map.
type PairMap[T any] struct {
	keys []uint64 // pairKey+1; 0 marks an empty slot
	vals []T
	n    int
}

func pairKey(a, b int) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// Get returns the state of the ordered pair (a, b), adding a zero value if
// the pair is new. The pointer is valid until the next Get or Reset.
func (m *PairMap[T]) Get(a, b int) *T {
	if 4*(m.n+1) > 3*len(m.keys) {
		m.grow()
	}
	k := pairKey(a, b) + 1
	mask := uint64(len(m.keys) - 1)
	i := (k * 0x9E3779B97F4A7C15) >> 32 & mask
	for {
		switch m.keys[i] {
		case k:
			return &m.vals[i]
		case 0:
			m.keys[i] = k
			m.n++
			return &m.vals[i]
		}
		i = (i + 1) & mask
	}
}

// Len returns the number of pairs.
func (m *PairMap[T]) Len() int { return m.n }

// Reset forgets every pair, keeping the memory.
func (m *PairMap[T]) Reset() {
	clear(m.keys)
	clear(m.vals)
	m.n = 0
}

func (m *PairMap[T]) grow() {
	size := 2 * len(m.keys)
	if size < 64 {
		size = 64
	}
	old, oldv := m.keys, m.vals
	m.keys, m.vals, m.n = make([]uint64, size), make([]T, size), 0
	mask := uint64(size - 1)
	for j, k := range old {
		if k == 0 {
			continue
		}
		i := (k * 0x9E3779B97F4A7C15) >> 32 & mask
		for m.keys[i] != 0 {
			i = (i + 1) & mask
		}
		m.keys[i], m.vals[i] = k, oldv[j]
		m.n++
	}
}
