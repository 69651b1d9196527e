package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestTurnedBox: for random poses, the turned box of a torus's own-frame
// box holds every vertex moved to the pose (brute force), is no wider per
// axis than the sphere around the own-frame box, and is the tight box of
// the moved vertices itself when the pose does not turn.
func TestTurnedBox(t *testing.T) {
	m := shapes.Torus(1, 0.3, 24, 12)
	local := geom.EmptyAABB()
	for _, v := range m.Verts {
		local = local.AddPoint(v)
	}
	rng := rand.New(rand.NewPCG(20, 9))
	for i := 0; i < 200; i++ {
		axis := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64())
		angle := 2 * math.Pi * rng.Float64()
		if i == 0 {
			angle = 0
		}
		p := geom.Pose{P: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(10), Q: geom.QuatAxisAngle(axis, angle)}
		got := turnedBox(local, p)
		tr := p.Transform()
		tight := geom.EmptyAABB()
		for _, v := range m.Verts {
			x := tr.Apply(v)
			tight = tight.AddPoint(x)
			if !got.Expand(1e-12 * 10).Contains(x) {
				t.Fatalf("pose %d: vertex %v outside the turned box %v", i, x, got)
			}
		}
		gw, tw := got.Max.Sub(got.Min), tight.Max.Sub(tight.Min)
		diag := local.Max.Sub(local.Min).Norm()
		for k := 0; k < 3; k++ {
			if gw.Get(k) > diag*(1+1e-12) {
				t.Fatalf("pose %d: turned box %v wider than the own-frame box's diagonal %v along axis %d", i, got, diag, k)
			}
			if i == 0 && math.Abs(gw.Get(k)-tw.Get(k)) > 1e-12 {
				t.Fatalf("unturned pose: turned box %v, tight box %v", got, tight)
			}
		}
	}
}
