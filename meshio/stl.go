package meshio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// ReadSTLSoup reads an STL file, ASCII or binary, as a polygon soup of
// triangles; name is used in error messages. Vertices with bit-identical
// coordinates are merged so that the soup has shared vertices and a mesh
// built from it has adjacency. Facet normals in the file are ignored (the
// mesh computes its own from the vertex order).
//
// The encoding is detected as usual: a file whose size is exactly
// 84 + 50 x (triangle count in its header) is binary, otherwise a file
// starting with "solid" is ASCII, otherwise binary.
func ReadSTLSoup(r io.Reader, name string) (*Soup, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, &Error{File: name, Offset: -1, Msg: err.Error(), Err: err}
	}
	if isASCIISTL(data) {
		return readSTLASCII(data, name)
	}
	if what := nonMesh(data); what != "" {
		return nil, offErr(name, 0, "not an STL file: the content is %s", what)
	}
	return readSTLBinary(data, name)
}

// ReadSTL reads an STL file (see ReadSTLSoup) and builds a mesh with the
// given options.
func ReadSTL(r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	return buildMesh(ReadSTLSoup, r, name, opt)
}

func isASCIISTL(data []byte) bool {
	if len(data) >= 84 {
		n := binary.LittleEndian.Uint32(data[80:84])
		if 84+50*uint64(n) == uint64(len(data)) {
			return false
		}
	}
	t := bytes.TrimLeft(data, " \t\r\n")
	return len(t) >= 5 && string(t[:5]) == "solid"
}

// vertMerger merges bit-identical vertices.
type vertMerger struct {
	s   *Soup
	idx map[geom.Vec3]int32
}

func (m *vertMerger) add(p geom.Vec3, pos int64) int {
	if p.X == 0 { // +0 and -0 are the same vertex; keep one key
		p.X = 0
	}
	if p.Y == 0 {
		p.Y = 0
	}
	if p.Z == 0 {
		p.Z = 0
	}
	if i, ok := m.idx[p]; ok {
		return int(i)
	}
	i := len(m.s.Verts)
	m.idx[p] = int32(i)
	m.s.Verts = append(m.s.Verts, p)
	m.s.VertPos = append(m.s.VertPos, pos)
	return i
}

func readSTLBinary(data []byte, name string) (*Soup, error) {
	if len(data) < 84 {
		return nil, offErr(name, int64(len(data)), "binary STL truncated: %d bytes, the header alone needs 84", len(data))
	}
	n := uint64(binary.LittleEndian.Uint32(data[80:84]))
	need := 84 + 50*n
	if need > uint64(len(data)) {
		have := (uint64(len(data)) - 84) / 50
		return nil, offErr(name, int64(84+50*have), "binary STL truncated, or not an STL file: the header says %d triangles (%d bytes), the file has %d bytes (room for %d triangles)", n, need, len(data), have)
	}
	if n > maxElems/3 {
		return nil, offErr(name, 80, "binary STL has %d triangles, too many", n)
	}
	s := &Soup{Name: name, Binary: true}
	// Merge on the float32 bit patterns (with -0 as +0): a smaller key
	// than geom.Vec3 and the same equality.
	idx := make(map[[3]uint32]int32, n)
	var fb faceBuilder
	fb.idx = make([]int, 0, 3*n)
	fb.start = make([]int, 0, n)
	fb.pos = make([]int64, 0, n)
	for t := uint64(0); t < n; t++ {
		off := 84 + 50*t
		rec := data[off : off+50]
		fb.begin(int64(off))
		for k := 0; k < 3; k++ {
			var key [3]uint32
			for j := range key {
				b := binary.LittleEndian.Uint32(rec[12+12*k+4*j:])
				if b&0x7f800000 == 0x7f800000 { // exponent all ones: Inf or NaN
					return nil, offErr(name, int64(off)+12+12*int64(k)+4*int64(j), "triangle %d: vertex %d: coordinate %v is not finite", t, k, math.Float32frombits(b))
				}
				if math.Abs(float64(math.Float32frombits(b))) > geom.MaxCoord {
					return nil, offErr(name, int64(off)+12+12*int64(k)+4*int64(j), "triangle %d: vertex %d: %s", t, k, rangeMsg(fmt.Sprint(math.Float32frombits(b))))
				}
				if b == 0x80000000 { // -0 is the same point as +0
					b = 0
				}
				key[j] = b
			}
			i, ok := idx[key]
			if !ok {
				i = int32(len(s.Verts))
				idx[key] = i
				s.Verts = append(s.Verts, geom.Vec3{X: float64(math.Float32frombits(key[0])), Y: float64(math.Float32frombits(key[1])), Z: float64(math.Float32frombits(key[2]))})
				s.VertPos = append(s.VertPos, int64(off))
			}
			fb.add(int(i))
		}
	}
	s.Faces = fb.faces()
	s.FacePos = fb.pos
	if n == 0 {
		s.why = ": the header declares 0 triangles"
	}
	return s, nil
}

