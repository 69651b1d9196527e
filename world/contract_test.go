package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/testutil"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// support returns max over the mesh's vertices at pose p of n.x.
func support(m *mesh.Mesh, p geom.Pose, n geom.Vec3) float64 {
	best := math.Inf(-1)
	for _, v := range m.Verts {
		best = math.Max(best, n.Dot(p.Apply(v)))
	}
	return best
}

// TestContactRecordsGeometric checks every contact of random steps of
// convex bodies driven into each other under screw motion, independently
// of the narrow phases: each record is valid, its time is in the step,
// and at that time on the model's trajectory the contact point lies on
// both bodies' surfaces and the normal separates them (A below the plane
// through the point, B above it): the normal points from A to B.
func TestContactRecordsGeometric(t *testing.T) {
	// Screw CCD is exact to rounding; time of contact stops within its
	// default tolerance (1e-3 of the smaller bounding radius) of the contact.
	for _, m := range []struct {
		method Method
		tol    float64
	}{{ScrewCCD, 1e-6}, {TimeOfContact, 1e-3}} {
		t.Run(m.method.String(), func(t *testing.T) { contactRecordsGeometric(t, m.method, m.tol) })
	}
}

func contactRecordsGeometric(t *testing.T, method Method, tol float64) {
	r := rand.New(rand.NewPCG(12, 1))
	checked := 0
	for trial := 0; trial < 200; trial++ {
		w := mustNew(t, &Options{Table: &Table{Convex: {Convex: method}}})
		ma := shapes.RandomPolytope(shapes.PolytopeShape(trial%3), 8+trial%12, 1, uint64(trial))
		mb := shapes.Cube(1)
		randQ := func() geom.Quat {
			q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
			return q
		}
		a0 := geom.Pose{P: geom.Vec3{}, Q: randQ()}
		dir, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		b0 := geom.Pose{P: dir.Scale(3), Q: randQ()}
		ax, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		b1 := geom.Pose{P: dir.Scale(0.5 + r.Float64()), Q: geom.QuatAxisAngle(ax, r.Float64()).Mul(b0.Q)}
		ia, _ := w.Add(BodyDef{Mesh: ma, Kind: Convex, Pose: a0, Static: true})
		ib, _ := w.Add(BodyDef{Mesh: mb, Kind: Convex, Pose: b0})
		if err := w.Move(ib, b1); err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			continue
		}
		// The first contact of the step: the bodies touch there without
		// overlapping, so the normal must separate them.
		first := cs[0]
		for _, c := range cs {
			if err := c.Validate(); err != nil {
				t.Fatalf("trial %d: %v: %v", trial, c, err)
			}
			if c.A != ia || c.B != ib {
				t.Fatalf("trial %d: pair %d-%d", trial, c.A, c.B)
			}
			if c.Time < first.Time {
				first = c
			}
		}
		pb := geom.ScrewPose(b0, b1, first.Time)
		n, p := first.Normal, first.Point
		scale := tol * (1 + p.Norm())
		if hi := support(ma, a0, n); hi > n.Dot(p)+scale {
			t.Fatalf("trial %d: A reaches %v beyond the contact plane along the normal (%v)", trial, hi-n.Dot(p), first)
		}
		if lo := -support(mb, pb, n.Neg()); lo < n.Dot(p)-scale {
			t.Fatalf("trial %d: B reaches %v below the contact plane (%v)", trial, n.Dot(p)-lo, first)
		}
		if math.Abs(support(ma, a0, n)-n.Dot(p)) > scale || math.Abs(-support(mb, pb, n.Neg())-n.Dot(p)) > scale {
			t.Fatalf("trial %d: the point is not on both surfaces: %v", trial, first)
		}
		checked++
	}
	if checked < 60 || checked > 180 {
		t.Fatalf("%d of 200 trials hit: want a mix of hits and misses", checked)
	}
}

// TestMotionModels checks the options that choose the motion.
func TestMotionModels(t *testing.T) {
	if _, err := New(&Options{Motion: geom.LinearAngular}); err == nil {
		t.Error("screw CCD in the table with linear motion: no error")
	}
	tab := DefaultTable
	tab[Convex][Polyhedron], tab[Polyhedron][Convex], tab[Polyhedron][Polyhedron] = TimeOfContact, TimeOfContact, TimeOfContact
	if _, err := New(&Options{Motion: geom.LinearAngular, Table: &tab}); err != nil {
		t.Errorf("a table without screw CCD and linear motion: %v", err)
	}
	if _, err := New(&Options{Motion: 7}); err == nil {
		t.Error("unknown motion model: no error")
	}
	if _, err := New(&Options{Margin: -1}); err == nil {
		t.Error("negative margin: no error")
	}
	if _, err := New(&Options{Margin: math.NaN()}); err == nil {
		t.Error("NaN margin: no error")
	}
}

