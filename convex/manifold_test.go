package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

func boxPoly(t testing.TB, half geom.Vec3) *Polytope {
	p, err := New(shapes.Box(half))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestManifoldBoxOnBox: a unit box resting on a slab, jittered by small
// rotations and shifts for 100 frames, gets four contacts whose
// separations are within 1e-9 of the true ones (its bottom corners' heights
// above the slab's top, computed here from the vertices), with the same
// feature ids in every frame.
func TestManifoldBoxOnBox(t *testing.T) {
	slab := boxPoly(t, geom.Vec3{X: 2, Y: 2, Z: 0.5})
	cube := boxPoly(t, geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5})
	ta := geom.TransformIdentity()
	rng := rand.New(rand.NewPCG(3, 4))
	var s Searcher
	var cache DistanceCache
	var ids []uint64
	var dst []contact.Contact
	for frame := 0; frame < 100; frame++ {
		jit := 1e-4
		if frame == 0 {
			jit = 0
		}
		q := geom.QuatAxisAngle(randDir(rng), jit*rng.Float64())
		pose := geom.Pose{P: geom.Vec3{X: jit * rng.NormFloat64(), Y: jit * rng.NormFloat64(), Z: 1 + jit*rng.NormFloat64()}, Q: q}
		tb := pose.Transform()
		var err error
		dst, err = s.Manifold(slab, &ta, cube, &tb, 0.01, &cache, dst[:0])
		if err != nil {
			t.Fatal(err)
		}
		if len(dst) != 4 {
			t.Fatalf("frame %d: %d contacts, want 4: %v", frame, len(dst), dst)
		}
		var got []uint64
		for _, c := range dst {
			if err := c.Validate(); err != nil {
				t.Fatalf("frame %d: %v", frame, err)
			}
			if c.FeatureB.Kind != contact.Vertex || c.FeatureA != contact.F(c.FeatureA.Index) {
				t.Fatalf("frame %d: features %v/%v, want slab face / cube vertex", frame, c.FeatureA, c.FeatureB)
			}
			// The true separation: the cube vertex's height above the
			// slab's top face (z = 0.5).
			v := tb.Apply(shapes.Box(geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5}).Verts[c.FeatureB.Index])
			if want := v.Z - 0.5; math.Abs(c.Separation-want) > 1e-9 {
				t.Fatalf("frame %d: separation %.17g, true %.17g", frame, c.Separation, want)
			}
			if c.Normal.Sub(geom.Vec3{Z: 1}).Norm() > 1e-12 {
				t.Fatalf("frame %d: normal %v", frame, c.Normal)
			}
			got = append(got, c.ID())
		}
		if frame == 0 {
			ids = got
			continue
		}
		for k := range got {
			if got[k] != ids[k] {
				t.Fatalf("frame %d: feature ids changed: %x, first frame %x", frame, got, ids)
			}
		}
	}
}

// surfaceGap returns the largest signed distance of x to the face planes
// of body b (world vertices and faces): negative inside, at most the
// distance outside.
func surfaceGap(x geom.Vec3, b body) float64 {
	g := math.Inf(-1)
	for _, f := range b.faces {
		n, _ := faceNormal(b.v, f).Normalize()
		g = math.Max(g, n.Dot(x.Sub(b.v[f[0]])))
	}
	return g
}

