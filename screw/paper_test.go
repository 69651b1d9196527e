package screw

import (
	"math"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/shapes"
)

// TestFig2b is Buss's Fig. 2(b) in 3D: a box B tilted by 5 degrees
// translates into the right face of a static box A. Its lower-left edge
// hits first (two proper vertex-face collisions, properness 0: one edge of
// each vertex lies in the face), then its upper-left edge (two slightly
// improper ones, properness -sin 5 deg, since B's left face is already
// inside A).
func TestFig2b(t *testing.T) {
	a := shapes.Box(geom.Vec3{X: 1, Y: 2, Z: 2})
	b := shapes.Cube(1)
	tilt := 5 * math.Pi / 180
	q := geom.QuatAxisAngle(geom.Vec3{Z: 1}, tilt)
	b0 := geom.Pose{P: geom.Vec3{X: 2.5}, Q: q}
	b1 := geom.Pose{P: geom.Vec3{X: 0.5}, Q: q}
	id := geom.PoseIdentity()
	d := NewDetector()
	cs, err := d.Detect(a, b, id, id, b0, b1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Expected times: the lowest-left vertex reaches x = 1 first.
	var xs []float64
	for _, v := range b.Verts {
		xs = append(xs, b0.Apply(v).X)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo = math.Min(lo, x)
	}
	// The second-lowest distinct x among the left face's vertices.
	for _, x := range xs {
		if x > lo+1e-9 && x < lo+0.5 {
			hi = x
		}
	}
	t1, t2 := (lo-1)/2, (hi-1)/2
	var first, second int
	for _, c := range cs {
		if c.Kind != contact.FaceVertex {
			t.Errorf("unexpected %v", c)
			continue
		}
		switch {
		case math.Abs(c.Time-t1) < 1e-9:
			first++
			if c.Properness < -1e-9 || c.Properness > 1e-9 {
				t.Errorf("first collision properness %v, want 0", c.Properness)
			}
		case math.Abs(c.Time-t2) < 1e-9:
			second++
			if math.Abs(c.Properness+math.Sin(tilt)) > 1e-9 {
				t.Errorf("second collision properness %v, want %v", c.Properness, -math.Sin(tilt))
			}
		default:
			t.Errorf("collision at unexpected time: %v (want %v or %v)", c, t1, t2)
		}
		if n := c.Normal; math.Abs(n.X-1) > 1e-12 {
			t.Errorf("normal %v, want (1, 0, 0)", n)
		}
	}
	if first != 2 || second != 2 {
		t.Errorf("got %d first and %d second collisions, want 2 and 2: %v", first, second, cs)
	}
	// With only proper collisions, the second pair is dropped.
	cs, _ = d.Detect(a, b, id, id, b0, b1, &Options{Properness: ProperOnly}, cs[:0])
	if len(cs) != 2 {
		t.Errorf("ProperOnly: %d collisions, want 2", len(cs))
	}
}

// TestTorusPassThrough pushes a bar through the hole of a torus along its
// axis. The bar is wider than the hole, so its two ends hit the inner rim:
// by the symmetry of the torus (20 sectors) and of the bar, the proper
// collisions come in mirror pairs at the same time, and the first contact is
// where the bar's end corners reach the innermost tube facets.
func TestTorusPassThrough(t *testing.T) {
	tor := shapes.Torus(1, 0.35, 20, 15)
	bar := shapes.Box(geom.Vec3{X: 0.8, Y: 0.05, Z: 0.05})
	id := geom.PoseIdentity()
	b0 := geom.Pose{P: geom.Vec3{Z: -1}, Q: geom.QuatIdentity()}
	b1 := geom.Pose{P: geom.Vec3{Z: 1}, Q: geom.QuatIdentity()}
	d := NewDetector()
	cs, err := d.Detect(tor, bar, id, id, b0, b1, &Options{Properness: ProperOnly}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("no proper collision")
	}
	for _, c := range cs {
		mirror := false
		for _, e := range cs {
			// Half a turn about the torus axis maps the scene to itself.
			m := geom.Vec3{X: -c.Point.X, Y: -c.Point.Y, Z: c.Point.Z}
			if math.Abs(e.Time-c.Time) < 1e-9 && e.Point.Dist(m) < 1e-9 && c.Point.Dist(m) > 1e-6 {
				mirror = true
			}
		}
		if !mirror {
			t.Errorf("collision %v has no mirror image (half a turn about z)", c)
		}
	}
	// Independent first contact: the oracle's dense sampling.
	orc := newOracle(tor, bar, id, b0, b1, 400)
	ev := orc.events()
	if len(ev) == 0 || math.Abs(ev[0].t-cs[0].Time) > 1e-7 {
		t.Errorf("first proper collision at %v, oracle %v", cs[0].Time, ev)
	}
	hit, toc, _ := d.FirstContact(tor, bar, id, id, b0, b1, nil)
	if !hit || math.Abs(toc-ev[0].t) > 1e-7 {
		t.Errorf("FirstContact %v %v, oracle %v", hit, toc, ev[0].t)
	}
	t.Logf("%d proper collisions, first at t=%v", len(cs), cs[0].Time)
}

// TestMovingA checks that moving both bodies gives the same collisions as
// the equivalent relative motion with A static.
func TestMovingA(t *testing.T) {
	a, b := shapes.Cube(1), shapes.Car()
	a0 := geom.Pose{P: geom.Vec3{X: 0.3}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, 0.4)}
	a1 := geom.Pose{P: geom.Vec3{X: 0.5, Y: 0.2}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 0, Z: 3}, 0.7)}
	b0 := geom.Pose{P: geom.Vec3{X: -2.5, Y: 0.3}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.2)}
	b1 := geom.Pose{P: geom.Vec3{X: 2, Y: -0.1, Z: 0.1}, Q: geom.QuatAxisAngle(geom.Vec3{Y: 1}, 0.5)}
	d := NewDetector()
	got, err := d.Detect(a, b, a0, a1, b0, b1, &Options{Properness: AllProperness}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Equivalent: A fixed at a0, B's end pose a0 a1^-1 b1.
	b1s := a0.Mul(a1.Inverse()).Mul(b1)
	want, _ := d.Detect(a, b, a0, a0, b0, b1s, &Options{Properness: AllProperness}, nil)
	if len(got) != len(want) || len(got) == 0 {
		t.Fatalf("%d collisions with A moving, %d with A static", len(got), len(want))
	}
	for i := range got {
		if got[i].Kind != want[i].Kind || got[i].FeatureA != want[i].FeatureA || math.Abs(got[i].Time-want[i].Time) > 1e-9 {
			t.Errorf("collision %d: %v vs %v", i, got[i], want[i])
		}
	}
}

