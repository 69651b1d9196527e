package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
	"github.com/collide-go/collide/shapes"
)

// meshInfoJSON is the --json record of "collide mesh info", one per file.
type meshInfoJSON struct {
	File      string     `json:"file"`
	Format    string     `json:"format"`
	Vertices  int        `json:"vertices"`
	Edges     int        `json:"edges"`
	Faces     int        `json:"faces"`
	Triangles int        `json:"triangles"`
	Closed    bool       `json:"closed"`
	Manifold  bool       `json:"manifold"`
	Oriented  bool       `json:"oriented"`
	Convex    bool       `json:"convex"`
	Euler     int        `json:"euler"`
	Volume    float64    `json:"volume"`
	Min       [3]float64 `json:"min"`
	Max       [3]float64 `json:"max"`
	Dropped   int        `json:"dropped_degenerate"`
	// Part is the OBJ object or group with --split.
	Part string `json:"part,omitempty"`
	// Repair is what --repair changed.
	Repair *meshio.RepairReport `json:"repair,omitempty"`
	// Mass are the mass properties with --density.
	Mass *massJSON `json:"mass,omitempty"`
}

// massJSON are the mass properties of "mesh info --density".
type massJSON struct {
	Density float64    `json:"density"`
	Volume  float64    `json:"volume"`
	Mass    float64    `json:"mass"`
	Center  [3]float64 `json:"center"`
	// Inertia about the centre of mass, row-major.
	Inertia [9]float64 `json:"inertia"`
	// Principal moments ascending; Axes row-major with the principal
	// axes as columns.
	Principal [3]float64 `json:"principal"`
	Axes      [9]float64 `json:"axes"`
}

func newMassJSON(mp mesh.MassProps, density float64) *massJSON {
	r := &massJSON{Density: density, Volume: mp.Volume, Mass: mp.Mass,
		Center:    [3]float64{mp.Center.X, mp.Center.Y, mp.Center.Z},
		Principal: [3]float64{mp.Principal.X, mp.Principal.Y, mp.Principal.Z}}
	for i := range 3 {
		for j := range 3 {
			r.Inertia[3*i+j] = mp.Inertia[i][j]
			r.Axes[3*i+j] = mp.Axes[i][j]
		}
	}
	return r
}

func newMeshInfo(file string, m *mesh.Mesh) meshInfoJSON {
	b := m.Bounds()
	nt := 0
	for f := 0; f < m.NumFaces(); f++ {
		nt += len(m.Face(f)) - 2
	}
	return meshInfoJSON{
		File: file, Format: sniffFormat(file).String(),
		Vertices: m.NumVerts(), Edges: m.NumEdges(), Faces: m.NumFaces(), Triangles: nt,
		Closed: m.Closed(), Manifold: m.Manifold(), Oriented: m.Oriented(), Convex: m.Convex(),
		Euler: m.Euler(), Volume: m.Volume(),
		Min: [3]float64{b.Min.X, b.Min.Y, b.Min.Z}, Max: [3]float64{b.Max.X, b.Max.Y, b.Max.Z},
	}
}

// sniffFormat names a file's format by extension, else by content.
func sniffFormat(path string) meshio.Format {
	if f := meshio.FormatOf(path); f != meshio.Unknown {
		return f
	}
	fh, err := os.Open(path)
	if err != nil {
		return meshio.Unknown
	}
	defer fh.Close()
	head := make([]byte, 512)
	n, _ := fh.Read(head)
	return meshio.Sniff(head[:n])
}

