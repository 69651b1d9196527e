package world

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// featureTable runs FeatureContacts on every pair of closed bodies.
func featureTable() *Table {
	var t Table
	for _, a := range []BodyKind{Convex, Polyhedron} {
		for _, b := range []BodyKind{Convex, Polyhedron} {
			t[a][b] = FeatureContacts
		}
	}
	return &t
}

// TestFeatureContactsBoxOnSlab puts a turned box above (or slightly into) a
// static slab, well inside its top face, with random gaps, body margins and
// motions (a displacement and a turn at constant velocities), and checks
// each of the box's bottom corners against its path sampled densely over
// the step: a corner the step brings within the pair's base margin
// (Options.Margin plus both bodies' margins) of the slab must get a
// contact, and none may beyond the whole-body bound (the base margin, the
// relative displacement and each turn times the radius); each contact has
// the slab's top face and the corner's vertex as features, normal +z from
// the slab (A) to the box (B), separation the corner's gap, point halfway
// between the corner and its projection on the slab, time 0.
func TestFeatureContactsBoxOnSlab(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 1))
	slab := shapes.Box(geom.V(3, 3, 0.5))
	box := shapes.Box(geom.V(0.5, 0.4, 0.3))
	radius := geom.V(0.5, 0.4, 0.3).Norm()
	must, between, trials := 0, 0, 400
	for trial := 0; trial < trials; trial++ {
		w := mustNew(t, &Options{Table: featureTable(), Margin: 0.01, Workers: 1})
		ma, mb := 0.02*r.Float64(), 0.02*r.Float64()
		ia, err := w.Add(BodyDef{Mesh: slab, Kind: Convex, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.5), Q: geom.QuatIdentity()}, Margin: ma})
		if err != nil {
			t.Fatal(err)
		}
		gap := -0.03 + 0.2*r.Float64()
		q := geom.QuatAxisAngle(geom.V(0, 0, 1), 2*math.Pi*r.Float64())
		p0 := geom.Pose{P: geom.V(2*r.Float64()-1, 2*r.Float64()-1, 0.3+gap), Q: q}
		ib, err := w.Add(BodyDef{Mesh: box, Kind: Convex, Pose: p0})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetMargin(ib, mb); err != nil {
			t.Fatal(err)
		}
		d := geom.V(0.02*r.NormFloat64(), 0.02*r.NormFloat64(), 0.02*r.NormFloat64())
		axis := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
		turnBy := 0.05 * r.Float64()
		dq := geom.QuatAxisAngle(axis, turnBy)
		p1 := geom.Pose{P: p0.P.Add(d), Q: dq.Mul(q)}
		if err := w.Move(ib, p1); err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		base := 0.01 + ma + mb
		whole := base + d.Norm() + turnBy*radius
		got := map[int32]Contact{}
		for _, c := range cs {
			if c.FeatureB.Kind != contact.Vertex || got[c.FeatureB.Index].Method != None {
				t.Fatalf("trial %d: %v: not a contact of a distinct vertex", trial, c)
			}
			got[c.FeatureB.Index] = c
		}
		for v, c := range got {
			if box.Verts[v].Z > 0 {
				t.Fatalf("trial %d: %v: vertex %d is not a bottom corner", trial, c, v)
			}
		}
		for v, x := range box.Verts {
			if x.Z > 0 {
				continue
			}
			// The corner's lowest height over the step, at constant
			// velocities: the origin along d, the turn about axis.
			low := math.Inf(1)
			for k := 0; k <= 2000; k++ {
				s := float64(k) / 2000
				pose := geom.Pose{P: p0.P.Add(d.Scale(s)), Q: geom.QuatAxisAngle(axis, s*turnBy).Mul(q)}
				low = math.Min(low, pose.Apply(x).Z)
			}
			corner := p0.Apply(x)
			gapV := corner.Z // the slab's top face is z = 0
			c, ok := got[int32(v)]
			switch {
			case low <= base && !ok:
				t.Fatalf("trial %d: corner %d at gap %v comes down to %v, within the base margin %v: no contact", trial, v, gapV, low, base)
			case gapV > whole && ok:
				t.Fatalf("trial %d: corner %d at gap %v beyond the whole-body bound %v: %v", trial, v, gapV, whole, c)
			}
			if low <= base {
				must++
			} else if gapV <= whole {
				between++
			}
			if !ok {
				continue
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if c.A != ia || c.B != ib || c.Method != FeatureContacts || c.Time != 0 {
				t.Fatalf("trial %d: %v: want bodies %d-%d, features method, time 0", trial, c, ia, ib)
			}
			if c.FeatureA.Kind != contact.Face || slab.Planes[c.FeatureA.Index].N.Z < 0.999 {
				t.Fatalf("trial %d: %v: feature A is not the slab's top face", trial, c)
			}
			want := corner.Sub(geom.V(0, 0, gapV/2))
			if c.Normal.Sub(geom.V(0, 0, 1)).Norm() > 1e-12 || math.Abs(c.Separation-gapV) > 1e-12 || c.Point.Sub(want).Norm() > 1e-12 {
				t.Fatalf("trial %d: %v: want normal +z, separation %v, point %v", trial, c, gapV, want)
			}
			wantStatus := contact.Near
			if gapV < 0 {
				wantStatus = contact.Penetrating
			}
			if c.Status != wantStatus {
				t.Fatalf("trial %d: status %v, want %v", trial, c.Status, wantStatus)
			}
		}
	}
	corners := 4 * trials
	if rate := float64(must) / float64(corners); rate < 0.3 || rate > 0.7 {
		t.Fatalf("%v of the corners must touch, outside [0.3, 0.7]: the test would not probe the margin", rate)
	}
	if between == 0 {
		t.Fatal("no corner between the base margin and the whole-body bound")
	}
}

