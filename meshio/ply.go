package meshio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// PLYEncoding selects the body encoding of a PLY file written by WritePLY.
type PLYEncoding int

const (
	// PLYBinaryLE is binary_little_endian (the default).
	PLYBinaryLE PLYEncoding = iota
	// PLYBinaryBE is binary_big_endian.
	PLYBinaryBE
	// PLYASCII is ascii with exact coordinates.
	PLYASCII
)

type plyType uint8

const (
	plyBad plyType = iota
	plyInt8
	plyUint8
	plyInt16
	plyUint16
	plyInt32
	plyUint32
	plyFloat32
	plyFloat64
)

var plyTypes = map[string]plyType{
	"char": plyInt8, "int8": plyInt8, "uchar": plyUint8, "uint8": plyUint8,
	"short": plyInt16, "int16": plyInt16, "ushort": plyUint16, "uint16": plyUint16,
	"int": plyInt32, "int32": plyInt32, "uint": plyUint32, "uint32": plyUint32,
	"float": plyFloat32, "float32": plyFloat32, "double": plyFloat64, "float64": plyFloat64,
}

func (t plyType) size() int {
	switch t {
	case plyInt8, plyUint8:
		return 1
	case plyInt16, plyUint16:
		return 2
	case plyInt32, plyUint32, plyFloat32:
		return 4
	case plyFloat64:
		return 8
	}
	return 0
}

// maxUnsigned returns the largest value of an unsigned type (which some
// writers use for the strip separator -1), or -1.
func (t plyType) maxUnsigned() float64 {
	switch t {
	case plyUint8:
		return math.MaxUint8
	case plyUint16:
		return math.MaxUint16
	case plyUint32:
		return math.MaxUint32
	}
	return -1
}

func (t plyType) isFloat() bool { return t == plyFloat32 || t == plyFloat64 }

// decode converts the binary value b (t.size() bytes) to float64; every
// PLY type converts exactly.
func (t plyType) decode(b []byte, bo binary.ByteOrder) float64 {
	switch t {
	case plyInt8:
		return float64(int8(b[0]))
	case plyUint8:
		return float64(b[0])
	case plyInt16:
		return float64(int16(bo.Uint16(b)))
	case plyUint16:
		return float64(bo.Uint16(b))
	case plyInt32:
		return float64(int32(bo.Uint32(b)))
	case plyUint32:
		return float64(bo.Uint32(b))
	case plyFloat32:
		return float64(math.Float32frombits(bo.Uint32(b)))
	case plyFloat64:
		return math.Float64frombits(bo.Uint64(b))
	}
	return 0
}

type plyProp struct {
	name     string
	typ      plyType // scalar type, or item type of a list
	countTyp plyType // count type of a list, plyBad for a scalar
}

type plyElem struct {
	name  string
	count int64
	props []plyProp
	role  int    // 0 other, 1 vertex, 2 face
	use   [3]int // vertex: property index of x, y, z; face: [0] = index list
}

const (
	plyOther = iota
	plyVertex
	plyFace
	plyStrips
)

// maxPLYHeader bounds the header size in bytes.
const maxPLYHeader = 1 << 20