func meshInfo(e *env, args []string) error {
	fs := newFlags("mesh info")
	asJSON := fs.Bool("json", false, "print one JSON object per file (per part with --split)")
	drop := fs.Bool("drop-degenerate", false, "drop faces with repeated vertices or zero area before building the mesh")
	repair := fs.Bool("repair", false, "repair the soup first, as 'collide mesh repair' does (see its --weld, --triangulate-all, --no-orient)")
	density := fs.Float64("density", 0, "print the mass properties of the solid of this density (mass per unit volume)")
	convex := fs.Bool("convex", false, "require every mesh (every part with --split) to be closed and convex; the error names the part and the vertex outside")
	rf := addRepairFlags(fs, "report each OBJ object (o) or group (g) as a mesh of its own")
	files, err := parseFlagsHelp(e, fs, args, "usage: collide mesh info [--json] [--drop-degenerate] [--repair] [--split o|g] [--convex] [--density RHO] FILE...\n"+
		"  read OBJ, STL, OFF or PLY meshes (format by extension, else by content) and print\n"+
		"  vertices, edges, faces, closed, manifold, oriented, convex, Euler characteristic,\n"+
		"  volume and bounding box; --json prints one JSON object per file and line;\n"+
		"  --drop-degenerate drops faces with repeated vertices or zero area first; --repair\n"+
		"  welds, drops, splits non-planar polygons and orients first; --split o|g reports each\n"+
		"  OBJ object or group (a convex decomposition's pieces) on its own; --convex requires\n"+
		"  each to be closed and convex; --density RHO adds mass, centre of mass, inertia tensor\n"+
		"  about it and principal moments and axes")
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usagef("no FILE given")
	}
	ropt, by, err := rf.options()
	if err != nil {
		return err
	}
	if *density != 0 && (!(*density > 0) || math.IsInf(*density, 0)) {
		return usagef("--density must be positive and finite (have %v)", *density)
	}
	failed := 0
	var lastErr error
	for _, path := range files {
		err := meshInfoFile(e, path, *drop, *repair, ropt, by, *convex, *density, *asJSON)
		if err != nil {
			failed++
			lastErr = err
			if len(files) > 1 {
				fmt.Fprintf(e.stderr, "collide mesh info: %v\n", err)
			}
		}
	}
	switch {
	case failed == 1 && len(files) == 1:
		return lastErr
	case failed > 0:
		return fmt.Errorf("%d of %d files could not be read", failed, len(files))
	}
	return nil
}

// meshInfoFile reports one file (or each of its parts).
func meshInfoFile(e *env, path string, drop, repair bool, ropt *meshio.RepairOptions, by meshio.SplitBy, convex bool, density float64, asJSON bool) error {
	s, err := meshio.ReadSoupFile(path)
	if err != nil {
		return err
	}
	type piece struct {
		name string
		soup *meshio.Soup
	}
	pieces := []piece{{"", s}}
	if by != 0 {
		pieces = pieces[:0]
		for _, p := range s.Split(by) {
			pieces = append(pieces, piece{p.Name, p.Soup})
		}
	}
	for _, pc := range pieces {
		dropped := 0
		if drop {
			dropped = pc.soup.DropDegenerate(nil)
		}
		var rep *meshio.RepairReport
		if repair {
			r := pc.soup.Repair(ropt)
			rep = &r
		}
		m, err := pc.soup.Mesh(nil)
		if err != nil {
			if by != 0 {
				return &meshio.PartError{By: by, Name: pc.name, Err: err}
			}
			return err
		}
		if convex {
			if err := m.RequireConvex(); err != nil {
				err = fmt.Errorf("%s: %w", path, err)
				if by != 0 {
					return &meshio.PartError{By: by, Name: pc.name, Err: err}
				}
				return err
			}
		}
		info := newMeshInfo(path, m)
		info.Dropped = dropped
		info.Part = pc.name
		info.Repair = rep
		if density > 0 {
			mp, err := mesh.MassProperties(m, density)
			if err != nil {
				err = fmt.Errorf("%s: %w (collide mesh repair may close or orient it)", path, err)
				if by != 0 {
					return &meshio.PartError{By: by, Name: pc.name, Err: err}
				}
				return err
			}
			info.Mass = newMassJSON(mp, density)
		}
		if asJSON {
			if err := writeJSON(e.stdout, info); err != nil {
				return err
			}
			continue
		}
		printMeshInfo(e.stdout, path, by, pc.name, info, m, drop)
	}
	return nil
}