// TestFeatureContactsMovingTogether moves a slab and a box resting above it
// (with random gaps) by one rigid motion, a turn of up to 0.1 rad about a
// random axis and a shift, each body at its own constant velocities: the
// whole-body bound (both turns times the radii, 0.3 m or more here) would
// match the box's bottom corners with the slab at any of these gaps, but
// the two hardly move relative to each other (only as much as their
// straight paths depart from the common rotation, second order in the
// turn). Each corner sampled over the step must get a contact if it comes
// within the base margin of the slab's top face, and none if its gap is
// beyond the base margin by more than 2 cm (the second-order terms for
// these sizes).
func TestFeatureContactsMovingTogether(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2))
	slab := shapes.Box(geom.V(3, 3, 0.5))
	box := shapes.Box(geom.V(0.5, 0.4, 0.3))
	const base = 0.01
	touch, apart, trials := 0, 0, 200
	for trial := 0; trial < trials; trial++ {
		w := mustNew(t, &Options{Table: featureTable(), Margin: base, Workers: 1})
		s0 := geom.Pose{P: geom.V(0, 0, -0.5), Q: geom.QuatIdentity()}
		gap := -0.01 + 0.06*r.Float64()
		b0 := geom.Pose{P: geom.V(2*r.Float64()-1, 2*r.Float64()-1, 0.3+gap), Q: geom.QuatAxisAngle(geom.V(0, 0, 1), 2*math.Pi*r.Float64())}
		is, _ := w.Add(BodyDef{Mesh: slab, Kind: Convex, Pose: s0})
		ib, _ := w.Add(BodyDef{Mesh: box, Kind: Convex, Pose: b0})
		// One rigid motion m of both: their relative pose at the end is
		// the one at the start.
		m := geom.Pose{P: geom.V(0.1*r.NormFloat64(), 0.1*r.NormFloat64(), 0.1*r.NormFloat64()),
			Q: geom.QuatAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), 0.1*r.Float64())}
		s1, b1 := m.Mul(s0), m.Mul(b0)
		if err := w.Move(is, s1); err != nil {
			t.Fatal(err)
		}
		if err := w.Move(ib, b1); err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		got := map[int32]bool{}
		for _, c := range cs {
			if c.A != is || c.B != ib || c.FeatureA.Kind != contact.Face || c.FeatureB.Kind != contact.Vertex {
				t.Fatalf("trial %d: %v: want a slab face and a box vertex", trial, c)
			}
			got[c.FeatureB.Index] = true
		}
		// Each body at constant velocities: its origin along a line, its
		// turn about it.
		at := func(p0, p1 geom.Pose, s float64) geom.Pose {
			axis, angle := p1.Q.Mul(p0.Q.Conj()).AxisAngle()
			return geom.Pose{P: p0.P.Add(p1.P.Sub(p0.P).Scale(s)), Q: geom.QuatAxisAngle(axis, s*angle).Mul(p0.Q)}
		}
		for v, x := range box.Verts {
			if x.Z > 0 {
				continue
			}
			low := math.Inf(1) // the corner's lowest height over the slab's top face
			for k := 0; k <= 1000; k++ {
				s := float64(k) / 1000
				q := at(s0, s1, s).Inverse().Apply(at(b0, b1, s).Apply(x))
				low = math.Min(low, q.Z-0.5)
			}
			corner := s0.Inverse().Apply(b0.Apply(x)).Z - 0.5
			switch {
			case low <= base && !got[int32(v)]:
				t.Fatalf("trial %d: corner %d at gap %v comes within %v of the slab: no contact", trial, v, corner, low)
			case corner > base+0.02 && got[int32(v)]:
				t.Fatalf("trial %d: corner %d at gap %v, the bodies moving together: a contact", trial, v, corner)
			}
			if got[int32(v)] {
				touch++
			} else {
				apart++
			}
		}
	}
	if rate := float64(touch) / float64(touch+apart); rate < 0.3 || rate > 0.7 {
		t.Fatalf("%v of the corners touch, outside [0.3, 0.7]", rate)
	}
}