// TestPreparedShapesReleased checks that prepared geometry is shared per
// mesh and kind and released with the last body that uses it.
func TestPreparedShapesReleased(t *testing.T) {
	w, _ := New(nil)
	var ids []BodyID
	for i := 0; i < 10; i++ {
		m := shapes.RandomPolytope(shapes.Ellipsoid, 10, 1, uint64(i))
		for k := 0; k < 3; k++ {
			id, err := w.Add(BodyDef{Mesh: m, Pose: geom.Pose{P: geom.Vec3{X: float64(3 * (3*i + k))}, Q: geom.QuatIdentity()}})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
	}
	if len(w.shapes) != 10 {
		t.Fatalf("%d prepared shapes for 10 meshes", len(w.shapes))
	}
	for i, id := range ids {
		if err := w.Remove(id); err != nil {
			t.Fatal(err)
		}
		if want := 10 - (i+1)/3; len(w.shapes) != want {
			t.Fatalf("after %d removals: %d prepared shapes, want %d", i+1, len(w.shapes), want)
		}
	}
}

// TestStaticBoxCached checks that a static body's box is computed once and
// follows SetPose.
func TestStaticBoxCached(t *testing.T) {
	w, _ := New(nil)
	s, _ := w.Add(BodyDef{Mesh: shapes.Cube(1), Pose: geom.PoseIdentity(), Static: true})
	d, _ := w.Add(BodyDef{Mesh: shapes.Cube(1), Pose: geom.Pose{P: geom.Vec3{X: 5}, Q: geom.QuatIdentity()}})
	w.Step(nil)
	if !w.bodies[s].boxOK || w.bodies[d].boxOK {
		t.Fatalf("box cached: static %v, dynamic %v", w.bodies[s].boxOK, w.bodies[d].boxOK)
	}
	// Tamper with the cached box: if it is kept, the broad phase now pairs
	// the two bodies; recomputing it from the pose would not.
	w.bodies[s].box.Max.X = 4.6
	w.Step(nil)
	if st := w.Stats(); st.BroadPairs != 1 {
		t.Fatalf("%d broad pairs: the static box was recomputed, not cached", st.BroadPairs)
	}
	w.SetPose(s, geom.PoseIdentity())
	w.Step(nil)
	if st := w.Stats(); st.BroadPairs != 0 {
		t.Fatalf("%d broad pairs after SetPose: the box must follow the pose", st.BroadPairs)
	}
}

// TestMarginNearContacts checks speculative contacts: two cubes resting a
// gap apart, as convex bodies and as polyhedra, get contacts with the gap
// as separation when Options.Margin exceeds it, and none otherwise.
func TestMarginNearContacts(t *testing.T) {
	const gap = 0.05
	for _, kind := range []BodyKind{Convex, Polyhedron} {
		for _, margin := range []float64{0, 0.1} {
			w := mustNew(t, &Options{Margin: margin})
			q := geom.QuatAxisAngle(geom.Vec3{Z: 1}, 0.3)
			w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: kind, Pose: geom.Pose{Q: q}, Static: true})
			w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: kind, Pose: geom.Pose{P: geom.Vec3{Z: 1 + gap}, Q: q}})
			cs, err := w.Step(nil)
			if err != nil {
				t.Fatal(err)
			}
			if margin == 0 {
				if len(cs) != 0 {
					t.Errorf("%v, no margin: %v", kind, cs)
				}
				continue
			}
			if len(cs) == 0 {
				t.Errorf("%v, margin %v: no contact for a gap of %v", kind, margin, gap)
			}
			for _, c := range cs {
				if c.Status != contact.Near || math.Abs(c.Separation-gap) > 1e-9 || c.Normal.Sub(geom.Vec3{Z: 1}).Norm() > 1e-9 {
					t.Errorf("%v: %v, want near with separation %v and normal +z", kind, c, gap)
				}
				if math.Abs(c.Point.Z-0.5) > gap+1e-9 {
					t.Errorf("%v: point %v not between the faces", kind, c.Point)
				}
			}
		}
	}
}

// TestRestingOverlapEveryKind places Bullet's duck and parry's bunny so that
// they overlap heavily and do not move, and checks that every kind and
// method reports the pair at time 0 or at the end pose, with an overlap
// status, whichever kind the bodies are given.
func TestRestingOverlapEveryKind(t *testing.T) {
	duck := testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj")
	bunny := testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj")
	// Both centred on the same point: the solids overlap and the surfaces
	// cross.
	at := func(m *mesh.Mesh) geom.Pose { return geom.Pose{P: m.Bounds().Center().Neg(), Q: geom.QuatIdentity()} }
	all := Table{}
	for k := BodyKind(0); k < numKinds; k++ {
		for j := BodyKind(0); j < numKinds; j++ {
			all[k][j] = MeshContacts
		}
	}
	for _, c := range []struct {
		kind BodyKind
		tab  *Table
	}{{Polyhedron, nil}, {Soup, nil}, {Polyhedron, &all}, {Soup, &all}} {
		w := mustNew(t, &Options{Table: c.tab})
		if _, err := w.Add(BodyDef{Mesh: duck, Kind: c.kind, Pose: at(duck), Static: true}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Add(BodyDef{Mesh: bunny, Kind: c.kind, Pose: at(bunny)}); err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			t.Errorf("%v bodies, table %v: no contact for overlapping bodies at rest", c.kind, c.tab != nil)
			continue
		}
		for _, x := range cs {
			if err := x.Validate(); err != nil {
				t.Errorf("%v: %v", x, err)
			}
			if x.Status != contact.Penetrating && x.Status != contact.Touching {
				t.Errorf("%v bodies: %v, want an overlap at rest", c.kind, x)
			}
			if x.Method != MeshContacts && x.Time != 0 {
				t.Errorf("%v: a continuous method's contact of bodies at rest not at time 0", x)
			}
		}
	}
}