// TestMotion checks the screw parameters of MotionFromTransform, and the
// shared geom.ScrewPose the detector reports with, against FORMAT.md's
// interpolation (the oracle's screwAt), including near theta = 0 and pi.
func TestMotion(t *testing.T) {
	for _, ang := range []float64{0, 1e-12, 1e-8, 1e-3, 0.5, math.Pi - 1e-9, math.Pi} {
		p0 := geom.Pose{P: geom.Vec3{X: 1, Y: 2, Z: 3}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 1}, 0.3)}
		p1 := geom.Pose{P: geom.Vec3{X: -1, Y: 0.5, Z: 2}, Q: geom.QuatAxisAngle(geom.Vec3{X: 0.2, Y: -1, Z: 0.5}, ang).Mul(p0.Q)}
		x := geom.Vec3{X: 0.3, Y: -0.7, Z: 0.2}
		for _, tt := range []float64{0, 0.25, 0.5, 1} {
			dp := p1.Mul(p0.Inverse())
			m := MotionFromTransform(dp.Q, dp.P)
			w := screwAt(toO(p0), toO(p1), tt).apply([3]float64{x.X, x.Y, x.Z})
			for name, got := range map[string]geom.Vec3{
				"MotionFromTransform": m.Pose(tt).Mul(p0).Apply(x),
				"geom.ScrewPose":      geom.ScrewPose(p0, p1, tt).Apply(x),
			} {
				if math.Abs(got.X-w[0])+math.Abs(got.Y-w[1])+math.Abs(got.Z-w[2]) > 1e-12 {
					t.Errorf("%s: angle %v t %v: %v, FORMAT.md gives %v", name, ang, tt, got, w)
				}
			}
		}
	}
	if e := ErrorEstimate(math.Pi / 4); math.Abs(e-0.097) > 0.001 {
		t.Errorf("ErrorEstimate(45 deg) = %v, want 0.097 (Sec. 4.3 table)", e)
	}
}

