package meshquery

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/internal/racecheck"
	"github.com/collide-go/collide/internal/testutil"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

func tfOf(p geom.Vec3, q geom.Quat) geom.Transform { return geom.Pose{P: p, Q: q}.Transform() }

// contactsOf returns q.Contacts(a, ta, b, tb, opt, nil), stopping the test
// on an error or on a record that fails Validate.
func contactsOf(t *testing.T, q *Scratch, a *Tree, ta *geom.Transform, b *Tree, tb *geom.Transform, opt *ContactOptions) []contact.Contact {
	t.Helper()
	cs, err := q.Contacts(a, ta, b, tb, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range cs {
		if err := cs[i].Validate(); err != nil {
			t.Fatalf("record %d %v: %v", i, cs[i], err)
		}
	}
	return cs
}

// TestContactsRestingBox: a unit cube resting 1e-3 above a slab gets its
// four bottom corners as Near vertex-face records with the exact gap and
// the normal +Z, with the same feature ids over 100 frames of jitter.
func TestContactsRestingBox(t *testing.T) {
	slab := shapes.Box(geom.Vec3{X: 2, Y: 2, Z: 0.5})
	cube := shapes.Cube(1)
	a, b := mustTree(t, slab), mustTree(t, cube)
	const gap = 1e-3
	ta := geom.TransformIdentity()
	var q Scratch
	var ids []uint64
	r := rand.New(rand.NewPCG(7, 8))
	for frame := 0; frame < 100; frame++ {
		jit := geom.Vec3{X: 1e-4 * (r.Float64() - 0.5), Y: 1e-4 * (r.Float64() - 0.5)}
		tb := tfOf(geom.Vec3{X: jit.X, Y: jit.Y, Z: 1 + gap}, geom.QuatAxisAngle(geom.Vec3{Z: 1}, 1e-3*(r.Float64()-0.5)))
		cs := contactsOf(t, &q, a, &ta, b, &tb, &ContactOptions{Margin: 0.01})
		var corners []uint64
		for _, c := range cs {
			if c.Status != contact.Near || math.Abs(c.Separation-gap) > 1e-9 || c.Normal.Dist(geom.Vec3{Z: 1}) > 1e-9 {
				t.Fatalf("frame %d: record %v, want near at %g along +Z", frame, c, gap)
			}
			if math.Abs(c.Point.Z-(0.5+gap/2)) > 1e-9 {
				t.Fatalf("frame %d: point %v not halfway across the gap", frame, c.Point)
			}
			if c.FeatureB.Kind == contact.Vertex && c.FeatureA.Kind == contact.Face {
				corners = append(corners, c.ID())
			}
		}
		slices.Sort(corners)
		if len(corners) != 4 {
			t.Fatalf("frame %d: %d vertex-face records, want the 4 bottom corners: %v", frame, len(corners), cs)
		}
		if frame == 0 {
			ids = corners
		} else if !slices.Equal(ids, corners) {
			t.Fatalf("frame %d: feature ids changed: %v, then %v", frame, ids, corners)
		}
	}
	// Beyond the margin: nothing.
	tb := tfOf(geom.Vec3{Z: 1.1}, geom.QuatIdentity())
	if cs, _ := q.Contacts(a, &ta, b, &tb, &ContactOptions{Margin: 0.01}, nil); len(cs) != 0 {
		t.Fatalf("0.1 apart with margin 0.01: %v", cs)
	}
}

// TestContactsPenetrating: the cube sunk 0.1 into the slab has its bottom
// corners inside with depth 0.1, normal +Z; a small cube entirely inside
// the slab gives records of its depth with no surface contact.
func TestContactsPenetrating(t *testing.T) {
	slab := shapes.Box(geom.Vec3{X: 2, Y: 2, Z: 0.5})
	a, b := mustTree(t, slab), mustTree(t, shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := tfOf(geom.Vec3{X: 0.3, Y: -0.2, Z: 0.9}, geom.QuatIdentity())
	var q Scratch
	cs := contactsOf(t, &q, a, &ta, b, &tb, nil)
	deep := 0
	for _, c := range cs {
		if c.Status == contact.Penetrating && math.Abs(c.Separation+0.1) < 1e-9 && c.Normal.Dist(geom.Vec3{Z: 1}) < 1e-9 {
			deep++
		}
		if c.Separation < -0.1-1e-9 {
			t.Fatalf("record deeper than the overlap: %v", c)
		}
	}
	if deep != 4 {
		t.Fatalf("%d records at depth 0.1 along +Z, want 4: %v", deep, cs)
	}
	// Contained: a cube of side 0.2 at the slab's centre, 0.4 from the top.
	small := mustTree(t, shapes.Cube(0.2))
	tb = tfOf(geom.Vec3{Z: 0}, geom.QuatIdentity())
	if hit, _ := q.Intersect(a, &ta, small, &tb); hit {
		t.Fatal("contained cube: surfaces intersect")
	}
	cs = contactsOf(t, &q, a, &ta, small, &tb, nil)
	if len(cs) == 0 {
		t.Fatal("contained cube: no contacts")
	}
	for _, c := range cs {
		// Every corner is 0.4 below the slab's top and bottom faces.
		if c.Status != contact.Penetrating || math.Abs(c.Separation+0.4) > 1e-9 {
			t.Fatalf("contained cube: %v, want penetrating at depth 0.4", c)
		}
	}
}

// TestContactsOpenSurfaces: an open sheet crossing a cube gives touching
// records at points on both surfaces; open surfaces have no depth.
func TestContactsOpenSurfaces(t *testing.T) {
	verts := []geom.Vec3{{X: -2, Y: -2}, {X: 2, Y: -2}, {X: 2, Y: 2}, {X: -2, Y: 2}}
	sheet, err := NewSoup(verts, [][3]int32{{0, 1, 2}, {0, 2, 3}}, false)
	if err != nil {
		t.Fatal(err)
	}
	cube := mustTree(t, shapes.Cube(1))
	ta := geom.TransformIdentity()
	tb := tfOf(geom.Vec3{Z: 0.1}, geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 1}, 0.3))
	var q Scratch
	cs := contactsOf(t, &q, sheet, &ta, cube, &tb, nil)
	if len(cs) == 0 {
		t.Fatal("crossing: no contacts")
	}
	for _, c := range cs {
		if c.Status != contact.Touching || c.Separation != 0 || math.Abs(c.Point.Z) > 1e-12 {
			t.Fatalf("crossing record %v: want touching on the sheet", c)
		}
	}
}

