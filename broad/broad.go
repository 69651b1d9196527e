package broad

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

// Pair is a pair of overlapping bodies, named by their ids, with A < B.
type Pair struct{ A, B int32 }

// Phase is a broad phase: a set of boxes named by ids that reports every
// overlapping pair. SAP, Tree and Brute implement it and report exactly the
// same pairs.
type Phase interface {
	// Set inserts the box of body id, or moves it if id is present. It
	// returns an error (and changes nothing) if id is negative or larger
	// than MaxID, or the box is not finite or has Min > Max on an axis.
	Set(id int, box geom.AABB) error
	// Remove deletes body id; it reports whether id was present.
	Remove(id int) bool
	// Len returns the number of bodies.
	Len() int
	// Pairs appends to dst every pair a < b of bodies whose boxes overlap
	// (closed intervals on all three axes), each once, in no particular
	// order, and returns the extended slice.
	Pairs(dst []Pair) []Pair
}

// MaxID is the largest id a Phase accepts.
const MaxID = 1<<30 - 1

// checkBox validates an id and a box for Set.
func checkBox(id int, b geom.AABB) error {
	if id < 0 || id > MaxID {
		return fmt.Errorf("broad: id %d out of range [0, %d]", id, MaxID)
	}
	if !finite(b.Min.X) || !finite(b.Min.Y) || !finite(b.Min.Z) ||
		!finite(b.Max.X) || !finite(b.Max.Y) || !finite(b.Max.Z) {
		return fmt.Errorf("broad: id %d: box %v has a non-finite coordinate", id, b)
	}
	if b.Min.X > b.Max.X || b.Min.Y > b.Max.Y || b.Min.Z > b.Max.Z {
		return fmt.Errorf("broad: id %d: box %v has Min > Max", id, b)
	}
	return nil
}

func finite(x float64) bool { return x-x == 0 }

// validBox reports whether b is a box Set accepts (finite, Min <= Max);
// checkBox says what is wrong with one that is not.
func validBox(b *geom.AABB) bool {
	// x-x is 0 for a finite x and NaN otherwise; NaN fails every test.
	return b.Min.X <= b.Max.X && b.Min.Y <= b.Max.Y && b.Min.Z <= b.Max.Z &&
		(b.Min.X-b.Min.X)+(b.Min.Y-b.Min.Y)+(b.Min.Z-b.Min.Z)+
			(b.Max.X-b.Max.X)+(b.Max.Y-b.Max.Y)+(b.Max.Z-b.Max.Z) == 0
}

// boxTable holds the boxes of the bodies by id, for Brute and Sweep.
type boxTable struct {
	boxes   []box6
	present []bool
	n       int
}

// add makes room for id and marks it present; it reports whether id was
// absent before.
func (t *boxTable) add(id int) bool {
	for id >= len(t.boxes) {
		t.boxes = append(t.boxes, box6{})
		t.present = append(t.present, false)
	}
	if t.present[id] {
		return false
	}
	t.present[id] = true
	t.n++
	return true
}

// has reports whether id is present.
func (t *boxTable) has(id int) bool { return id >= 0 && id < len(t.present) && t.present[id] }

// Remove deletes body id and reports whether it was present.
func (t *boxTable) Remove(id int) bool {
	if !t.has(id) {
		return false
	}
	t.present[id] = false
	t.n--
	return true
}

// Len returns the number of bodies.
func (t *boxTable) Len() int { return t.n }

// box6 is a box as six numbers: lo[0..2] = Min, hi = Max, indexed by axis.
type box6 struct{ lo, hi [3]float64 }

func toBox6(b geom.AABB) box6 {
	return box6{[3]float64{b.Min.X, b.Min.Y, b.Min.Z}, [3]float64{b.Max.X, b.Max.Y, b.Max.Z}}
}

func (b *box6) aabb() geom.AABB {
	return geom.AABB{Min: geom.Vec3{X: b.lo[0], Y: b.lo[1], Z: b.lo[2]}, Max: geom.Vec3{X: b.hi[0], Y: b.hi[1], Z: b.hi[2]}}
}

func overlap6(a, b *box6) bool {
	return a.lo[0] <= b.hi[0] && b.lo[0] <= a.hi[0] &&
		a.lo[1] <= b.hi[1] && b.lo[1] <= a.hi[1] &&
		a.lo[2] <= b.hi[2] && b.lo[2] <= a.hi[2]
}

var inf = math.Inf(1)

func ordered(a, b int32) Pair {
	if a < b {
		return Pair{a, b}
	}
	return Pair{b, a}
}