// printMeshInfo prints the text form of one mesh info record.
func printMeshInfo(w io.Writer, path string, by meshio.SplitBy, part string, info meshInfoJSON, m *mesh.Mesh, drop bool) {
	if by != 0 {
		fmt.Fprintf(w, "%s (%s) %v %q\n", path, info.Format, by, part)
	} else {
		fmt.Fprintf(w, "%s (%s)\n", path, info.Format)
	}
	if info.Repair != nil {
		printRepair(w, *info.Repair)
	}
	fmt.Fprintf(w, "  vertices %d, edges %d, faces %d (%d triangles)\n", info.Vertices, info.Edges, info.Faces, info.Triangles)
	if drop {
		fmt.Fprintf(w, "  dropped %d degenerate faces\n", info.Dropped)
	}
	fmt.Fprintf(w, "  %s, %s, %s, %s\n", yesNo(info.Closed, "closed"), yesNo(info.Manifold, "manifold"), yesNo(info.Oriented, "oriented"), yesNo(info.Convex, "convex"))
	fmt.Fprintf(w, "  euler characteristic %d", info.Euler)
	if info.Closed && info.Manifold && info.Oriented && info.Euler%2 == 0 {
		fmt.Fprintf(w, " (genus %d if connected)", (2-info.Euler)/2)
	}
	fmt.Fprintf(w, ", volume %.6g\n", info.Volume)
	b := m.Bounds()
	fmt.Fprintf(w, "  bounds %v .. %v (size %v)\n", b.Min, b.Max, b.Size())
	if mp := info.Mass; mp != nil {
		fmt.Fprintf(w, "  density %.6g: mass %.6g, centre of mass (%.6g, %.6g, %.6g)\n", mp.Density, mp.Mass, mp.Center[0], mp.Center[1], mp.Center[2])
		fmt.Fprintf(w, "  inertia about the centre of mass:\n")
		for i := range 3 {
			fmt.Fprintf(w, "    %12.6g %12.6g %12.6g\n", mp.Inertia[3*i], mp.Inertia[3*i+1], mp.Inertia[3*i+2])
		}
		fmt.Fprintf(w, "  principal moments %.6g, %.6g, %.6g along axes", mp.Principal[0], mp.Principal[1], mp.Principal[2])
		for j := range 3 {
			fmt.Fprintf(w, " (%.4g, %.4g, %.4g)", mp.Axes[j], mp.Axes[3+j], mp.Axes[6+j])
		}
		fmt.Fprintln(w)
	}
}

// genShape is a shape "collide mesh gen" can write.
type genShape struct {
	help  string
	flags func(fs *flag.FlagSet) func() (*mesh.Mesh, error)
}