func readSTLASCII(data []byte, name string) (*Soup, error) {
	s := &Soup{Name: name}
	vm := vertMerger{s: s, idx: make(map[geom.Vec3]int32)}
	var fb faceBuilder
	ls := newLines(bytes.NewReader(data), name)
	state := 0 // 0 outside solid, 1 in solid, 2 in facet, 3 in loop
	var facetLine int
	for {
		b, ok := ls.next()
		if !ok {
			break
		}
		kw, rest := field(b)
		if len(kw) == 0 {
			continue
		}
		bad := func(want string) error {
			return lineErr(name, ls.n, "unexpected %q, want %s", clip(kw), want)
		}
		switch string(kw) {
		case "solid":
			if state != 0 {
				return nil, bad(`"facet" or "endsolid"`)
			}
			state = 1
		case "endsolid":
			if state != 1 {
				return nil, bad(`"endloop" or "endfacet"`)
			}
			state = 0
		case "facet":
			if state != 1 {
				return nil, bad(`"vertex", "endloop" or "endfacet"`)
			}
			if len(fb.start) >= maxElems/3 {
				return nil, lineErr(name, ls.n, "too many facets")
			}
			state = 2
			facetLine = ls.n
			fb.begin(int64(ls.n))
		case "outer":
			if state != 2 {
				return nil, bad(`"facet" or "endsolid"`)
			}
			if f, _ := field(rest); string(f) != "loop" {
				return nil, lineErr(name, ls.n, `want "outer loop"`)
			}
			state = 3
		case "vertex":
			if state != 3 {
				return nil, bad(`"outer loop"`)
			}
			if fb.cur() == 3 {
				return nil, lineErr(name, ls.n, "facet %d has more than 3 vertices", len(fb.start)-1)
			}
			p, _, msg := parse3(rest)
			if msg != "" {
				return nil, lineErr(name, ls.n, "facet %d: vertex: %s", len(fb.start)-1, msg)
			}
			fb.add(vm.add(p, int64(ls.n)))
		case "endloop":
			if state != 3 {
				return nil, bad(`"outer loop"`)
			}
			if n := fb.cur(); n != 3 {
				return nil, lineErr(name, ls.n, "facet %d has %d vertices, want 3", len(fb.start)-1, n)
			}
			state = 2
		case "endfacet":
			if state != 2 || fb.cur() != 3 {
				return nil, bad(`"outer loop" ... "endloop"`)
			}
			state = 1
		default:
			return nil, lineErr(name, ls.n, "unknown STL keyword %q", clip(kw))
		}
	}
	if err := ls.err(); err != nil {
		return nil, err
	}
	if state > 1 {
		return nil, lineErr(name, facetLine, "facet %d not finished at end of file", len(fb.start)-1)
	}
	s.Faces = fb.faces()
	s.FacePos = fb.pos
	if len(s.Faces) == 0 {
		s.why = ": the file has no facets"
	}
	return s, nil
}

// WriteSTL writes m as a binary STL file: the triangles of m.Triangles
// with their face normals, coordinates rounded to float32.
func WriteSTL(w io.Writer, m *mesh.Mesh) error {
	tris := m.Triangles(nil)
	if uint64(len(tris)) > math.MaxUint32 {
		return fmt.Errorf("meshio: %d triangles do not fit a binary STL", len(tris))
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var hdr [84]byte
	copy(hdr[:], "binary STL written by collide")
	binary.LittleEndian.PutUint32(hdr[80:], uint32(len(tris)))
	bw.Write(hdr[:])
	var rec [50]byte
	for _, t := range tris {
		n := m.Planes[t.Face].N
		a, b, c := m.TriangleVerts(t)
		for k, v := range [4]geom.Vec3{n, a, b, c} {
			binary.LittleEndian.PutUint32(rec[12*k:], math.Float32bits(float32(v.X)))
			binary.LittleEndian.PutUint32(rec[12*k+4:], math.Float32bits(float32(v.Y)))
			binary.LittleEndian.PutUint32(rec[12*k+8:], math.Float32bits(float32(v.Z)))
		}
		bw.Write(rec[:])
	}
	return bw.Flush()
}

// WriteSTLASCII writes m as an ASCII STL file (the triangles of
// m.Triangles, coordinates exact).
func WriteSTLASCII(w io.Writer, m *mesh.Mesh) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString("solid collide\n")
	buf := make([]byte, 0, 128)
	vec := func(prefix string, v geom.Vec3) {
		buf = append(buf[:0], prefix...)
		for _, c := range [3]float64{v.X, v.Y, v.Z} {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, c, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	for _, t := range m.Triangles(nil) {
		vec("facet normal", m.Planes[t.Face].N)
		bw.WriteString("  outer loop\n")
		a, b, c := m.TriangleVerts(t)
		vec("    vertex", a)
		vec("    vertex", b)
		vec("    vertex", c)
		bw.WriteString("  endloop\nendfacet\n")
	}
	bw.WriteString("endsolid collide\n")
	return bw.Flush()
}
