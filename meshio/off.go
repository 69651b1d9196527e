package meshio

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// ReadOFFSoup reads an Object File Format (OFF) file as a polygon soup;
// name is used in error messages.
//
// The header keyword may carry the ST, C and N prefixes (texture
// coordinates, colours and normals after each vertex, which are ignored);
// the counts "V F E" may follow on the same line or the next one. Each
// vertex line starts with x y z, each face line with the vertex count n
// and n 0-based indices; anything after them (colours) is ignored.
// Comments start with #. 4OFF, nOFF and binary OFF are rejected.
func ReadOFFSoup(r io.Reader, name string) (*Soup, error) {
	ls := newLines(r, name)
	// next returns the next line that is not blank after removing comments.
	next := func() ([]byte, bool) {
		for {
			b, ok := ls.next()
			if !ok {
				return nil, false
			}
			b = stripComment(b)
			if f, _ := field(b); len(f) > 0 {
				return b, true
			}
		}
	}
	eof := func(what string) error {
		if err := ls.err(); err != nil {
			return err
		}
		return lineErr(name, ls.n+1, "unexpected end of file, want %s", what)
	}
	b, ok := next()
	if !ok {
		return nil, eof(`"OFF" header`)
	}
	kw, rest := field(b)
	k := string(kw)
	if !strings.HasSuffix(k, "OFF") {
		return nil, lineErr(name, ls.n, "not an OFF file: header %q, want OFF", clip(kw))
	}
	prefix := strings.TrimSuffix(k, "OFF")
	prefix = strings.TrimPrefix(prefix, "ST")
	prefix = strings.TrimPrefix(prefix, "C")
	prefix = strings.TrimPrefix(prefix, "N")
	if prefix != "" {
		return nil, lineErr(name, ls.n, "unsupported OFF variant %q (only 3-D OFF with optional ST, C, N prefixes)", k)
	}
	if f, _ := field(rest); string(f) == "BINARY" {
		return nil, lineErr(name, ls.n, "binary OFF is not supported")
	}
	if f, _ := field(rest); len(f) == 0 {
		if rest, ok = next(); !ok {
			return nil, eof("vertex, face and edge counts")
		}
	}
	countLine := ls.n
	var cnt [2]int64
	for i := range cnt {
		var f []byte
		f, rest = field(rest)
		n, ok := parseInt(f)
		if !ok || n < 0 {
			return nil, lineErr(name, countLine, "bad %s count %q", [2]string{"vertex", "face"}[i], clip(f))
		}
		if n > maxElems {
			return nil, lineErr(name, countLine, "%s count %d too large", [2]string{"vertex", "face"}[i], n)
		}
		cnt[i] = n
	}
	nv, nf := cnt[0], cnt[1]
	s := &Soup{Name: name}
	s.Verts = make([]geom.Vec3, 0, prealloc(nv))
	s.VertPos = make([]int64, 0, prealloc(nv))
	for i := int64(0); i < nv; i++ {
		b, ok := next()
		if !ok {
			return nil, eof("vertex " + strconv.FormatInt(i, 10) + " of " + strconv.FormatInt(nv, 10))
		}
		p, _, msg := parse3(b)
		if msg != "" {
			return nil, lineErr(name, ls.n, "vertex %d: %s", i, msg)
		}
		s.Verts = append(s.Verts, p)
		s.VertPos = append(s.VertPos, int64(ls.n))
	}
	var fb faceBuilder
	fb.start = make([]int, 0, prealloc(nf))
	fb.pos = make([]int64, 0, prealloc(nf))
	for i := int64(0); i < nf; i++ {
		b, ok := next()
		if !ok {
			return nil, eof("face " + strconv.FormatInt(i, 10) + " of " + strconv.FormatInt(nf, 10))
		}
		f, rest := field(b)
		n, ok := parseInt(f)
		if !ok || n < 0 {
			return nil, lineErr(name, ls.n, "face %d: bad vertex count %q", i, clip(f))
		}
		if n < 3 {
			return nil, lineErr(name, ls.n, "face %d: has %d vertices, need at least 3", i, n)
		}
		fb.begin(int64(ls.n))
		for j := int64(0); j < n; j++ {
			f, rest = field(rest)
			if len(f) == 0 {
				return nil, lineErr(name, ls.n, "face %d: has %d of its %d vertex indices", i, j, n)
			}
			v, ok := parseInt(f)
			if !ok {
				return nil, lineErr(name, ls.n, "face %d: bad vertex index %q", i, clip(f))
			}
			if v < 0 || v >= nv {
				return nil, lineErr(name, ls.n, "face %d: vertex index %d out of range [0, %d)", i, v, nv)
			}
			fb.add(int(v))
		}
	}
	if err := ls.err(); err != nil {
		return nil, err
	}
	s.Faces = fb.faces()
	s.FacePos = fb.pos
	if nf == 0 {
		s.why = ": the header declares 0 faces"
	}
	return s, nil
}

// ReadOFF reads an OFF file (see ReadOFFSoup) and builds a mesh with the
// given options.
func ReadOFF(r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	return buildMesh(ReadOFFSoup, r, name, opt)
}

// WriteOFF writes m as an OFF file with exact coordinates.
func WriteOFF(w io.Writer, m *mesh.Mesh) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 128)
	buf = append(buf, "OFF\n"...)
	buf = strconv.AppendInt(buf, int64(m.NumVerts()), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(m.NumFaces()), 10)
	buf = append(buf, ' ')
	buf = strconv.AppendInt(buf, int64(m.NumEdges()), 10)
	buf = append(buf, '\n')
	bw.Write(buf)
	for _, v := range m.Verts {
		buf = strconv.AppendFloat(buf[:0], v.X, 'g', -1, 64)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v.Y, 'g', -1, 64)
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v.Z, 'g', -1, 64)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		buf = strconv.AppendInt(buf[:0], int64(len(l)), 10)
		for _, v := range l {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(v), 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
