package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
)

// repairFlags are the repair and split options shared by "mesh repair" and
// "mesh info" (--repair, --split).
type repairFlags struct {
	weld, weldAbs *float64
	triAll, noOri *bool
	split         *string
}

// addRepairFlags adds the repair flags and --split, whose help is
// splitUsage, to fs.
func addRepairFlags(fs *flag.FlagSet, splitUsage string) repairFlags {
	return repairFlags{
		weld:    fs.Float64("weld", meshio.DefaultWeldTol, "weld vertices closer than TOL x bounding-box diagonal (0: only identical coordinates; negative: no welding)"),
		weldAbs: fs.Float64("weld-abs", 0, "weld vertices closer than this absolute distance (overrides --weld)"),
		triAll:  fs.Bool("triangulate-all", false, "split every polygon into triangles, not only the non-planar ones"),
		noOri:   fs.Bool("no-orient", false, "keep the faces' orientation as read"),
		split:   fs.String("split", "", splitUsage),
	}
}

// options returns the repair options and the --split choice (zero: the
// whole file).
func (r repairFlags) options() (*meshio.RepairOptions, meshio.SplitBy, error) {
	o := &meshio.RepairOptions{TriangulateAll: *r.triAll, NoOrient: *r.noOri}
	switch w := *r.weld; {
	case math.IsNaN(w) || math.IsInf(w, 0):
		return nil, 0, usagef("--weld must be finite (have %v)", w)
	case w < 0:
		o.NoWeld = true
	case w == 0:
		o.WeldExact = true
	default:
		o.WeldTol = w
	}
	if a := *r.weldAbs; a != 0 {
		if !(a > 0) || math.IsInf(a, 0) {
			return nil, 0, usagef("--weld-abs must be positive and finite (have %v)", a)
		}
		o.WeldAbs, o.WeldExact, o.NoWeld = a, false, false
	}
	if *r.split == "" {
		return o, 0, nil
	}
	by, err := meshio.ParseSplitBy(*r.split)
	if err != nil {
		return nil, 0, usagef("--split: want o or g (have %q)", *r.split)
	}
	return o, by, nil
}

// repairJSON is the --json record of "collide mesh repair".
type repairJSON struct {
	In     string               `json:"in"`
	Out    string               `json:"out"`
	Parts  []repairPartJSON     `json:"parts"`
	Report *meshio.RepairReport `json:"report,omitempty"`
}

type repairPartJSON struct {
	Name     string              `json:"name,omitempty"`
	Vertices int                 `json:"vertices"`
	Faces    int                 `json:"faces"`
	Closed   bool                `json:"closed"`
	Manifold bool                `json:"manifold"`
	Oriented bool                `json:"oriented"`
	Convex   bool                `json:"convex"`
	Volume   float64             `json:"volume"`
	Report   meshio.RepairReport `json:"report"`
}