// TestContactsRandom: on random placements of two tori and of the car
// and a torus, every record is valid, no Near or Touching record is
// closer than the true distance (Distance), the closest one equals it
// when the surfaces are apart within the margin, and every intersecting
// placement of the closed bodies has a penetrating record.
func TestContactsRandom(t *testing.T) {
	torus := shapes.Torus(1, 0.35, 20, 15)
	car := shapes.Car()
	r := rand.New(rand.NewPCG(9, 10))
	var q Scratch
	near, pen := 0, 0
	for _, pair := range [][2]*mesh.Mesh{{torus, torus}, {car, torus}} {
		a, b := mustTree(t, pair[0]), mustTree(t, pair[1])
		reach := pair[0].Radius() + pair[1].Radius()
		for i := 0; i < 100; i++ {
			d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
			d, _ = d.Normalize()
			ta := tfOf(geom.Vec3{}, randQuat(r))
			tb := tfOf(d.Scale(reach*(0.4+0.6*r.Float64())), randQuat(r))
			res, err := q.Distance(a, &ta, b, &tb, nil)
			if err != nil {
				t.Fatal(err)
			}
			const margin = 0.2
			cs := contactsOf(t, &q, a, &ta, b, &tb, &ContactOptions{Margin: margin, MaxContacts: 64})
			minSep := math.Inf(1)
			hasPen := false
			for _, c := range cs {
				minSep = min(minSep, c.Separation)
				if c.Status == contact.Penetrating {
					hasPen = true
				}
				if c.Separation > margin*(1+1e-9) {
					t.Fatalf("placement %d: record beyond the margin: %v", i, c)
				}
				if !res.Hit && c.Separation < res.Dist-1e-9 {
					t.Fatalf("placement %d: record %v closer than the distance %g", i, c, res.Dist)
				}
			}
			switch {
			case res.Hit:
				if !hasPen {
					t.Fatalf("placement %d: surfaces intersect, no penetrating record: %v", i, cs)
				}
				pen++
			case res.Dist <= margin:
				if math.Abs(minSep-res.Dist) > 1e-9 {
					t.Fatalf("placement %d: closest record %g, distance %g", i, minSep, res.Dist)
				}
				near++
			default:
				if len(cs) != 0 {
					t.Fatalf("placement %d: %g apart, records %v", i, res.Dist, cs)
				}
			}
		}
	}
	t.Logf("%d penetrating, %d near placements of 200", pen, near)
	if pen < 40 || near < 10 {
		t.Fatalf("too few penetrating (%d) or near (%d) placements to mean anything", pen, near)
	}
}

