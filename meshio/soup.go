package meshio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Error is a problem in a mesh file. It names the file and, for text
// formats, the 1-based line, or for binary formats the byte offset of the
// offending element.
type Error struct {
	File   string // file name as given to the reader ("" if none)
	Line   int    // 1-based line number in a text format, or 0
	Offset int64  // byte offset in a binary format, or -1
	Msg    string // what is wrong
	Err    error  // underlying error (such as a *mesh.Error), or nil
}

// Error formats the error with its file and line.
func (e *Error) Error() string {
	var prefix string
	switch {
	case e.Line > 0 && e.File != "":
		prefix = fmt.Sprintf("%s:%d: ", e.File, e.Line)
	case e.Line > 0:
		prefix = fmt.Sprintf("line %d: ", e.Line)
	case e.Offset >= 0 && e.File != "":
		prefix = fmt.Sprintf("%s: byte %d: ", e.File, e.Offset)
	case e.Offset >= 0:
		prefix = fmt.Sprintf("byte %d: ", e.Offset)
	case e.File != "":
		prefix = e.File + ": "
	}
	return prefix + e.Msg
}

// Unwrap returns the underlying error, so errors.As finds a *mesh.Error.
func (e *Error) Unwrap() error { return e.Err }

func lineErr(file string, line int, format string, a ...any) *Error {
	return &Error{File: file, Line: line, Offset: -1, Msg: fmt.Sprintf(format, a...)}
}

func offErr(file string, off int64, format string, a ...any) *Error {
	return &Error{File: file, Offset: off, Msg: fmt.Sprintf(format, a...)}
}

func fileErr(file string, format string, a ...any) *Error {
	return &Error{File: file, Offset: -1, Msg: fmt.Sprintf(format, a...)}
}

// Soup is a polygon soup as read from a file: vertex positions and faces
// (loops of 0-based vertex indices in file order), with no adjacency.
// Every index is in range and every face has at least three indices;
// nothing else is checked (faces may repeat vertices, be degenerate or be
// inconsistently oriented).
type Soup struct {
	// Name is the file name used in error messages.
	Name string
	// Verts are the vertex positions; all coordinates are finite.
	Verts []geom.Vec3
	// Faces are the polygon loops. They share one backing array.
	Faces [][]int
	// VertPos[i] and FacePos[i] locate vertex i and face i in the source:
	// a 1-based line number when Binary is false, else a byte offset.
	VertPos, FacePos []int64
	// Binary reports that positions are byte offsets.
	Binary bool
	// Objects and Groups are the OBJ "o" and "g" statements in file order
	// (empty for other formats); see Split.
	Objects, Groups []Part

	// why says, for a soup without faces, what the file has instead.
	why string
}

// Part is a named run of consecutive faces of a soup: an OBJ object ("o
// NAME") or group ("g NAME") and the faces after it up to the next one.
type Part struct {
	Name string
	// Pos is the source line of the statement.
	Pos int64
	// Start is the index of the part's first face; the part ends where
	// the next part starts (or at the last face).
	Start int
}

// errAt returns an *Error at source position pos.
func (s *Soup) errAt(pos int64, err error) *Error {
	if s.Binary {
		return &Error{File: s.Name, Offset: pos, Msg: err.Error(), Err: err}
	}
	return &Error{File: s.Name, Line: int(pos), Offset: -1, Msg: err.Error(), Err: err}
}

// Mesh builds a mesh from the soup with mesh.New. A *mesh.Error naming a
// face or vertex is returned wrapped in an *Error that adds the file and
// the line (or byte offset) where that face or vertex was read; the face
// and vertex numbers in the message are 0-based mesh indices.
func (s *Soup) Mesh(opt *mesh.Options) (*mesh.Mesh, error) {
	if len(s.Faces) == 0 {
		return nil, fileErr(s.Name, "no faces (%d vertices)%s", len(s.Verts), s.why)
	}
	m, err := mesh.New(s.Verts, s.Faces, opt)
	if err == nil {
		return m, nil
	}
	var me *mesh.Error
	if errors.As(err, &me) {
		switch {
		case me.Face != mesh.None && me.Face < len(s.FacePos):
			return nil, s.errAt(s.FacePos[me.Face], err)
		case me.Vertex != mesh.None && me.Vertex < len(s.VertPos):
			return nil, s.errAt(s.VertPos[me.Vertex], err)
		}
	}
	return nil, &Error{File: s.Name, Offset: -1, Msg: err.Error(), Err: err}
}

// faceBuilder collects faces in one flat slice.
type faceBuilder struct {
	idx   []int
	start []int
	pos   []int64
}

func (fb *faceBuilder) begin(pos int64) {
	fb.start = append(fb.start, len(fb.idx))
	fb.pos = append(fb.pos, pos)
}

func (fb *faceBuilder) add(v int) { fb.idx = append(fb.idx, v) }

// cur returns the number of indices of the face being built.
func (fb *faceBuilder) cur() int { return len(fb.idx) - fb.start[len(fb.start)-1] }

func (fb *faceBuilder) faces() [][]int {
	fs := make([][]int, len(fb.start))
	for i, s := range fb.start {
		e := len(fb.idx)
		if i+1 < len(fb.start) {
			e = fb.start[i+1]
		}
		fs[i] = fb.idx[s:e:e]
	}
	return fs
}