// ReadPLYSoup reads a PLY file (ascii, binary_little_endian or
// binary_big_endian) as a polygon soup; name is used in error messages.
//
// The "vertex" element must have x, y and z properties of any numeric type;
// the "face" element's "vertex_indices" (or "vertex_index") list may have
// any integer count and index types. Triangle strips (a "tristrips"
// element with a "vertex_indices" list, -1 between strips, as the Stanford
// scans use) become triangles, one face each, all at the position of their
// strip. Other properties and elements are skipped. Errors name the header line, or the element and its line
// (ascii) or byte offset (binary).
func ReadPLYSoup(r io.Reader, name string) (*Soup, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	// Header.
	var (
		off    int64
		line   int
		format string
		elems  []*plyElem
	)
	for {
		b, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			return nil, lineErr(name, line+1, "PLY header line too long")
		}
		if err != nil && (err != io.EOF || len(b) == 0) {
			if err == io.EOF {
				return nil, lineErr(name, line+1, "unexpected end of file in PLY header (no end_header)")
			}
			return nil, &Error{File: name, Line: line + 1, Offset: -1, Msg: err.Error(), Err: err}
		}
		line++
		off += int64(len(b))
		if off > maxPLYHeader {
			return nil, lineErr(name, line, "PLY header longer than %d bytes", maxPLYHeader)
		}
		kw, rest := field(b)
		if line == 1 {
			if string(kw) != "ply" {
				return nil, lineErr(name, 1, "not a PLY file: first line %q, want \"ply\"", clip(bytes.TrimSpace(b)))
			}
			continue
		}
		switch string(kw) {
		case "format":
			f, rest := field(rest)
			format = string(f)
			if format != "ascii" && format != "binary_little_endian" && format != "binary_big_endian" {
				return nil, lineErr(name, line, "unknown PLY format %q", clip(f))
			}
			if v, _ := field(rest); len(v) > 0 && string(v) != "1.0" {
				return nil, lineErr(name, line, "unsupported PLY version %q", clip(v))
			}
		case "comment", "obj_info", "":
		case "element":
			en, rest := field(rest)
			cf, _ := field(rest)
			n, ok := parseInt(cf)
			if len(en) == 0 || !ok || n < 0 {
				return nil, lineErr(name, line, "bad element line, want \"element NAME COUNT\"")
			}
			e := &plyElem{name: string(en), count: n, use: [3]int{-1, -1, -1}}
			for _, o := range elems {
				if o.name == e.name {
					return nil, lineErr(name, line, "element %q declared twice", e.name)
				}
			}
			switch e.name {
			case "vertex":
				e.role = plyVertex
			case "face":
				e.role = plyFace
			case "tristrips":
				e.role = plyStrips
			}
			if e.role != plyOther && n > maxElems {
				return nil, lineErr(name, line, "%s count %d too large", e.name, n)
			}
			elems = append(elems, e)
		case "property":
			if len(elems) == 0 {
				return nil, lineErr(name, line, "property before any element")
			}
			e := elems[len(elems)-1]
			var p plyProp
			t, rest := field(rest)
			if string(t) == "list" {
				var ct, it, pn []byte
				ct, rest = field(rest)
				it, rest = field(rest)
				pn, _ = field(rest)
				p = plyProp{name: string(pn), typ: plyTypes[string(it)], countTyp: plyTypes[string(ct)]}
				if p.countTyp == plyBad || p.typ == plyBad || len(pn) == 0 {
					return nil, lineErr(name, line, "bad list property, want \"property list COUNTTYPE ITEMTYPE NAME\"")
				}
				if p.countTyp.isFloat() {
					return nil, lineErr(name, line, "list count type %q is not an integer type", ct)
				}
			} else {
				pn, _ := field(rest)
				p = plyProp{name: string(pn), typ: plyTypes[string(t)]}
				if p.typ == plyBad || len(pn) == 0 {
					return nil, lineErr(name, line, "bad property %q, want \"property TYPE NAME\" with a PLY type", clip(bytes.TrimSpace(b)))
				}
			}
			k := len(e.props)
			e.props = append(e.props, p)
			switch {
			case e.role == plyVertex && p.countTyp == plyBad && (p.name == "x" || p.name == "y" || p.name == "z"):
				e.use[p.name[0]-'x'] = k
			case (e.role == plyFace || e.role == plyStrips) && (p.name == "vertex_indices" || p.name == "vertex_index") && e.use[0] < 0:
				if p.countTyp == plyBad {
					return nil, lineErr(name, line, "face property %s is not a list", p.name)
				}
				if p.typ.isFloat() {
					return nil, lineErr(name, line, "face property %s has non-integer item type", p.name)
				}
				e.use[0] = k
			}
		case "end_header":
			goto body
		default:
			return nil, lineErr(name, line, "unknown PLY header keyword %q", clip(kw))
		}
	}
