package shapes

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// triCount returns the number of triangles of m, requiring every face to be
// a triangle.
func triCount(t *testing.T, m *mesh.Mesh) int {
	t.Helper()
	for f := 0; f < m.NumFaces(); f++ {
		if n := len(m.Face(f)); n != 3 {
			t.Fatalf("face %d has %d vertices, want a triangle", f, n)
		}
	}
	return m.NumFaces()
}

func TestBullet(t *testing.T) {
	for _, c := range []struct{ r, l float64 }{
		{DefaultBulletRadius, DefaultBulletLength},
		{1, 3.5}, {1, 100}, {1e-3, 1e-2},
	} {
		m := Bullet(c.r, c.l)
		if n := triCount(t, m); n != 640 {
			t.Errorf("Bullet(%v, %v): %d triangles, want 640", c.r, c.l, n)
		}
		if m.NumVerts() != BulletVerts || BulletTriangles != 640 {
			t.Errorf("Bullet(%v, %v): %d vertices, want %d", c.r, c.l, m.NumVerts(), BulletVerts)
		}
		if !m.Closed() || !m.Manifold() || !m.Oriented() || m.Euler() != 2 {
			t.Errorf("Bullet(%v, %v): closed %v manifold %v oriented %v euler %d", c.r, c.l, m.Closed(), m.Manifold(), m.Oriented(), m.Euler())
		}
		if err := m.RequireSolid(); err != nil {
			t.Errorf("Bullet(%v, %v): %v", c.r, c.l, err)
		}
		if !m.Convex() {
			t.Errorf("Bullet(%v, %v) is not convex", c.r, c.l)
		}
		// Independent convexity check: every vertex on or below the plane of
		// every triangle, the plane computed here from the corners.
		tol := 1e-12 * c.l
		for f := 0; f < m.NumFaces(); f++ {
			l := m.Face(f)
			a, b, d := m.Verts[l[0]], m.Verts[l[1]], m.Verts[l[2]]
			n := b.Sub(a).Cross(d.Sub(a))
			nn, ok := n.Normalize()
			if !ok {
				t.Fatalf("Bullet(%v, %v): face %d is degenerate", c.r, c.l, f)
			}
			for i, v := range m.Verts {
				if s := nn.Dot(v.Sub(a)); s > tol {
					t.Fatalf("Bullet(%v, %v): vertex %d is %g above face %d", c.r, c.l, i, s, f)
				}
			}
		}
		// Shape: bounding box, and volume between that of the inscribed
		// cylinder-plus-cone and the circumscribed cylinder.
		b := m.Bounds()
		want := geom.AABB{Min: geom.Vec3{X: -c.l / 2, Y: -c.r, Z: -c.r}, Max: geom.Vec3{X: c.l / 2, Y: c.r, Z: c.r}}
		if !b.Min.ApproxEqual(want.Min, 1e-12*c.l) || !b.Max.ApproxEqual(want.Max, 1e-12*c.l) {
			t.Errorf("Bullet(%v, %v): bounds %v, want %v", c.r, c.l, b, want)
		}
		vol := m.Volume()
		ln := 3 * c.r
		lo := math.Pi*c.r*c.r*(c.l-ln) + math.Pi*c.r*c.r*ln/3
		hi := math.Pi * c.r * c.r * c.l
		if !(vol > lo*0.97 && vol < hi) {
			t.Errorf("Bullet(%v, %v): volume %g not in (%g, %g)", c.r, c.l, vol, lo*0.97, hi)
		}
		// The nose tip is the only vertex at x = l/2 and the base centre lies
		// in the base plane.
		if m.Verts[BulletVerts-1] != (geom.Vec3{X: c.l / 2}) || m.Verts[BulletVerts-2] != (geom.Vec3{X: -c.l / 2}) {
			t.Errorf("Bullet(%v, %v): tip %v base %v", c.r, c.l, m.Verts[BulletVerts-1], m.Verts[BulletVerts-2])
		}
	}
}

func TestBulletDeterministic(t *testing.T) {
	a, b := Bullet(1, 5), Bullet(1, 5)
	for i := range a.Verts {
		if a.Verts[i] != b.Verts[i] {
			t.Fatalf("vertex %d differs: %v vs %v", i, a.Verts[i], b.Verts[i])
		}
	}
}

func TestBulletPanics(t *testing.T) {
	for _, c := range []struct{ r, l float64 }{{0, 1}, {-1, 5}, {1, 3}, {1, 1.0001e4}, {1, math.Inf(1)}, {math.NaN(), 1}, {1, math.NaN()}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Bullet(%v, %v) did not panic", c.r, c.l)
				}
			}()
			Bullet(c.r, c.l)
		}()
	}
}

// inTri2 reports whether (py, pz) is in the closed triangle of the (y, z)
// projections of a, b, c.
func inTri2(py, pz float64, a, b, c geom.Vec3) bool {
	s := func(p, q geom.Vec3) float64 { return (q.Y-p.Y)*(pz-p.Z) - (q.Z-p.Z)*(py-p.Y) }
	d1, d2, d3 := s(a, b), s(b, c), s(c, a)
	return (d1 >= 0 && d2 >= 0 && d3 >= 0) || (d1 <= 0 && d2 <= 0 && d3 <= 0)
}

// segDist2 returns the distance of the origin from the segment pq in the
// (y, z) plane.
func segDist2(p, q geom.Vec3) float64 {
	dy, dz := q.Y-p.Y, q.Z-p.Z
	t := -(p.Y*dy + p.Z*dz) / (dy*dy + dz*dz)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(p.Y+t*dy, p.Z+t*dz)
}

