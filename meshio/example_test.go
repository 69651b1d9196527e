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
