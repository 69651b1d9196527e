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

// TestFeatureContactsUnderReflexEdge pushes the corner of a small cube just
// under a concave edge of a car or a torus (the groove where the bonnet
// meets the windscreen, the inner ring of the torus), along the edge's
// inward bisector, at seeded random points along the edge and depths
// within the feature passes' window, the rest of the cube out in the
// groove. The corner projects onto neither face of the edge and is no
// sharp edge's end; FeatureContacts must still hold it: a record of that
// vertex whose depth and normal match the oracle's nearest surface point
// (brute force over the polygons, shared with no code of the world). Only
// placements where the oracle finds the corner inside, nearest to the
// edge's interior, and no other cube vertex inside, count; most must.
func TestFeatureContactsUnderReflexEdge(t *testing.T) {
	for ci, m := range []*mesh.Mesh{shapes.Car(), shapes.Torus(1, 0.4, 12, 8)} {
		rng := rand.New(rand.NewPCG(uint64(ci)+41, 7))
		f := newFeatures(m)
		oracle := newSolidOracle(m, geom.Pose{Q: geom.QuatIdentity()})
		side := 0.05 * meshRadius(m)
		cube := shapes.Cube(side)
		window := depthWindow(f, newFeatures(cube))
		corner := 0 // the cube's vertex at -side/2 on every axis
		for i, v := range cube.Verts {
			if v.X < 0 && v.Y < 0 && v.Z < 0 {
				corner = i
			}
		}
		tried, checked := 0, 0
		for k := range m.Edges {
			e := m.Edges[k]
			if e.Left < 0 || e.Right < 0 {
				continue
			}
			n1, n2 := m.Planes[e.Left].N, m.Planes[e.Right].N
			a, b := m.Verts[e.V[0]], m.Verts[e.V[1]]
			// Concave by the test's own rule: the point halfway between the
			// two faces' centroids lies outside the solid (in the groove).
			cen := func(fi int32) geom.Vec3 {
				var c geom.Vec3
				fv := m.Face(int(fi))
				for _, v := range fv {
					c = c.Add(m.Verts[v])
				}
				return c.Scale(1 / float64(len(fv)))
			}
			u, ok := n1.Add(n2).Normalize()
			if !ok || oracle.inside(cen(e.Left).Add(cen(e.Right)).Scale(0.5)) {
				continue
			}
			tried++
			depth := (0.2 + 0.6*rng.Float64()) * window
			p := a.AddScaled(0.3+0.4*rng.Float64(), b.Sub(a)).AddScaled(-depth, u)
			// Turn the cube so that its diagonal from the corner points out
			// along u; place the corner at p.
			d0 := geom.V(1, 1, 1).Scale(1 / math.Sqrt(3))
			axis, ok := d0.Cross(u).Normalize()
			q := geom.QuatIdentity()
			if ok {
				q = geom.QuatAxisAngle(axis, math.Acos(math.Max(-1, math.Min(1, d0.Dot(u)))))
			}
			pc := geom.Pose{Q: q}
			pc.P = p.Sub(q.Rotate(cube.Verts[corner]))
			vs := insideVertices(cube, m, pc, geom.Pose{Q: geom.QuatIdentity()})
			if len(vs) != 1 || vs[0].ofB || vs[0].v != corner {
				continue
			}
			near, dist := oracle.nearest(p)
			if math.Abs(dist-depth) > 1e-9*side || near.Sub(a).Norm() < 1e-6*side || near.Sub(b).Norm() < 1e-6*side {
				continue // another feature is nearer than the edge
			}
			checked++
			w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
			if _, err := w.Add(BodyDef{Mesh: m, Kind: Polyhedron, Pose: geom.Pose{Q: geom.QuatIdentity()}}); err != nil {
				t.Fatal(err)
			}
			if _, err := w.Add(BodyDef{Mesh: cube, Kind: Convex, Pose: pc}); err != nil {
				t.Fatal(err)
			}
			cs, err := w.Step(nil)
			if err != nil {
				t.Fatal(err)
			}
			found := false
			for _, c := range cs {
				if c.FeatureB != contact.V(int32(corner)) {
					continue
				}
				found = true
				wantN := near.Sub(p).Scale(1 / dist) // from the car to the cube: the corner's way out
				if math.Abs(c.Separation+dist) > 1e-9*side || c.Normal.Dot(wantN) < 1-1e-9 || c.Point.Sub(p.Add(near).Scale(0.5)).Norm() > 1e-9*side {
					t.Fatalf("edge %d: corner %v deep %.3g: record separation %.6g normal %v point %v; oracle depth %.6g normal %v point %v",
						k, p, depth, c.Separation, c.Normal, c.Point, dist, wantN, p.Add(near).Scale(0.5))
				}
			}
			if !found {
				t.Fatalf("edge %d: corner %v, %.3g under the concave edge (window %.3g), has no contact", k, p, dist, window)
			}
		}
		t.Logf("mesh %d: %d concave edges, %d placements checked", ci, tried, checked)
		if tried == 0 || checked*2 < tried {
			t.Fatalf("mesh %d: %d of %d concave-edge placements usable", ci, checked, tried)
		}
	}
}
