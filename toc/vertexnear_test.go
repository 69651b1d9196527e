package toc

import (
	"math"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// TestVertexNearFaceEdge: boxes led by edges into each other, where a
// vertex of one reaches the other's face just outside the triangle, near
// its edge, 2e-5 of the step before the edges touch (within the
// tolerance). The face's normal does not separate the bodies there (one
// reaches 0.006 across the plane, the bound is 0.0023): the contact is the
// edges', at the vertex's time. The oracles place the boxes with their own
// poses and brute-force over the vertices: the plane through the point
// with the normal has A behind and B in front, both reach it (3
// tolerances), and the time is not later than the oracles' first contact.
func TestVertexNearFaceEdge(t *testing.T) {
	for _, c := range vertexNearCases {
		ma, mb := shapes.Box(geom.V(0.5, 0.5, c.ha)), shapes.Box(geom.V(0.5, 0.5, c.hb))
		sha, shb := mustShape(t, ma), mustShape(t, mb)
		var q Scratch
		cs, err := q.Contacts(sha, c.sa, shb, c.sb, 1, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cs) == 0 {
			t.Errorf("%s: no contact", c.name)
			continue
		}
		got := cs[0]
		if r := got.Record(); r.Validate() != nil {
			t.Errorf("%s: %v", c.name, r.Validate())
		}
		if got.Status != contact.Hit {
			t.Errorf("%s: status %v, want hit", c.name, got.Status)
		}
		bound := 3 * DefaultRelTolerance * math.Min(sha.radius, shb.radius)
		pa := func(x float64) geom.Pose { return oPose(c.sa, x) }
		pb := func(x float64) geom.Pose { return oPose(c.sb, x) }
		want := math.Min(oracle(ma, pa, mb, pb, 400), oSurface(ma, pa, mb, pb, 400))
		oCheck(t, c.name, ma, pa, mb, pb, got.Time, want, bound)
		nv, d := got.Normal, got.Normal.Dot(got.Point)
		loA, hiA := oSupport(ma, pa(got.Time), nv)
		loB, hiB := oSupport(mb, pb(got.Time), nv)
		if hiA > d+bound || loB < d-bound || hiA < d-bound || loB > d+bound {
			t.Errorf("%s: %v: A spans [%.3g, %.3g] and B [%.3g, %.3g] about the contact plane, want A behind and B in front, both reaching it (bound %.3g)",
				c.name, got, loA-d, hiA-d, loB-d, hiB-d, bound)
		}
		t.Logf("%s: %v", c.name, got)
	}
}

// vertexNearCase is a box of half extents (0.5, 0.5, ha) in state sa and
// one of (0.5, 0.5, hb) in state sb.
type vertexNearCase struct {
	name   string
	ha, hb float64
	sa, sb State
}

// vertexNearCases are TestContactNormalSeparates' edgeLeadCase draws of
// seeds 2 (cases 81 and 341) and 10 (case 269).
var vertexNearCases = []vertexNearCase{
	{name: "seed 2 case 81", ha: 0.6745103242417287, hb: 0.31172831198316603,
		sa: State{Pose: geom.Pose{Q: geom.Quat{W: 0.3320195770531893, X: -0.2703700212918029, Y: -0.5790690001582053, Z: 0.6937882566719242}},
			W: geom.V(-0.0008358610206915611, -0.024774111898417328, 0.012614633282254656)},
		sb: State{Pose: geom.Pose{P: geom.V(-0.9877523084355686, 1.3248445182167672, 1.6002374639556645), Q: geom.Quat{W: 0.35995943985704737, X: -0.37187221319797464, Y: -0.6098374668841342, Z: 0.600198735997822}},
			V: geom.V(0.8276237399549509, -1.755006889581343, -1.9484226878423692), W: geom.V(0.1011783390883525, -0.010452859950826733, -0.10765695129853549)}},
	{name: "seed 2 case 341", ha: 0.5998216818745685, hb: 0.21258436478330256,
		sa: State{Pose: geom.Pose{Q: geom.Quat{W: -0.48093403041729976, X: 0.5793223585625696, Y: -0.3453623256127005, Z: -0.5601900814040359}},
			W: geom.V(0.06608722090208413, 0.031410984406465454, -0.09644705505863464)},
		sb: State{Pose: geom.Pose{P: geom.V(1.7459660536628285, 1.2509429537841448, -1.3705493717733876), Q: geom.Quat{W: -0.5221681794414957, X: 0.5305547526075608, Y: -0.34826128794511546, Z: -0.5697070494412837}},
			V: geom.V(-2.292805410441686, -0.9972483241615706, 1.6550530119973383), W: geom.V(-0.07422857743291324, -0.0037545732659628123, 0.010125457456727353)}},
	{name: "seed 10 case 269", ha: 0.547246900302107, hb: 0.6723919912997529,
		sa: State{Pose: geom.Pose{Q: geom.Quat{W: -0.5907121354707336, X: 0.20284343269682092, Y: 0.728679939294252, Z: 0.28096131564594684}},
			W: geom.V(-0.003355657387844256, 0.011624642755135688, -0.005152130294904818)},
		sb: State{Pose: geom.Pose{P: geom.V(-1.537325658827719, -1.3847144026845077, 1.315919933551855), Q: geom.Quat{W: -0.5593412216933038, X: 0.18482170375442736, Y: 0.7752964966835277, Z: 0.22780183881216176}},
			V: geom.V(1.838883133069063, 1.608733548511538, -1.6376611606599116), W: geom.V(0.057620442187949546, -0.0037716379201112914, -0.15354289353384348)}},
}
