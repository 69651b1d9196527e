package broad

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
)

// oracle is the reference: a map of boxes and a double loop with the
// closed-interval test written out, sharing no code with the structures.
type oracle map[int]geom.AABB

func (o oracle) pairs() []Pair {
	var ids []int
	for id := range o {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var out []Pair
	for i, a := range ids {
		for _, b := range ids[i+1:] {
			x, y := o[a], o[b]
			if x.Min.X <= y.Max.X && y.Min.X <= x.Max.X &&
				x.Min.Y <= y.Max.Y && y.Min.Y <= x.Max.Y &&
				x.Min.Z <= y.Max.Z && y.Min.Z <= x.Max.Z {
				out = append(out, Pair{int32(a), int32(b)})
			}
		}
	}
	return out
}

func sortPairs(p []Pair) []Pair {
	slices.SortFunc(p, func(x, y Pair) int {
		if x.A != y.A {
			return int(x.A - y.A)
		}
		return int(x.B - y.B)
	})
	return p
}

func diffPairs(got, want []Pair) string {
	g := map[Pair]bool{}
	for _, p := range got {
		if p.A >= p.B {
			return fmt.Sprintf("pair %v not ordered", p)
		}
		if g[p] {
			return fmt.Sprintf("pair %v listed twice", p)
		}
		g[p] = true
	}
	w := map[Pair]bool{}
	for _, p := range want {
		w[p] = true
	}
	var missing, extra []Pair
	for p := range w {
		if !g[p] {
			missing = append(missing, p)
		}
	}
	for p := range g {
		if !w[p] {
			extra = append(extra, p)
		}
	}
	if len(missing)+len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("missing %v, extra %v", sortPairs(missing), sortPairs(extra))
}

var phases = []struct {
	name string
	make func() Phase
}{
	{"sap", func() Phase { return new(SAP) }},
	{"sweep", func() Phase { return new(Sweep) }},
	{"tree", func() Phase { return new(Tree) }},
	{"brute", func() Phase { return new(Brute) }},
}

// randBox returns a box near c; with grid set, coordinates are multiples
// of 1/4 so that ties (touching boxes) are frequent, and some boxes are
// flat or points.
func randBox(r *rand.Rand, c geom.Vec3, size float64, grid bool) geom.AABB {
	h := geom.Vec3{X: size * r.Float64(), Y: size * r.Float64(), Z: size * r.Float64()}
	if r.IntN(10) == 0 {
		h = h.Set(r.IntN(3), 0)
	}
	if r.IntN(40) == 0 {
		h = geom.Vec3{}
	}
	b := geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
	if grid {
		q := func(v geom.Vec3) geom.Vec3 {
			return geom.Vec3{X: snap(v.X), Y: snap(v.Y), Z: snap(v.Z)}
		}
		b = geom.AABB{Min: q(b.Min), Max: q(b.Max)}
	}
	return b
}

func snap(x float64) float64 { return float64(int(x*4+1000)-1000) / 4 }

// TestPhasesMatchOracle drives every structure through thousands of random
// frames with coherent motion, teleports, insertions, removals, removal
// and re-insertion in the same frame, and exact ties, and compares the
// pair set with the oracle after every frame.
func TestPhasesMatchOracle(t *testing.T) {
	frames := 0
	for _, ph := range phases {
		for seed := uint64(1); seed <= 24; seed++ {
			r := rand.New(rand.NewPCG(seed, 99))
			grid := seed%2 == 0
			world := 4 + 10*r.Float64()
			size := 0.2 + 1.5*r.Float64()
			maxID := 5 + r.IntN(150)
			s := ph.make()
			o := oracle{}
			center := map[int]geom.Vec3{}
			var got []Pair
			for f := 0; f < 120; f++ {
				ops := 1 + r.IntN(maxID)
				for op := 0; op < ops; op++ {
					id := r.IntN(maxID)
					_, present := o[id]
					switch x := r.IntN(100); {
					case x < 70 && present: // coherent move
						c := center[id].Add(geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Scale(0.05 * size))
						center[id] = c
						o[id] = randBox(r, c, size, grid)
					case x < 75 && present: // teleport
						c := geom.Vec3{X: world * r.Float64(), Y: world * r.Float64(), Z: world * r.Float64()}
						center[id] = c
						o[id] = randBox(r, c, size, grid)
					case x < 85 && present:
						delete(o, id)
						if !s.Remove(id) {
							t.Fatalf("%s seed %d: Remove(%d) = false for a present id", ph.name, seed, id)
						}
						continue
					case x < 85:
						if s.Remove(id) {
							t.Fatalf("%s seed %d: Remove(%d) = true for an absent id", ph.name, seed, id)
						}
						continue
					default: // insert (or re-set)
						c := geom.Vec3{X: world * r.Float64(), Y: world * r.Float64(), Z: world * r.Float64()}
						center[id] = c
						o[id] = randBox(r, c, size, grid)
					}
					if err := s.Set(id, o[id]); err != nil {
						t.Fatal(err)
					}
				}
				if s.Len() != len(o) {
					t.Fatalf("%s seed %d frame %d: Len = %d, want %d", ph.name, seed, f, s.Len(), len(o))
				}
				got = s.Pairs(got[:0])
				if d := diffPairs(got, o.pairs()); d != "" {
					t.Fatalf("%s seed %d frame %d: %s", ph.name, seed, f, d)
				}
				if v, ok := s.(interface{ Validate() error }); ok {
					if err := v.Validate(); err != nil {
						t.Fatalf("%s seed %d frame %d: %v", ph.name, seed, f, err)
					}
				}
				frames++
			}
		}
	}
	t.Logf("%d frames checked", frames)
}

// TestScenesMatchOracle runs the bouncing-bodies scenes of the benchmark,
// giving the boxes with Set and, where there is one, with SetAll.
func TestScenesMatchOracle(t *testing.T) {
	type setAller interface{ SetAll([]geom.AABB) error }
	for _, ph := range phases {
		for _, n := range []int{1, 2, 50, 300} {
			sc := newScene(n, uint64(n))
			s := ph.make()
			var got []Pair
			for f, boxes := range sc.run(60) {
				o := oracle{}
				for i, b := range boxes {
					o[i] = b
				}
				if sa, ok := s.(setAller); ok && f%2 == 1 {
					if err := sa.SetAll(boxes); err != nil {
						t.Fatal(err)
					}
				} else {
					for i, b := range boxes {
						if err := s.Set(i, b); err != nil {
							t.Fatal(err)
						}
					}
				}
				got = s.Pairs(got[:0])
				if d := diffPairs(got, o.pairs()); d != "" {
					t.Fatalf("%s n=%d frame %d: %s", ph.name, n, f, d)
				}
			}
		}
	}
}

func TestSetRejectsBadBoxes(t *testing.T) {
	bad := []struct {
		id  int
		box geom.AABB
	}{
		{-1, geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}},
		{MaxID + 1, geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}},
		{0, geom.EmptyAABB()},
		{0, geom.AABB{Min: geom.Vec3{X: 2}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}},
		{0, geom.AABB{Min: geom.Vec3{Y: inf}, Max: geom.Vec3{X: 1, Y: inf, Z: 1}}},
		{3, geom.AABB{Min: geom.Vec3{Z: -inf}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}},
		{2, geom.AABB{Min: geom.Vec3{X: math.NaN()}, Max: geom.Vec3{X: 1, Y: 1, Z: 1}}},
		{2, geom.AABB{Max: geom.Vec3{X: 1, Y: math.NaN(), Z: 1}}},
	}
	for _, ph := range phases {
		s := ph.make()
		for _, c := range bad {
			if err := s.Set(c.id, c.box); err == nil {
				t.Errorf("%s: Set(%d, %v) accepted", ph.name, c.id, c.box)
			}
		}
		if s.Len() != 0 {
			t.Errorf("%s: Len = %d after rejected sets", ph.name, s.Len())
		}
		if p := s.Pairs(nil); len(p) != 0 {
			t.Errorf("%s: pairs %v after rejected sets", ph.name, p)
		}
		if sa, ok := s.(interface{ SetAll([]geom.AABB) error }); ok {
			good := geom.AABB{Max: geom.Vec3{X: 1, Y: 1, Z: 1}}
			for _, c := range bad[2:] {
				if err := sa.SetAll([]geom.AABB{good, c.box}); err == nil {
					t.Errorf("%s: SetAll with %v accepted", ph.name, c.box)
				}
			}
			if s.Len() != 1 {
				t.Errorf("%s: Len = %d after SetAll failing at box 1, want 1", ph.name, s.Len())
			}
		}
	}
}