// TestFeatureContactsCrossedEdges rests one box's bottom edge across
// another's top edge at right angles (both boxes turned 45 degrees about a
// horizontal axis) and checks the one edge-edge contact against the
// crossing point of the two edges computed directly.
func TestFeatureContactsCrossedEdges(t *testing.T) {
	cube := shapes.Cube(1)
	h := math.Sqrt(0.5) // a unit cube's edge height when turned 45 degrees
	for _, gap := range []float64{0.01, 0.001, -0.01} {
		w := mustNew(t, &Options{Table: featureTable(), Margin: 0.02, Workers: 1})
		pa := geom.Pose{P: geom.V(0.1, -0.05, 0), Q: geom.QuatAxisAngle(geom.V(1, 0, 0), math.Pi/4)}
		pb := geom.Pose{P: geom.V(0.1, -0.05, 2*h+gap), Q: geom.QuatAxisAngle(geom.V(0, 1, 0), math.Pi/4)}
		ia, _ := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: pa})
		ib, _ := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: pb})
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) != 1 {
			t.Fatalf("gap %v: %d contacts, want 1 edge-edge: %v", gap, len(cs), cs)
		}
		c := cs[0]
		if c.A != ia || c.B != ib || c.FeatureA.Kind != contact.Edge || c.FeatureB.Kind != contact.Edge {
			t.Fatalf("gap %v: %v: want an edge-edge contact of %d and %d", gap, c, ia, ib)
		}
		// A's top edge runs along x at height h; B's bottom edge along y
		// at height h + gap; they cross above (0.1, -0.05).
		want := geom.V(0.1, -0.05, h+gap/2)
		if c.Normal.Sub(geom.V(0, 0, 1)).Norm() > 1e-9 || math.Abs(c.Separation-gap) > 1e-9 || c.Point.Sub(want).Norm() > 1e-9 {
			t.Fatalf("gap %v: %v: want normal +z, separation %v, point %v", gap, c, gap, want)
		}
		// The edges' end points are where the mesh says.
		for _, x := range []struct {
			f contact.Feature
			p geom.Pose
			z float64
		}{{c.FeatureA, pa, h}, {c.FeatureB, pb, h + gap}} {
			e := cube.Edges[x.f.Index]
			v0, v1 := x.p.Apply(cube.Verts[e.V[0]]), x.p.Apply(cube.Verts[e.V[1]])
			if math.Abs(v0.Z-x.z) > 1e-9 || math.Abs(v1.Z-x.z) > 1e-9 {
				t.Fatalf("gap %v: edge %d runs from %v to %v, not at height %v", gap, x.f.Index, v0, v1, x.z)
			}
		}
	}
}