func meshRepair(e *env, args []string) error {
	fs := newFlags("mesh repair")
	out := fs.String("o", "", "output file (.obj keeps OBJ objects and groups; .off, .ply, .stl)")
	asJSON := fs.Bool("json", false, "print a JSON report")
	rf := addRepairFlags(fs, "repair each OBJ object (o) or group (g) on its own and keep them as objects of an .obj OUT")
	pos, err := parseFlagsHelp(e, fs, args, "usage: collide mesh repair IN -o OUT [--weld TOL] [--weld-abs D] [--split o|g] [--triangulate-all] [--no-orient] [--json]\n"+
		"  read IN (OBJ, STL, OFF, PLY), weld vertices within TOL x bounding-box diagonal (default 1e-7),\n"+
		"  drop faces the weld collapsed, zero-area and duplicate faces and unused vertices, split\n"+
		"  non-planar polygons into triangles, orient faces consistently per connected component\n"+
		"  (closed components outward by signed volume), and write OUT; the report says what changed")
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one input file, have %d", len(pos))
	}
	if *out == "" {
		return usagef("-o OUT is required")
	}
	of := meshio.FormatOf(*out)
	if of == meshio.Unknown {
		return usagef("cannot tell the format of %q: use a .obj, .off, .ply or .stl name", *out)
	}
	opt, by, err := rf.options()
	if err != nil {
		return err
	}
	if by != 0 && of != meshio.OBJ {
		return usagef("--split keeps the parts as OBJ objects: OUT must be an .obj file")
	}
	s, err := meshio.ReadSoupFile(pos[0])
	if err != nil {
		return err
	}
	rec := repairJSON{In: pos[0], Out: *out}
	var result *meshio.Soup
	var whole *mesh.Mesh
	if by != 0 {
		result = &meshio.Soup{Name: *out}
		for _, p := range s.Split(by) {
			r := p.Soup.Repair(opt)
			m, err := p.Soup.Mesh(nil)
			if err != nil {
				return &meshio.PartError{By: by, Name: p.Name, Err: err}
			}
			rec.Parts = append(rec.Parts, partRecord(p.Name, m, r))
			base := len(result.Verts)
			result.Objects = append(result.Objects, meshio.Part{Name: p.Name, Start: len(result.Faces)})
			result.Verts = append(result.Verts, p.Soup.Verts...)
			for _, l := range p.Soup.Faces {
				nl := make([]int, len(l))
				for k, v := range l {
					nl[k] = v + base
				}
				result.Faces = append(result.Faces, nl)
			}
		}
	} else {
		r := s.Repair(opt)
		rec.Report = &r
		m, err := s.Mesh(nil)
		if err != nil {
			return fmt.Errorf("after repair: %w", err)
		}
		rec.Parts = append(rec.Parts, partRecord("", m, r))
		result, whole = s, m
	}
	if err := writeRepaired(*out, of, result, whole); err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, rec)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	for _, p := range rec.Parts {
		if p.Name != "" || by != 0 {
			fmt.Fprintf(e.stdout, "%v %q:\n", by, p.Name)
		}
		printRepair(e.stdout, p.Report)
		fmt.Fprintf(e.stdout, "  result: %d vertices, %d faces, %s, %s, %s, %s, volume %.6g\n", p.Vertices, p.Faces,
			yesNo(p.Closed, "closed"), yesNo(p.Manifold, "manifold"), yesNo(p.Oriented, "oriented"), yesNo(p.Convex, "convex"), p.Volume)
	}
	return nil
}

func partRecord(name string, m *mesh.Mesh, r meshio.RepairReport) repairPartJSON {
	return repairPartJSON{Name: name, Vertices: m.NumVerts(), Faces: m.NumFaces(), Closed: m.Closed(), Manifold: m.Manifold(),
		Oriented: m.Oriented(), Convex: m.Convex(), Volume: m.Volume(), Report: r}
}

func yesNo(b bool, s string) string {
	if b {
		return s
	}
	return "not " + s
}

// printRepair prints what a repair changed, one line per step.
func printRepair(w io.Writer, r meshio.RepairReport) {
	fmt.Fprintf(w, "  welded %d vertices (tolerance %.3g), removed %d unused\n", r.Welded, r.WeldTol, r.Unused)
	fmt.Fprintf(w, "  dropped %d faces collapsed by the weld, %d of zero area, %d duplicates\n", r.Collapsed, r.Degenerate, r.Duplicates)
	fmt.Fprintf(w, "  split %d polygons into triangles\n", r.Triangulated)
	o := r.Orient
	fmt.Fprintf(w, "  %d components (%d closed), flipped %d faces (%d closed components were inward)", o.Components, o.Closed, o.Flipped, o.InwardClosed)
	var notes []string
	if o.NonOrientable > 0 {
		notes = append(notes, fmt.Sprintf("%d not orientable, left as read", o.NonOrientable))
	}
	if o.BoundaryEdges > 0 {
		notes = append(notes, fmt.Sprintf("%d boundary edges", o.BoundaryEdges))
	}
	if o.NonManifoldEdges > 0 {
		notes = append(notes, fmt.Sprintf("%d edges with more than two faces", o.NonManifoldEdges))
	}
	if len(notes) > 0 {
		fmt.Fprintf(w, "; %s", strings.Join(notes, ", "))
	}
	fmt.Fprintln(w)
}

// writeRepaired writes the repaired soup (OBJ, keeping its parts) or mesh.
func writeRepaired(path string, f meshio.Format, s *meshio.Soup, m *mesh.Mesh) error {
	return createFile(path, func(w io.Writer) error {
		if f == meshio.OBJ {
			return meshio.WriteOBJSoup(w, s)
		}
		return meshio.Write(w, m, f)
	})
}
