package meshio_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/collide-go/collide/meshio"
	"github.com/collide-go/collide/shapes"
)

// Read a mesh from OBJ text and inspect its topology.
func ExampleReadOBJ() {
	const tet = `# a tetrahedron
v 0 0 0
v 1 0 0
v 0 1 0
v 0 0 1
f 1 3 2
f 1 2 4
f 1 4 3
f 2 3 4
`
	m, err := meshio.ReadOBJ(strings.NewReader(tet), "tet.obj", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.NumVerts(), m.NumEdges(), m.NumFaces(), m.Closed(), m.Convex(), m.Euler())
	// Output: 4 6 4 true true 2
}

// Errors name the file and line; mesh.New's errors are mapped back to the
// line of the offending face.
func ExampleReadOBJ_errors() {
	_, err := meshio.ReadOBJ(strings.NewReader("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 400\n"), "bad.obj", nil)
	fmt.Println(err)
	_, err = meshio.ReadOBJ(strings.NewReader("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"), "flat.obj", nil)
	fmt.Println(err)
	// Output:
	// bad.obj:4: face 0: vertex index 400 out of range (file has 3 vertices)
	// flat.obj:4: face 0: has zero area (0); drop such faces (meshio's Soup.DropDegenerate, collide mesh repair)
}

// A polygon soup keeps faces that mesh.New would reject.
func ExampleReadOBJSoup() {
	s, err := meshio.ReadOBJSoup(strings.NewReader("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"), "soup.obj")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(s.Verts), s.Faces, "face 0 on line", s.FacePos[0])
	// Output: 3 [[0 1 2]] face 0 on line 4
}

// Write a mesh as OBJ and read it back.
func ExampleWriteOBJ() {
	var buf bytes.Buffer
	if err := meshio.WriteOBJ(&buf, shapes.Cube(2)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(buf.String()[:63])
	m, _ := meshio.Read(&buf, "cube.obj", nil)
	fmt.Println("...\nread back:", m.NumVerts(), "vertices,", m.NumFaces(), "faces")
	// Output:
	// # collide mesh: 8 vertices, 6 faces
	// v -1 -1 -1
	// v 1 -1 -1
	// v -1 1...
	// read back: 8 vertices, 6 faces
}

// Repair a triangle soup in which every triangle has its own corners (as
// FCL's test meshes are stored) and one triangle is wound the wrong way:
// welding shares the corners, orientation turns the closed tetrahedron
// outward.
func ExampleSoup_Repair() {
	const soup = `v 0 0 0
v 0 1 0
v 1 0 0
f 1 2 3
v 0 0 0
v 1 0 0
v 0 0 1
f 4 5 6
v 0 0 0
v 0 0 1
v 0 1 0
f 7 8 9
v 1 0 0
v 0 0 1
v 0 1 0
f 10 11 12
`
	s, err := meshio.ReadOBJSoup(strings.NewReader(soup), "soup.obj")
	if err != nil {
		fmt.Println(err)
		return
	}
	r := s.Repair(nil)
	m, err := s.Mesh(nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("welded", r.Welded, "flipped", r.Orient.Flipped)
	fmt.Println(m.NumVerts(), m.Closed(), m.Oriented(), m.Volume() > 0)
	// Output:
	// welded 8 flipped 1
	// 4 true true true
}

// A convex decomposition (V-HACD writes one OBJ object per piece) read as a
// compound of closed convex meshes.
func ExampleReadConvexParts() {
	ms, names, err := meshio.ReadConvexParts("../testdata/meshes/bullet/duck_vhacd.obj", meshio.ByObject, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, m := range ms {
		fmt.Println(names[i], m.NumVerts(), m.Convex())
	}
	// Output:
	// convex_0 64 true
	// convex_1 64 true
	// convex_2 33 true
	// convex_3 25 true
	// convex_4 22 true
}
