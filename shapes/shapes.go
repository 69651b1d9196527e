// Package shapes generates the test polyhedra used throughout the papers'
// experiments: boxes and cubes, Buss's car (Fig. 12) and tori (Sec. 9.1),
// random convex polytopes on an ellipsoid, rod or plate (Chung and Wang
// Sec. 6), and the contact paper's bullet and warped plane with a hole
// (Fig. 3). Every generator is deterministic; random ones take a seed.
package shapes

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// mustNew builds a mesh from generator output, which is valid by
// construction; an error here is a bug in the generator.
func mustNew(verts []geom.Vec3, faces [][]int) *mesh.Mesh {
	m, err := mesh.New(verts, faces, nil)
	if err != nil {
		panic(fmt.Sprintf("shapes: generator produced an invalid mesh: %v", err))
	}
	return m
}

// Box returns the axis-aligned box centred at the origin with the given
// half extents: 8 vertices, 12 edges, 6 quadrilateral faces. The half
// extents must be positive.
func Box(half geom.Vec3) *mesh.Mesh {
	if !(half.X > 0 && half.Y > 0 && half.Z > 0) {
		panic("shapes.Box: half extents must be positive")
	}
	var vs []geom.Vec3
	for i := 0; i < 8; i++ {
		s := func(bit int) float64 {
			if i&bit != 0 {
				return 1
			}
			return -1
		}
		vs = append(vs, geom.Vec3{X: s(1) * half.X, Y: s(2) * half.Y, Z: s(4) * half.Z})
	}
	// Same vertex order and faces as the cube of the collide benchmark workloads.
	faces := [][]int{{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}}
	return mustNew(vs, faces)
}

// Cube returns the cube of the given edge length centred at the origin.
func Cube(size float64) *mesh.Mesh {
	h := size / 2
	return Box(geom.Vec3{X: h, Y: h, Z: h})
}

// Car returns the simple non-convex car polyhedron of Buss Fig. 12: 16
// vertices, 26 edges and 12 faces, 2 units long (x), 0.9 wide (y), a body
// 0.3 high and a cabin on top (z up, -0.25 to 0.35). It is the car of the
// screwpairs-car workloads of the collide benchmark.
func Car() *mesh.Mesh {
	vs := []geom.Vec3{
		{X: -1, Y: -0.45, Z: -0.25}, {X: 1, Y: -0.45, Z: -0.25}, {X: 1, Y: 0.45, Z: -0.25}, {X: -1, Y: 0.45, Z: -0.25},
		{X: -1, Y: -0.45, Z: 0.05}, {X: 1, Y: -0.45, Z: 0.05}, {X: 1, Y: 0.45, Z: 0.05}, {X: -1, Y: 0.45, Z: 0.05},
		{X: -0.45, Y: -0.45, Z: 0.05}, {X: 0.35, Y: -0.45, Z: 0.05}, {X: 0.35, Y: 0.45, Z: 0.05}, {X: -0.45, Y: 0.45, Z: 0.05},
		{X: -0.3, Y: -0.36, Z: 0.35}, {X: 0.1, Y: -0.36, Z: 0.35}, {X: 0.1, Y: 0.36, Z: 0.35}, {X: -0.3, Y: 0.36, Z: 0.35},
	}
	faces := [][]int{
		{0, 3, 2, 1}, {1, 2, 6, 5}, {0, 4, 7, 3}, {0, 1, 5, 9, 8, 4}, {3, 7, 11, 10, 6, 2},
		{9, 5, 6, 10}, {4, 8, 11, 7}, {9, 10, 14, 13}, {8, 12, 15, 11}, {12, 13, 14, 15},
		{8, 9, 13, 12}, {11, 15, 14, 10},
	}
	return mustNew(vs, faces)
}

// Torus returns a torus about the z axis with major radius R and minor
// radius r (0 < r < R), made of m x n planar quadrilaterals: m around the
// z axis, n around the tube. It has m*n vertices, 2*m*n edges and m*n
// faces; Buss's is Torus(1, 0.35, 20, 15), the torus of the bench samples.
func Torus(R, r float64, m, n int) *mesh.Mesh {
	if !(r > 0 && R > r) || m < 3 || n < 3 {
		panic("shapes.Torus: need 0 < r < R, m >= 3, n >= 3")
	}
	vs := tubeVerts(R, r, 0, m, m, n)
	id := func(i, j int) int { return (i%m)*n + j%n }
	faces := make([][]int, 0, m*n)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			faces = append(faces, []int{id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)})
		}
	}
	return mustNew(vs, faces)
}