// windingNumber is the generalised winding number of the closed triangle
// list at p (the sum of the triangles' solid angles over 4 pi, by Van
// Oosterom and Strackee's formula): 1 inside, 0 outside.
func windingNumber(tris [][3]geom.Vec3, p geom.Vec3) float64 {
	sum := 0.0
	for _, t := range tris {
		a, b, c := t[0].Sub(p), t[1].Sub(p), t[2].Sub(p)
		la, lb, lc := a.Norm(), b.Norm(), c.Norm()
		num := a.Dot(b.Cross(c))
		den := la*lb*lc + a.Dot(b)*lc + b.Dot(c)*la + c.Dot(a)*lb
		sum += 2 * math.Atan2(num, den)
	}
	return sum / (4 * math.Pi)
}

// TestLocate compares the exact ray parity with the winding number on
// random points around the bunny (hit rate asserted), and finds the
// surface's own vertices on it.
func TestLocate(t *testing.T) {
	m := testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj")
	tr := mustTree(t, m)
	o := oracleOf(m, m, geom.PoseIdentity(), geom.PoseIdentity())
	r := rand.New(rand.NewPCG(11, 12))
	bx := m.Bounds()
	var q Scratch
	in, n := 0, 0
	for i := 0; i < 3000; i++ {
		s := bx.Size()
		p := bx.Center().Add(geom.Vec3{X: (r.Float64() - 0.5) * s.X, Y: (r.Float64() - 0.5) * s.Y, Z: (r.Float64() - 0.5) * s.Z}.Scale(0.7))
		w := windingNumber(o.a, p)
		if math.Abs(w-0.5) < 0.45 {
			continue // too near the surface for the float oracle
		}
		loc, err := q.Locate(tr, p)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if (loc == Inside) != (w > 0.5) {
			t.Fatalf("point %v: %v, winding number %g", p, loc, w)
		}
		if loc == Inside {
			in++
		}
	}
	if rate := float64(in) / float64(n); rate < 0.3 || rate > 0.7 {
		t.Fatalf("inside rate %.2f outside [0.3, 0.7]", rate)
	}
	for v := 0; v < m.NumVerts(); v += 7 {
		if loc, err := q.Locate(tr, m.Verts[v]); err != nil || loc != OnSurface {
			t.Fatalf("vertex %d: %v, %v; want on surface", v, loc, err)
		}
	}
	if _, err := q.Locate(mustTree(t, testutil.ReadMesh(t, sampleDir+"/meshes/rob.obj")), geom.Vec3{}); err == nil {
		t.Fatal("Locate on an open soup: no error")
	}
}