// prealloc caps preallocation from untrusted header counts.
func prealloc(n int64) int {
	const maxPre = 1 << 16
	if n < 0 {
		return 0
	}
	if n > maxPre {
		return maxPre
	}
	return int(n)
}

// maxElems bounds vertex and face counts (mesh indices are int32).
const maxElems = math.MaxInt32

// maxLine bounds the length of one line of a text format.
const maxLine = 1 << 26

// lines reads a text file line by line, counting lines.
type lines struct {
	sc   *bufio.Scanner
	file string
	n    int
}

func newLines(r io.Reader, file string) *lines {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	return &lines{sc: sc, file: file}
}

// next returns the next line (without line terminator) or false at the end.
func (l *lines) next() ([]byte, bool) {
	if !l.sc.Scan() {
		return nil, false
	}
	l.n++
	return l.sc.Bytes(), true
}

// err reports a read error (nil at a clean end of input).
func (l *lines) err() error {
	err := l.sc.Err()
	if err == nil {
		return nil
	}
	if errors.Is(err, bufio.ErrTooLong) {
		return lineErr(l.file, l.n+1, "line longer than %d bytes", maxLine)
	}
	return &Error{File: l.file, Line: l.n + 1, Offset: -1, Msg: err.Error(), Err: err}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// field returns the first whitespace-separated field of b and the rest.
func field(b []byte) (f, rest []byte) {
	i := 0
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !isSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// stripComment cuts b at the first '#'.
func stripComment(b []byte) []byte {
	for i, c := range b {
		if c == '#' {
			return b[:i]
		}
	}
	return b
}

// parseInt parses a decimal integer with optional sign.
func parseInt(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	switch b[0] {
	case '-':
		neg = true
		b = b[1:]
	case '+':
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
		if n > 1<<53 {
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// parseCoord parses a finite float, or returns a message saying why not.
func parseCoord(b []byte) (float64, string) {
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Sprintf("bad number %q", clip(b))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Sprintf("coordinate %q is not finite", clip(b))
	}
	if math.Abs(x) > geom.MaxCoord {
		return 0, rangeMsg(clip(b))
	}
	return x, ""
}

// rangeMsg says that coordinate c is beyond geom.MaxCoord.
func rangeMsg(c string) string {
	return fmt.Sprintf("coordinate %s is out of range (beyond ±geom.MaxCoord = %g); scale the model to larger units", c, geom.MaxCoord)
}

// clip shortens b for error messages.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// parse3 parses three coordinates from the start of b.
func parse3(b []byte) (geom.Vec3, []byte, string) {
	var c [3]float64
	for k := range c {
		var f []byte
		f, b = field(b)
		if len(f) == 0 {
			return geom.Vec3{}, nil, fmt.Sprintf("need 3 coordinates, have %d", k)
		}
		var msg string
		if c[k], msg = parseCoord(f); msg != "" {
			return geom.Vec3{}, nil, msg
		}
	}
	return geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, b, ""
}

// DropDegenerate removes, in place, the faces that mesh.New would reject
// as degenerate: faces that repeat a vertex and faces whose area is at most
// AreaTol x (bounding-box diagonal)^2 (opt as for mesh.New; nil means the
// defaults). Real-world STL files often contain such slivers. FacePos stays
// parallel to Faces and the OBJ parts keep their faces. It returns the number of faces removed.
func (s *Soup) DropDegenerate(opt *mesh.Options) int {
	areaTol := mesh.DefaultAreaTol
	if opt != nil && opt.AreaTol > 0 {
		areaTol = opt.AreaTol
	}
	diag := geom.AABBOf(s.Verts...).Diagonal()
	limit := areaTol * diag * diag
	return s.keepFaces(func(l []int) bool { return !degenerate(s.Verts, l, limit) })
}

// keepFaces removes, in place, the faces for which keep (called once per
// face, in order) is false; FacePos stays parallel to Faces and the OBJ
// parts keep their faces. It returns the number of faces removed.
func (s *Soup) keepFaces(keep func(loop []int) bool) int {
	n := 0
	newIndex := make([]int, len(s.Faces)+1)
	for f, l := range s.Faces {
		newIndex[f] = n
		if !keep(l) {
			continue
		}
		s.Faces[n] = l
		if f < len(s.FacePos) {
			s.FacePos[n] = s.FacePos[f]
		}
		n++
	}
	newIndex[len(s.Faces)] = n
	removed := len(s.Faces) - n
	s.Faces = s.Faces[:n]
	if len(s.FacePos) > n {
		s.FacePos = s.FacePos[:n]
	}
	s.renumberParts(newIndex)
	return removed
}

// degenerate reports whether loop l repeats a vertex or has area <= limit
// (Newell's area vector about the loop's centroid, as mesh.New computes it).
func degenerate(vs []geom.Vec3, l []int, limit float64) bool {
	for i, v := range l {
		for _, w := range l[i+1:] {
			if v == w {
				return true
			}
		}
	}
	var c geom.Vec3
	for _, v := range l {
		c = c.Add(vs[v])
	}
	c = c.Scale(1 / float64(len(l)))
	var n geom.Vec3
	for i, v := range l {
		n = n.Add(vs[v].Sub(c).Cross(vs[l[(i+1)%len(l)]].Sub(c)))
	}
	area := n.Norm() / 2
	return !(area > limit) || area == 0
}
