package meshio

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/shapes"
)

// checkRead is the property every reader must have on any input: either an
// *Error naming the file, or a soup whose indices are in range and whose
// coordinates are finite; and if the soup makes a mesh, that mesh survives
// an OBJ round trip unchanged.
func checkRead(t *testing.T, name string, read func(io.Reader, string) (*Soup, error), data []byte) {
	s, err := read(bytes.NewReader(data), name)
	if err != nil {
		var me *Error
		if !errors.As(err, &me) {
			t.Fatalf("error %T is not a *meshio.Error: %v", err, err)
		}
		if !strings.HasPrefix(err.Error(), name) {
			t.Fatalf("error does not name the file: %v", err)
		}
		return
	}
	if len(s.VertPos) != len(s.Verts) || len(s.FacePos) != len(s.Faces) {
		t.Fatalf("positions: %d verts %d vertpos, %d faces %d facepos", len(s.Verts), len(s.VertPos), len(s.Faces), len(s.FacePos))
	}
	for i, v := range s.Verts {
		if !v.IsFinite() {
			t.Fatalf("vertex %d not finite: %v", i, v)
		}
	}
	for f, l := range s.Faces {
		if len(l) < 3 {
			t.Fatalf("face %d has %d indices", f, len(l))
		}
		for _, v := range l {
			if v < 0 || v >= len(s.Verts) {
				t.Fatalf("face %d index %d out of range [0, %d)", f, v, len(s.Verts))
			}
		}
	}
	// After DropDegenerate, mesh.New must not find a degenerate face.
	c := *s
	c.Faces = slices.Clone(s.Faces)
	c.FacePos = slices.Clone(s.FacePos)
	c.DropDegenerate(nil)
	if _, err := c.Mesh(nil); err != nil && (strings.Contains(err.Error(), "zero area") || strings.Contains(err.Error(), "repeats")) {
		t.Fatalf("after DropDegenerate: %v", err)
	}
	m, err := s.Mesh(nil)
	if err != nil {
		var me *Error
		if !errors.As(err, &me) {
			t.Fatalf("Mesh error %T is not a *meshio.Error: %v", err, err)
		}
		return
	}
	var buf bytes.Buffer
	if err := WriteOBJ(&buf, m); err != nil {
		t.Fatal(err)
	}
	back, err := ReadOBJ(&buf, "back.obj", nil)
	if err != nil {
		t.Fatalf("round trip: %v", err)
	}
	if d := sameMesh(m, back); d != "" {
		t.Fatalf("round trip: %s", d)
	}
}

func addSeeds(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
}

func FuzzReadOBJ(f *testing.F) {
	var buf bytes.Buffer
	WriteOBJ(&buf, shapes.Car())
	addSeeds(f, tetOBJ, buf.String(), "v 1 2 3\nf 1 1 1\n", "f -1 -2 -3\n", "v 0 0 0\\\n 1\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "fuzz.obj", ReadOBJSoup, data)
	})
}

func FuzzReadSTL(f *testing.F) {
	// One triangle in each encoding: small seeds keep the minimisation of
	// new inputs (quadratic in their length) short.
	bin := make([]byte, 84, 134)
	bin[80] = 1
	for _, x := range []float32{0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0} {
		bin = binary.LittleEndian.AppendUint32(bin, math.Float32bits(x))
	}
	bin = append(bin, 0, 0)
	addSeeds(f, string(bin), "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n",
		"solid\nendsolid\n", "")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "fuzz.stl", ReadSTLSoup, data)
	})
}

func FuzzReadOFF(f *testing.F) {
	var buf bytes.Buffer
	WriteOFF(&buf, shapes.Car())
	addSeeds(f, tetOFF, buf.String(), "OFF 3 1 0 0 0 0 1 0 0 0 1 0 3 0 1 2\n", "NOFF\n0 0 0\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "fuzz.off", ReadOFFSoup, data)
	})
}

func FuzzReadPLY(f *testing.F) {
	addSeeds(f, tetPLY, tetPLYHead, "ply\nformat ascii 1.0\nend_header\n",
		"ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement tristrips 1\nproperty list int int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n8 0 1 2 3 0 1 -1 2\n")
	for _, enc := range []PLYEncoding{PLYBinaryLE, PLYBinaryBE, PLYASCII} {
		var buf bytes.Buffer
		WritePLY(&buf, shapes.Cube(1), enc)
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "fuzz.ply", ReadPLYSoup, data)
	})
}