func TestWarpedPlane(t *testing.T) {
	for _, c := range []struct{ size, hole, amp float64 }{
		{DefaultPlaneSize, DefaultPlaneHole, DefaultPlaneWarp},
		{1, 0.49, 0}, {10, 0.1, -3},
	} {
		m := WarpedPlane(c.size, c.hole, c.amp)
		if n := triCount(t, m); n != WarpedPlaneTriangles || n < 2000 || n > 2020 {
			t.Errorf("WarpedPlane%v: %d triangles, want %d (about 2010)", c, n, WarpedPlaneTriangles)
		}
		if m.NumVerts() != WarpedPlaneVerts {
			t.Errorf("WarpedPlane%v: %d vertices, want %d", c, m.NumVerts(), WarpedPlaneVerts)
		}
		if m.Closed() || !m.Manifold() || !m.Oriented() || m.Euler() != 0 {
			t.Errorf("WarpedPlane%v: closed %v manifold %v oriented %v euler %d, want an open oriented annulus", c, m.Closed(), m.Manifold(), m.Oriented(), m.Euler())
		}
		// Boundary: two loops of WarpedPlaneAround edges, the inner one on
		// the hole circle, the outer one on the square.
		inner, outer := 0, 0
		h := c.size / 2
		for i, e := range m.Edges {
			if e.NumFaces != 1 {
				continue
			}
			p, q := m.Verts[e.V[0]], m.Verts[e.V[1]]
			switch {
			case math.Abs(math.Hypot(p.Y, p.Z)-c.hole) < 1e-12*c.size && math.Abs(math.Hypot(q.Y, q.Z)-c.hole) < 1e-12*c.size:
				inner++
			case math.Max(math.Abs(p.Y), math.Abs(p.Z)) > h*(1-1e-12) && math.Max(math.Abs(q.Y), math.Abs(q.Z)) > h*(1-1e-12):
				outer++
			default:
				t.Errorf("WarpedPlane%v: boundary edge %d %v-%v is on neither boundary", c, i, p, q)
			}
		}
		if inner != WarpedPlaneAround || outer != WarpedPlaneAround {
			t.Errorf("WarpedPlane%v: %d inner and %d outer boundary edges, want %d each", c, inner, outer, WarpedPlaneAround)
		}
		// The hole: no triangle covers the centre or comes closer to it
		// than the hole polygon; every triangle normal faces -x.
		minD := c.hole * math.Cos(math.Pi/WarpedPlaneAround) * (1 - 1e-12)
		for f := 0; f < m.NumFaces(); f++ {
			l := m.Face(f)
			a, b, d := m.Verts[l[0]], m.Verts[l[1]], m.Verts[l[2]]
			if inTri2(0, 0, a, b, d) {
				t.Fatalf("WarpedPlane%v: triangle %d covers the centre", c, f)
			}
			if dd := math.Min(segDist2(a, b), math.Min(segDist2(b, d), segDist2(d, a))); dd < minD {
				t.Fatalf("WarpedPlane%v: triangle %d comes within %g of the centre, hole %g", c, f, dd, c.hole)
			}
			if n := b.Sub(a).Cross(d.Sub(a)); !(n.X < 0) {
				t.Fatalf("WarpedPlane%v: triangle %d normal %v does not face -x", c, f, n)
			}
		}
		// Outline and warp.
		b := m.Bounds()
		want := geom.AABB{Min: geom.Vec3{X: -math.Abs(c.amp), Y: -h, Z: -h}, Max: geom.Vec3{X: math.Abs(c.amp), Y: h, Z: h}}
		if !b.Min.ApproxEqual(want.Min, 1e-12*c.size) || !b.Max.ApproxEqual(want.Max, 1e-12*c.size) {
			t.Errorf("WarpedPlane%v: bounds %v, want %v", c, b, want)
		}
		for i, v := range m.Verts {
			if x := c.amp * math.Sin(math.Pi*v.Y/c.size) * math.Sin(math.Pi*v.Z/c.size); math.Abs(x-v.X) > 1e-12*c.size {
				t.Fatalf("WarpedPlane%v: vertex %d %v is off the warped surface (x should be %v)", c, i, v, x)
			}
		}
		// Sheet area: the square minus the hole polygon, stretched by the warp.
		area := 0.0
		for f := 0; f < m.NumFaces(); f++ {
			l := m.Face(f)
			area += m.Verts[l[1]].Sub(m.Verts[l[0]]).Cross(m.Verts[l[2]].Sub(m.Verts[l[0]])).Norm() / 2
		}
		flat := c.size*c.size - WarpedPlaneAround/2*c.hole*c.hole*math.Sin(2*math.Pi/WarpedPlaneAround)
		if !(area > flat*(1-1e-12)) || (c.amp == 0 && area > flat*(1+1e-12)) {
			t.Errorf("WarpedPlane%v: area %g, flat area %g", c, area, flat)
		}
	}
}

func TestWarpedPlanePanics(t *testing.T) {
	for _, c := range []struct{ size, hole, amp float64 }{{1, 0.5, 0}, {1, 0, 0}, {1, 1e-7, 0}, {1, 0.2, 101}, {1, 0.2, math.NaN()}, {math.Inf(1), 1, 0}, {1, -0.1, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("WarpedPlane%v did not panic", c)
				}
			}()
			WarpedPlane(c.size, c.hole, c.amp)
		}()
	}
}
