package screw

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
)

// TestDedupe checks dedupe on random time-sorted lists, short and long (the
// two code paths), against the definition: a collision is dropped when an
// earlier one that was kept has the same kind and features and is less than
// 1e-9 earlier.
func TestDedupe(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var scratch []int32
	for it := 0; it < 3000; it++ {
		n := r.IntN(200)
		if it%2 == 0 {
			n = r.IntN(33)
		}
		in := make([]Collision, n)
		for i := range in {
			// Few distinct features and times packed within a few 1e-9,
			// so that repeats are common.
			in[i] = Collision{Kind: contact.PairKind(r.IntN(3)), FeatureA: int32(r.IntN(4)), FeatureB: int32(r.IntN(4)),
				Time: 0.5 + float64(r.IntN(6))*0.6e-9, Near: r.IntN(4) == 0}
		}
		sortByTime(in)
		var want []Collision
		for _, c := range in {
			dup := false
			for _, k := range want {
				if k.Kind == c.Kind && k.FeatureA == c.FeatureA && k.FeatureB == c.FeatureB && c.Time-k.Time < 1e-9 {
					dup = true
				}
			}
			if !dup {
				want = append(want, c)
			}
		}
		got := append([]Collision(nil), in...)
		got, scratch = dedupe(got, scratch)
		if len(got) != len(want) {
			t.Fatalf("case %d (n %d): %d kept, want %d", it, n, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("case %d (n %d): kept[%d] = %+v, want %+v", it, n, i, got[i], want[i])
			}
		}
	}
}
