package mesh_test

import (
	"slices"
	"testing"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestLoops: Loops gives every face's loop, New rebuilds the same mesh from
// them, and changing a returned loop changes neither the mesh nor the
// other loops.
func TestLoops(t *testing.T) {
	for _, m := range []*mesh.Mesh{shapes.Cube(1), shapes.Car(), shapes.Torus(1, 0.35, 20, 15)} {
		fs := m.Loops()
		if len(fs) != m.NumFaces() {
			t.Fatalf("%d loops for %d faces", len(fs), m.NumFaces())
		}
		for f, l := range fs {
			for k, v := range m.Face(f) {
				if l[k] != int(v) || len(l) != len(m.Face(f)) {
					t.Fatalf("face %d: loop %v, face %v", f, l, m.Face(f))
				}
			}
		}
		b, err := mesh.New(m.Verts, fs, nil)
		if err != nil || !slices.Equal(b.FaceVerts, m.FaceVerts) || !slices.Equal(b.FaceStart, m.FaceStart) {
			t.Fatalf("rebuilt mesh differs: %v", err)
		}
		fs[0][0] = -7
		fs[0] = append(fs[0], 99)
		if m.Face(0)[0] == -7 || fs[1][0] == 99 || m.Loops()[0][0] == -7 {
			t.Fatalf("a loop shares storage with the mesh or its neighbour")
		}
	}
}
