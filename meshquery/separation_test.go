package meshquery

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// checkSeparation compares Separation, with every option, against the brute-force oracles (math/big triangle tests, the
// fifteen feature distances) at one placement, and returns the true
// distance (0 when the surfaces cross).
func checkSeparation(t *testing.T, q *Scratch, a, b *Tree, ta, tb *geom.Transform, o *oracleMesh, pad float64, label string) float64 {
	t.Helper()
	hit := o.bruteHit()
	d := 0.0
	if !hit {
		d = o.bruteDist()
	}
	tol := 1e-9 * (a.Scale() + b.Scale())
	for k := range 4 {
		opt := SeparationOptions{Cross: k&1 != 0, Exact: k&2 != 0}
		pr, bound, err := q.Separation(a, ta, b, tb, pad, &opt)
		if err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		switch pr {
		case Apart:
			if hit || d <= pad || !(bound > pad) || bound > d+tol {
				t.Fatalf("%s (%+v): apart with bound %.17g, pad %.17g; brute force hit %v, distance %.17g", label, opt, bound, pad, hit, d)
			}
		case Crossing:
			if !hit {
				t.Fatalf("%s (%+v): crossing, brute force distance %.17g", label, opt, d)
			}
		case Within:
			if opt.Cross && hit {
				t.Fatalf("%s (%+v): within, brute force finds the surfaces crossing", label, opt)
			}
			if opt.Exact && d > pad+tol {
				t.Fatalf("%s (%+v): within, brute force distance %.17g for pad %.17g", label, opt, d, pad)
			}
		default:
			t.Fatalf("%s: answer %v", label, pr)
		}
		if opt.Cross && pr == Crossing != hit {
			t.Fatalf("%s (%+v): %v, brute force hit %v", label, opt, pr, hit)
		}
	}
	return d
}

// TestSeparationOracle checks Separation on random placements of a
// torus, Buss's car and two tori against brute force, with pads drawn
// so that about half the placements are within the pad (crossing
// included).
func TestSeparationOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 21))
	var q Scratch
	within, apart, n := 0, 0, 0
	randomPlacements(t, r, func() float64 { return 0.55 + 0.5*r.Float64() }, func(ma, mb *mesh.Mesh, a, b *Tree, pa, pb geom.Pose) {
		ta, tb := pa.Transform(), pb.Transform()
		pad := 0.2 * (ma.Radius() + mb.Radius()) * r.Float64()
		dist := checkSeparation(t, &q, a, b, &ta, &tb, oracleOf(ma, mb, pa, pb), pad, fmt.Sprintf("placement %d", n))
		pr, _, _ := q.Separation(a, &ta, b, &tb, pad, &SeparationOptions{Cross: true})
		if dist <= pad {
			within++
		}
		if pr == Apart {
			apart++
		}
		n++
	})
	t.Logf("%d placements: %d within the pad, %d proved apart", n, within, apart)
	if rate := float64(within) / float64(n); rate < 0.3 || rate > 0.7 {
		t.Fatalf("%d of %d placements within the pad, want 30-70%%", within, n)
	}
	if apart < (n-within)/2 {
		t.Fatalf("only %d of the %d placements beyond the pad proved apart", apart, n-within)
	}
}

// TestSeparationErrors: a bad pad or pose is an error naming it.
func TestSeparationErrors(t *testing.T) {
	tr := mustTree(t, shapes.Box(geom.V(1, 1, 1)))
	id := geom.TransformIdentity()
	var q Scratch
	for _, pad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, _, err := q.Separation(tr, &id, tr, &id, pad, nil); !errors.Is(err, ErrInput) {
			t.Errorf("pad %v: error %v, want ErrInput", pad, err)
		}
	}
	if _, _, err := q.Separation(tr, nil, tr, &id, 0, nil); !errors.Is(err, ErrInput) {
		t.Errorf("nil transform: error %v, want ErrInput", err)
	}
}

// TestSeparationAllocs: a warm query allocates nothing.
func TestSeparationAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	a, b := mustTree(t, shapes.Torus(1, 0.35, 20, 15)), mustTree(t, shapes.Car())
	ta := geom.TransformIdentity()
	tb := geom.Pose{P: geom.V(1.2, 0.3, 0.1), Q: geom.QuatAxisAngle(geom.V(1, 2, 3), 0.7)}.Transform()
	var q Scratch
	opt := SeparationOptions{Cross: true, Exact: true}
	run := func() { q.Separation(a, &ta, b, &tb, 0.05, &opt) }
	run()
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Fatalf("%v allocations per query", n)
	}
}