// TestExtremeScales checks scenes at the edges of float64: tiny and huge
// coordinates, extents that overflow when subtracted, and one giant box
// covering every grid cell.
func TestExtremeScales(t *testing.T) {
	for _, scale := range []float64{1e-300, 1e-10, 1, 1e10, 1e300, math.MaxFloat64 / 4} {
		r := rand.New(rand.NewPCG(uint64(scale*0+7), 3))
		o := oracle{}
		for i := 0; i < 300; i++ {
			c := geom.Vec3{X: r.Float64()*2 - 1, Y: r.Float64()*2 - 1, Z: r.Float64()*2 - 1}.Scale(scale)
			o[i] = randBox(r, c, 0.1*scale, false)
		}
		o[300] = geom.AABB{Min: geom.Vec3{X: -scale, Y: -scale, Z: -scale}, Max: geom.Vec3{X: scale, Y: scale, Z: scale}}
		o[301] = geom.AABB{Min: geom.Vec3{X: -math.MaxFloat64, Y: -1, Z: -1}, Max: geom.Vec3{X: math.MaxFloat64, Y: 1, Z: 1}}
		want := o.pairs()
		for _, ph := range phases {
			s := ph.make()
			for id, b := range o {
				if err := s.Set(id, b); err != nil {
					t.Fatal(err)
				}
			}
			for f := 0; f < 2; f++ {
				if d := diffPairs(s.Pairs(nil), want); d != "" {
					t.Fatalf("%s scale %g: %s", ph.name, scale, d)
				}
			}
		}
	}
}

// TestPairsAllocate checks that a steady frame allocates nothing.
func TestPairsAllocate(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	frames := newScene(200, 5).run(8)
	for _, ph := range phases {
		s := ph.make()
		dst := make([]Pair, 0, 4096)
		play := func(k int) {
			for id, b := range frames[k%len(frames)] {
				s.Set(id, b)
			}
			dst = s.Pairs(dst[:0])
		}
		for k := 0; k < 3*len(frames); k++ {
			play(k)
		}
		k := 0
		if a := testing.AllocsPerRun(20, func() { play(k); k++ }); a != 0 {
			t.Errorf("%s: %v allocations per frame", ph.name, a)
		}
	}
}
