package bench

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/jsonpos"
	"github.com/collide-go/collide/mesh"
)

// MeshLoader reads a mesh file of a workload; it defaults to meshio's
// reader and may be replaced (for example to cache meshes).
var MeshLoader func(path string) (*mesh.Mesh, error)

type workloadJSON struct {
	Format string `json:"format"`
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Meshes []struct {
		Name string `json:"name"`
		File string `json:"file"`
	} `json:"meshes"`
	Bodies []struct {
		ID   int    `json:"id"`
		Mesh string `json:"mesh"`
	} `json:"bodies"`
	Frames     int    `json:"frames"`
	Poses      string `json:"poses"`
	Queries    string `json:"queries"`
	NumQueries *int   `json:"num_queries"`
	Placements string `json:"placements"`
}

// Load reads the workload in dir (the benchmark workload format). Errors
// name the file and its line (and column, for workload.json). Every file
// workload.json names must lie inside dir: a path that is absolute, leaves
// dir through "..", or resolves outside it through a symbolic link is
// refused.
func Load(dir string) (*Workload, error) {
	if MeshLoader == nil {
		return nil, fmt.Errorf("bench: no MeshLoader set")
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	return load(root.FS(), dir, func(name string) (*mesh.Mesh, error) { return MeshLoader(filepath.Join(dir, name)) })
}

// load reads the workload whose files are in fsys (whose paths are
// reported under dir), with loadMesh reading the mesh of a file name
// (slash-separated, relative to fsys). An os.Root's file system refuses
// to follow a symbolic link out of its directory.
func load(fsys fs.FS, dir string, loadMesh func(name string) (*mesh.Mesh, error)) (*Workload, error) {
	jpath := filepath.Join(dir, "workload.json")
	data, err := fs.ReadFile(fsys, "workload.json")
	if err != nil {
		return nil, fullPath(dir, err)
	}
	var wj workloadJSON
	if err := json.Unmarshal(data, &wj); err != nil {
		return nil, jsonError(jpath, data, err)
	}
	if wj.Format != "bench-workload/1" {
		return nil, fmt.Errorf("%s: format %q, want \"bench-workload/1\"", jpath, wj.Format)
	}
	w := &Workload{Dir: dir, Name: wj.Name, Kind: wj.Kind, MeshIndex: map[string]int{}}
	if len(wj.Meshes) == 0 {
		return nil, fmt.Errorf("%s: no meshes", jpath)
	}
	for i, mj := range wj.Meshes {
		if mj.Name == "" || mj.File == "" {
			return nil, fmt.Errorf("%s: meshes[%d]: name and file are required", jpath, i)
		}
		if _, dup := w.MeshIndex[mj.Name]; dup {
			return nil, fmt.Errorf("%s: meshes[%d]: duplicate mesh name %q", jpath, i, mj.Name)
		}
		name, err := inside(fsys, mj.File)
		if err != nil {
			return nil, fmt.Errorf("%s: meshes[%d]: %v", jpath, i, err)
		}
		m, err := loadMesh(name)
		if err != nil {
			return nil, err
		}
		w.MeshIndex[mj.Name] = i
		w.Meshes = append(w.Meshes, m)
		w.MeshNames = append(w.MeshNames, mj.Name)
	}
	// open opens the poses or queries file.
	open := func(field, file string) (fs.File, int64, string, error) {
		name, err := inside(fsys, file)
		if err != nil {
			return nil, 0, "", fmt.Errorf("%s: %s: %v", jpath, field, err)
		}
		f, err := fsys.Open(name)
		if err != nil {
			return nil, 0, "", fullPath(dir, err)
		}
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, "", fullPath(dir, err)
		}
		return f, st.Size(), filepath.Join(dir, filepath.FromSlash(name)), nil
	}
	switch wj.Kind {
	case "frames":
		for i, b := range wj.Bodies {
			if b.ID != i {
				return nil, fmt.Errorf("%s: bodies[%d]: id %d, want %d (ids 0..B-1 in order)", jpath, i, b.ID, i)
			}
			mi, ok := w.MeshIndex[b.Mesh]
			if !ok {
				return nil, fmt.Errorf("%s: bodies[%d]: unknown mesh %q", jpath, i, b.Mesh)
			}
			w.BodyMesh = append(w.BodyMesh, mi)
		}
		if len(w.BodyMesh) == 0 || wj.Frames <= 0 {
			return nil, fmt.Errorf("%s: a frames workload needs bodies and frames > 0", jpath)
		}
		if wj.Poses == "" {
			wj.Poses = "poses.csv"
		}
		w.Frames = wj.Frames
		f, size, path, err := open("poses", wj.Poses)
		if err != nil {
			return nil, err
		}
		err = w.readPoses(f, size, path)
		f.Close()
		if err != nil {
			return nil, err
		}
	case "motions":
		if wj.Queries == "" {
			wj.Queries = "queries.csv"
		}
		f, _, path, err := open("queries", wj.Queries)
		if err != nil {
			return nil, err
		}
		err = w.readQueries(f, path)
		f.Close()
		if err != nil {
			return nil, err
		}
		if wj.NumQueries != nil && *wj.NumQueries != len(w.Queries) {
			return nil, fmt.Errorf("%s: num_queries is %d but %s has %d rows", jpath, *wj.NumQueries, wj.Queries, len(w.Queries))
		}
	case "placements":
		if err := w.loadPlacementsFile(dir, jpath, wj.Placements, wj.NumQueries); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("%s: kind %q, want \"frames\", \"motions\" or \"placements\"", jpath, wj.Kind)
	}
	return w, nil
}

