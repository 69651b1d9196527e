package meshquery

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestPenetratingVertices places tori and cars at seeded random poses
// (between a fifth of the sum of their radii and that sum apart, so that
// about half the placements overlap) and a small cube inside a large one,
// and compares PenetratingVertices with brute force: a vertex is inside the
// other body when the other's winding number there is 1 (Van Oosterom and
// Strackee), its depth is the least point-triangle distance to the other's
// triangles. Every vertex inside deeper than 1e-9 must have exactly one
// record, with its depth as minus the separation, a normal along which that
// depth takes the vertex (A's against the normal, B's along it) onto the
// other's surface, the point halfway, Time 1; no record may name a vertex
// that is not inside; the returned depth is the deepest.
func TestPenetratingVertices(t *testing.T) {
	var q Scratch
	r := rand.New(rand.NewPCG(21, 22))
	overlapping, placements := 0, 0
	check := func(ma, mb *mesh.Mesh, pb geom.Pose) {
		a, b := mustTree(t, ma), mustTree(t, mb)
		ta, tb := geom.TransformIdentity(), pb.Transform()
		o := oracleOf(ma, mb, geom.PoseIdentity(), pb)
		recs, deepest, err := q.PenetratingVertices(a, &ta, b, &tb, nil)
		if err != nil {
			t.Fatal(err)
		}
		placements++
		type key struct {
			ofB bool
			v   int32
		}
		want := map[key]float64{}
		pos := map[key]geom.Vec3{}
		for side, m := range []*mesh.Mesh{ma, mb} {
			other := o.b
			if side == 1 {
				other = o.a
			}
			for v, x := range m.Verts {
				p := x
				if side == 1 {
					p = tb.Apply(x)
				}
				k := key{side == 1, int32(v)}
				pos[k] = p
				if windingNumber(other, p) < 0.5 {
					continue
				}
				d := math.Inf(1)
				for _, tri := range other {
					d = min(d, oPointTri(p, tri[0], tri[1], tri[2]))
				}
				if d > 1e-9 {
					want[k] = d
				}
			}
		}
		if len(want) > 0 {
			overlapping++
		}
		maxWant := 0.0
		for _, d := range want {
			maxWant = max(maxWant, d)
		}
		if math.Abs(deepest-maxWant) > 1e-9 {
			t.Fatalf("placement %d: deepest %v, brute force %v", placements, deepest, maxWant)
		}
		seen := map[key]bool{}
		for _, c := range recs {
			k := key{false, c.FeatureA.Index}
			out, other := c.Normal.Neg(), o.b
			if c.FeatureB.Kind == contact.Vertex && c.FeatureA.Kind != contact.Vertex {
				k, out, other = key{true, c.FeatureB.Index}, c.Normal, o.a
			}
			d, ok := want[k]
			if -c.Separation <= 1e-9 && !ok {
				continue // on the surface
			}
			if !ok || seen[k] || math.Abs(-c.Separation-d) > 1e-9 || c.Time != 1 || c.Validate() != nil {
				t.Fatalf("placement %d: record %v: vertex %v inside %v (depth %v), repeated %v", placements, c, k, ok, d, seen[k])
			}
			seen[k] = true
			exit := pos[k].AddScaled(d, out)
			e := math.Inf(1)
			for _, tri := range other {
				e = min(e, oPointTri(exit, tri[0], tri[1], tri[2]))
			}
			if e > 1e-9 || c.Point.Sub(pos[k].Add(exit).Scale(0.5)).Norm() > 1e-9 {
				t.Fatalf("placement %d: record %v: the normal takes the vertex %v from the surface, point %v", placements, c, e, pos[k].Add(exit).Scale(0.5))
			}
		}
		for k, d := range want {
			if !seen[k] {
				t.Fatalf("placement %d: vertex %v inside at depth %v has no record among %v", placements, k, d, recs)
			}
		}
	}
	torus, car := shapes.Torus(1, 0.35, 12, 8), shapes.Car()
	for _, pair := range [][2]*mesh.Mesh{{torus, torus}, {car, torus}, {car, car}} {
		reach := pair[0].Radius() + pair[1].Radius()
		for i := 0; i < 40; i++ {
			d := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
			d, _ = d.Normalize()
			check(pair[0], pair[1], geom.Pose{P: d.Scale(reach * (0.2 + 0.8*r.Float64())), Q: randQuat(r)})
		}
	}
	t.Logf("%d of %d placements overlap", overlapping, placements)
	if overlapping*10 < placements*3 || overlapping*10 > placements*7 {
		t.Fatalf("%d of %d placements overlap: want 30-70%%", overlapping, placements)
	}
	// Containment: no triangle crosses, every vertex of the small cube is
	// inside.
	before := len(recsOf(t, &q, shapes.Cube(3), shapes.Cube(0.5), geom.Pose{P: geom.V(0.3, -0.2, 0.1), Q: randQuat(r)}))
	check(shapes.Cube(3), shapes.Cube(0.5), geom.Pose{P: geom.V(0.3, -0.2, 0.1), Q: randQuat(r)})
	if before != 8 {
		t.Fatalf("a cube inside another: %d records, want its 8 vertices", before)
	}
}

func recsOf(t *testing.T, q *Scratch, ma, mb *mesh.Mesh, pb geom.Pose) []contact.Contact {
	ta, tb := geom.TransformIdentity(), pb.Transform()
	recs, _, err := q.PenetratingVertices(mustTree(t, ma), &ta, mustTree(t, mb), &tb, nil)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
