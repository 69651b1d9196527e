package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestFeatureWalk moves small pairs by large steps (turns of up to 20
// degrees, shifts of 0.1 to 0.5 of the mean radius per frame, as in the
// 500-body benchmark scenes, where bodies move about a radius per frame
// relative to each other) with a cache, every frame checked against the
// oracles. The cached closest features are then rarely still the closest:
// the feature walk (V-Clip's moves out of a vertex's, edge's or face's
// Voronoi region, then the support certificate) must still answer most
// separated frames that follow a separated frame; without the walk (only
// the cached pair and its supporting vertices) it answers about half.
func TestFeatureWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 43))
	n := map[bool]int{false: 120, true: 40}[testing.Short()]
	cases := randomCases(rng, smallShapes(t), n)
	var s Searcher
	total, overlap, follow := 0, 0, 0
	for _, c := range cases {
		var cache DistanceCache
		tb := c.tb
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		wasApart := false
		for fr := 0; fr < 12; fr++ {
			_, ref, label := checkCachedFrame(t, &s, c, &tb, &cache)
			if t.Failed() {
				t.Fatalf("frame %d of case %s", fr, label)
			}
			total++
			apart := ref > 1e-9*scale
			if !apart {
				overlap++
			}
			if apart && wasApart {
				follow++
			}
			wasApart = apart
			// A large screw step of B, drawn back towards A so that the
			// pair keeps meeting.
			q := geom.QuatAxisAngle(randDir(rng), (rng.Float64()-0.5)*math.Pi/9)
			tb.R = geom.Pose{Q: q}.Transform().R.Mul(tb.R)
			if d := c.ta.T.Sub(tb.T); d.Norm() > 2*scale {
				tb.T = tb.T.AddScaled(0.3, d)
			}
			tb.T = tb.T.AddScaled(scale*(0.1+0.4*rng.Float64()), randDir(rng))
		}
	}
	rate := float64(overlap) / float64(total)
	t.Logf("%d frames, overlap rate %.2f, %d separated frames after a separated one, %d answered by the feature walk", total, rate, follow, s.featureHits)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f outside [0.3, 0.7]", rate)
	}
	if s.featureHits < 3*follow/4 {
		t.Errorf("the feature walk answered %d frames, fewer than 3/4 of the %d separated frames after a separated one", s.featureHits, follow)
	}
}
