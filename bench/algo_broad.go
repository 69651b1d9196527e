package bench

import (
	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/geom"
)

// Broad-phase algorithms of package broad, task "broad":
//
//   - "sap": three-axis sweep and prune with incremental insertion sort and
//     an overlap set updated by the sort's events (I-COLLIDE).
//   - "sweep": one-axis sweep and prune inside the cells of a coarse y-z
//     grid, with incremental insertion sort (the fastest here).
//   - "tree": dynamic bounding-volume tree with fat boxes.
//   - "brute": all pairs, the oracle.
//
// Each frame every body's box is given to the structure with SetAll or Set
// (ids = body indices) and the pair list is read with Pairs; Reset starts from an
// empty structure, so the first frame of a pass includes building it.
func init() {
	for _, a := range []struct {
		name string
		make func() broad.Phase
	}{
		{"sap", func() broad.Phase { return new(broad.SAP) }},
		{"sweep", func() broad.Phase { return new(broad.Sweep) }},
		{"tree", func() broad.Phase { return new(broad.Tree) }},
		{"brute", func() broad.Phase { return new(broad.Brute) }},
	} {
		mk := a.make
		RegisterBroad(a.name, func(w *Workload) (BroadAlgo, error) {
			return &broadAlgo{make: mk, phase: mk()}, nil
		})
	}
}

type broadAlgo struct {
	make  func() broad.Phase
	phase broad.Phase
	buf   []broad.Pair
}

func (b *broadAlgo) Reset() { b.phase = b.make() }

// Frame gives the boxes to the structure and converts its pairs. A box
// the structure rejects (not finite) leaves its body out of the frame.
func (b *broadAlgo) Frame(boxes []geom.AABB, dst []Pair) []Pair {
	p := b.phase
	if sa, ok := p.(interface{ SetAll([]geom.AABB) error }); !ok || sa.SetAll(boxes) != nil {
		for i, box := range boxes {
			if p.Set(i, box) != nil {
				p.Remove(i)
			}
		}
	}
	b.buf = p.Pairs(b.buf[:0])
	return append(dst, b.buf...)
}