// TestSetAsleep stacks two boxes on a static slab: with both asleep no pair
// is tested; waking the top one tests it against the bottom one only (the
// bottom one, asleep, is not tested against the slab); with both awake all
// three pairs are tested.
func TestSetAsleep(t *testing.T) {
	slab := shapes.Box(geom.V(3, 3, 0.5))
	cube := shapes.Cube(1)
	w := mustNew(t, &Options{Table: featureTable(), Margin: 0.05, Workers: 1})
	is, _ := w.Add(BodyDef{Mesh: slab, Kind: Convex, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.5), Q: geom.QuatIdentity()}})
	i1, _ := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: geom.Pose{P: geom.V(0, 0, 0.5), Q: geom.QuatIdentity()}})
	i2, _ := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: geom.Pose{P: geom.V(0.2, 0, 1.5), Q: geom.QuatIdentity()}})
	pairs := func(asleep1, asleep2 bool) map[[2]BodyID]bool {
		t.Helper()
		if err := w.SetAsleep(i1, asleep1); err != nil {
			t.Fatal(err)
		}
		if err := w.SetAsleep(i2, asleep2); err != nil {
			t.Fatal(err)
		}
		_, got := stepPairs(t, w)
		if w.Stats().Tests != len(got) {
			t.Fatalf("asleep %v %v: %d tests, %d pairs with contacts", asleep1, asleep2, w.Stats().Tests, len(got))
		}
		return got
	}
	if got := pairs(true, true); len(got) != 0 {
		t.Fatalf("both asleep: pairs %v, want none", got)
	}
	if got := pairs(true, false); len(got) != 1 || !got[[2]BodyID{i1, i2}] {
		t.Fatalf("top awake: pairs %v, want only %d-%d", got, i1, i2)
	}
	if got := pairs(false, false); len(got) != 2 || !got[[2]BodyID{is, i1}] || !got[[2]BodyID{i1, i2}] {
		t.Fatalf("both awake: pairs %v, want %d-%d and %d-%d", got, is, i1, i1, i2)
	}
}

// TestFeatureErrors: a table that runs FeatureContacts on a soup, and
// negative or infinite margins, are errors; a margin for a missing body is
// ErrNoBody.
func TestFeatureErrors(t *testing.T) {
	var tbl Table
	tbl[Soup][Convex], tbl[Convex][Soup] = FeatureContacts, FeatureContacts
	if _, err := New(&Options{Table: &tbl}); err == nil {
		t.Fatal("FeatureContacts on a soup accepted")
	}
	w := mustNew(t, &Options{Table: featureTable()})
	if _, err := w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: Convex, Pose: geom.PoseIdentity(), Margin: -1}); err == nil {
		t.Fatal("negative body margin accepted")
	}
	id, err := w.Add(BodyDef{Mesh: shapes.Cube(1), Kind: Convex, Pose: geom.PoseIdentity()})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []float64{-0.1, math.Inf(1), math.NaN()} {
		if err := w.SetMargin(id, m); err == nil {
			t.Fatalf("margin %v accepted", m)
		}
	}
	if err := w.SetMargin(id+1, 0.1); !errors.Is(err, ErrNoBody) {
		t.Fatalf("margin of a missing body: %v", err)
	}
	if err := w.SetAsleep(id+1, true); !errors.Is(err, ErrNoBody) {
		t.Fatalf("asleep of a missing body: %v", err)
	}
}

