package toc

import (
	"math"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// lateCase is a pair of bodies moving between poses on a motion model.
type lateCase struct {
	name           string
	ma, mb         *mesh.Mesh
	a0, a1, b0, b1 geom.Pose
	model          geom.MotionModel
}

// pose7 is the pose at position (x, y, z) and orientation quaternion (w,
// qx, qy, qz), the order geom.Pose prints.
func pose7(f ...float64) geom.Pose {
	return geom.Pose{P: geom.V(f[0], f[1], f[2]), Q: geom.Quat{W: f[3], X: f[4], Y: f[5], Z: f[6]}}
}

// check runs Between at the default tolerance and holds its first contact
// to the oracles (n chords and samples per step): not later than their
// first contact, the surfaces within 3 tolerances then; it returns the
// contact and the oracles' time.
func (c lateCase) check(t *testing.T, n int) (Contact, float64) {
	t.Helper()
	pa := func(t float64) geom.Pose { return c.model.PoseAt(c.a0, c.a1, t) }
	pb := func(t float64) geom.Pose { return c.model.PoseAt(c.b0, c.b1, t) }
	want := math.Min(oracle(c.ma, pa, c.mb, pb, n), oSurface(c.ma, pa, c.mb, pb, n))
	sa, sb := mustShape(t, c.ma), mustShape(t, c.mb)
	var q Scratch
	cs, err := q.Between(sa, c.a0, c.a1, sb, c.b0, c.b1, &Options{Motion: c.model}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatalf("%s: no contact; the oracles' first is at %v", c.name, want)
	}
	if r := cs[0].Record(); r.Validate() != nil {
		t.Errorf("%s: %v", c.name, r.Validate())
	}
	bound := 3 * DefaultRelTolerance * math.Min(sa.radius, sb.radius)
	oCheck(t, c.name, c.ma, pa, c.mb, pb, cs[0].Time, want, bound)
	return cs[0], want
}

// TestShallowOverlapAtStart: a cube whose corner is 6.5e-4 inside a face
// of a torus at time 0 (an edge through the face, shallower than the
// default tolerance of 8.7e-4 at its end) and goes deeper. No vertex or
// edge crosses anything later in the step near there, so only the check at
// time 0 sees the surfaces meeting: the contact is Touching at time 0
// (it was a hit at 0.0315, when a torus vertex reached a cube face).
func TestShallowOverlapAtStart(t *testing.T) {
	c := lateCase{name: "torus onto cube, screw",
		ma: shapes.Torus(0.8, 0.3, 8, 6), mb: shapes.Cube(1), model: geom.ScrewMotion,
		a0: pose7(0.4717843667934667, 1.5119888518741202, 0.44882846605999327, -0.650682061795604, 0.28370697522937677, -0.07572557504340821, 0.7002776905970695),
		a1: pose7(-1.0905438550456739, 0.7465713901746406, 1.0405895705951067, -0.61932645580213, 0.3237947103243949, -0.020415380679310226, 0.7149649914095323),
		b0: pose7(0, 0, 0, 0.6457446046300622, -0.1423639514105954, -0.05603772024239358, 0.7480683022558579),
		b1: pose7(-0.019155374344046974, 0.027166343866895832, -0.06595655433143818, 0.8131741754143035, 0.23136052628627496, -0.2235781775403427, 0.4850081090492658),
	}
	got, want := c.check(t, 200)
	if want != 0 && want > 1e-12 {
		t.Fatalf("the oracles' first contact is at %v, not at the start: the case does not test the start", want)
	}
	if got.Time != 0 || got.Status != contact.Touching {
		t.Errorf("got %v at %v, want Touching at 0", got.Status, got.Time)
	}
	// The point is where the cube's edge crosses the torus's face, at the
	// start: on the torus's triangle plane and the cube's edge.
	pa, pb := c.a0, c.b0
	if d := oDist(c.ma, func(float64) geom.Pose { return pa }, c.mb, func(float64) geom.Pose { return pb }, 0); d != 0 {
		t.Errorf("oracle distance at the start %v, want 0 (crossing)", d)
	}
	if got.FeatureA.Kind != contact.Face || got.FeatureB.Kind != contact.Edge {
		t.Errorf("features %v/%v, want a face of the torus and an edge of the cube", got.FeatureA, got.FeatureB)
	}
	e := c.mb.Edges[got.FeatureB.Index]
	x0, x1 := pb.Apply(c.mb.Verts[e.V[0]]), pb.Apply(c.mb.Verts[e.V[1]])
	if d := oSegSeg(got.Point, got.Point, x0, x1); d > 1e-9 {
		t.Errorf("point %v is %g from the cube's edge", got.Point, d)
	}
	// A tolerance below the overlap makes it Penetrating, at the same
	// point.
	var q Scratch
	cs, err := q.Between(mustShape(t, c.ma), c.a0, c.a1, mustShape(t, c.mb), c.b0, c.b1, &Options{Tolerance: 1e-6}, nil)
	if err != nil || len(cs) != 1 || cs[0].Status != contact.Penetrating || cs[0].Time != 0 || cs[0].Point.Dist(got.Point) > 1e-9 {
		t.Errorf("tolerance 1e-6: %v %v, want one Penetrating contact at 0 at %v", cs, err, got.Point)
	}
}

// TestEdgeContactNearSaddleEnd: a car's edge meets a torus's edge first,
// edge against edge at 0.38371 of the step, close to an end of the
// torus's edge, where the torus is saddle-shaped. At the default
// tolerance the edge test's conservative time is 4e-4 earlier, when the
// edges are nearest within the tolerance of that end; no plane has all
// the triangles around a saddle vertex on one side, so the edge contact
// was dropped and a vertex reported at 0.4002, late by 0.017.
func TestEdgeContactNearSaddleEnd(t *testing.T) {
	c := lateCase{name: "car onto torus, linear",
		ma: shapes.Car(), mb: shapes.Torus(0.8, 0.3, 8, 6), model: geom.LinearAngular,
		a0: pose7(1.468758077548234, -0.8531222066387092, -1.2252044864284397, -0.5298572542514054, 0.09510441821645602, 0.8088635420508584, -0.23652951209904008),
		a1: pose7(-0.6965411890513804, 0.7208430941370676, 0.25368052738709057, -0.5266463604362547, 0.0923039587367078, 0.8099176279059903, -0.24115767922235462),
		b0: pose7(0, 0, 0, 0.42158256780250314, 0.09887363744756578, 0.8804979952391724, 0.1929129926229272),
		b1: pose7(-0.3111262043455206, -0.13750620500792055, 0.10507470836827425, 0.5689683113109846, 0.03906787004548956, 0.8213492693584448, 0.0115818814699587),
	}
	got, want := c.check(t, 400)
	if !(want > 0.38 && want < 0.39) {
		t.Fatalf("the oracles' first contact is at %v, not near 0.3837: the case does not test the edge contact", want)
	}
	if got.Status != contact.Hit || got.FeatureA.Kind != contact.Edge || got.FeatureB.Kind != contact.Edge {
		t.Errorf("got %v %v/%v, want an edge-edge hit", got.Status, got.FeatureA, got.FeatureB)
	}
	// The point is on both edges at the reported time, within the
	// tolerance, and the normal separates the bodies' vertices (3
	// tolerances).
	pa, pb := c.model.PoseAt(c.a0, c.a1, got.Time), c.model.PoseAt(c.b0, c.b1, got.Time)
	tol := DefaultRelTolerance * math.Min(mustShape(t, c.ma).radius, mustShape(t, c.mb).radius)
	ea, eb := c.ma.Edges[got.FeatureA.Index], c.mb.Edges[got.FeatureB.Index]
	if d := oSegSeg(got.Point, got.Point, pa.Apply(c.ma.Verts[ea.V[0]]), pa.Apply(c.ma.Verts[ea.V[1]])); d > 3*tol {
		t.Errorf("point %v is %g from A's edge", got.Point, d)
	}
	if d := oSegSeg(got.Point, got.Point, pb.Apply(c.mb.Verts[eb.V[0]]), pb.Apply(c.mb.Verts[eb.V[1]])); d > 3*tol {
		t.Errorf("point %v is %g from B's edge", got.Point, d)
	}
	// The normal is across both edges, from A to B: A's vertices near the
	// point behind the contact plane, B's in front (3 tolerances).
	da := pa.Apply(c.ma.Verts[ea.V[1]]).Sub(pa.Apply(c.ma.Verts[ea.V[0]]))
	db := pb.Apply(c.mb.Verts[eb.V[1]]).Sub(pb.Apply(c.mb.Verts[eb.V[0]]))
	if x, _ := da.Cross(db).Normalize(); math.Abs(x.Dot(got.Normal)) < 1-1e-3 {
		t.Errorf("normal %v is not across both edges (%v)", got.Normal, x)
	}
	for _, side := range []struct {
		m    *mesh.Mesh
		p    geom.Pose
		sign float64
	}{{c.ma, pa, 1}, {c.mb, pb, -1}} {
		for _, v := range side.m.Verts {
			x := side.p.Apply(v)
			if x.Dist(got.Point) < 0.3 && side.sign*got.Normal.Dot(x.Sub(got.Point)) > 3*tol {
				t.Errorf("vertex %v is on the wrong side of the contact plane", x)
			}
		}
	}
}
