package mesh_test

import (
	"fmt"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Build a unit cube from its 8 corners and 6 quadrilaterals listed
// counter-clockwise seen from outside, and inspect its adjacency.
func ExampleNew() {
	verts := []geom.Vec3{
		{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 1, Y: 1, Z: 0}, {X: 0, Y: 1, Z: 0},
		{X: 0, Y: 0, Z: 1}, {X: 1, Y: 0, Z: 1}, {X: 1, Y: 1, Z: 1}, {X: 0, Y: 1, Z: 1},
	}
	faces := [][]int{
		{0, 3, 2, 1}, {4, 5, 6, 7}, // bottom, top
		{0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}, // sides
	}
	m, err := mesh.New(verts, faces, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("V E F:", m.NumVerts(), m.NumEdges(), m.NumFaces())
	fmt.Println("closed manifold oriented convex:", m.Closed(), m.Manifold(), m.Oriented(), m.Convex())
	fmt.Println("euler:", m.Euler(), "volume:", m.Volume())
	e := m.Edges[0]
	fmt.Printf("edge 0 joins %d-%d, left face %d, right face %d\n", e.V[0], e.V[1], e.Left, e.Right)
	fmt.Println("top face normal:", m.Planes[1].N)
	// Output:
	// V E F: 8 12 6
	// closed manifold oriented convex: true true true true
	// euler: 2 volume: 1
	// edge 0 joins 0-3, left face 0, right face 5
	// top face normal: (0, 0, 1)
}

// Bad data gives an *Error naming the face or vertex.
func ExampleNew_errors() {
	verts := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}}
	_, err := mesh.New(verts, [][]int{{0, 1, 3}, {0, 1, 2}}, nil)
	fmt.Println(err)
	_, err = mesh.New(verts, [][]int{{0, 1, 7}}, nil)
	fmt.Println(err)
	// Output:
	// face 1: has zero area (0); drop such faces (meshio's Soup.DropDegenerate, collide mesh repair)
	// face 0: vertex index 7 out of range [0, 4)
}

// The neighbours of a vertex come counter-clockwise seen from outside: the
// tip of a square pyramid sees the base corners in counter-clockwise order
// seen from above (the starting edge is unspecified).
func ExampleMesh_Neighbors() {
	verts := []geom.Vec3{{X: -1, Y: -1, Z: 0}, {X: 1, Y: -1, Z: 0}, {X: 1, Y: 1, Z: 0}, {X: -1, Y: 1, Z: 0}, {X: 0, Y: 0, Z: 1}}
	faces := [][]int{{0, 3, 2, 1}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}}
	m, _ := mesh.New(verts, faces, nil)
	fmt.Println(m.Neighbors(4, nil))
	// Output: [1 2 3 0]
}

// RequireSolid names what keeps an open mesh from bounding a solid.
func ExampleMesh_RequireSolid() {
	verts := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1, Z: 0}, {X: 0, Y: 0, Z: 1}}
	m, _ := mesh.New(verts, [][]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}}, nil) // one face missing
	fmt.Println(m.Closed(), m.RequireSolid())
	// Output: false edge 1: boundary edge 2-1 has only face 0 (mesh is not closed; use it as a soup, or close the hole)
}

// Mass properties of a 2 x 1 x 0.5 box of density 1000 (kg/m^3): mass
// 1000 kg, centre at the box's centre, principal moments
// m/12 (b^2 + c^2) ... in ascending order.
func ExampleMassProperties() {
	verts := []geom.Vec3{
		{X: 0, Y: 0, Z: 0}, {X: 2, Y: 0, Z: 0}, {X: 2, Y: 1, Z: 0}, {X: 0, Y: 1, Z: 0},
		{X: 0, Y: 0, Z: 0.5}, {X: 2, Y: 0, Z: 0.5}, {X: 2, Y: 1, Z: 0.5}, {X: 0, Y: 1, Z: 0.5},
	}
	faces := [][]int{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}
	m, _ := mesh.New(verts, faces, nil)
	mp, err := mesh.MassProperties(m, 1000)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("volume %.4g, mass %.4g, centre %.4g\n", mp.Volume, mp.Mass, mp.Center)
	fmt.Printf("principal moments %.4g\n", mp.Principal)
	fmt.Printf("axis of the smallest moment %.3g\n", mp.Axes.Col(0))
	// Output:
	// volume 1, mass 1000, centre {1 0.5 0.25}
	// principal moments {104.2 354.2 416.7}
	// axis of the smallest moment {1 0 0}
}