body:
	if format == "" {
		return nil, lineErr(name, line, "PLY header has no format line")
	}
	var nv int64
	for _, e := range elems {
		switch e.role {
		case plyVertex:
			for k, u := range e.use {
				if u < 0 {
					return nil, lineErr(name, line, "PLY vertex element has no property %c", 'x'+k)
				}
			}
			nv = e.count
		case plyFace, plyStrips:
			if e.use[0] < 0 {
				return nil, lineErr(name, line, "PLY %s element has no vertex_indices list", e.name)
			}
		}
	}
	s := &Soup{Name: name, Binary: format != "ascii"}
	pr := &plyReader{name: name, s: s, nv: nv}
	if s.Binary {
		pr.bin = br
		pr.off = off
		pr.bo = binary.LittleEndian
		if format == "binary_big_endian" {
			pr.bo = binary.BigEndian
		}
	} else {
		pr.ls = newLines(br, name)
		pr.ls.n = line
	}
	for _, e := range elems {
		if err := pr.readElem(e); err != nil {
			return nil, err
		}
	}
	if pr.ls != nil {
		if err := pr.ls.err(); err != nil {
			return nil, err
		}
	}
	s.Faces = pr.fb.faces()
	s.FacePos = pr.fb.pos
	if len(s.Faces) == 0 {
		var names []string
		hasFaces := false
		for _, e := range elems {
			names = append(names, e.name)
			hasFaces = hasFaces || e.role == plyFace || e.role == plyStrips
		}
		switch {
		case !hasFaces:
			s.why = fmt.Sprintf(": the file has no face or tristrips element (elements: %s); a point cloud is not a surface", strings.Join(names, ", "))
		case pr.stripTris > 0:
			s.why = fmt.Sprintf(": its triangle strips hold only %d degenerate triangles", pr.stripTris)
		default:
			s.why = ": its face and tristrips elements are empty"
		}
	}
	return s, nil
}

// plyReader reads the body of a PLY file.
type plyReader struct {
	name string
	s    *Soup
	nv   int64
	fb   faceBuilder
	// binary
	bin *bufio.Reader
	off int64
	bo  binary.ByteOrder
	// ascii
	ls  *lines
	cur []byte
	// triangle strips
	strip     []int
	stripTris int // triangles in strips, degenerate ones included
}

var errPLYEOF = errors.New("unexpected end of file")

// scalar reads one value of type t.
func (pr *plyReader) scalar(t plyType) (float64, error) {
	if pr.bin != nil {
		n := t.size()
		b, err := pr.bin.Peek(n)
		if len(b) < n {
			if err == io.EOF || err == io.ErrUnexpectedEOF || err == nil {
				return 0, errPLYEOF
			}
			return 0, err
		}
		v := t.decode(b, pr.bo)
		pr.bin.Discard(n)
		pr.off += int64(n)
		return v, nil
	}
	f, ok := pr.token()
	if !ok {
		return 0, errPLYEOF
	}
	if t.isFloat() {
		x, err := strconv.ParseFloat(string(f), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return 0, fmt.Errorf("bad number %q", clip(f))
		}
		return x, nil
	}
	i, ok := parseInt(f)
	if !ok {
		return 0, fmt.Errorf("bad integer %q", clip(f))
	}
	return float64(i), nil
}

// token returns the next whitespace-separated token of an ascii body.
func (pr *plyReader) token() ([]byte, bool) {
	for {
		f, rest := field(pr.cur)
		if len(f) > 0 {
			pr.cur = rest
			return f, true
		}
		b, ok := pr.ls.next()
		if !ok {
			return nil, false
		}
		pr.cur = b
	}
}

// pos returns the current source position (line or byte offset).
func (pr *plyReader) pos() int64 {
	if pr.bin != nil {
		return pr.off
	}
	if len(bytes.TrimSpace(pr.cur)) == 0 {
		return int64(pr.ls.n + 1)
	}
	return int64(pr.ls.n)
}

func (pr *plyReader) fail(pos int64, format string, a ...any) error {
	if pr.bin != nil {
		return offErr(pr.name, pos, format, a...)
	}
	return lineErr(pr.name, int(pos), format, a...)
}

