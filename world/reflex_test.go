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
		corner := cubeCorner(cube)
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
			pc := cornerAt(cube, corner, p, u)
			vs := insideVertices(cube, m, pc, geom.Pose{Q: geom.QuatIdentity()})
			if len(vs) != 1 || vs[0].ofB || vs[0].v != corner {
				continue
			}
			near, dist := oracle.nearest(p)
			if math.Abs(dist-depth) > 1e-9*side || near.Sub(a).Norm() < 1e-6*side || near.Sub(b).Norm() < 1e-6*side {
				continue // another feature is nearer than the edge
			}
			checked++
			wantN := near.Sub(p).Scale(1 / dist) // from the car to the cube: the corner's way out
			found, bad := cornerRecords(stepWithCube(t, m, cube, pc, pc, 0), corner, -dist, wantN, p.Add(near).Scale(0.5), 1e-9*side)
			if bad != nil {
				t.Fatalf("edge %d: corner %v deep %.3g: record %v; oracle depth %.6g normal %v point %v", k, p, depth, *bad, dist, wantN, p.Add(near).Scale(0.5))
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

// cubeCorner returns the index of the cube's vertex at -side/2 on every
// axis.
func cubeCorner(cube *mesh.Mesh) int {
	corner := 0
	for i, v := range cube.Verts {
		if v.X < 0 && v.Y < 0 && v.Z < 0 {
			corner = i
		}
	}
	return corner
}

// cornerAt returns the pose of the cube that puts its vertex corner at p
// with its diagonal from there pointing along the unit vector dir.
func cornerAt(cube *mesh.Mesh, corner int, p, dir geom.Vec3) geom.Pose {
	d0 := geom.V(1, 1, 1).Scale(1 / math.Sqrt(3))
	q := geom.QuatIdentity()
	if axis, ok := d0.Cross(dir).Normalize(); ok {
		q = geom.QuatAxisAngle(axis, math.Acos(math.Max(-1, math.Min(1, d0.Dot(dir)))))
	}
	return geom.Pose{P: p.Sub(q.Rotate(cube.Verts[corner])), Q: q}
}

// stepWithCube steps a world of mesh m (a polyhedron at the origin, body
// 0) and the cube (body 1) moving from pose p0 to p1, with the world's
// margin, and returns the contacts.
func stepWithCube(t *testing.T, m, cube *mesh.Mesh, p0, p1 geom.Pose, margin float64) []Contact {
	t.Helper()
	w := mustNew(t, &Options{Table: featureTable(), Workers: 1, Margin: margin})
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

// cornerRecords looks among cs for the records of the cube's vertex
// corner (body 1) and reports whether it has one, and the first whose
// status, separation, normal or point differs from the oracle's (sep,
// normal n, point pt, within tol), or nil.
func cornerRecords(cs []Contact, corner int, sep float64, n, pt geom.Vec3, tol float64) (found bool, bad *Contact) {
	status := contact.Near
	if sep < 0 {
		status = contact.Penetrating
	}
	for i := range cs {
		c := &cs[i]
		if c.FeatureB != contact.V(int32(corner)) {
			continue
		}
		found = true
		if c.Status != status || math.Abs(c.Separation-sep) > tol || c.Normal.Dot(n) < 1-1e-9 || c.Point.Sub(pt).Norm() > tol {
			return true, c
		}
	}
	return found, nil
}

// TestFeatureContactsOverReflexEdge places the corner of a small cube just
// in front of one face of a concave edge of a car or a torus, near the
// edge, at seeded random points along the edge, distances from it and
// heights: the corner projects onto that face and is in front of the
// plane of the edge's other face too, within the pair's margin (most such
// corners project outside the other face). Sliding over the edge it would
// go into the other face, whose plane the face under it does not hold;
// FeatureContacts must give the corner a contact with that other face
// too, speculative, with the separation and normal of its plane (computed
// here from the face's vertices). Only placements where no cube vertex is
// inside the body (the brute-force oracle) count; most must.
func TestFeatureContactsOverReflexEdge(t *testing.T) {
	for ci, m := range []*mesh.Mesh{shapes.Car(), shapes.Torus(1, 0.4, 12, 8)} {
		rng := rand.New(rand.NewPCG(uint64(ci)+53, 11))
		oracle := newSolidOracle(m, geom.Pose{Q: geom.QuatIdentity()})
		radius := meshRadius(m)
		margin := 0.05 * radius
		cube := shapes.Cube(0.02 * radius)
		corner := cubeCorner(cube)
		// plane returns face f's unit normal from its first three vertices
		// (the faces are planar and convex) and a point of it.
		plane := func(f int32) (geom.Vec3, geom.Vec3) {
			fv := m.Face(int(f))
			a, b, c := m.Verts[fv[0]], m.Verts[fv[1]], m.Verts[fv[2]]
			n, _ := b.Sub(a).Cross(c.Sub(a)).Normalize()
			return n, a
		}
		tried, checked, outside := 0, 0, 0
		for k := range m.Edges {
			e := m.Edges[k]
			if e.Left < 0 || e.Right < 0 {
				continue
			}
			for _, fs := range [2][2]int32{{e.Left, e.Right}, {e.Right, e.Left}} {
				under, other := fs[0], fs[1]
				nu, pu := plane(under)
				no, po := plane(other)
				a, b := m.Verts[e.V[0]], m.Verts[e.V[1]]
				// Concave by the test's own rule: the other face's far
				// vertices rise in front of the plane of the face under.
				rise := 0.0
				for _, v := range m.Face(int(other)) {
					rise = math.Max(rise, m.Verts[v].Sub(pu).Dot(nu))
				}
				if rise < 1e-6*radius {
					continue
				}
				// Into the face under, across the edge, in its plane.
				in, ok := nu.Cross(b.Sub(a)).Normalize()
				if !ok {
					continue
				}
				mid := a.Add(b).Scale(0.5)
				if fc := faceCentroid(m, under); fc.Sub(mid).Dot(in) < 0 {
					in = in.Neg()
				}
				tried++
				along := 0.3 + 0.4*rng.Float64()
				p := a.AddScaled(along, b.Sub(a)).AddScaled((0.05+0.3*rng.Float64())*margin, in).AddScaled((0.05+0.3*rng.Float64())*margin, nu)
				sepO := p.Sub(po).Dot(no)
				if sepO <= 0 || sepO >= 0.9*margin || !inPolygon(m, under, p, nu) {
					continue
				}
				// The cube's diagonal from the corner points out of the
				// groove, along the bisector of the two normals.
				out, _ := nu.Add(no).Normalize()
				pc := cornerAt(cube, corner, p, out)
				if len(insideVertices(cube, m, pc, geom.Pose{Q: geom.QuatIdentity()})) != 0 || oracle.inside(p) {
					continue
				}
				checked++
				if !inPolygon(m, other, p.AddScaled(-sepO, no), no) {
					outside++
				}
				cs := stepWithCube(t, m, cube, pc, pc, margin)
				found := false
				for _, c := range cs {
					if c.FeatureB != contact.V(int32(corner)) || c.FeatureA != contact.F(other) {
						continue
					}
					found = true
					if math.Abs(c.Separation-sepO) > 1e-9*radius || c.Normal.Dot(no) < 1-1e-9 {
						t.Fatalf("mesh %d edge %d: corner %v over face %d: contact with face %d separation %.6g normal %v; plane %.6g %v",
							ci, k, p, under, other, c.Separation, c.Normal, sepO, no)
					}
				}
				if !found {
					t.Fatalf("mesh %d edge %d: corner %v over face %d, %.3g in front of concave neighbour %d (margin %.3g): no contact with it", ci, k, p, under, sepO, other, margin)
				}
			}
		}
		t.Logf("mesh %d: %d concave edge sides, %d placements checked, %d projecting outside the other face", ci, tried, checked, outside)
		if tried == 0 || checked*2 < tried || outside*2 < checked {
			t.Fatalf("mesh %d: %d of %d placements usable", ci, checked, tried)
		}
	}
}

// faceCentroid returns the mean of face f's vertices.
func faceCentroid(m *mesh.Mesh, f int32) geom.Vec3 {
	var c geom.Vec3
	fv := m.Face(int(f))
	for _, v := range fv {
		c = c.Add(m.Verts[v])
	}
	return c.Scale(1 / float64(len(fv)))
}

// inPolygon reports whether p, on face f's plane (unit normal n), lies
// inside the convex face: on the inner side of every edge of its loop.
func inPolygon(m *mesh.Mesh, f int32, p, n geom.Vec3) bool {
	fv := m.Face(int(f))
	for i, v := range fv {
		a, b := m.Verts[v], m.Verts[fv[(i+1)%len(fv)]]
		if b.Sub(a).Cross(p.Sub(a)).Dot(n) < 0 {
			return false
		}
	}
	return true
}

// samplePolygon returns points spread over face f of m placed by t: a
// grid of barycentric points on each triangle of a fan from the first
// vertex (the faces are convex), every point within res of its nearest.
func samplePolygon(m *mesh.Mesh, f int, t geom.Transform, n int) []geom.Vec3 {
	var out []geom.Vec3
	fv := m.Face(f)
	a := t.Apply(m.Verts[fv[0]])
	for i := 1; i+1 < len(fv); i++ {
		b, c := t.Apply(m.Verts[fv[i]]), t.Apply(m.Verts[fv[i+1]])
		for u := 0; u <= n; u++ {
			for v := 0; u+v <= n; v++ {
				x := a.Scale(float64(n-u-v) / float64(n)).Add(b.Scale(float64(u) / float64(n))).Add(c.Scale(float64(v) / float64(n)))
				out = append(out, x)
			}
		}
	}
	return out
}

// TestFacesApart places two tori near each other at seeded random poses
// and, for every pair of faces whose boxes come within the pad, compares
// facesApart with the distance of the two faces sampled densely (an upper
// bound of the true distance: a pair declared apart must sample farther
// than the pad). A good part of the near pairs must be declared apart
// (linked tori's curved faces: their boxes meet where the faces do not).
func TestFacesApart(t *testing.T) {
	m := shapes.Torus(1, 0.35, 16, 10)
	fa, fb := newFeatures(m), newFeatures(m)
	rng := rand.New(rand.NewPCG(17, 3))
	var p probe
	nearPairs, apart := 0, 0
	for trial := range 12 {
		axis, _ := geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Normalize()
		// B's tube through A's hole, turned a quarter and a bit.
		pb := geom.Pose{P: geom.V(1+0.2*rng.Float64(), 0.1*rng.Float64(), 0.1*rng.Float64()), Q: geom.QuatAxisAngle(geom.V(1, 0, 0), math.Pi/2).Mul(geom.QuatAxisAngle(axis, 0.3*rng.Float64()))}
		rel := pb.Transform().Inverse() // A's frame (the world) to B's
		p.moved = place(p.moved[:0], m.Verts, rel)
		p.rel = rel
		pad := 0.02 + 0.08*rng.Float64()
		n := len(fa.faces.items)
		p.fitCen, p.fitN, p.fitAt = make([]geom.Vec3, n), make([]geom.Vec3, n), make([]uint32, n)
		p.stamp = 1
		for ka, f := range fa.faces.items {
			box := geom.EmptyAABB()
			for _, v := range m.Face(int(f)) {
				box = box.AddPoint(p.moved[v])
			}
			for kb, g := range fb.faces.items {
				if !near(&box, &fb.faces.boxes[kb], pad) {
					continue
				}
				nearPairs++
				if !p.facesApart(fa, fb, int32(ka), int32(kb), pad) {
					continue
				}
				apart++
				sa := samplePolygon(m, int(f), rel, 12)
				sb := samplePolygon(m, int(g), geom.TransformIdentity(), 12)
				d := math.Inf(1)
				for _, x := range sa {
					for _, y := range sb {
						d = math.Min(d, x.Sub(y).Norm())
					}
				}
				if d <= pad {
					t.Fatalf("trial %d: faces %d and %d declared apart by %.4g but sampled %.4g apart", trial, f, g, pad, d)
				}
			}
		}
	}
	t.Logf("%d face pairs with near boxes, %d apart by their planes", nearPairs, apart)
	if nearPairs == 0 || apart*5 < nearPairs || apart*5 > 4*nearPairs {
		t.Fatalf("%d of %d near face pairs apart: want 20-80%%", apart, nearPairs)
	}
}

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
		tried, checked, corner := 0, 0, cubeCorner(cube)
		for k, e := range m.Edges {
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
			wantN := p.Sub(near).Scale(1 / dist) // from the body to the cube
			found, bad := cornerRecords(stepWithCube(t, m, cube, pc, end, 0), corner, dist, wantN, p.Add(near).Scale(0.5), 1e-9*radius)
			if bad != nil {
				t.Fatalf("mesh %d edge %d: corner %v gap %.3g: record %v; oracle gap %.6g normal %v point %v", ci, k, p, gap, *bad, dist, wantN, p.Add(near).Scale(0.5))
			}
			if !found {
				t.Fatalf("mesh %d edge %d: corner %v, %.3g in front of the edge and closing %.3g, has no contact", ci, k, p, dist, end.P.Sub(pc.P).Norm())
			}
		}
		t.Logf("mesh %d: %d convex edges, %d placements checked", ci, tried, checked)
		if tried == 0 || checked*2 < tried {
			t.Fatalf("mesh %d: %d of %d convex-edge placements usable", ci, checked, tried)
		}
	}
}
