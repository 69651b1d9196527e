package meshio

import (
	"bytes"
	"io"
	"sync"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// benchTorus is the large mesh of the load benchmarks: a 300 x 300 quad
// torus, 90 000 vertices, 180 000 edges, 90 000 faces.
// It is built on first use so that plain test runs do not pay for it.
var benchTorus = sync.OnceValue(func() *mesh.Mesh { return shapes.Torus(1, 0.35, 300, 300) })

func encodeBench(b *testing.B, write func(*bytes.Buffer, *mesh.Mesh) error) []byte {
	var buf bytes.Buffer
	if err := write(&buf, benchTorus()); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func benchLoad(b *testing.B, write func(*bytes.Buffer, *mesh.Mesh) error, read func(*bytes.Reader) (*mesh.Mesh, error)) {
	data := encodeBench(b, write)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		m, err := read(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if m.NumVerts() != 90000 {
			b.Fatalf("%d vertices", m.NumVerts())
		}
	}
}

func BenchmarkLoadTorus300(b *testing.B) {
	for _, c := range []struct {
		name, file string
		write      func(io.Writer, *mesh.Mesh) error
	}{
		{"obj", "t.obj", WriteOBJ},
		{"off", "t.off", WriteOFF},
		{"stl-binary", "t.stl", WriteSTL},
		{"stl-ascii", "t.stl", WriteSTLASCII},
		{"ply-binary", "t.ply", func(w io.Writer, m *mesh.Mesh) error { return WritePLY(w, m, PLYBinaryLE) }},
		{"ply-ascii", "t.ply", func(w io.Writer, m *mesh.Mesh) error { return WritePLY(w, m, PLYASCII) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			benchLoad(b, func(w *bytes.Buffer, m *mesh.Mesh) error { return c.write(w, m) },
				func(r *bytes.Reader) (*mesh.Mesh, error) { return Read(r, c.file, nil) })
		})
	}
}

// BenchmarkSoupTorus300 measures parsing alone (no adjacency).
func BenchmarkSoupTorus300(b *testing.B) {
	cases := []struct {
		name  string
		write func(*bytes.Buffer, *mesh.Mesh) error
		read  func(*bytes.Reader) (*Soup, error)
	}{
		{"obj", func(w *bytes.Buffer, m *mesh.Mesh) error { return WriteOBJ(w, m) }, func(r *bytes.Reader) (*Soup, error) { return ReadOBJSoup(r, "t.obj") }},
		{"stl-binary", func(w *bytes.Buffer, m *mesh.Mesh) error { return WriteSTL(w, m) }, func(r *bytes.Reader) (*Soup, error) { return ReadSTLSoup(r, "t.stl") }},
		{"ply-binary", func(w *bytes.Buffer, m *mesh.Mesh) error { return WritePLY(w, m, PLYBinaryLE) }, func(r *bytes.Reader) (*Soup, error) { return ReadPLYSoup(r, "t.ply") }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			data := encodeBench(b, c.write)
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.read(bytes.NewReader(data)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkNewTorus300 is mesh.New alone on the same mesh, for comparison.
func BenchmarkNewTorus300(b *testing.B) {
	s, err := ReadOBJSoup(bytes.NewReader(encodeBench(b, func(w *bytes.Buffer, m *mesh.Mesh) error { return WriteOBJ(w, m) })), "t.obj")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mesh.New(s.Verts, s.Faces, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteOBJTorus300(b *testing.B) {
	var buf bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := WriteOBJ(&buf, benchTorus()); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(buf.Len()))
}

// BenchmarkRepairTorus300 repairs the benchmark torus stored as a soup of
// separate triangles (every triangle with its own three corners, as FCL's
// files are, 540 000 corners), every fourth triangle flipped: welding to
// 90 000 vertices and orienting 180 000 triangles.
func BenchmarkRepairTorus300(b *testing.B) {
	m := benchTorus()
	var base Soup
	for i, t := range m.Triangles(nil) {
		n := len(base.Verts)
		a, c, d := m.TriangleVerts(t)
		base.Verts = append(base.Verts, a, c, d)
		if i%4 == 0 {
			base.Faces = append(base.Faces, []int{n, n + 2, n + 1})
		} else {
			base.Faces = append(base.Faces, []int{n, n + 1, n + 2})
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		s := base
		s.Verts = append([]geom.Vec3(nil), base.Verts...)
		s.Faces = make([][]int, len(base.Faces))
		for f, l := range base.Faces {
			s.Faces[f] = append([]int(nil), l...)
		}
		r := s.Repair(nil)
		if len(s.Verts) != 90000 || r.Orient.Flipped != 45000 {
			b.Fatalf("%d vertices, flipped %d", len(s.Verts), r.Orient.Flipped)
		}
	}
}