func (pr *plyReader) readElem(e *plyElem) error {
	if len(e.props) == 0 {
		return nil // nothing to read, however large the count
	}
	switch e.role {
	case plyVertex:
		pr.s.Verts = make([]geom.Vec3, 0, prealloc(e.count))
		pr.s.VertPos = make([]int64, 0, prealloc(e.count))
	case plyFace:
		pr.fb.start = slices.Grow(pr.fb.start, prealloc(e.count))
		pr.fb.pos = slices.Grow(pr.fb.pos, prealloc(e.count))
	}
	var xyz [3]float64
	for i := int64(0); i < e.count; i++ {
		pos := pr.pos()
		if e.role == plyFace {
			pr.fb.begin(pos)
		}
		for k, p := range e.props {
			fail := func(err error) error {
				if err == errPLYEOF {
					// Point at the line where the element began when it
					// began on a line of the file, else at the end.
					at := pr.pos()
					if pr.ls != nil && pos <= int64(pr.ls.n) {
						at = pos
					}
					return pr.fail(at, "%s %d of %d: property %s: unexpected end of file", e.name, i, e.count, p.name)
				}
				return pr.fail(pos, "%s %d: property %s: %v", e.name, i, p.name, err)
			}
			if p.countTyp == plyBad {
				v, err := pr.scalar(p.typ)
				if err != nil {
					return fail(err)
				}
				if e.role == plyVertex {
					for c, u := range e.use {
						if u == k {
							if math.IsNaN(v) || math.IsInf(v, 0) {
								return pr.fail(pos, "vertex %d: coordinate %s is not finite", i, p.name)
							}
							if math.Abs(v) > geom.MaxCoord {
								return pr.fail(pos, "vertex %d: %s", i, rangeMsg(fmt.Sprintf("%s = %g", p.name, v)))
							}
							xyz[c] = v
						}
					}
				}
				continue
			}
			cnt, err := pr.scalar(p.countTyp)
			if err != nil {
				return fail(err)
			}
			if cnt < 0 {
				return pr.fail(pos, "%s %d: property %s: negative list length %v", e.name, i, p.name, cnt)
			}
			if e.role == plyStrips && e.use[0] == k {
				if err := pr.readStrip(e, i, pos, cnt, p.typ); err != nil {
					return err
				}
				continue
			}
			isIdx := e.role == plyFace && e.use[0] == k
			if isIdx && cnt < 3 {
				return pr.fail(pos, "face %d: has %v vertex indices, need at least 3", i, cnt)
			}
			if isIdx && cnt > float64(pr.nv) {
				// A face repeating no vertex has at most nv of them.
				return pr.fail(pos, "face %d: list of %.0f vertex indices is longer than the %d vertices of the file (a corrupt list count?)", i, cnt, pr.nv)
			}
			for j := 0; float64(j) < cnt; j++ {
				v, err := pr.scalar(p.typ)
				if err != nil {
					return fail(err)
				}
				if isIdx {
					if v < 0 || v >= float64(pr.nv) {
						return pr.fail(pos, "face %d: vertex index %v out of range [0, %d)", i, v, pr.nv)
					}
					pr.fb.add(int(v))
				}
			}
		}
		if e.role == plyVertex {
			pr.s.Verts = append(pr.s.Verts, geom.Vec3{X: xyz[0], Y: xyz[1], Z: xyz[2]})
			pr.s.VertPos = append(pr.s.VertPos, pos)
		}
	}
	return nil
}