// inside returns the relative path name as a name in fsys, or an error if
// it is absolute, leaves the directory lexically, or resolves (following
// symbolic links) to a place outside it.
func inside(fsys fs.FS, name string) (string, error) {
	if !filepath.IsLocal(name) {
		return "", fmt.Errorf("file %q is not a relative path inside the workload directory", name)
	}
	slash := filepath.ToSlash(filepath.Clean(name))
	if _, err := fs.Stat(fsys, slash); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("file %q leads outside the workload directory (%v)", name, err)
	}
	return slash, nil
}

// fullPath puts dir in front of the path of a *fs.PathError.
func fullPath(dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) && !filepath.IsAbs(pe.Path) {
		pe.Path = filepath.Join(dir, filepath.FromSlash(pe.Path))
	}
	return err
}

// jsonError adds the line and column of a syntax or type error to err.
func jsonError(path string, data []byte, err error) error {
	line, col, ok := jsonpos.Of(data, err)
	if !ok {
		return fmt.Errorf("%s: %v", path, err)
	}
	return fmt.Errorf("%s:%d:%d: %v", path, line, col, err)
}

// csvReader reads a headered CSV file and locates columns by name.
type csvReader struct {
	path string
	sc   *bufio.Scanner
	line int
	col  map[string]int
	rec  []string
}

func openCSV(path string, r io.Reader) (*csvReader, error) {
	c := &csvReader{path: path, sc: bufio.NewScanner(r), col: map[string]int{}}
	c.sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	if !c.next() {
		if err := c.scanErr(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s: empty file, want a header line", path)
	}
	for i, h := range c.rec {
		c.col[h] = i
	}
	return c, nil
}

func (c *csvReader) next() bool {
	for c.sc.Scan() {
		c.line++
		s := strings.TrimRight(c.sc.Text(), "\r")
		if strings.TrimSpace(s) == "" {
			continue
		}
		c.rec = strings.Split(s, ",")
		return true
	}
	return false
}

// scanErr is the error, naming the file, that stopped the reading of rows
// before the end of the file, or nil.
func (c *csvReader) scanErr() error {
	if err := c.sc.Err(); err != nil {
		return fmt.Errorf("%s: %v", c.path, err)
	}
	return nil
}

// finish is scanErr, or, when no data row was read (n == 0), the error that
// the file has no what.
func (c *csvReader) finish(n int, what string) error {
	if err := c.scanErr(); err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%s: no %s", c.path, what)
	}
	return nil
}

func (c *csvReader) errf(format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", c.path, c.line, fmt.Sprintf(format, a...))
}

// need returns the indices of the named columns, or an error naming the
// first missing one.
func (c *csvReader) need(names ...string) ([]int, error) {
	idx := make([]int, len(names))
	for i, n := range names {
		j, ok := c.col[n]
		if !ok {
			return nil, fmt.Errorf("%s:1: header has no column %q", c.path, n)
		}
		idx[i] = j
	}
	return idx, nil
}

func (c *csvReader) field(j int, name string) (string, error) {
	if j >= len(c.rec) {
		return "", c.errf("row has %d fields, column %q is missing", len(c.rec), name)
	}
	return c.rec[j], nil
}

func (c *csvReader) float(j int, name string) (float64, error) {
	s, err := c.field(j, name)
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, c.errf("column %q: %q is not a finite number", name, s)
	}
	return x, nil
}

func (c *csvReader) int(j int, name string) (int, error) {
	s, err := c.field(j, name)
	if err != nil {
		return 0, err
	}
	x, err := strconv.Atoi(s)
	if err != nil {
		return 0, c.errf("column %q: %q is not an integer", name, s)
	}
	return x, nil
}

// pose reads 7 columns px..qz starting at the given column indices.
func (c *csvReader) pose(idx []int, names []string) (geom.Pose, error) {
	var f [7]float64
	for i := 0; i < 7; i++ {
		x, err := c.float(idx[i], names[i])
		if err != nil {
			return geom.Pose{}, err
		}
		f[i] = x
	}
	q := geom.Quat{W: f[3], X: f[4], Y: f[5], Z: f[6]}
	n := q.Norm()
	if math.Abs(n-1) > 1e-6 {
		return geom.Pose{}, c.errf("quaternion %s..%s has norm %g, want 1", names[3], names[6], n)
	}
	q, _ = q.Normalize()
	return geom.Pose{P: geom.Vec3{X: f[0], Y: f[1], Z: f[2]}, Q: q}, nil
}

