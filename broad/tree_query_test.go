package broad

import (
	"math"
	"math/rand"
	"testing"

	"github.com/collide-go/collide/geom"
)

// rayHitsBox is the oracle: dense-free exact slab test written with
// geom.AABB, checked per body.
func rayHitsBox(b geom.AABB, o, d geom.Vec3, maxT float64) (float64, bool) {
	lo, hi := 0.0, maxT
	for k := 0; k < 3; k++ {
		ok, dk := o.Get(k), d.Get(k)
		bl, bh := b.Min.Get(k), b.Max.Get(k)
		if dk == 0 {
			if ok < bl || ok > bh {
				return 0, false
			}
			continue
		}
		a, c := (bl-ok)/dk, (bh-ok)/dk
		if a > c {
			a, c = c, a
		}
		lo, hi = math.Max(lo, a), math.Min(hi, c)
	}
	return lo, lo <= hi
}

func TestTreeRayCastAndNearest(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	var tr Tree
	var boxes []geom.AABB
	for i := 0; i < 300; i++ {
		c := geom.Vec3{X: r.Float64() * 20, Y: r.Float64() * 20, Z: r.Float64() * 20}
		h := geom.Vec3{X: r.Float64(), Y: r.Float64(), Z: r.Float64()}
		if i%10 == 0 {
			h.Y = 0 // flat boxes
		}
		b := geom.AABB{Min: c.Sub(h), Max: c.Add(h)}
		boxes = append(boxes, b)
		if err := tr.Set(i, b); err != nil {
			t.Fatal(err)
		}
	}
	hits := 0
	for q := 0; q < 500; q++ {
		o := geom.Vec3{X: r.Float64()*30 - 5, Y: r.Float64()*30 - 5, Z: r.Float64()*30 - 5}
		d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		if q%7 == 0 {
			d.X = 0 // axis-parallel rays
		}
		maxT := r.Float64() * 40
		want := map[int]float64{}
		for i, b := range boxes {
			if te, ok := rayHitsBox(b, o, d, maxT); ok {
				want[i] = te
			}
		}
		got := map[int]float64{}
		tr.RayCast(o, d, maxT, func(id int, te float64) float64 {
			got[id] = te
			return maxT
		})
		if len(got) != len(want) {
			t.Fatalf("ray %d: %d boxes, want %d", q, len(got), len(want))
		}
		for id, te := range want {
			if g, ok := got[id]; !ok || math.Abs(g-te) > 1e-12*(1+te) {
				t.Fatalf("ray %d box %d: tEnter %v, want %v", q, id, g, te)
			}
		}
		hits += len(want)

		// Nearest box centre-distance by branch and bound against brute force.
		p := o
		best, bestID := math.Inf(1), -1
		for i, b := range boxes {
			if dd := b.Center().Sub(p).Norm(); dd < best {
				best, bestID = dd, i
			}
		}
		gotBest, gotID := math.Inf(1), -1
		tr.Nearest(p, math.Inf(1), func(id int, boxDist float64) float64 {
			if boxDist > best+1e-12 && id == bestID {
				t.Fatalf("box distance %v exceeds the true distance %v", boxDist, best)
			}
			if dd := boxes[id].Center().Sub(p).Norm(); dd < gotBest {
				gotBest, gotID = dd, id
			}
			return gotBest
		})
		if gotID != bestID {
			t.Fatalf("nearest: %d (%v), want %d (%v)", gotID, gotBest, bestID, best)
		}
	}
	if hits < 100 {
		t.Fatalf("only %d ray-box hits: the test means little", hits)
	}
}