// TestFeatureContactsThroughTheRim puts a small box's corner 5 mm inside a
// large box just behind its +x face, the corner pointing along that face's
// normal (as a corner that slid past the rim and went in through the side)
// and every other face of the large box farther than the depth tolerance:
// the corner must still get a contact with the +x face, with the depth
// measured directly.
func TestFeatureContactsThroughTheRim(t *testing.T) {
	big := shapes.Cube(1)
	small := shapes.Cube(0.2)
	w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
	ib, _ := w.Add(BodyDef{Mesh: big, Kind: Convex, Static: true, Pose: geom.PoseIdentity()})
	// The small cube's (+x, +y, -z) corner at (0.495, 0, 0): its body
	// lies towards -x, -y, +z from there, inside the big cube.
	var corner int32 = -1
	for i, v := range small.Verts {
		if v.X > 0 && v.Y > 0 && v.Z < 0 {
			corner = int32(i)
		}
	}
	at := geom.V(0.495, 0, 0)
	ia, _ := w.Add(BodyDef{Mesh: small, Kind: Convex, Pose: geom.Pose{P: at.Sub(small.Verts[corner]), Q: geom.QuatIdentity()}})
	cs, err := w.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if c.FeatureA.Kind == contact.Face && c.FeatureB == contact.V(corner) && big.Planes[c.FeatureA.Index].N.X > 0.999 {
			if c.A != ib || c.B != ia || math.Abs(c.Separation+0.005) > 1e-12 || c.Normal.Sub(geom.V(1, 0, 0)).Norm() > 1e-12 {
				t.Fatalf("%v: want separation -0.005, normal +x from the big cube to the small one", c)
			}
			return
		}
	}
	t.Fatalf("no contact of corner %d with the +x face among %v", corner, cs)
}

// TestFeatureContactsThinPlate holds a small cube 0.2 mm above a 1 cm plate
// (thinner than the depth tolerance): its bottom corners are in front of
// the top face and behind the bottom face, and must get only the top
// face's contacts (normal up, separation 0.2 mm), never the bottom face's,
// which would push them through the plate.
func TestFeatureContactsThinPlate(t *testing.T) {
	plate := shapes.Box(geom.V(3, 3, 0.005))
	cube := shapes.Cube(0.2)
	w := mustNew(t, &Options{Table: featureTable(), Margin: 0.001, Workers: 1})
	ip, _ := w.Add(BodyDef{Mesh: plate, Kind: Convex, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.005), Q: geom.QuatIdentity()}})
	ic, _ := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: geom.Pose{P: geom.V(0.3, -0.2, 0.1002), Q: geom.QuatIdentity()}})
	cs, err := w.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 4 {
		t.Fatalf("%d contacts, want the 4 bottom corners on the top face: %v", len(cs), cs)
	}
	for _, c := range cs {
		if c.A != ip || c.B != ic || plate.Planes[c.FeatureA.Index].N.Z < 0.999 || math.Abs(c.Separation-0.0002) > 1e-12 || c.Normal.Sub(geom.V(0, 0, 1)).Norm() > 1e-12 {
			t.Fatalf("%v: want the plate's top face, separation 0.2 mm, normal +z", c)
		}
	}
}

// TestFeatureContactsDeepConvex sinks a small cube into a larger one,
// axis-aligned, by more than the feature passes see (10% of the smaller
// radius), at seeded random offsets: the pair must get a contact with the
// exact penetration (for aligned boxes the least overlap of the three
// axes, computed here from the half sizes) along that axis.
func TestFeatureContactsDeepConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 19))
	big, small := shapes.Cube(1), shapes.Cube(0.5)
	const ha, hb = 0.5, 0.25
	for i := 0; i < 40; i++ {
		kind := []BodyKind{Convex, Polyhedron}[i%2]
		w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
		d := geom.V(rng.Float64()*0.4-0.2, rng.Float64()*0.4-0.2, 0.4+rng.Float64()*0.25)
		if _, err := w.Add(BodyDef{Mesh: big, Kind: kind, Pose: geom.Pose{Q: geom.QuatIdentity()}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Add(BodyDef{Mesh: small, Kind: kind, Pose: geom.Pose{P: d, Q: geom.QuatIdentity()}}); err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		depth, axis := math.Inf(1), 0
		for k := 0; k < 3; k++ {
			if o := ha + hb - math.Abs(d.Get(k)); o < depth {
				depth, axis = o, k
			}
		}
		if depth < 0.1*small.Radius() {
			t.Fatalf("case %d: set-up depth %v is within the feature window", i, depth)
		}
		var n geom.Vec3
		n = n.Set(axis, math.Copysign(1, d.Get(axis)))
		found := false
		for _, c := range cs {
			if math.Abs(c.Separation+depth) < 1e-9 && c.Normal.Sub(n).Norm() < 1e-9 && c.Status == contact.Penetrating {
				found = true
			}
		}
		if !found {
			t.Fatalf("case %d (%v, offset %v): no contact of depth %v along %v among %v", i, kind, d, depth, n, cs)
		}
	}
}
