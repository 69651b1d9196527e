package meshio

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
)

// stripsWant is what testdata/strips.ply holds, worked out by hand from
// the strip rule (odd triangles swap their first two corners; triangles
// with a repeated corner are dropped): a closed tetrahedron from the strip
// 0 1 2 3 0 1 and a square from 4 5 6 7 7 7.
var stripsWant = [][]int{{0, 1, 2}, {2, 1, 3}, {2, 3, 0}, {0, 3, 1}, {4, 5, 6}, {6, 5, 7}}

// TestPLYStrips reads triangle strips in ascii and both binary encodings
// (written here from the same lists) and checks the triangles, their
// positions and the mesh's topology.
func TestPLYStrips(t *testing.T) {
	b, err := os.ReadFile("testdata/strips.ply")
	if err != nil {
		t.Fatal(err)
	}
	verts := []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}, {X: 5}, {X: 6}, {X: 5, Y: 1}, {X: 6, Y: 1}}
	strip := []int32{0, 1, 2, 3, 0, 1, -1, 4, 5, 6, 7, 7, 7}
	bin := func(bo binary.ByteOrder, name string) []byte {
		var w bytes.Buffer
		w.WriteString("ply\nformat " + name + " 1.0\nelement vertex 8\nproperty double x\nproperty double y\nproperty double z\nelement tristrips 1\nproperty list int int vertex_indices\nend_header\n")
		for _, v := range verts {
			for _, c := range [3]float64{v.X, v.Y, v.Z} {
				binary.Write(&w, bo, math.Float64bits(c))
			}
		}
		binary.Write(&w, bo, int32(len(strip)))
		binary.Write(&w, bo, strip)
		return w.Bytes()
	}
	// An unsigned index type with its largest value as the separator.
	var u bytes.Buffer
	u.WriteString("ply\nformat binary_little_endian 1.0\nelement vertex 8\nproperty double x\nproperty double y\nproperty double z\nelement tristrips 1\nproperty list uchar uint vertex_indices\nend_header\n")
	for _, v := range verts {
		for _, c := range [3]float64{v.X, v.Y, v.Z} {
			binary.Write(&u, binary.LittleEndian, math.Float64bits(c))
		}
	}
	u.WriteByte(byte(len(strip)))
	for _, i := range strip {
		binary.Write(&u, binary.LittleEndian, uint32(i))
	}
	for name, data := range map[string][]byte{
		"ascii":  b,
		"le":     bin(binary.LittleEndian, "binary_little_endian"),
		"be":     bin(binary.BigEndian, "binary_big_endian"),
		"uint32": u.Bytes(),
	} {
		s, err := ReadPLYSoup(bytes.NewReader(data), "strips.ply")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !slices.Equal(s.Verts, verts) {
			t.Fatalf("%s: vertices %v", name, s.Verts)
		}
		if !slices.EqualFunc(s.Faces, stripsWant, slices.Equal[[]int]) {
			t.Fatalf("%s: faces %v, want %v", name, s.Faces, stripsWant)
		}
		for f, p := range s.FacePos {
			if name == "ascii" && p != 19 {
				t.Fatalf("%s: face %d at line %d, want 19", name, f, p)
			}
		}
		m, err := s.Mesh(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// The tetrahedron is closed and oriented; the square is open.
		if m.Closed() || !m.Oriented() || m.NumEdges() != 6+5 {
			t.Fatalf("%s: closed %v oriented %v edges %d", name, m.Closed(), m.Oriented(), m.NumEdges())
		}
	}
	// Errors: an index out of range, and strips with nothing but
	// degenerate triangles.
	bad := strings.Replace(string(b), "13 0 1 2 3 0 1 -1", "13 0 1 2 3 0 9 -1", 1)
	if _, err := ReadPLYSoup(strings.NewReader(bad), "bad.ply"); err == nil || !strings.Contains(err.Error(), "bad.ply:19: tristrips 0: vertex index 9 out of range") {
		t.Fatalf("bad index: %v", err)
	}
	degen := strings.Replace(string(b), "13 0 1 2 3 0 1 -1 4 5 6 7 7 7", "4 1 1 1 2", 1)
	if _, err := ReadPLY(strings.NewReader(degen), "degen.ply", nil); err == nil || !strings.Contains(err.Error(), "only 2 degenerate triangles") {
		t.Fatalf("degenerate strips: %v", err)
	}
}
