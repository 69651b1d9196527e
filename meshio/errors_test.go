package meshio

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

type readFn func(r *bytes.Reader, name string) (*mesh.Mesh, error)

var readers = map[string]readFn{
	"obj": func(r *bytes.Reader, n string) (*mesh.Mesh, error) { return ReadOBJ(r, n, nil) },
	"stl": func(r *bytes.Reader, n string) (*mesh.Mesh, error) { return ReadSTL(r, n, nil) },
	"off": func(r *bytes.Reader, n string) (*mesh.Mesh, error) { return ReadOFF(r, n, nil) },
	"ply": func(r *bytes.Reader, n string) (*mesh.Mesh, error) { return ReadPLY(r, n, nil) },
	"any": func(r *bytes.Reader, n string) (*mesh.Mesh, error) { return Read(r, n, nil) },
}

const tetOBJ = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n"

const tetOFF = "OFF\n4 4 6\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n"

const tetPLYHead = "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\nproperty float z\nelement face 4\nproperty list uchar int vertex_indices\nend_header\n"

const tetPLY = tetPLYHead + "0 0 0\n1 0 0\n0 1 0\n0 0 1\n3 0 2 1\n3 0 1 3\n3 0 3 2\n3 1 2 3\n"

// TestReadErrors feeds broken files to every reader and checks the message
// names the file and the right line (or byte offset) and says what is wrong.
func TestReadErrors(t *testing.T) {
	cases := []struct {
		reader, name, in string
		want             []string // substrings of the error message
	}{
		// OBJ.
		{"obj", "nan.obj", "v 0 0 0\nv 1 0 0\n# c\nv nan 1 0\nf 1 2 3\n", []string{"nan.obj:4:", "not finite"}},
		{"obj", "inf.obj", "v 0 0 0\nv 1 0 0\nv 0 1e999 0\nf 1 2 3\n", []string{"inf.obj:3:", "not finite"}},
		{"obj", "inf2.obj", "v 0 0 0\nv 1 0 -Inf\nv 0 1 0\nf 1 2 3\n", []string{"inf2.obj:2:", "not finite"}},
		{"obj", "range.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n\nf 1 2 3\nf 1 2 400\n", []string{"range.obj:6:", "face 1", "vertex index 400 out of range"}},
		{"obj", "neg.obj", "v 0 0 0\nv 1 0 0\nf -1 -2 -3\nv 0 1 0\n", []string{"neg.obj:3:", "relative vertex index -3"}},
		{"obj", "zero.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 0 1 2\n", []string{"zero.obj:4:", "index 0"}},
		{"obj", "two.obj", "v 0 0 0\nv 1 0 0\nf 1 2\n", []string{"two.obj:3:", "has 2 vertex indices"}},
		{"obj", "badidx.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 x3\n", []string{"badidx.obj:4:", `bad vertex index "x3"`}},
		{"obj", "short.obj", "v 0 0\n", []string{"short.obj:1:", "need 3 coordinates"}},
		{"obj", "badnum.obj", "v 0 0 1..2\n", []string{"badnum.obj:1:", `bad number "1..2"`}},
		{"obj", "collinear.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\n", []string{"collinear.obj:6:", "face 1", "zero area"}},
		{"obj", "repeat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\nf 1 2 3 2\n", []string{"repeat.obj:5:", "face 1", "repeats vertex 1"}},
		{"obj", "bent.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0.5\nv 0 1 0\nf 1 2 3 4\n", []string{"bent.obj:5:", "face 0", "not planar"}},
		{"obj", "noface.obj", "v 0 0 0\n", []string{"noface.obj: no faces"}},
		{"obj", "cont.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 \\\n 2 9\n", []string{"cont.obj:4:", "vertex index 9"}},
		{"obj", "huge.obj", "v 0 0 0\nf 1 2 99999999999999999999\n", []string{"huge.obj:2:", "bad vertex index"}},
		// STL.
		{"stl", "nan.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 NaN 0\nendloop\nendfacet\nendsolid x\n", []string{"nan.stl:6:", "not finite"}},
		{"stl", "four.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nvertex 0 1 1\n", []string{"four.stl:7:", "more than 3 vertices"}},
		{"stl", "two.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nendloop\n", []string{"two.stl:6:", "has 2 vertices"}},
		{"stl", "open.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n", []string{"open.stl:2:", "not finished"}},
		{"stl", "kw.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertx 0 0 0\n", []string{"kw.stl:4:", `unknown STL keyword "vertx"`}},
		{"stl", "order.stl", "solid x\nvertex 0 0 0\n", []string{"order.stl:2:", "unexpected"}},
		{"stl", "degen.stl", "solid x\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 2 0 0\nendloop\nendfacet\nendsolid\n", []string{"degen.stl:9:", "face 1", "zero area"}},
		{"stl", "tiny.stl", "\x00\x01", []string{"tiny.stl: byte 2:", "truncated"}},
		// OFF.
		{"off", "hdr.off", "OFX\n", []string{"hdr.off:1:", "not an OFF file"}},
		{"off", "4off.off", "4OFF\n1 1 0\n", []string{"4off.off:1:", "unsupported OFF variant"}},
		{"off", "bin.off", "OFF BINARY\n", []string{"bin.off:1:", "binary OFF"}},
		{"off", "count.off", "OFF\n# counts\n4 x 6\n", []string{"count.off:3:", "bad face count"}},
		{"off", "nan.off", "OFF\n3 1 0\n0 0 0\n1 nan 0\n0 1 0\n3 0 1 2\n", []string{"nan.off:4:", "vertex 1", "not finite"}},
		{"off", "range.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 3\n", []string{"range.off:6:", "face 0", "vertex index 3 out of range"}},
		{"off", "missing.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n4 0 1 2\n", []string{"missing.off:6:", "has 3 of its 4"}},
		{"off", "trunc.off", "OFF\n3 2 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n", []string{"trunc.off:7:", "unexpected end of file", "face 1 of 2"}},
		{"off", "big.off", "OFF\n3000000000 1 0\n", []string{"big.off:2:", "too large"}},
		{"off", "small.off", "OFF 3 1 0\n0 0 0\n1 0 0\n0 1 0\n2 0 1\n", []string{"small.off:5:", "has 2 vertices"}},
		{"off", "degen.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n2 0 0\n3 0 1 2\n", []string{"degen.off:6:", "face 0", "zero area"}},
		// PLY ascii.
		{"ply", "magic.ply", "plx\n", []string{"magic.ply:1:", "not a PLY file"}},
		{"ply", "fmt.ply", "ply\nformat binary_middle_endian 1.0\n", []string{"fmt.ply:2:", "unknown PLY format"}},
		{"ply", "nofmt.ply", "ply\nelement vertex 0\nend_header\n", []string{"nofmt.ply:3:", "no format"}},
		{"ply", "noend.ply", "ply\nformat ascii 1.0\n", []string{"noend.ply:3:", "no end_header"}},
		{"ply", "type.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty flot x\n", []string{"type.ply:4:", "bad property"}},
		{"ply", "prop.ply", "ply\nformat ascii 1.0\nproperty float x\n", []string{"prop.ply:3:", "property before any element"}},
		{"ply", "noz.ply", "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\nproperty float y\nend_header\n", []string{"noz.ply:6:", "no property z"}},
		{"ply", "flist.ply", "ply\nformat ascii 1.0\nelement face 1\nproperty list uchar float vertex_indices\n", []string{"flist.ply:4:", "non-integer"}},
		{"ply", "huge.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 1099511627776\nproperty float x\n", []string{"huge.ply:3:", "too large"}},
		{"ply", "nan.ply", strings.Replace(tetPLY, "0 1 0\n", "0 nan 0\n", 1), []string{"nan.ply:12:", "vertex 2", "not finite"}},
		{"ply", "range.ply", strings.Replace(tetPLY, "3 1 2 3\n", "3 1 2 4\n", 1), []string{"range.ply:17:", "face 3", "vertex index 4 out of range"}},
		{"ply", "trunc.ply", strings.TrimSuffix(tetPLY, "3 1 2 3\n"), []string{"trunc.ply:17:", "face 3 of 4", "end of file"}},
		{"ply", "badint.ply", strings.Replace(tetPLY, "3 1 2 3\n", "3 1 2 z\n", 1), []string{"badint.ply:17:", `bad integer "z"`}},
		{"ply", "two.ply", strings.Replace(tetPLY, "3 1 2 3\n", "2 1 2\n", 1), []string{"two.ply:17:", "face 3", "has 2 vertex indices"}},
		{"ply", "degen.ply", strings.Replace(tetPLY, "0 0 1\n", "0.5 0.5 0\n", 1), []string{"degen.ply:17:", "face 3", "zero area"}},
		// Sniffing.
		{"any", "noext", "hello world\n", []string{"noext: unknown mesh format"}},
		{"any", "noext", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 9\n", []string{"noext:6:", "out of range"}},
	}
	for _, c := range cases {
		_, err := readers[c.reader](bytes.NewReader([]byte(c.in)), c.name)
		if err == nil {
			t.Errorf("%s: no error for\n%s", c.name, c.in)
			continue
		}
		var me *Error
		if !errors.As(err, &me) {
			t.Errorf("%s: error %T is not a *meshio.Error: %v", c.name, err, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
}

// TestMeshErrorUnwrap checks that mesh.New's errors stay reachable.
func TestMeshErrorUnwrap(t *testing.T) {
	_, err := ReadOBJ(strings.NewReader("v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"), "z.obj", nil)
	var me *mesh.Error
	if !errors.As(err, &me) || me.Face != 0 {
		t.Fatalf("want a *mesh.Error for face 0, got %#v", err)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.Line != 4 || fe.File != "z.obj" {
		t.Fatalf("want a *meshio.Error at z.obj:4, got %#v", err)
	}
}

// TestBinaryErrors checks byte offsets in binary STL and PLY errors.
func TestBinaryErrors(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSTL(&buf, shapes.Cube(1)); err != nil {
		t.Fatal(err)
	}
	stl := buf.Bytes()
	// NaN in triangle 5, vertex 1, coordinate y.
	bad := bytes.Clone(stl)
	off := 84 + 50*5 + 12 + 12*1 + 4
	binary.LittleEndian.PutUint32(bad[off:], math.Float32bits(float32(math.NaN())))
	_, err := ReadSTL(bytes.NewReader(bad), "c.stl", nil)
	wantErr(t, err, "c.stl: byte 362:", "triangle 5", "not finite")
	// Truncated: cut in the middle of triangle 7.
	_, err = ReadSTL(bytes.NewReader(stl[:84+50*7+20]), "c.stl", nil)
	wantErr(t, err, "c.stl: byte 434:", "truncated", "header says 12 triangles")
	// Degenerate triangle 3: all three corners equal (vertex 0's corner).
	bad = bytes.Clone(stl)
	copy(bad[84+50*3+24:84+50*3+48], bad[84+50*3+12:84+50*3+24])
	copy(bad[84+50*3+36:84+50*3+48], bad[84+50*3+12:84+50*3+24])
	_, err = ReadSTL(bytes.NewReader(bad), "c.stl", nil)
	wantErr(t, err, "c.stl: byte 234:", "face 3")

	for _, enc := range []PLYEncoding{PLYBinaryLE, PLYBinaryBE} {
		buf.Reset()
		if err := WritePLY(&buf, shapes.Cube(1), enc); err != nil {
			t.Fatal(err)
		}
		ply := buf.Bytes()
		hdr := bytes.Index(ply, []byte("end_header\n")) + len("end_header\n")
		var bo binary.ByteOrder = binary.LittleEndian
		if enc == PLYBinaryBE {
			bo = binary.BigEndian
		}
		bad := bytes.Clone(ply)
		bo.PutUint64(bad[hdr+24*6+8:], math.Float64bits(math.Inf(1)))
		_, err := ReadPLY(bytes.NewReader(bad), "c.ply", nil)
		wantErr(t, err, "c.ply: byte "+strconv.Itoa(hdr+24*6)+":", "vertex 6", "not finite")
		// Face 2 (each face: 1 count byte + 4 x 4 index bytes) gets index 8.
		bad = bytes.Clone(ply)
		f2 := hdr + 24*8 + 17*2
		bo.PutUint32(bad[f2+1+4:], 8)
		_, err = ReadPLY(bytes.NewReader(bad), "c.ply", nil)
		wantErr(t, err, "c.ply: byte "+strconv.Itoa(f2)+":", "face 2", "vertex index 8 out of range")
		_, err = ReadPLY(bytes.NewReader(ply[:len(ply)-3]), "c.ply", nil)
		wantErr(t, err, "face 5 of 6", "end of file")
		// A repeated vertex in face 4, reported by mesh.New at the face's offset.
		bad = bytes.Clone(ply)
		f4 := hdr + 24*8 + 17*4
		copy(bad[f4+1+4:f4+1+8], bad[f4+1:f4+1+4])
		_, err = ReadPLY(bytes.NewReader(bad), "c.ply", nil)
		wantErr(t, err, "c.ply: byte "+strconv.Itoa(f4)+":", "face 4", "repeats vertex")
	}
}

func wantErr(t *testing.T, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want %q", want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
}

// TestHostileCounts checks that headers claiming huge element counts fail
// fast without allocating for the claim.
func TestHostileCounts(t *testing.T) {
	stlHuge := make([]byte, 84+50*2)
	binary.LittleEndian.PutUint32(stlHuge[80:], 0xFFFFFFFF)
	cases := []struct {
		reader, name, in, want string
	}{
		{"ply", "a.ply", "ply\nformat binary_little_endian 1.0\nelement vertex 2000000000\nproperty double x\nproperty double y\nproperty double z\nend_header\n\x00\x00", "end of file"},
		{"ply", "b.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 2000000000\nproperty list uint int vertex_indices\nend_header\n0 0 0 1 0 0 0 1 0\n4000000000 0 1 2\n", "longer than the 3 vertices"},
		{"ply", "c.ply", "ply\nformat binary_big_endian 1.0\nelement junk 9007199254740992\nend_header\n", "no faces"},
		{"ply", "d.ply", "ply\nformat binary_big_endian 1.0\nelement junk 9007199254740992\nproperty list uint uint stuff\nend_header\n\xff\xff\xff\xff", "end of file"},
		{"off", "e.off", "OFF\n2000000000 2000000000 0\n0 0 0\n", "end of file"},
		{"off", "f.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n2000000000000 0 1 2\n", "has 3 of its 2000000000000"},
		{"stl", "g.stl", string(stlHuge), "truncated"},
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := readers[c.reader](bytes.NewReader([]byte(c.in)), c.name)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.name) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > 16<<20 {
			t.Errorf("%s: allocated %d bytes for a tiny file", c.name, d)
		}
	}
}

// TestReadFormats reads the same tetrahedron from every format, including
// PLY with unusual types, extra properties and elements, and OBJ with
// every face-entry form.
func TestReadFormats(t *testing.T) {
	inputs := map[string]string{
		"a.obj": tetOBJ,
		"b.obj": "# tet\no tet\nmtllib x.mtl\nv 0 0 0 1\nv 1 0 0 1\nvt 0 0\nvn 0 0 1\nv 0 1 0 0.5 0.5 0.5\nv 0 0 1\ng g1\nusemtl m\ns 1\n" +
			"f 1/1 3/1 2/1\nf 1//1 2//1 4//1 # comment\nfo 1/1/1 4/1/1 3/1/1\nl 1 2\np 3\nf -3 \\\n -2 -1\n",
		"c.off":  tetOFF,
		"d.off":  "# comment\nCOFF 4 4 6\n\n0 0 0 1 1 1 1\n1 0 0 1 1 1 1\n0 1 0 1 1 1 1 # c\n0 0 1 1 1 1 1\n3 0 2 1 255 0 0\n3 0 1 3\n3 0 3 2\n3 1 2 3\n",
		"e.ply":  tetPLY,
		"f.ply":  "ply\r\nformat ascii 1.0\r\ncomment hi\r\nobj_info x\r\nelement vertex 4\r\nproperty uchar red\r\nproperty short x\r\nproperty list uchar float junk\r\nproperty int y\r\nproperty double z\r\nelement face 4\r\nproperty list int uint vertex_index\r\nproperty float q\r\nelement edge 2\r\nproperty int a\r\nend_header\r\n9 0 2 1.5 2.5 0 0\r\n9 1 0 0 0\r\n9 0 1 7 1 0\r\n9 0 0 0 1\r\n3 0 2 1 0.5\r\n3 0 1 3 0\r\n3 0 3 2 0\r\n3 1 2 3 0\r\n1\r\n2\r\n",
		"g.stl":  "solid tet\n facet normal 0 0 -1\n  outer loop\n   vertex 0 0 0\n   vertex 0 1 0\n   vertex 1 0 0\n  endloop\n endfacet\n facet normal 0 -1 0\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 0 0 1\n  endloop\n endfacet\nendsolid tet\nsolid two\n facet normal -1 0 0\n  outer loop\n   vertex -0 0 0\n   vertex 0 0 1\n   vertex 0 1 0\n  endloop\n endfacet\n facet normal 1 1 1\n  outer loop\n   vertex 1 0 0\n   vertex 0 1 0\n   vertex 0 0 1\n  endloop\n endfacet\nendsolid\n",
		"h.mesh": tetOFF,
		"i.mesh": tetOBJ,
		"j.mesh": tetPLY,
	}
	want, err := ReadOBJ(strings.NewReader(tetOBJ), "tet.obj", nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, in := range inputs {
		m, err := Read(strings.NewReader(in), name, nil)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.HasSuffix(name, ".stl") {
			// STL numbers vertices by first appearance.
			if m.NumVerts() != 4 || m.NumFaces() != 4 || m.NumEdges() != 6 || !m.Closed() || !m.Oriented() || m.Volume() != want.Volume() {
				t.Errorf("%s: not the tetrahedron: verts %v faces %v", name, m.Verts, m.FaceVerts)
			}
			continue
		}
		if d := sameMesh(want, m); d != "" {
			t.Errorf("%s: %s: verts %v faces %v", name, d, m.Verts, m.FaceVerts)
		}
	}
	// Binary PLY with odd types: int8 x, uint16 y, float32 z, an int16
	// vertex_indices list with a uint16 count, and a skipped element.
	for _, bo := range []binary.ByteOrder{binary.LittleEndian, binary.BigEndian} {
		enc := "binary_little_endian"
		if bo == binary.BigEndian {
			enc = "binary_big_endian"
		}
		var b bytes.Buffer
		b.WriteString("ply\nformat " + enc + " 1.0\nelement thing 2\nproperty list uchar double w\nelement vertex 4\nproperty char x\nproperty ushort y\nproperty float z\nproperty uint pad\nelement face 4\nproperty list ushort short vertex_indices\nend_header\n")
		b.Write([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0}) // thing 0: list of one double
		b.Write([]byte{0})                         // thing 1: empty list
		for _, v := range [][3]float64{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}} {
			b.WriteByte(byte(int8(v[0])))
			binary.Write(&b, bo, uint16(v[1]))
			binary.Write(&b, bo, float32(v[2]))
			binary.Write(&b, bo, uint32(77))
		}
		for _, f := range [][]int16{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}} {
			binary.Write(&b, bo, uint16(len(f)))
			binary.Write(&b, bo, f)
		}
		m, err := ReadPLY(&b, "k.ply", nil)
		if err != nil {
			t.Fatalf("%s: %v", enc, err)
		}
		if d := sameMesh(want, m); d != "" {
			t.Errorf("%s: %s", enc, d)
		}
	}
}

// TestSTLMergesVertices checks the exact merge of STL corners.
func TestSTLMergesVertices(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteSTL(&buf, shapes.Torus(1, 0.35, 20, 15)); err != nil {
		t.Fatal(err)
	}
	m, err := ReadSTL(&buf, "torus.stl", nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumVerts() != 300 || m.NumFaces() != 600 || m.NumEdges() != 900 || !m.Closed() || !m.Oriented() || m.Euler() != 0 {
		t.Fatalf("torus from STL: %d verts %d faces %d edges closed %v oriented %v euler %d",
			m.NumVerts(), m.NumFaces(), m.NumEdges(), m.Closed(), m.Oriented(), m.Euler())
	}
}

// TestBenchSamples reads the bench sample meshes of the repository.
func TestBenchSamples(t *testing.T) {
	files, _ := filepath.Glob("../testdata/bench-samples/*/meshes/*.obj")
	if len(files) == 0 {
		t.Skip("no bench samples")
	}
	for _, f := range files {
		m, err := ReadFile(f, nil)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !declaredClosed(t, f) {
			continue // a triangle soup (FORMAT.md Sec. 3): loading is enough
		}
		if !m.Closed() || !m.Oriented() || !m.Manifold() {
			t.Errorf("%s: closed %v oriented %v manifold %v", f, m.Closed(), m.Oriented(), m.Manifold())
		}
	}
}

// declaredClosed reports whether the workload.json beside a sample's
// meshes/ directory declares the mesh file closed (true when it does not
// say).
func declaredClosed(t *testing.T, file string) bool {
	data, err := os.ReadFile(filepath.Join(filepath.Dir(filepath.Dir(file)), "workload.json"))
	if err != nil {
		return true
	}
	var w struct {
		Meshes []struct {
			File   string `json:"file"`
			Closed *bool  `json:"closed"`
		} `json:"meshes"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: workload.json: %v", file, err)
	}
	for _, m := range w.Meshes {
		if m.File == "meshes/"+filepath.Base(file) && m.Closed != nil {
			return *m.Closed
		}
	}
	return true
}

// TestWriteFile writes and reads back every format through files.
func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	m := shapes.Car()
	for _, ext := range []string{".obj", ".off", ".ply", ".stl", ".OBJ"} {
		p := filepath.Join(dir, "car"+ext)
		if err := WriteFile(p, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadFile(p, nil)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if got.NumVerts() != 16 || got.Euler() != 2 || !got.Closed() {
			t.Errorf("%s: %d verts euler %d closed %v", p, got.NumVerts(), got.Euler(), got.Closed())
		}
	}
	if err := WriteFile(filepath.Join(dir, "car.xyz"), m); err == nil {
		t.Error("no error for unknown extension")
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.obj"), nil); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