// poseColumns finds the pose columns of every prefix (poseCols): their
// indices and names, by prefix.
func (c *csvReader) poseColumns(prefixes ...string) (idx [][]int, names [][]string, err error) {
	for _, pre := range prefixes {
		n := poseCols(pre)
		i, err := c.need(n...)
		if err != nil {
			return nil, nil, err
		}
		idx, names = append(idx, i), append(names, n)
	}
	return idx, names, nil
}

func poseCols(prefix string) []string {
	cols := []string{"px", "py", "pz", "qw", "qx", "qy", "qz"}
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = prefix + c
	}
	return out
}

// loadPoses reads the poses file at path.
func (w *Workload) loadPoses(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	return w.readPoses(f, st.Size(), path)
}

// readPoses reads a poses file of size bytes from r; path names it in
// errors.
func (w *Workload) readPoses(r io.Reader, size int64, path string) error {
	c, err := openCSV(path, r)
	if err != nil {
		return err
	}
	pn := poseCols("")
	names := append([]string{"frame", "body"}, pn...)
	idx, err := c.need(names...)
	if err != nil {
		return err
	}
	nb := len(w.BodyMesh)
	// Every row takes at least 17 bytes ("0,0,0,0,0,1,0,0,0"), so the file
	// size bounds the rows it can hold: never let the header's counts
	// drive allocation beyond that.
	if int64(w.Frames) > size/17+1 || int64(w.Frames)*int64(nb) > size/17+1 {
		return fmt.Errorf("%s: %d frames x %d bodies need %d rows, more than the file's %d bytes can hold", path, w.Frames, nb, int64(w.Frames)*int64(nb), size)
	}
	w.Poses = make([][]geom.Pose, w.Frames)
	seen := make([][]bool, w.Frames)
	for i := range w.Poses {
		w.Poses[i] = make([]geom.Pose, nb)
		seen[i] = make([]bool, nb)
	}
	for c.next() {
		fr, err := c.int(idx[0], "frame")
		if err != nil {
			return err
		}
		b, err := c.int(idx[1], "body")
		if err != nil {
			return err
		}
		if fr < 0 || fr >= w.Frames {
			return c.errf("frame %d out of range [0, %d)", fr, w.Frames)
		}
		if b < 0 || b >= nb {
			return c.errf("body %d out of range [0, %d)", b, nb)
		}
		if seen[fr][b] {
			return c.errf("duplicate row for frame %d body %d", fr, b)
		}
		p, err := c.pose(idx[2:], pn)
		if err != nil {
			return err
		}
		w.Poses[fr][b] = p
		seen[fr][b] = true
	}
	if err := c.scanErr(); err != nil {
		return err
	}
	for fr := range seen {
		for b, ok := range seen[fr] {
			if !ok {
				return fmt.Errorf("%s: no pose for frame %d body %d", path, fr, b)
			}
		}
	}
	return nil
}

// readQueries reads a queries file from r; path names it in errors.
func (w *Workload) readQueries(r io.Reader, path string) error {
	c, err := openCSV(path, r)
	if err != nil {
		return err
	}
	base, err := c.need("id", "meshA", "meshB")
	if err != nil {
		return err
	}
	pidx, pnames, err := c.poseColumns("a0_", "a1_", "b0_", "b1_")
	if err != nil {
		return err
	}
	for c.next() {
		var q Query
		if q.ID, err = c.int(base[0], "id"); err != nil {
			return err
		}
		if q.MeshA, q.MeshB, err = c.meshPair(w, base[1], base[2]); err != nil {
			return err
		}
		ps := []*geom.Pose{&q.A0, &q.A1, &q.B0, &q.B1}
		for i := range ps {
			if *ps[i], err = c.pose(pidx[i], pnames[i]); err != nil {
				return err
			}
		}
		w.Queries = append(w.Queries, q)
	}
	return c.finish(len(w.Queries), "queries")
}

// meshPair reads the meshA and meshB columns (indices ia, ib) of the
// current row as indices into w.Meshes.
func (c *csvReader) meshPair(w *Workload, ia, ib int) (a, b int, err error) {
	var out [2]int
	for k, col := range []string{"meshA", "meshB"} {
		name, err := c.field([]int{ia, ib}[k], col)
		if err != nil {
			return 0, 0, err
		}
		mi, ok := w.MeshIndex[name]
		if !ok {
			return 0, 0, c.errf("column %q: unknown mesh %q", col, name)
		}
		out[k] = mi
	}
	return out[0], out[1], nil
}
