package broad

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestSweepClustersAndHugeBoxes checks Sweep against the oracle on scenes
// that stress its grid: a dense cluster (one cell holding hundreds of
// boxes with hundreds of partners each, so the output grows inside a cell
// list), boxes spanning many cells, flat and point boxes on cell borders,
// signed zeros and exact ties; with dst given with no room, little room
// and room to spare.
func TestSweepClustersAndHugeBoxes(t *testing.T) {
	for seed := uint64(1); seed <= 30; seed++ {
		r := rand.New(rand.NewPCG(seed, 5))
		n := 30 + r.IntN(400)
		boxes := make([]geom.AABB, n)
		var s Sweep
		var got []Pair
		for f := 0; f < 6; f++ {
			o := oracle{}
			for i := range boxes {
				var c geom.Vec3
				h := geom.Vec3{X: 0.5 * r.Float64(), Y: 0.5 * r.Float64(), Z: 0.5 * r.Float64()}
				switch k := r.IntN(10); {
				case k < 4: // dense cluster near the origin
					c = geom.Vec3{X: 0.3 * r.NormFloat64(), Y: 0.3 * r.NormFloat64(), Z: 0.3 * r.NormFloat64()}
				case k < 5: // huge: many cells on y and z
					c = geom.Vec3{X: 40 * r.Float64(), Y: 40 * r.Float64(), Z: 40 * r.Float64()}
					h = geom.Vec3{X: 1, Y: 5 + 15*r.Float64(), Z: 5 + 15*r.Float64()}
				case k < 6: // flat or a point, on integer coordinates
					c = geom.Vec3{X: float64(r.IntN(40)), Y: float64(r.IntN(40)), Z: float64(r.IntN(40))}
					h = h.Set(r.IntN(3), 0)
					if r.IntN(3) == 0 {
						h = geom.Vec3{}
					}
				default:
					c = geom.Vec3{X: 40 * r.Float64(), Y: 40 * r.Float64(), Z: 40 * r.Float64()}
				}
				b := geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
				if r.IntN(8) == 0 { // touch at signed zeros
					b.Min.Y, b.Max.Z = 0, math.Copysign(0, -1)
					if b.Min.Z > 0 {
						b.Min.Z = -1
					}
					if b.Max.Y < 0 {
						b.Max.Y = 1
					}
				}
				boxes[i] = b
				o[i] = b
			}
			if err := s.SetAll(boxes); err != nil {
				t.Fatal(err)
			}
			switch f % 3 {
			case 0:
				got = nil
			case 1:
				got = make([]Pair, 1, 3)
				got = got[:0]
			default:
				got = got[:0]
			}
			got = s.Pairs(got)
			if d := diffPairs(got, o.pairs()); d != "" {
				t.Fatalf("seed %d frame %d (n %d): %s", seed, f, n, d)
			}
		}
	}
}