// TestManifoldRandom: on seeded random pairs of every kind, a manifold
// has 1 to 4 valid contacts whenever the oracle's signed distance is within
// the margin and none beyond it, and every point lies within half its
// separation (plus rounding) of both surfaces.
func TestManifoldRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	cases := randomCases(rng, testShapes(t, false), 600)
	var s Searcher
	var dst []contact.Contact
	var count [ManifoldPoints + 2]int
	defer func() {
		t.Logf("manifold sizes: %v", count)
		if count[1] == 0 || count[3]+count[4] == 0 {
			t.Errorf("the cases do not mix single contacts and face contacts: %v", count)
		}
	}()
	for i, c := range cases {
		a := body{worldVerts(c.a.v, c.ta), c.a.faces}
		b := body{worldVerts(c.b.v, c.tb), c.b.faces}
		scale := (c.a.p.Radius() + c.b.p.Radius()) / 2
		margin := 0.02 * scale
		ref := satMargin(a, b)
		if ref > 0 {
			ref = bruteDistance(a, b)
		}
		var err error
		dst, err = s.Manifold(c.a.p, &c.ta, c.b.p, &c.tb, margin, nil, dst[:0])
		if err != nil {
			t.Fatal(err)
		}
		tol := 1e-9 * scale
		count[min(len(dst), ManifoldPoints+1)]++
		switch {
		case ref <= margin-tol && len(dst) == 0:
			t.Errorf("case %d (%s %s/%s): no contacts at signed distance %g, margin %g", i, c.kind, c.a.name, c.b.name, ref, margin)
		case ref > margin+tol && len(dst) > 0:
			t.Errorf("case %d (%s): %d contacts at signed distance %g, margin %g", i, c.kind, len(dst), ref, margin)
		case len(dst) > ManifoldPoints:
			t.Errorf("case %d: %d contacts", i, len(dst))
		}
		for _, x := range dst {
			if err := x.Validate(); err != nil {
				t.Errorf("case %d: %v", i, err)
			}
			h := math.Abs(x.Separation)/2 + tol
			ga, gb := surfaceGap(x.Point, a), surfaceGap(x.Point, b)
			if math.Abs(ga) > h || math.Abs(gb) > h {
				t.Errorf("case %d (%s %s/%s): point %v at %g from A and %g from B, separation %g", i, c.kind, c.a.name, c.b.name, x.Point, ga, gb, x.Separation)
			}
			if x.Separation < ref-tol && len(dst) == 1 {
				t.Errorf("case %d: single contact deeper (%g) than the depth (%g)", i, x.Separation, ref)
			}
		}
		if t.Failed() && i > 10 {
			t.FailNow()
		}
	}
}

// TestManifoldEdgeEdge: two boxes meeting edge on edge (crossed at right
// angles) give one contact between two edges.
func TestManifoldEdgeEdge(t *testing.T) {
	box := boxPoly(t, geom.Vec3{X: 1, Y: 1, Z: 1})
	// A's top edge along x (rotated 45 degrees about x), B's bottom edge
	// along y (rotated 45 degrees about y), overlapping by 0.01.
	ta := geom.Pose{Q: geom.QuatAxisAngle(geom.Vec3{X: 1}, math.Pi/4)}.Transform()
	h := math.Sqrt2
	tb := geom.Pose{P: geom.Vec3{Z: 2*h - 0.01}, Q: geom.QuatAxisAngle(geom.Vec3{Y: 1}, math.Pi/4)}.Transform()
	var s Searcher
	dst, err := s.Manifold(box, &ta, box, &tb, 0, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(dst) != 1 {
		t.Fatalf("%d contacts, want 1: %v", len(dst), dst)
	}
	c := dst[0]
	if c.FeatureA.Kind != contact.Edge || c.FeatureB.Kind != contact.Edge || math.Abs(c.Separation+0.01) > 1e-12 ||
		c.Normal.Sub(geom.Vec3{Z: 1}).Norm() > 1e-12 || c.Point.Sub(geom.Vec3{Z: h - 0.005}).Norm() > 1e-12 {
		t.Fatalf("contact %v", c)
	}
}

// TestManifoldSpeculative: a box hovering 0.05 above a slab gets four
// speculative contacts with margin 0.1, none with margin 0.01.
func TestManifoldSpeculative(t *testing.T) {
	slab := boxPoly(t, geom.Vec3{X: 2, Y: 2, Z: 0.5})
	cube := boxPoly(t, geom.Vec3{X: 0.5, Y: 0.5, Z: 0.5})
	ta := geom.TransformIdentity()
	tb := geom.Transform{R: geom.Identity(), T: geom.Vec3{Z: 1.05}}
	var s Searcher
	dst, err := s.Manifold(slab, &ta, cube, &tb, 0.1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(dst) != 4 {
		t.Fatalf("%d contacts, want 4", len(dst))
	}
	for _, c := range dst {
		if c.Status != contact.Near || math.Abs(c.Separation-0.05) > 1e-12 {
			t.Fatalf("contact %v", c)
		}
	}
	if dst, _ = s.Manifold(slab, &ta, cube, &tb, 0.01, nil, dst[:0]); len(dst) != 0 {
		t.Fatalf("contacts beyond the margin: %v", dst)
	}
}
