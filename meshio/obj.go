package meshio

import (
	"bufio"
	"bytes"
	"io"
	"strconv"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// ReadOBJSoup reads a Wavefront OBJ file as a polygon soup; name is used in
// error messages.
//
// It reads "v x y z" (a fourth w or colour values are ignored) and
// "f"/"fo" statements whose entries may have the forms v, v/vt, v//vn and
// v/vt/vn; indices are 1-based, negative ones count back from the last
// vertex read. Comments (#) and line continuations (a trailing \) are
// honoured. Objects ("o NAME") and groups ("g NAME") are recorded in
// Soup.Objects and Soup.Groups (see Soup.Split); texture coordinates,
// normals, materials, smoothing groups, lines, points, free-form geometry
// and unknown statements are ignored.
func ReadOBJSoup(r io.Reader, name string) (*Soup, error) {
	s := &Soup{Name: name}
	var fb faceBuilder
	ls := newLines(r, name)
	var joined []byte
	for {
		b, ok := ls.next()
		if !ok {
			break
		}
		line := ls.n
		// Line continuation: a statement may end in a backslash.
		if bytes.HasSuffix(bytes.TrimRight(b, " \t\r"), []byte{'\\'}) {
			joined = joined[:0]
			for {
				t := bytes.TrimRight(b, " \t\r")
				if len(t) == 0 || t[len(t)-1] != '\\' {
					joined = append(joined, b...)
					break
				}
				joined = append(joined, t[:len(t)-1]...)
				joined = append(joined, ' ')
				if b, ok = ls.next(); !ok {
					break
				}
			}
			b = joined
		}
		kw, rest := field(b)
		if len(kw) == 0 || kw[0] == '#' {
			continue
		}
		switch string(kw) {
		case "o", "g":
			p := Part{Name: string(bytes.TrimSpace(stripComment(rest))), Pos: int64(line), Start: len(fb.start)}
			if kw[0] == 'o' {
				s.Objects = append(s.Objects, p)
			} else {
				s.Groups = append(s.Groups, p)
			}
		case "v":
			if len(s.Verts) >= maxElems {
				return nil, lineErr(name, line, "too many vertices")
			}
			p, _, msg := parse3(stripComment(rest))
			if msg != "" {
				return nil, lineErr(name, line, "vertex %d: %s", len(s.Verts)+1, msg)
			}
			s.Verts = append(s.Verts, p)
			s.VertPos = append(s.VertPos, int64(line))
		case "f", "fo":
			if len(fb.start) >= maxElems {
				return nil, lineErr(name, line, "too many faces")
			}
			fb.begin(int64(line))
			fi := len(fb.start) - 1 // 0-based face number, as in mesh errors
			rest = stripComment(rest)
			for {
				var f []byte
				f, rest = field(rest)
				if len(f) == 0 {
					break
				}
				if k := bytes.IndexByte(f, '/'); k >= 0 {
					f = f[:k]
				}
				i, ok := parseInt(f)
				switch {
				case !ok:
					return nil, lineErr(name, line, "face %d: bad vertex index %q", fi, clip(f))
				case i == 0:
					return nil, lineErr(name, line, "face %d: vertex index 0 (OBJ indices start at 1)", fi)
				case i < 0:
					// Relative to the vertices read so far.
					if -i > int64(len(s.Verts)) {
						return nil, lineErr(name, line, "face %d: relative vertex index %d out of range (%d vertices read so far)", fi, i, len(s.Verts))
					}
					fb.add(len(s.Verts) + int(i))
				default:
					if i > maxElems {
						return nil, lineErr(name, line, "face %d: vertex index %d out of range", fi, i)
					}
					fb.add(int(i - 1)) // range checked once all vertices are known
				}
			}
			if n := fb.cur(); n < 3 {
				return nil, lineErr(name, line, "face %d: has %d vertex indices, need at least 3", fi, n)
			}
		}
	}
	if err := ls.err(); err != nil {
		return nil, err
	}
	s.Faces = fb.faces()
	s.FacePos = fb.pos
	if len(s.Faces) == 0 {
		s.why = ": the file has no f statements (points and lines are not surfaces)"
	}
	// Positive indices may refer to vertices defined later in the file.
	for f, l := range s.Faces {
		for _, v := range l {
			if v >= len(s.Verts) {
				return nil, lineErr(name, int(s.FacePos[f]), "face %d: vertex index %d out of range (file has %d vertices)", f, v+1, len(s.Verts))
			}
		}
	}
	return s, nil
}

// ReadOBJ reads a Wavefront OBJ file (see ReadOBJSoup) and builds a mesh
// with the given options.
func ReadOBJ(r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	return buildMesh(ReadOBJSoup, r, name, opt)
}

// WriteOBJ writes m as a Wavefront OBJ file: one "v" line per vertex with
// coordinates that read back exactly, one "f" line per face (1-based).
func WriteOBJ(w io.Writer, m *mesh.Mesh) error {
	return writeOBJ(w, m.Verts, m.NumFaces(), m.Face)
}

// WriteOBJSoup writes a polygon soup as a Wavefront OBJ file, with its
// objects and groups ("o" and "g" statements) before their first faces.
func WriteOBJSoup(w io.Writer, s *Soup) error {
	var l []int32
	return writeOBJ(w, s.Verts, len(s.Faces), func(f int) []int32 {
		l = l[:0]
		for _, v := range s.Faces[f] {
			l = append(l, int32(v))
		}
		return l
	}, s.Objects, s.Groups)
}

func writeOBJ(w io.Writer, verts []geom.Vec3, nf int, face func(int) []int32, parts ...[]Part) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	buf := make([]byte, 0, 128)
	buf = append(buf, "# collide mesh: "...)
	buf = strconv.AppendInt(buf, int64(len(verts)), 10)
	buf = append(buf, " vertices, "...)
	buf = strconv.AppendInt(buf, int64(nf), 10)
	buf = append(buf, " faces\n"...)
	bw.Write(buf)
	for _, v := range verts {
		buf = append(buf[:0], 'v')
		for _, c := range [3]float64{v.X, v.Y, v.Z} {
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, c, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	next := make([]int, len(parts))
	for f := 0; f < nf; f++ {
		for k, ps := range parts {
			for next[k] < len(ps) && ps[next[k]].Start <= f {
				buf = append(buf[:0], "og"[k], ' ')
				for _, c := range []byte(ps[next[k]].Name) {
					if c == '\n' || c == '\r' {
						c = ' '
					}
					buf = append(buf, c)
				}
				buf = append(buf, '\n')
				bw.Write(buf)
				next[k]++
			}
		}
		buf = append(buf[:0], 'f')
		for _, v := range face(f) {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(v)+1, 10)
		}
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	return bw.Flush()
}
