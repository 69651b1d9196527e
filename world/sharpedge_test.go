package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
	"github.com/collide-go/collide/shapes"
)

// TestFeatureContactsPastSharpEdge holds a cube's bottom face parallel to
// the top face of a wedge (a prism whose cross-section is a triangle with
// a sharp apex angle of 20 to 60 degrees), with a bottom edge of the cube
// at seeded random heights and offsets near the wedge's apex edge, some of
// its corners just inside the wedge, some just outside it. A corner above
// the top face but behind the plane of the lower face (farther in front
// of the top face than its margin) projects inside the lower face; it is
// outside the wedge and must not get a penetrating record (the lower face
// would push it along that face's normal, sideways through the wedge). The
// oracle is the three half-planes of the triangle, built here from its
// corners: every record of a cube corner deeper than 0 must be of a corner
// inside the wedge, with the separation minus its distance to the nearest
// of those planes and the normal that plane's; every corner inside within
// the feature window must get one.
func TestFeatureContactsPastSharpEdge(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 7))
	const half = 0.1 // the cube's half size
	cube := shapes.Cube(2 * half)
	inside, outside, trials := 0, 0, 200
	for trial := range trials {
		th := (20 + 40*rng.Float64()) * math.Pi / 180
		// Cross-section in (x, z): apex at the origin, top face along -x.
		tri := [3][2]float64{{0, 0}, {-1, 0}, {-math.Cos(th), -math.Sin(th)}}
		var pts []geom.Vec3
		for _, y := range []float64{-1, 1} {
			for _, c := range tri {
				pts = append(pts, geom.V(c[0], y, c[1]))
			}
		}
		wedge, err := hull.New(pts, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Outward normals and offsets of the triangle's sides.
		var nrm [3]geom.Vec3
		var off [3]float64
		for i := range 3 {
			a, b := tri[i], tri[(i+1)%3]
			n := geom.V(b[1]-a[1], 0, -(b[0] - a[0]))
			if n.X*(tri[(i+2)%3][0]-a[0])+n.Z*(tri[(i+2)%3][1]-a[1]) > 0 {
				n = n.Neg()
			}
			n, _ = n.Normalize()
			nrm[i], off[i] = n, n.Dot(geom.V(a[0], 0, a[1]))
		}
		w := mustNew(t, &Options{Table: featureTable(), Margin: 0.001, Workers: 1})
		iw, err := w.Add(BodyDef{Mesh: wedge, Kind: Convex, Static: true, Pose: geom.PoseIdentity()})
		if err != nil {
			t.Fatal(err)
		}
		// The cube's bottom edge at x = -u, height h over the top face.
		u, h := 0.03*rng.Float64(), -0.008+0.022*rng.Float64()
		at := geom.V(half-u, 0.2*rng.Float64()-0.1, h+half)
		ic, err := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: geom.Pose{P: at, Q: geom.QuatIdentity()}})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		depthTol := 0.1 * cube.Radius()
		for v, p0 := range cube.Verts {
			q := at.Add(p0)
			depth, near := math.Inf(1), -1
			for i := range 3 {
				if d := off[i] - nrm[i].Dot(q); d < depth {
					depth, near = d, i
				}
			}
			var rec *Contact
			for k := range cs {
				c := &cs[k]
				if c.A == iw && c.B == ic && c.FeatureB == contact.V(int32(v)) && c.Separation < 0 {
					rec = c
				}
			}
			if depth > 0 && depth < depthTol {
				inside++
				if rec == nil {
					t.Fatalf("trial %d: corner %d inside the wedge by %v, no record among %v", trial, v, depth, cs)
				}
			} else if depth < 0 && -depth < depthTol {
				outside++
			}
			if rec == nil {
				continue
			}
			if depth <= 0 {
				t.Fatalf("trial %d (apex %.1f deg): corner %d at %v is outside the wedge (by %v) but has the record %v", trial, th*180/math.Pi, v, q, -depth, *rec)
			}
			if math.Abs(rec.Separation+depth) > 1e-9 || rec.Normal.Sub(nrm[near]).Norm() > 1e-9 {
				t.Fatalf("trial %d: corner %d inside by %v through side %d: record %v", trial, v, depth, near, *rec)
			}
		}
	}
	if inside < 100 || outside < 100 {
		t.Fatalf("%d corners inside and %d outside within the window, want at least 100 of each", inside, outside)
	}
}

// TestFeatureContactsSliverTip presses the tip of a thin tetrahedron (a
// sliver whose faces around the tip look up and down, their mean normal
// within 60 degrees of the face it meets) into the bottom face of a box,
// at seeded random tilts (3 to 10 degrees), turns and heights, the tip at most 1% of the
// sliver's radius inside the box or a little below it. The tip is the
// sliver's highest point, so its way out is straight down, along the
// face's normal: inside, it must get a record of its depth (the box's
// bottom height minus its own, computed here) with normal +z from the
// sliver to the box; outside, no penetrating record.
func TestFeatureContactsSliverTip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	tip := geom.V(0.7, 0, 0)
	pts := []geom.Vec3{tip, geom.V(-0.3, 0.5, 0.03), geom.V(-0.3, -0.5, 0.03), geom.V(-0.3, 0, -0.07)}
	sliver, err := hull.New(pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	ti := -1
	for i, v := range sliver.Verts {
		if v == tip {
			ti = i
		}
	}
	r := sliver.Radius()
	box := shapes.Box(geom.V(1, 1, 0.2))
	inside, trials := 0, 200
	for trial := range trials {
		w := mustNew(t, &Options{Table: featureTable(), Margin: 0.001, Workers: 1})
		alpha := (3 + 7*rng.Float64()) * math.Pi / 180
		q := geom.QuatAxisAngle(geom.V(0, 0, 1), 2*math.Pi*rng.Float64()).Mul(geom.QuatAxisAngle(geom.V(0, 1, 0), -alpha))
		is, err := w.Add(BodyDef{Mesh: sliver, Kind: Convex, Pose: geom.Pose{Q: q}})
		if err != nil {
			t.Fatal(err)
		}
		at := q.Rotate(tip)
		depth := r * (-0.005 + 0.015*rng.Float64())
		bottom := at.Z - depth
		c := geom.V(at.X+0.4*rng.Float64()-0.2, at.Y+0.4*rng.Float64()-0.2, bottom+0.2)
		ib, err := w.Add(BodyDef{Mesh: box, Kind: Convex, Pose: geom.Pose{P: c, Q: geom.QuatIdentity()}})
		if err != nil {
			t.Fatal(err)
		}
		cs, err := w.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		var rec *Contact
		for k := range cs {
			if c := &cs[k]; c.A == is && c.B == ib && c.FeatureA == contact.V(int32(ti)) && c.Separation < 0 {
				rec = c
			}
		}
		switch {
		case depth > 0:
			inside++
			if rec == nil {
				t.Fatalf("trial %d (tilt %.1f deg): tip %v deep in the box, no record among %v", trial, alpha*180/math.Pi, depth, cs)
			}
			if math.Abs(rec.Separation+depth) > 1e-9 || rec.Normal.Sub(geom.V(0, 0, 1)).Norm() > 1e-9 {
				t.Fatalf("trial %d: tip %v deep: record %v", trial, depth, *rec)
			}
		case rec != nil:
			t.Fatalf("trial %d: tip %v below the box has the record %v", trial, -depth, *rec)
		}
	}
	if inside < trials/2 || inside > trials*9/10 {
		t.Fatalf("%d of %d tips inside", inside, trials)
	}
}