// TestDetectAllocs checks that repeated queries allocate nothing.
func TestDetectAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	tor := shapes.Torus(1, 0.35, 20, 15)
	p := [4]geom.Pose{
		{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)},
		{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2))},
		geom.PoseIdentity(), geom.PoseIdentity(),
	}
	d := NewDetector()
	buf := make([]Collision, 0, 256)
	d.Detect(tor, tor, p[0], p[1], p[2], p[3], nil, buf)
	n := testing.AllocsPerRun(20, func() {
		buf, _ = d.Detect(tor, tor, p[0], p[1], p[2], p[3], nil, buf[:0])
		d.FirstContact(tor, tor, p[0], p[1], p[2], p[3], nil)
	})
	if n != 0 {
		t.Errorf("%v allocations per query, want 0", n)
	}
}

// TestBadInput checks that bad data is an error, not a panic.
func TestBadInput(t *testing.T) {
	c := shapes.Cube(1)
	id := geom.PoseIdentity()
	d := NewDetector()
	bad := geom.Pose{P: geom.Vec3{X: math.NaN()}, Q: geom.QuatIdentity()}
	if _, err := d.Detect(c, c, id, id, bad, id, nil, nil); err == nil {
		t.Error("NaN pose accepted")
	}
	if _, err := d.Detect(nil, c, id, id, id, id, nil, nil); err == nil {
		t.Error("nil mesh accepted")
	}
	if _, _, err := d.FirstContact(c, c, id, id, geom.Pose{Q: geom.Quat{W: 2}}, id, nil); err == nil {
		t.Error("non-unit quaternion accepted")
	}
	// No relative motion: no collision, no error.
	far := geom.Pose{P: geom.Vec3{X: 5}, Q: geom.QuatIdentity()}
	if cs, err := d.Detect(c, c, id, id, far, far, nil, nil); err != nil || len(cs) != 0 {
		t.Errorf("static: %v %v", cs, err)
	}
}

// TestConservative: a cube slides past another with a gap of 0.005. No
// collision is reported normally; in conservative mode with an accuracy
// (pixel size) of 0.01 the near miss is reported, with Near set; with an
// accuracy of 0.001 it is not.
func TestConservative(t *testing.T) {
	c := shapes.Cube(1)
	id := geom.PoseIdentity()
	b0 := geom.Pose{P: geom.Vec3{X: -3, Y: 1.005}, Q: geom.QuatIdentity()}
	b1 := geom.Pose{P: geom.Vec3{X: 3, Y: 1.005}, Q: geom.QuatIdentity()}
	d := NewDetector()
	cs, err := d.Detect(c, c, id, id, b0, b1, nil, nil)
	if err != nil || len(cs) != 0 {
		t.Fatalf("plain: %v %v", cs, err)
	}
	if hit, _, _ := d.FirstContact(c, c, id, id, b0, b1, nil); hit {
		t.Fatal("FirstContact reports a hit for a miss")
	}
	cs, _ = d.Detect(c, c, id, id, b0, b1, &Options{Conservative: true, Accuracy: 0.01, Properness: AllProperness}, nil)
	if len(cs) == 0 {
		t.Fatal("conservative mode missed the near miss")
	}
	for _, x := range cs {
		if !x.Near {
			t.Errorf("%v: Near not set", x)
		}
	}
	cs, _ = d.Detect(c, c, id, id, b0, b1, &Options{Conservative: true, Accuracy: 0.001, Properness: AllProperness}, nil)
	if len(cs) != 0 {
		t.Errorf("accuracy 0.001 reports %v", cs)
	}
}