var genShapes = withPolytopes(map[string]genShape{
	"cube": {"cube centred at the origin (--size edge length)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		size := fs.Float64("size", 1, "edge length")
		return func() (*mesh.Mesh, error) {
			if err := positive("size", *size); err != nil {
				return nil, err
			}
			return shapes.Cube(*size), nil
		}
	}},
	"box": {"axis-aligned box centred at the origin (--hx --hy --hz half extents)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		hx := fs.Float64("hx", 1, "half extent along x")
		hy := fs.Float64("hy", 0.5, "half extent along y")
		hz := fs.Float64("hz", 0.25, "half extent along z")
		return func() (*mesh.Mesh, error) {
			for _, p := range []struct {
				n string
				v float64
			}{{"hx", *hx}, {"hy", *hy}, {"hz", *hz}} {
				if err := positive(p.n, p.v); err != nil {
					return nil, err
				}
			}
			return shapes.Box(geom.Vec3{X: *hx, Y: *hy, Z: *hz}), nil
		}
	}},
	"car": {"Buss's car, Fig. 12 (16 vertices, 26 edges, 12 faces)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		return func() (*mesh.Mesh, error) { return shapes.Car(), nil }
	}},
	"torus": {"torus of m x n quadrilaterals (--m --n --R --r; default Buss's 20 x 15)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		m := fs.Int("m", 20, "quadrilaterals around the z axis (>= 3)")
		n := fs.Int("n", 15, "quadrilaterals around the tube (>= 3)")
		bigR := fs.Float64("R", 1, "major radius")
		r := fs.Float64("r", 0.35, "minor radius (0 < r < R)")
		return func() (*mesh.Mesh, error) {
			if *m < 3 || *n < 3 || *m > 5000 || *n > 5000 {
				return nil, usagef("torus needs 3 <= m, n <= 5000 (have m=%d, n=%d)", *m, *n)
			}
			if !(*r > 0 && *bigR > *r) || math.IsInf(*bigR, 0) {
				return nil, usagef("torus needs 0 < r < R, finite (have R=%v, r=%v)", *bigR, *r)
			}
			return shapes.Torus(*bigR, *r, *m, *n), nil
		}
	}},
	"coil": {"helical tube, a spring or screw thread (--R --r --pitch --turns --m --n; default 6 turns, 1 154 faces)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		bigR := fs.Float64("R", 1, "radius of the helix")
		r := fs.Float64("r", 0.1, "radius of the tube (0 < r < R, 2r < pitch)")
		pitch := fs.Float64("pitch", 0.5, "rise per turn")
		turns := fs.Float64("turns", 6, "number of turns")
		m := fs.Int("m", 16, "sections per turn (>= 3)")
		n := fs.Int("n", 6, "vertices around the tube (>= 3)")
		return func() (*mesh.Mesh, error) {
			if err := shapes.CheckCoil(*bigR, *r, *pitch, *turns, *m, *n); err != nil {
				return nil, usagef("%v", err)
			}
			return shapes.Coil(*bigR, *r, *pitch, *turns, *m, *n), nil
		}
	}},
	"bullet": {"the contact paper's 640-triangle bullet (--radius --length, metres)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		radius := fs.Float64("radius", shapes.DefaultBulletRadius, "radius")
		length := fs.Float64("length", shapes.DefaultBulletLength, "length (> 3 radius)")
		return func() (*mesh.Mesh, error) {
			if err := shapes.CheckBullet(*radius, *length); err != nil {
				return nil, usagef("%v", err)
			}
			return shapes.Bullet(*radius, *length), nil
		}
	}},
	"warped": {"the contact paper's warped plane with a hole (--size --hole --amp)", func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		size := fs.Float64("size", shapes.DefaultPlaneSize, "side of the square outline")
		hole := fs.Float64("hole", shapes.DefaultPlaneHole, "radius of the hole (< size/2)")
		amp := fs.Float64("amp", shapes.DefaultPlaneWarp, "warp amplitude")
		return func() (*mesh.Mesh, error) {
			if err := shapes.CheckWarpedPlane(*size, *hole, *amp); err != nil {
				return nil, usagef("%v", err)
			}
			return shapes.WarpedPlane(*size, *hole, *amp), nil
		}
	}},
})

// withPolytopes adds the random polytopes of Chung and Wang's Sec. 6 to the
// generated shapes.
func withPolytopes(m map[string]genShape) map[string]genShape {
	for _, sh := range []shapes.PolytopeShape{shapes.Ellipsoid, shapes.Rod, shapes.Plate} {
		m[sh.String()] = genShape{
			help:  "random convex polytope, exactly --n vertices " + map[shapes.PolytopeShape]string{shapes.Ellipsoid: "on an ellipsoid", shapes.Rod: "on a thin rod", shapes.Plate: "on a flat plate"}[sh] + " (Chung-Wang Sec. 6; --radius --seed)",
			flags: polytopeFlags(sh),
		}
	}
	return m
}

// maxPolytopeVerts bounds --n of the random polytopes (hull and mesh
// validation time grow quickly beyond it).
const maxPolytopeVerts = 20000

func polytopeFlags(sh shapes.PolytopeShape) func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
	return func(fs *flag.FlagSet) func() (*mesh.Mesh, error) {
		n := fs.Int("n", 100, "number of vertices (4 .. 20000)")
		radius := fs.Float64("radius", 1, "largest semi-axis (along x)")
		seed := fs.Uint64("seed", 1, "random seed")
		return func() (*mesh.Mesh, error) {
			if *n < 4 || *n > maxPolytopeVerts {
				return nil, usagef("--n must be in [4, %d] (have %d)", maxPolytopeVerts, *n)
			}
			if err := shapes.CheckPolytope(sh, *n, *radius); err != nil {
				return nil, usagef("%v", err)
			}
			return shapes.RandomPolytope(sh, *n, *radius, *seed), nil
		}
	}
}

func positive(name string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return usagef("--%s must be positive and finite (have %v)", name, v)
	}
	return nil
}

