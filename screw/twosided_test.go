package screw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
)

// TestTwoSidedSoup passes rigid-IPC's cube through its open plane (a soup:
// not closed, so two-sided) from either side, in random screw motions, with
// either body as A: every contact the oracle finds, entering the plane
// from its back as well as its front, must be reported by Detect, every
// report must be real, and FirstContact must be neither missed nor late.
// Culling faces that face away from the motion used to lose every contact
// from the back.
func TestTwoSidedSoup(t *testing.T) {
	plane, err := meshio.ReadFile("testdata/rigid-ipc/plane.obj", nil)
	if err != nil {
		t.Fatal(err)
	}
	cube, err := meshio.ReadFile("testdata/rigid-ipc/cube.obj", nil)
	if err != nil {
		t.Fatal(err)
	}
	if plane.Closed() || !cube.Closed() {
		t.Fatalf("plane closed %v, cube closed %v", plane.Closed(), cube.Closed())
	}
	r := rand.New(rand.NewPCG(21, 1))
	rq, dir := randRotDir(r)
	d := NewDetector()
	opt := &Options{Properness: AllProperness}
	cases, hits, back := 0, 0, 0
	for c := 0; c < 40; c++ {
		// The cube crosses the plane y = 0 upwards or downwards.
		side := 1.0
		if c%2 == 0 {
			side = -1
		}
		lat := func() geom.Vec3 { return geom.Vec3{X: 20 * (r.Float64() - 0.5), Z: 20 * (r.Float64() - 0.5)} }
		c0 := lat().Add(geom.Vec3{Y: side * (1 + r.Float64())})
		c1 := lat().Add(geom.Vec3{Y: -side * (2 * r.Float64())})
		q0 := rq()
		cube0 := geom.Pose{P: c0, Q: q0}
		cube1 := geom.Pose{P: c1, Q: geom.QuatAxisAngle(dir(), r.Float64()*math.Pi/3).Mul(q0)}
		still := geom.PoseIdentity()
		for _, cubeIsA := range []bool{true, false} {
			var ma, mb *mesh.Mesh
			var pa, b0, b1 geom.Pose
			if cubeIsA {
				// The oracle keeps A still: move the plane instead.
				ma, mb = cube, plane
				pa = still
				b0, b1 = cube0.Inverse(), cube1.Inverse()
			} else {
				ma, mb = plane, cube
				pa, b0, b1 = still, cube0, cube1
			}
			cases++
			where := fmt.Sprintf("case %d (cube is A: %v): b0=%v b1=%v", c, cubeIsA, b0, b1)
			orc := newOracle(ma, mb, pa, b0, b1, 400)
			orc.twoA, orc.twoB = !ma.Closed(), !mb.Closed()
			ev := orc.events()
			got, err := d.Detect(ma, mb, pa, pa, b0, b1, opt, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range got {
				if err := orc.realContact(g, 1e-7*20); err != nil {
					t.Errorf("%s: reported %v is not real: %v", where, g, err)
				}
			}
			for _, e := range ev {
				same, near := false, false
				for _, g := range got {
					if math.Abs(g.Time-e.t) < 1e-6 {
						near = true
						same = same || g.Kind == e.kind && g.FeatureA == e.fa && g.FeatureB == e.fb
					}
				}
				if !near || e.proper >= 1e-9 && !same {
					t.Errorf("%s: missed %v A%d B%d t=%v properness %v", where, e.kind, e.fa, e.fb, e.t, e.proper)
				}
			}
			hit, toc, err := d.FirstContact(ma, mb, pa, pa, b0, b1, opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(ev) > 0 {
				hits++
				if side < 0 == cubeIsA {
					back++
				}
				switch {
				case !hit:
					t.Errorf("%s: FirstContact missed the contact at %v", where, ev[0].t)
				case toc > ev[0].t+1e-6:
					t.Errorf("%s: FirstContact %v later than the oracle's %v", where, toc, ev[0].t)
				}
			}
		}
	}
	t.Logf("%d cases, %d with contacts, %d of them from the plane's back", cases, hits, back)
	if hits < cases*3/10 || hits > cases*9/10 || back < hits/4 {
		t.Errorf("%d of %d cases hit, %d from the back: the cases do not exercise both sides", hits, cases, back)
	}
}
