package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestApartSampled checks apart against dense sampling of the origins'
// straight paths (seeded random passes, about half of them near misses):
// apart exactly when no sampled time brings the origins within the radii
// plus the margin.
func TestApartSampled(t *testing.T) {
	vec := func(rng *rand.Rand, s float64) geom.Vec3 {
		return geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1).Scale(s)
	}
	rng := rand.New(rand.NewPCG(20, 7))
	const n = 4000
	far, near := 0, 0
	for i := 0; i < n; i++ {
		pa, pb := vec(rng, 1), vec(rng, 1)
		da, db := vec(rng, 1.5), vec(rng, 1.5)
		ra, rb, margin := 0.3+0.5*rng.Float64(), 0.3+0.5*rng.Float64(), 0.02*rng.Float64()
		got := apart(pa, da, 0, ra, pb, db, 0, rb, margin)
		closest := math.Inf(1)
		for k := 0; k <= 2000; k++ {
			s := float64(k) / 2000
			d := pb.AddScaled(s, db).Sub(pa.AddScaled(s, da))
			closest = min(closest, d.Norm())
		}
		reach := ra + rb + margin
		if got {
			far++
			if closest <= reach {
				t.Fatalf("case %d: apart, but the origins come within %v of each other (reach %v)", i, closest, reach)
			}
		} else if closest <= reach*(1+1e-3) {
			near++
		}
		if !got && closest > reach*(1+1e-3) {
			t.Fatalf("case %d: not apart, but the origins stay %v apart (reach %v)", i, closest, reach)
		}
	}
	if rate := float64(far) / n; rate < 0.3 || rate > 0.7 {
		t.Fatalf("apart in %d of %d cases: want 30-70%%", far, n)
	}
	t.Logf("apart %d, near %d of %d", far, near, n)
}

// TestFeatureContactsFlyPast: two boxes flying past each other far apart
// get no contact although their relative displacement (the margin of
// their search) covers both; the same motion aimed at each other gives
// speculative contacts.
func TestFeatureContactsFlyPast(t *testing.T) {
	for _, tc := range []struct {
		name string
		y    float64 // lateral offset of the second box's path
		want bool
	}{{"past", 1.5, false}, {"head-on", 0, true}} {
		t.Run(tc.name, func(t *testing.T) {
			w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
			box := shapes.Box(geom.V(0.2, 0.2, 0.2))
			at := func(x, y float64) geom.Pose { return geom.Pose{P: geom.V(x, y, 0), Q: geom.QuatIdentity()} }
			a, err := w.Add(BodyDef{Mesh: box, Kind: Convex, Pose: at(-2, 0)})
			if err != nil {
				t.Fatal(err)
			}
			b, err := w.Add(BodyDef{Mesh: box, Kind: Convex, Pose: at(2, tc.y)})
			if err != nil {
				t.Fatal(err)
			}
			if err := w.Move(a, at(2, 0)); err != nil {
				t.Fatal(err)
			}
			if err := w.Move(b, at(-2, tc.y)); err != nil {
				t.Fatal(err)
			}
			cs, err := w.Step(nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(cs) > 0; got != tc.want {
				t.Fatalf("%d contacts, want contacts: %v", len(cs), tc.want)
			}
			for _, c := range cs {
				if err := c.Validate(); err != nil {
					t.Fatal(err)
				}
				if c.Normal.X < 0.99 || c.Separation <= 0 {
					t.Fatalf("head-on contact %v: want normal +x from A to B and a positive separation", c)
				}
			}
		})
	}
}
