package screw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
	"github.com/collide-go/collide/mesh"
)

// checkEveryEvent runs Detect and FirstContact on one motion of B against A
// and checks them against the oracle's events: every report is a real
// contact (within tol), every event is reported at its time (with its
// features when it is proper), and FirstContact neither misses the first
// event nor reports it late. It returns the events.
func checkEveryEvent(t *testing.T, where string, d *Detector, orc *oracle, ma, mb *mesh.Mesh, pa, b0, b1 geom.Pose, opt *Options, tol float64) []oevent {
	t.Helper()
	ev := orc.events()
	got, err := d.Detect(ma, mb, pa, pa, b0, b1, opt, nil)
	if err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	for _, g := range got {
		if err := orc.realContact(g, tol); err != nil {
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
		t.Fatalf("%s: %v", where, err)
	}
	if len(ev) > 0 {
		switch {
		case !hit:
			t.Errorf("%s: FirstContact missed the contact at %v", where, ev[0].t)
		case toc > ev[0].t+1e-6:
			t.Errorf("%s: FirstContact %v later than the oracle's %v", where, toc, ev[0].t)
		}
	}
	return ev
}

// grazingCase returns a static A and a motion of B that, by its translation
// alone, stops within about theta times B's radius of its first contact with
// A (before or after it), while B turns by theta about a random axis through
// its centre: whether and when the bodies touch depends on the rotation,
// however small. The translation's first contact is found by the oracle.
func grazingCase(r *rand.Rand, ma, mb *mesh.Mesh, theta float64) (pa, b0, b1 geom.Pose, ok bool) {
	rq, dir := randRotDir(r)
	ra, rb := ma.Radius(), mb.Radius()
	pa = geom.Pose{P: dir().Scale(0.2 * r.Float64()), Q: rq()}
	d := dir()
	q0 := rq()
	off := dir().Scale(0.5 * (ra + rb) * r.Float64())
	start := pa.P.Add(d.Scale(1.3 * (ra + rb))).Add(off)
	through := pa.P.Sub(d.Scale(0.3 * (ra + rb))).Add(off)
	b0 = geom.Pose{P: start, Q: q0}
	orc := newOracle(ma, mb, pa, b0, geom.Pose{P: through, Q: q0}, 100)
	ev := orc.events()
	if len(ev) == 0 {
		return pa, b0, b1, false
	}
	// The gap left (positive) or the overlap (negative) by the
	// translation, in units of theta times B's radius.
	gap := (r.Float64() - 0.3) * theta * rb
	if theta == 0 {
		gap = -1e-9 * rb * r.Float64()
	}
	L := through.Sub(start).Norm()
	tEnd := ev[0].t - gap/L
	b1 = geom.Pose{P: start.Add(through.Sub(start).Scale(tEnd)), Q: geom.QuatAxisAngle(dir(), theta).Mul(q0)}
	return pa, b0, b1, true
}

// TestSmallRotations sweeps relative rotations from 0 to 1e-5 radians on
// every oracle shape, on motions whose contact hinges on the rotation
// (grazingCase): every contact event the independent oracle finds must be
// reported by Detect (at its time; with its features when it is proper),
// every report must be a real contact, and FirstContact must be neither
// missed nor late. Rotations below 1e-7 radians were once treated as
// translations, which lost these contacts.
func TestSmallRotations(t *testing.T) {
	angles := []float64{0, 1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5}
	d := NewDetector()
	opt := &Options{Properness: AllProperness}
	total, hits := 0, 0
	for si, s := range oracleShapes(t) {
		cases := 3
		if s.m.NumFaces() > 100 {
			cases = 1
		}
		r := rand.New(rand.NewPCG(uint64(si)+31, 5))
		for _, theta := range angles {
			for c := 0; c < cases; c++ {
				pa, b0, b1, ok := grazingCase(r, s.m, s.m, theta)
				if !ok {
					continue
				}
				where := fmt.Sprintf("%s theta %g case %d: pa=%v b0=%v b1=%v", s.name, theta, c, pa, b0, b1)
				total++
				orc := newOracle(s.m, s.m, pa, b0, b1, 200)
				if len(checkEveryEvent(t, where, d, orc, s.m, s.m, pa, b0, b1, opt, 1e-7*2*s.m.Radius())) > 0 {
					hits++
				}
			}
		}
	}
	t.Logf("%d cases, %d with contacts", total, hits)
	if hits < total*3/10 || hits > total*9/10 {
		t.Errorf("%d of %d cases have contacts: the cases do not exercise the rotation", hits, total)
	}
}

// TestTwoSidedSoup passes rigid-IPC's cube through its open plane (a soup:
// not closed, so two-sided) from either side, in random screw motions, with
// either body as A: every contact the oracle finds, entering the plane
// from its back as well as its front, must be reported by Detect, every
// report must be real, and FirstContact must be neither missed nor late.
// Culling faces that face away from the motion used to lose every contact
// from the back.
func TestTwoSidedSoup(t *testing.T) {
	plane := testutil.ReadMesh(t, "testdata/rigid-ipc/plane.obj")
	cube := testutil.ReadMesh(t, "testdata/rigid-ipc/cube.obj")
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
			if len(checkEveryEvent(t, where, d, orc, ma, mb, pa, b0, b1, opt, 1e-7*20)) > 0 {
				hits++
				if side < 0 == cubeIsA {
					back++
				}
			}
		}
	}
	t.Logf("%d cases, %d with contacts, %d of them from the plane's back", cases, hits, back)
	if hits < cases*3/10 || hits > cases*9/10 || back < hits/4 {
		t.Errorf("%d of %d cases hit, %d from the back: the cases do not exercise both sides", hits, cases, back)
	}
}
