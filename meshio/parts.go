package meshio

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/collide-go/collide/mesh"
)

// SplitBy selects the OBJ statements that Split cuts a soup at.
type SplitBy int

const (
	// ByObject cuts at "o NAME" statements.
	ByObject SplitBy = iota + 1
	// ByGroup cuts at "g NAME" statements.
	ByGroup
)

func (b SplitBy) String() string {
	switch b {
	case ByObject:
		return "object"
	case ByGroup:
		return "group"
	}
	return "SplitBy(" + strconv.Itoa(int(b)) + ")"
}

// ParseSplitBy reads "o", "object", "g" or "group".
func ParseSplitBy(s string) (SplitBy, error) {
	switch s {
	case "o", "object", "objects":
		return ByObject, nil
	case "g", "group", "groups":
		return ByGroup, nil
	}
	return 0, fmt.Errorf("meshio: unknown split %q (want o or g)", s)
}

// SoupPart is one piece of a split soup: its name (the OBJ object or group
// name, "" for faces before the first statement) and its faces as a soup
// of their own, with only the vertices they use.
type SoupPart struct {
	Name string
	// Pos is the source line of the "o" or "g" statement (0 for the
	// faces before the first one).
	Pos  int64
	Soup *Soup
}

// Split cuts the soup into its OBJ objects (ByObject) or groups (ByGroup),
// in file order: each part holds the faces from its statement up to the
// next statement of the same kind. Faces before the first statement form a
// part named "" when there are any; parts without faces are left out. A
// soup with no such statements is one part. Each part's soup has only the
// vertices its faces use, renumbered from 0, with their source positions,
// so errors from its Mesh still name the file and line.
func (s *Soup) Split(by SplitBy) []SoupPart {
	ps := s.Objects
	if by == ByGroup {
		ps = s.Groups
	}
	type cut struct {
		name  string
		pos   int64
		start int
	}
	cuts := []cut{{"", 0, 0}}
	for _, p := range ps {
		cuts = append(cuts, cut{p.Name, p.Pos, p.Start})
	}
	var out []SoupPart
	for i, c := range cuts {
		end := len(s.Faces)
		if i+1 < len(cuts) {
			end = cuts[i+1].start
		}
		start := min(c.start, len(s.Faces))
		if end <= start {
			continue
		}
		out = append(out, SoupPart{Name: c.name, Pos: c.pos, Soup: s.sub(start, end)})
	}
	return out
}

// sub returns the soup of faces [start, end) with only their vertices.
func (s *Soup) sub(start, end int) *Soup {
	t := &Soup{Name: s.Name, Binary: s.Binary}
	remap := make(map[int]int)
	flat := make([]int, 0, 3*(end-start))
	for f := start; f < end; f++ {
		b := len(flat)
		for _, v := range s.Faces[f] {
			w, ok := remap[v]
			if !ok {
				w = len(t.Verts)
				remap[v] = w
				t.Verts = append(t.Verts, s.Verts[v])
				if v < len(s.VertPos) {
					t.VertPos = append(t.VertPos, s.VertPos[v])
				}
			}
			flat = append(flat, w)
		}
		t.Faces = append(t.Faces, flat[b:len(flat):len(flat)])
		if f < len(s.FacePos) {
			t.FacePos = append(t.FacePos, s.FacePos[f])
		}
	}
	return t
}

// PartError is an error about one part of a split file: the part's name
// and kind, wrapping the error of its mesh.
type PartError struct {
	By   SplitBy
	Name string
	Err  error
}

func (e *PartError) Error() string {
	return fmt.Sprintf("%v %q: %v", e.By, e.Name, e.Err)
}

// Unwrap returns the part's error (often a *meshio.Error with file and line).
func (e *PartError) Unwrap() error { return e.Err }

// ErrNotConvex is wrapped by ReadConvexParts for a part that is not a
// closed convex mesh.
var ErrNotConvex = errors.New("not a closed convex mesh")

// ReadParts reads the mesh file at path, splits it into its OBJ objects or
// groups (Soup.Split) and builds one mesh per part with the given options.
// rep, when not nil, is applied to each part first (Soup.Repair). It
// returns the meshes and their names in file order; an error names the
// part and the file and line.
func ReadParts(path string, by SplitBy, rep *RepairOptions, opt *mesh.Options) ([]*mesh.Mesh, []string, error) {
	s, err := ReadSoupFile(path)
	if err != nil {
		return nil, nil, err
	}
	return s.MeshParts(by, rep, opt)
}

// MeshParts is ReadParts on a soup already read.
func (s *Soup) MeshParts(by SplitBy, rep *RepairOptions, opt *mesh.Options) ([]*mesh.Mesh, []string, error) {
	parts := s.Split(by)
	if len(parts) == 0 {
		return nil, nil, fileErr(s.Name, "no faces (%d vertices)%s", len(s.Verts), s.why)
	}
	ms := make([]*mesh.Mesh, 0, len(parts))
	names := make([]string, 0, len(parts))
	for _, p := range parts {
		if rep != nil {
			p.Soup.Repair(rep)
		}
		m, err := p.Soup.Mesh(opt)
		if err != nil {
			return nil, nil, &PartError{By: by, Name: p.Name, Err: err}
		}
		ms = append(ms, m)
		names = append(names, p.Name)
	}
	return ms, names, nil
}

// ReadConvexParts reads a convex decomposition (such as the output of
// V-HACD: several convex pieces as objects or groups of one OBJ file) as a
// compound of closed convex meshes. It is ReadParts (with rep applied to
// each part when not nil) that also requires every part to be closed,
// consistently oriented and convex (mesh.Mesh.Convex), returning a
// *PartError wrapping ErrNotConvex that names the first part that is not
// and says why.
func ReadConvexParts(path string, by SplitBy, rep *RepairOptions, opt *mesh.Options) ([]*mesh.Mesh, []string, error) {
	ms, names, err := ReadParts(path, by, rep, opt)
	if err != nil {
		return nil, nil, err
	}
	for i, m := range ms {
		if err := m.RequireConvex(); err != nil {
			return nil, nil, &PartError{By: by, Name: names[i], Err: fmt.Errorf("%s: %w: %v", path, ErrNotConvex, err)}
		}
	}
	return ms, names, nil
}
