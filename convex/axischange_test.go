package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestSignedDistanceAxisChange: pairs of small polytopes (answered by the
// separating-axis test when they overlap) moved by tiny steps (2e-3 of the
// scale and 0.5 degree a frame) with a per-pair cache, so that the axis
// of the depth changes from one face or edge pair to another between
// frames while the cached axis of the last frame is still nearly as good:
// every frame's answer is checked against the oracles (the separating-axis
// margin over all candidate axes, the brute-force distance), and the test
// asserts that the minimal axis changed many times (the oracle-checked
// normal turning by more than 0.03 rad (three times the frame's turn) in one frame) and an overlap rate
// within 30-70%.
func TestSignedDistanceAxisChange(t *testing.T) {
	small := smallShapes(t)
	rng := rand.New(rand.NewPCG(31, 37))
	n, frames := 40, 300
	if testing.Short() {
		frames = 150
	}
	var s Searcher
	hits, total, changes := 0, 0, 0
	for len(small) > 0 && n > 0 {
		c := randomCases(rng, small, 1)[0]
		if c.kind == "nested" {
			continue // no axis change within the frames
		}
		n--
		var cache DistanceCache
		tb := c.tb
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		// B drifts through A: away from A's centre or towards it.
		v := c.ta.T.Sub(tb.T)
		if u, ok := v.Normalize(); ok {
			v = u
		}
		if rng.IntN(2) == 0 {
			v = v.Neg()
		}
		v = v.AddScaled(0.5, randDir(rng)).Scale(2e-3 * scale)
		axis := randDir(rng)
		rot := geom.Pose{Q: geom.QuatAxisAngle(axis, math.Pi/360)}.Transform().R
		var last geom.Vec3
		for fr := 0; fr < frames; fr++ {
			d, ref, label := checkCachedFrame(t, &s, c, &tb, &cache)
			if t.Failed() {
				t.Fatalf("frame %d of case %s", fr, label)
			}
			total++
			if ref <= 1e-9*scale {
				hits++
				if fr > 0 && last != (geom.Vec3{}) && d.Normal.Dot(last) < math.Cos(0.03) {
					changes++
				}
				last = d.Normal
			} else {
				last = geom.Vec3{}
			}
			tb.R = rot.Mul(tb.R)
			tb.T = tb.T.Add(v)
		}
	}
	rate := float64(hits) / float64(total)
	t.Logf("%d frames, overlap rate %.2f, %d changes of the depth's axis between overlapping frames", total, rate, changes)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("overlap rate %.2f outside [0.3, 0.7]", rate)
	}
	if changes < frames/15 {
		t.Errorf("only %d changes of the depth's axis", changes)
	}
}

// smallShapes returns the test shapes small enough for the separating-axis
// test.
func smallShapes(t *testing.T) []shape {
	var small []shape
	for _, sh := range testShapes(t, false) {
		if sh.p.satEdges != nil {
			small = append(small, sh)
		}
	}
	return small
}

// checkCachedFrame answers case c with B placed by tb and the cache, checks
// the answer against the oracles (checkSigned) and returns it with the
// reference signed distance and the case's label.
func checkCachedFrame(t *testing.T, s *Searcher, c pairCase, tb *geom.Transform, cache *DistanceCache) (Distance, float64, string) {
	t.Helper()
	a := body{worldVerts(c.a.v, c.ta), c.a.faces}
	b := body{worldVerts(c.b.v, *tb), c.b.faces}
	d, err := s.SignedDistance(c.a.p, &c.ta, c.b.p, tb, cache)
	if err != nil {
		t.Fatal(err)
	}
	label := c.kind + " " + c.a.name + "/" + c.b.name
	scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
	return d, checkSigned(t, label, d, a, b, c.a.p.Radius(), c.b.p.Radius(), scale), label
}