// FuzzRead exercises format sniffing (no extension).
func FuzzRead(f *testing.F) {
	addSeeds(f, tetOBJ, tetOFF, tetPLY, "solid x\nendsolid\n")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkRead(t, "fuzz", ReadSoup, data)
	})
}

// FuzzRepair reads OBJ text (with objects and groups), repairs it with a
// tolerance chosen by the first byte, and checks the invariants of the
// result: indices in range, faces of at least three distinct corners,
// positions and parts in step, Split covering every face once; and when
// Orient found every component orientable and the soup makes a mesh, that
// the mesh is consistently oriented, and outward (volume not negative
// beyond rounding) when it is one closed part.
func FuzzRepair(f *testing.F) {
	f.Add(byte(0), []byte(objParts))
	f.Add(byte(3), []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 0.0000001\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 4 6 5\ng x\nf 1 3 6\nf 2 5 3 6\n"))
	f.Add(byte(1), []byte("o a\nv 0 0 0\nv 1 0 0\nv 1 1 0.3\nv 0 1 0\nf 1 2 3 4\nf 4 3 2 1\no b\nf 1 2 3\n"))
	f.Fuzz(func(t *testing.T, mode byte, data []byte) {
		s, err := ReadOBJSoup(bytes.NewReader(data), "fuzz.obj")
		if err != nil {
			return
		}
		opt := &RepairOptions{TriangulateAll: mode&4 != 0}
		switch mode % 4 {
		case 1:
			opt.WeldExact = true
		case 2:
			opt.WeldTol = 0.01
		case 3:
			opt.NoWeld = true
		}
		r := s.Repair(opt)
		if len(s.FacePos) != len(s.Faces) || len(s.VertPos) != len(s.Verts) {
			t.Fatalf("positions out of step: %d faces %d positions, %d vertices %d positions", len(s.Faces), len(s.FacePos), len(s.Verts), len(s.VertPos))
		}
		used := make([]bool, len(s.Verts))
		for fi, l := range s.Faces {
			if len(l) < 3 {
				t.Fatalf("face %d has %d corners", fi, len(l))
			}
			for k, v := range l {
				if v < 0 || v >= len(s.Verts) {
					t.Fatalf("face %d: index %d out of range", fi, v)
				}
				if slices.Contains(l[k+1:], v) {
					t.Fatalf("face %d repeats vertex %d", fi, v)
				}
				used[v] = true
			}
		}
		if slices.Contains(used, false) {
			t.Fatalf("an unused vertex survived")
		}
		for _, ps := range [][]Part{s.Objects, s.Groups} {
			for i, p := range ps {
				if p.Start < 0 || p.Start > len(s.Faces) || (i > 0 && p.Start < ps[i-1].Start) {
					t.Fatalf("part %q starts at %d of %d faces", p.Name, p.Start, len(s.Faces))
				}
			}
		}
		for _, by := range []SplitBy{ByObject, ByGroup} {
			n := 0
			for _, p := range s.Split(by) {
				n += len(p.Soup.Faces)
				for _, l := range p.Soup.Faces {
					for _, v := range l {
						if v < 0 || v >= len(p.Soup.Verts) {
							t.Fatalf("%v %q: index %d out of range", by, p.Name, v)
						}
					}
				}
			}
			if n != len(s.Faces) {
				t.Fatalf("%v parts hold %d faces of %d", by, n, len(s.Faces))
			}
		}
		m, err := s.Mesh(nil)
		if err != nil || r.Orient.NonOrientable > 0 {
			return
		}
		if !m.Oriented() {
			t.Fatalf("not oriented after Orient (report %+v)", r.Orient)
		}
		d := m.Bounds().Diagonal()
		if m.Closed() && m.Manifold() && r.Orient.Components == 1 && !(m.Volume() >= -1e-9*d*d*d) {
			t.Fatalf("closed mesh of one component has volume %g", m.Volume())
		}
	})
}