func genShapeNames() []string {
	var ns []string
	for n := range genShapes {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func meshGen(e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		var b strings.Builder
		for _, n := range genShapeNames() {
			fmt.Fprintf(&b, "\n  %-10s %s", n, genShapes[n].help)
		}
		return usagef("first argument must be a SHAPE:%s", b.String())
	}
	sh, ok := genShapes[args[0]]
	if !ok {
		return usagef("unknown shape %q (have %s)", args[0], strings.Join(genShapeNames(), ", "))
	}
	fs := newFlags("mesh gen " + args[0])
	out := fs.String("o", "", "output file (.obj, .off, .ply, .stl), or - for OBJ on stdout")
	format := fs.String("format", "", "output format (obj, off, ply, stl) overriding the extension")
	build := sh.flags(fs)
	pos, err := parseFlagsHelp(e, fs, args[1:], fmt.Sprintf("usage: collide mesh gen %s [flags] -o FILE\n  %s", args[0], sh.help))
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("unexpected arguments %q", pos)
	}
	if *out == "" {
		return usagef("-o FILE is required")
	}
	f := meshio.FormatOf(*out)
	if *out == "-" {
		f = meshio.OBJ
	}
	if *format != "" {
		if f = meshio.FormatOf("x." + *format); f == meshio.Unknown {
			return usagef("unknown --format %q (want obj, off, ply or stl)", *format)
		}
	}
	if f == meshio.Unknown {
		return usagef("cannot tell the format of %q: use a .obj, .off, .ply or .stl name or --format", *out)
	}
	m, err := build()
	if err != nil {
		return err
	}
	if *out == "-" {
		return meshio.Write(e.stdout, m, f)
	}
	if err := createFile(*out, func(w io.Writer) error { return meshio.Write(w, m, f) }); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s: %d vertices, %d edges, %d faces\n", *out, m.NumVerts(), m.NumEdges(), m.NumFaces())
	return nil
}

func init() {
	registerDemo(demoSection{order: 1, title: "mesh files: write every shape, read it back (package meshio)", run: demoMeshFiles})
}

// demoMeshFiles writes the built-in shapes to DIR/meshes in every format,
// reads them back and shows what survives, then shows the error for a
// damaged file.
func demoMeshFiles(e *env, outDir string) error {
	dir := filepath.Join(outDir, "meshes")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%-12s %6s %9s %6s %6s %6s %7s %s\n", "file", "format", "bytes", "verts", "edges", "faces", "closed", "same mesh")
	for _, name := range []string{"car", "torus", "bullet", "warped"} {
		m, err := genShapes[name].flags(newFlags("demo"))()
		if err != nil {
			return err
		}
		for _, f := range []meshio.Format{meshio.OBJ, meshio.OFF, meshio.PLY, meshio.STL} {
			p := filepath.Join(dir, name+"."+f.String())
			if err := meshio.WriteFile(p, m); err != nil {
				return err
			}
			st, err := os.Stat(p)
			if err != nil {
				return err
			}
			back, err := meshio.ReadFile(p, nil)
			if err != nil {
				return err
			}
			same := slices.Equal(back.Verts, m.Verts) && slices.Equal(back.FaceVerts, m.FaceVerts)
			note := fmt.Sprint(same)
			if f == meshio.STL {
				note = "triangulated, float32"
			}
			fmt.Fprintf(e.stdout, "%-12s %6s %9d %6d %6d %6d %7v %s\n", filepath.Base(p), f, st.Size(), back.NumVerts(), back.NumEdges(), back.NumFaces(), back.Closed(), note)
		}
	}
	// A damaged copy: one face of the car points at a vertex that is not there.
	var buf strings.Builder
	if err := meshio.WriteOBJ(&buf, shapes.Car()); err != nil {
		return err
	}
	bad := strings.Replace(buf.String(), "f 1 4 3 2\n", "f 1 4 3 99\n", 1)
	p := filepath.Join(dir, "car-damaged.obj")
	if err := os.WriteFile(p, []byte(bad), 0o644); err != nil {
		return err
	}
	_, err := meshio.ReadFile(p, nil)
	fmt.Fprintf(e.stdout, "reading a damaged copy: %v\n", err)
	if err == nil {
		return fmt.Errorf("the damaged file %s was accepted", p)
	}
	return nil
}