// TestContactsDuckBunny: the bunny sunk into the duck gives penetrating
// records whose depths are the brute-force distances of the named
// vertices to the other surface, and which lie inside it by the winding
// number.
func TestContactsDuckBunny(t *testing.T) {
	duck := testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj")
	bunny := testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj")
	a, b := mustTree(t, duck), mustTree(t, bunny)
	pa := geom.PoseIdentity()
	pb := geom.Pose{P: duck.Bounds().Center().Sub(bunny.Bounds().Center().Scale(0.3)), Q: geom.QuatAxisAngle(geom.Vec3{X: 1}, 0.4)}
	ta, tb := pa.Transform(), pb.Transform()
	o := oracleOf(duck, bunny, pa, pb)
	var q Scratch
	cs := contactsOf(t, &q, a, &ta, b, &tb, &ContactOptions{MaxContacts: 16})
	if len(cs) == 0 {
		t.Fatal("overlapping duck and bunny: no contacts")
	}
	deepest := 0.0
	for _, c := range cs {
		if c.Status != contact.Penetrating {
			continue
		}
		deepest = min(deepest, c.Separation)
		// The penetrating vertex is the record's vertex feature on one
		// side (both may be vertices): its brute-force distance to the
		// other surface is the depth, and it is inside the other body.
		ok := false
		for side := 0; side < 2 && !ok; side++ {
			var p geom.Vec3
			var other [][3]geom.Vec3
			if f := c.FeatureB; side == 0 && f.Kind == contact.Vertex {
				p, other = tb.Apply(bunny.Verts[f.Index]), o.a
			} else if f := c.FeatureA; side == 1 && f.Kind == contact.Vertex {
				p, other = duck.Verts[f.Index], o.b
			} else {
				continue
			}
			d := math.Inf(1)
			for _, tri := range other {
				d = min(d, oPointTri(p, tri[0], tri[1], tri[2]))
			}
			ok = math.Abs(-c.Separation-d) <= 1e-9 && windingNumber(other, p) > 0.5
		}
		if !ok {
			t.Fatalf("record %v: no vertex of it is inside the other body at that depth", c)
		}
	}
	if deepest > -0.05 {
		t.Fatalf("deepest penetration %g: the flood fill should reach deep vertices", deepest)
	}
}

// TestAllocs: warm queries allocate nothing.
func TestAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector allocates")
	}
	duck := mustTree(t, testutil.ReadMesh(t, "../testdata/meshes/bullet/duck.obj"))
	bunny := mustTree(t, testutil.ReadMesh(t, "../testdata/meshes/parry/low_poly_bunny.obj"))
	ta := geom.TransformIdentity()
	var q Scratch
	var dst []contact.Contact
	var pairs []Pair
	for _, z := range []float64{0.3, 1.2, 5} {
		tb := tfOf(geom.Vec3{Y: z}, geom.QuatAxisAngle(geom.Vec3{X: 1}, 0.4))
		run := func() {
			q.Intersect(duck, &ta, bunny, &tb)
			q.Distance(duck, &ta, bunny, &tb, nil)
			pairs, _ = q.AppendPairs(duck, &ta, bunny, &tb, pairs[:0], 0)
			dst, _ = q.Contacts(duck, &ta, bunny, &tb, &ContactOptions{Margin: 0.05}, dst[:0])
			q.Locate(duck, geom.Vec3{Y: 0.5})
		}
		run()
		if n := testing.AllocsPerRun(10, run); n != 0 {
			t.Errorf("offset %g: %v allocations per warm query set", z, n)
		}
	}
}

// TestContactsFlushStack stacks two equal boxes exactly flush, so that
// every corner of the upper box rests on the rim of the lower box's top
// face, where the top face and a side face of the lower box both touch it.
// Every record must have the vertical normal of the face the corner rests
// on, not a side face's horizontal one.
func TestContactsFlushStack(t *testing.T) {
	box := mustTree(t, shapes.Box(geom.Vec3{X: 0.3, Y: 0.2, Z: 0.1}))
	ta := geom.PoseIdentity().Transform()
	tb := geom.Pose{P: geom.Vec3{Z: 0.2}, Q: geom.QuatIdentity()}.Transform()
	var q Scratch
	cs, err := q.Contacts(box, &ta, box, &tb, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) < 4 {
		t.Fatalf("%d records for boxes stacked flush, want at least the 4 corners", len(cs))
	}
	for _, c := range cs {
		if c.Normal.Sub(geom.Vec3{Z: 1}).Norm() > 1e-9 || math.Abs(c.Separation) > 1e-9 {
			t.Errorf("record %v: want normal +z and separation 0", c)
		}
	}
}