// Coil returns a closed helical tube (a spring, or the thread of a screw):
// a circle of radius r in the plane through the z axis, swept along the
// helix of radius R about the z axis that rises by pitch per turn, for the
// given number of turns (at least 1/m), closed by planar end caps. Each turn
// has m sections of n vertices; the side is triangulated (a helical strip
// is not planar). Adjacent turns stay apart when 2r < pitch. It is the
// highly non-convex case of Buss Sec. 9.1 (screw threads): seen along the
// axis every turn covers the same ring, so only time tells the turns apart.
func Coil(R, r, pitch, turns float64, m, n int) *mesh.Mesh {
	if err := CheckCoil(R, r, pitch, turns, m, n); err != nil {
		panic("shapes.Coil: " + err.Error())
	}
	ns := int(math.Round(turns*float64(m))) + 1 // sections
	vs := tubeVerts(R, r, pitch, ns, m, n)
	id := func(i, j int) int { return i*n + j%n }
	faces := make([][]int, 0, 2*(ns-1)*n+2)
	for i := 0; i+1 < ns; i++ {
		for j := 0; j < n; j++ {
			a, b, c, d := id(i, j), id(i+1, j), id(i+1, j+1), id(i, j+1)
			faces = append(faces, []int{a, b, c}, []int{a, c, d})
		}
	}
	first, last := make([]int, n), make([]int, n)
	for j := 0; j < n; j++ {
		first[j] = id(0, j)
		last[j] = id(ns-1, n-1-j)
	}
	faces = append(faces, first, last)
	return mustNew(vs, faces)
}

// CheckCoil reports whether Coil accepts its arguments: finite
// 0 < r < R and 2r < pitch, m and n from 3 to 5000, and between one
// section and 1e4 turns, with at most 1e7 vertices.
func CheckCoil(R, r, pitch, turns float64, m, n int) error {
	switch {
	case !(r > 0 && R > r && pitch > 2*r) || math.IsInf(R, 0) || math.IsInf(pitch, 0):
		return fmt.Errorf("coil needs finite 0 < r < R and 2r < pitch (have R=%v, r=%v, pitch=%v)", R, r, pitch)
	case m < 3 || n < 3 || m > 5000 || n > 5000:
		return fmt.Errorf("coil needs 3 <= m, n <= 5000 (have m=%d, n=%d)", m, n)
	case !(turns*float64(m) >= 1 && turns <= 1e4) || turns*float64(m)*float64(n) > 1e7:
		return fmt.Errorf("coil needs 1/m <= turns <= 1e4 and at most 1e7 vertices (have turns=%v, m=%d, n=%d)", turns, m, n)
	}
	// The smallest faces (an end cap, and a side triangle on the inside of
	// the helix, narrower where a steep pitch tilts it) must stay well
	// above the mesh's zero-area tolerance (mesh.DefaultAreaTol times the
	// squared diagonal).
	w := 2 * math.Pi * (R - r)
	tilt := w / math.Hypot(w, pitch)
	side := 2 * (R - r) * math.Sin(math.Pi/float64(m)) * r * math.Sin(math.Pi/float64(n)) * tilt
	capArea := float64(n) / 2 * r * r * math.Sin(2*math.Pi/float64(n))
	diag2 := 4*(R+r)*(R+r) + (pitch*turns+2*r)*(pitch*turns+2*r)
	if !(min(side, capArea) > 100*mesh.DefaultAreaTol*diag2) {
		return fmt.Errorf("coil faces would be too thin: r, R and the turns' spacing differ too much in scale (have R=%v, r=%v, pitch=%v, turns=%v, m=%d, n=%d)", R, r, pitch, turns, m, n)
	}
	return nil
}

// tubeVerts returns the vertices of ns sections of a tube of radius r
// swept along the helix of radius R about the z axis that rises by pitch
// per turn (a circle for pitch 0), m sections per turn and n vertices per
// section (Torus and Coil).
func tubeVerts(R, r, pitch float64, ns, m, n int) []geom.Vec3 {
	vs := make([]geom.Vec3, 0, ns*n)
	for i := 0; i < ns; i++ {
		th := 2 * math.Pi * float64(i) / float64(m)
		for j := 0; j < n; j++ {
			ph := 2 * math.Pi * float64(j) / float64(n)
			rr := R + r*math.Cos(ph)
			vs = append(vs, geom.Vec3{X: rr * math.Cos(th), Y: rr * math.Sin(th), Z: pitch*th/(2*math.Pi) + r*math.Sin(ph)})
		}
	}
	return vs
}
