package screw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/shapes"
)

// TestRecord checks the shared records of Contacts against Detect's
// collisions on random motions (conservative mode, so near pairs occur)
// and on resting bodies: one record per collision, each valid, with the
// features of its kind, the status its kind of contact asks for, and the
// same time, point and normal.
func TestRecord(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 55))
	d := NewDetector()
	car := shapes.Car()
	seen := map[contact.Status]int{}
	check := func(cs []Collision, rs []contact.Contact) {
		if len(rs) != len(cs) {
			t.Fatalf("%d records for %d collisions", len(rs), len(cs))
		}
		for i, c := range cs {
			rc := rs[i]
			seen[rc.Status]++
			if err := rc.Validate(); err != nil {
				t.Errorf("%v: %v", c, err)
			}
			want := map[contact.PairKind][2]contact.FeatureKind{contact.VertexFace: {contact.Vertex, contact.Face}, contact.FaceVertex: {contact.Face, contact.Vertex}, contact.EdgeEdge: {contact.Edge, contact.Edge}}[c.Kind]
			if rc.FeatureA != (contact.Feature{Kind: want[0], Index: c.FeatureA}) || rc.FeatureB != (contact.Feature{Kind: want[1], Index: c.FeatureB}) {
				t.Errorf("%v: features %v, %v", c, rc.FeatureA, rc.FeatureB)
			}
			if rc.Time != c.Time || rc.Point != c.Point || rc.Normal != c.Normal || !rc.HasProperness || rc.Properness != c.Properness {
				t.Errorf("%v: record %v", c, rc)
			}
			switch {
			case c.Resting && c.Separation < 0:
				if rc.Status != contact.Penetrating || rc.Separation != c.Separation {
					t.Errorf("%v: record %v", c, rc)
				}
			case c.Resting && c.Separation == 0:
				if rc.Status != contact.Touching || rc.Separation != 0 {
					t.Errorf("%v: record %v", c, rc)
				}
			case c.Resting || c.Near:
				if rc.Status != contact.Near || !(rc.Separation >= 0) {
					t.Errorf("%v: record %v", c, rc)
				}
			default:
				if rc.Status != contact.Hit || rc.Separation != 0 {
					t.Errorf("%v: record %v", c, rc)
				}
			}
		}
	}
	var rs []contact.Contact
	for i := 0; i < 40; i++ {
		pa, b0, b1 := randomCase(r, car.Radius(), car.Radius())
		opt := &Options{Conservative: true, Properness: AllProperness}
		cs, err := d.Detect(car, car, pa, pa, b0, b1, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		rs, err = d.Contacts(car, car, pa, pa, b0, b1, opt, rs[:0])
		if err != nil {
			t.Fatal(err)
		}
		check(cs, rs)
	}
	for _, rc := range restCases(r) {
		for _, shift := range []float64{-0.01, 0, 0.01} {
			b0 := geom.Pose{P: rc.pb.P.AddScaled(shift, rc.up), Q: rc.pb.Q}
			opt := &Options{RestMargin: 0.02}
			cs, _ := d.Detect(rc.a, rc.b, rc.pa, rc.pa, b0, b0, opt, nil)
			rs, _ = d.Contacts(rc.a, rc.b, rc.pa, rc.pa, b0, b0, opt, rs[:0])
			check(cs, rs)
		}
	}
	for _, s := range []contact.Status{contact.Hit, contact.Near, contact.Touching, contact.Penetrating} {
		if seen[s] == 0 {
			t.Errorf("no %v record: the cases do not exercise it", s)
		}
	}
	t.Logf("statuses: %v", seen)
}

// TestContactsAllocs checks that warm Contacts calls (a moving pair and a
// resting one) allocate nothing, with the mesh cache and with Prepared
// meshes.
func TestContactsAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	tor := shapes.Torus(1, 0.35, 20, 15)
	slab := shapes.Box(geom.Vec3{X: 2, Y: 0.1, Z: 2})
	box := shapes.Box(geom.Vec3{X: 0.3, Y: 0.2, Z: 0.4})
	p0 := geom.Pose{P: geom.Vec3{X: 1, Y: -0.3, Z: -2.1}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/2)}
	p1 := geom.Pose{P: geom.Vec3{X: 1.1, Y: 0.3, Z: 2.1}, Q: geom.QuatAxisAngle(geom.Vec3{Z: 1}, math.Pi/6).Mul(p0.Q)}
	id := geom.PoseIdentity()
	rest := geom.Pose{P: geom.Vec3{Y: 0.3}, Q: geom.QuatIdentity()}
	pt, ps, pb := Prepare(tor), Prepare(slab), Prepare(box)
	d := NewDetector()
	buf := make([]contact.Contact, 0, 256)
	run := func() {
		buf, _ = d.Contacts(tor, tor, p0, p1, id, id, nil, buf[:0])
		buf, _ = d.Contacts(slab, box, id, id, rest, rest, nil, buf[:0])
		buf, _ = d.ContactsPrepared(pt, pt, p0, p1, id, id, nil, buf[:0])
		buf, _ = d.ContactsPrepared(ps, pb, id, id, rest, rest, nil, buf[:0])
	}
	run()
	if len(buf) == 0 {
		t.Fatal("no resting contact of the box on the slab")
	}
	if n := testing.AllocsPerRun(20, run); n != 0 {
		t.Errorf("%v allocations per round, want 0", n)
	}
}

// TestPreparedAndCache checks that the *Prepared methods answer as the
// mesh methods do, and that the Detector's own cache stays bounded however
// many meshes it sees.
func TestPreparedAndCache(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 88))
	d := NewDetector()
	car := shapes.Car()
	pc := Prepare(car)
	if pc.Mesh() != car || Prepare(nil) != nil {
		t.Fatal("Prepare does not keep its mesh")
	}
	for i := 0; i < 20; i++ {
		pa, b0, b1 := randomCase(r, car.Radius(), car.Radius())
		want, err1 := d.Detect(car, car, pa, pa, b0, b1, nil, nil)
		got, err2 := d.DetectPrepared(pc, pc, pa, pa, b0, b1, nil, nil)
		if err1 != nil || err2 != nil || len(got) != len(want) {
			t.Fatalf("case %d: %d collisions (%v) prepared, %d (%v) not", i, len(got), err2, len(want), err1)
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("case %d: %v prepared, %v not", i, got[k], want[k])
			}
		}
		h1, t1, _ := d.FirstContact(car, car, pa, pa, b0, b1, nil)
		h2, t2, _ := d.FirstContactPrepared(pc, pc, pa, pa, b0, b1, nil)
		if h1 != h2 || t1 != t2 {
			t.Fatalf("case %d: FirstContact %v %v, prepared %v %v", i, h1, t1, h2, t2)
		}
	}
	if _, err := d.DetectPrepared(nil, pc, geom.PoseIdentity(), geom.PoseIdentity(), geom.PoseIdentity(), geom.PoseIdentity(), nil, nil); err == nil {
		t.Error("a nil Prepared is accepted")
	}
	for i := 0; i < 3*maxCachedMeshes; i++ {
		c := shapes.Cube(1)
		d.FirstContact(c, c, geom.PoseIdentity(), geom.PoseIdentity(), geom.Pose{P: geom.Vec3{X: 3}, Q: geom.QuatIdentity()}, geom.PoseIdentity(), nil)
		if len(d.cache) > maxCachedMeshes {
			t.Fatalf("the cache holds %d meshes after %d", len(d.cache), i+1)
		}
	}
}
