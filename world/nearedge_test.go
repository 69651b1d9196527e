package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestFeatureContactsCornerToEdge drives the corner of a small cube head on
// into a convex edge of a car, a box and a polytope: the corner starts a
// little in front of the edge, in its Voronoi region (the direction from
// the edge to the corner between its two faces' normals, at seeded random
// points along the edge, angles in the wedge, twists of the cube about
// that direction and gaps), its diagonal pointing straight away, so every
// edge from the corner points away from the body, and the step's motion
// closes 1.5 to 3 times the gap (a spinning car's edge driven into another
// car's corner at 5.5 m/s closes 9 cm in a step from 3.5 cm away). The
// corner projects onto neither face of the edge and its edges meet the
// edge only at their ends, so neither the vertex-face nor the edge-edge
// pass sees it; FeatureContacts must give it a speculative contact whose
// separation, normal and point match the oracle's nearest surface point
// (brute force over the polygons, sharing no code with the world). Only
// placements where the oracle finds no cube vertex inside, the corner the
// cube's vertex nearest the body and its nearest point interior to the
// edge count; most must.
func TestFeatureContactsCornerToEdge(t *testing.T) {
	for ci, m := range []*mesh.Mesh{shapes.Car(), shapes.Cube(2), shapes.RandomPolytope(shapes.PolytopeShape(0), 40, 1, 5)} {
		rng := rand.New(rand.NewPCG(uint64(ci)+71, 13))
		oracle := newSolidOracle(m, geom.Pose{Q: geom.QuatIdentity()})
		radius := meshRadius(m)
		cube := shapes.Cube(0.1 * radius)
		corner := cubeCorner(cube)
		tried, checked := 0, 0
		for k := range m.Edges {
			e := m.Edges[k]
			if e.Left < 0 || e.Right < 0 {
				continue
			}
			n1, n2 := oracle.norms[e.Left], oracle.norms[e.Right]
			a, b := m.Verts[e.V[0]], m.Verts[e.V[1]]
			// Convex and sharp by the test's own rule: the faces are not
			// coplanar and a point just beyond the edge along their mean
			// normal lies outside the solid, one just behind it inside.
			u, ok := n1.Add(n2).Normalize()
			mid := a.Add(b).Scale(0.5)
			step := 1e-4 * radius
			if !ok || n1.Dot(n2) > 0.999 || oracle.inside(mid.AddScaled(step, u)) || !oracle.inside(mid.AddScaled(-step, u)) {
				continue
			}
			tried++
			lam := 0.15 + 0.7*rng.Float64()
			dir, _ := n1.Scale(1 - lam).Add(n2.Scale(lam)).Normalize()
			gap := (0.01 + 0.04*rng.Float64()) * radius
			c := a.AddScaled(0.3+0.4*rng.Float64(), b.Sub(a))
			p := c.AddScaled(gap, dir)
			pc := cornerAt(cube, corner, p, dir)
			twist := geom.QuatAxisAngle(dir, 2*math.Pi*rng.Float64())
			pc.Q = twist.Mul(pc.Q)
			pc.P = p.Sub(pc.Q.Rotate(cube.Verts[corner]))
			if len(insideVertices(cube, m, pc, geom.Pose{Q: geom.QuatIdentity()})) != 0 {
				continue
			}
			near, dist := oracle.nearest(p)
			if math.Abs(dist-gap) > 1e-9*radius || near.Sub(c).Norm() > 1e-9*radius {
				continue // another feature is nearer than the edge
			}
			tc := pc.Transform()
			nearest := true
			for v, x := range cube.Verts {
				if _, d := oracle.nearest(tc.Apply(x)); v != corner && d <= dist {
					nearest = false
				}
			}
			if !nearest {
				continue
			}
			checked++
			end := pc
			end.P = pc.P.AddScaled(-(1.5+1.5*rng.Float64())*gap, dir)
			cs := cornerStep(t, m, cube, pc, end)
			found := false
			for _, r := range cs {
				if r.FeatureB != contact.V(int32(corner)) {
					continue
				}
				found = true
				wantN := p.Sub(near).Scale(1 / dist) // from the body to the cube
				if r.Status != contact.Near || math.Abs(r.Separation-dist) > 1e-9*radius || r.Normal.Dot(wantN) < 1-1e-9 || r.Point.Sub(p.Add(near).Scale(0.5)).Norm() > 1e-9*radius {
					t.Fatalf("mesh %d edge %d: corner %v gap %.3g: record %v separation %.6g normal %v point %v; oracle gap %.6g normal %v point %v",
						ci, k, p, gap, r.Status, r.Separation, r.Normal, r.Point, dist, wantN, p.Add(near).Scale(0.5))
				}
			}
			if !found {
				t.Fatalf("mesh %d edge %d: corner %v, %.3g in front of the edge and closing %.3g, has no contact (%d records)", ci, k, p, dist, end.P.Sub(pc.P).Norm(), len(cs))
			}
		}
		t.Logf("mesh %d: %d convex edges, %d placements checked", ci, tried, checked)
		if tried == 0 || checked*2 < tried {
			t.Fatalf("mesh %d: %d of %d convex-edge placements usable", ci, checked, tried)
		}
	}
}

// cornerStep steps a world of mesh m (a polyhedron at the origin, body 0)
// and the cube (body 1) moving from pose p0 to p1, and returns the
// contacts.
func cornerStep(t *testing.T, m, cube *mesh.Mesh, p0, p1 geom.Pose) []Contact {
	t.Helper()
	w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
	if _, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: geom.Pose{Q: geom.QuatIdentity()}}); err != nil {
		t.Fatal(err)
	}
	id, err := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: p0})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Move(id, p1); err != nil {
		t.Fatal(err)
	}
	cs, err := w.Step(nil)
	if err != nil {
		t.Fatal(err)
	}
	return cs
}