// readStrip reads the index list of tristrips element i (cnt items of type
// t, at source position pos) and adds its triangles as faces. Index -1
// (or, for an unsigned type, its largest value) ends a strip and starts
// the next. In a strip a, b, c, d, e ... triangle
// k is (s[k], s[k+1], s[k+2]) for even k and (s[k+1], s[k], s[k+2]) for
// odd k, so that all have the orientation of the first; triangles with a
// repeated vertex (used to join strips) are skipped.
func (pr *plyReader) readStrip(e *plyElem, i, pos int64, cnt float64, t plyType) error {
	pr.strip = pr.strip[:0]
	flush := func() error {
		st := pr.strip
		for k := 0; k+2 < len(st); k++ {
			pr.stripTris++
			a, b, c := st[k], st[k+1], st[k+2]
			if k%2 == 1 {
				a, b = b, a
			}
			if a == b || b == c || a == c {
				continue
			}
			if len(pr.fb.start) >= maxElems {
				return pr.fail(pos, "%s %d: too many triangles", e.name, i)
			}
			pr.fb.begin(pos)
			pr.fb.add(a)
			pr.fb.add(b)
			pr.fb.add(c)
		}
		pr.strip = pr.strip[:0]
		return nil
	}
	for j := 0; float64(j) < cnt; j++ {
		v, err := pr.scalar(t)
		if err == errPLYEOF {
			at := pr.pos()
			if pr.ls != nil && pos <= int64(pr.ls.n) {
				at = pos
			}
			return pr.fail(at, "%s %d of %d: strip of %.0f indices: unexpected end of file after %d", e.name, i, e.count, cnt, j)
		}
		if err != nil {
			return pr.fail(pos, "%s %d: vertex_indices: %v", e.name, i, err)
		}
		if v == -1 || (v >= float64(pr.nv) && v == t.maxUnsigned()) {
			if err := flush(); err != nil {
				return err
			}
			continue
		}
		if v < 0 || v >= float64(pr.nv) {
			return pr.fail(pos, "%s %d: vertex index %v out of range [0, %d) (-1 separates strips)", e.name, i, v, pr.nv)
		}
		pr.strip = append(pr.strip, int(v))
	}
	return flush()
}

// ReadPLY reads a PLY file (see ReadPLYSoup) and builds a mesh with the
// given options.
func ReadPLY(r io.Reader, name string, opt *mesh.Options) (*mesh.Mesh, error) {
	return buildMesh(ReadPLYSoup, r, name, opt)
}

// WritePLY writes m as a PLY file with double x, y, z vertex properties and
// an int vertex_indices list (uchar counts when every face has at most 255
// vertices), in the given encoding.
func WritePLY(w io.Writer, m *mesh.Mesh, enc PLYEncoding) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	format := "binary_little_endian"
	var bo binary.AppendByteOrder = binary.LittleEndian
	switch enc {
	case PLYBinaryBE:
		format = "binary_big_endian"
		bo = binary.BigEndian
	case PLYASCII:
		format = "ascii"
	}
	maxLen := 0
	for f := 0; f < m.NumFaces(); f++ {
		maxLen = max(maxLen, len(m.Face(f)))
	}
	ct := "uchar"
	if maxLen > 255 {
		ct = "int"
	}
	fmt.Fprintf(bw, "ply\nformat %s 1.0\ncomment written by collide\nelement vertex %d\nproperty double x\nproperty double y\nproperty double z\nelement face %d\nproperty list %s int vertex_indices\nend_header\n",
		format, m.NumVerts(), m.NumFaces(), ct)
	buf := make([]byte, 0, 128)
	for _, v := range m.Verts {
		buf = buf[:0]
		for k, c := range [3]float64{v.X, v.Y, v.Z} {
			if enc == PLYASCII {
				if k > 0 {
					buf = append(buf, ' ')
				}
				buf = strconv.AppendFloat(buf, c, 'g', -1, 64)
			} else {
				buf = bo.AppendUint64(buf, math.Float64bits(c))
			}
		}
		if enc == PLYASCII {
			buf = append(buf, '\n')
		}
		bw.Write(buf)
	}
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		buf = buf[:0]
		if enc == PLYASCII {
			buf = strconv.AppendInt(buf, int64(len(l)), 10)
			for _, v := range l {
				buf = append(buf, ' ')
				buf = strconv.AppendInt(buf, int64(v), 10)
			}
			buf = append(buf, '\n')
		} else {
			if ct == "uchar" {
				buf = append(buf, byte(len(l)))
			} else {
				buf = bo.AppendUint32(buf, uint32(len(l)))
			}
			for _, v := range l {
				buf = bo.AppendUint32(buf, uint32(v))
			}
		}
		bw.Write(buf)
	}
	return bw.Flush()
}
