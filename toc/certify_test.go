package toc

import (
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// TestNearNeverMisses: the padded test of certify never says "apart" for
// two random soups whose surfaces are within the pad, against meshquery's
// exact distance (branch and bound over all triangle pairs), with about
// half of the cases within the pad.
func TestNearNeverMisses(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 61))
	var q Query
	var mq meshquery.Query
	id := geom.TransformIdentity()
	const n = 600
	within, loose := 0, 0
	for i := range n {
		ms, err := SoupOf(randomSoup(r, 5+r.IntN(40), 1))
		if err != nil {
			t.Fatal(err)
		}
		os, err := SoupOf(randomSoup(r, 5+r.IntN(40), 1))
		if err != nil {
			t.Fatal(err)
		}
		rot := randQuat(r).Mat3()
		f := Frame{A: rot, B: randUnit(r).Scale(0.8 + 1.4*r.Float64())}
		pad := 0.4 * r.Float64()
		tm, err := ms.mqTree()
		if err != nil {
			t.Fatal(err)
		}
		to, err := os.mqTree()
		if err != nil {
			t.Fatal(err)
		}
		tf := geom.Transform{R: f.A, T: f.B}
		res, err := mq.Distance(to, &id, tm, &tf, nil)
		if err != nil {
			t.Fatal(err)
		}
		near := q.near(ms, os, &f, pad)
		if res.Dist <= pad {
			within++
			if !near {
				t.Errorf("case %d: surfaces %v apart, pad %v: near says apart", i, res.Dist, pad)
			}
		} else if near {
			loose++
		}
	}
	t.Logf("%d of %d within the pad; %d of the others called near", within, n, loose)
	if rate := float64(within) / n; rate < 0.3 || rate > 0.7 {
		t.Errorf("%d of %d cases within the pad, want 30-70%%", within, n)
	}
}
