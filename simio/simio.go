// Package simio reads and writes rigid-body scenes and recordings in the
// collide simulation format (sim-scene/1 and sim-recording/1): a scene
// directory holds scene.json, initial.csv and the bodies' OBJ meshes; a
// recording directory holds recording.json, states.csv and optionally
// contacts.csv. The same format is written by other engines, so recordings
// of different simulators can be compared on the same scene.
//
// Readers check everything they read and report errors that name the file
// and the line (CSV) or the JSON field and index. Mesh paths must stay
// inside the scene directory.
package simio

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/jsonpos"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
)

// Format names written in the JSON files.
const (
	SceneFormat     = "sim-scene/1"
	RecordingFormat = "sim-recording/1"
)

// Limits on what a reader accepts, so that a corrupt file fails cleanly
// instead of exhausting memory.
const (
	MaxBodies = 1 << 20 // bodies in a scene
	MaxSteps  = 1 << 30 // steps of a scene or recording
	MaxRows   = 1 << 28 // rows of a CSV file
)

// ErrFormat is wrapped by every error about malformed scene or recording
// data (as opposed to I/O errors).
var ErrFormat = errors.New("malformed")

// State is the state of a body: its pose, the linear velocity of its centre
// of mass and its angular velocity, both in world coordinates.
type State struct {
	Pose geom.Pose
	V, W geom.Vec3
}

// Mesh is a mesh of a scene.
type Mesh struct {
	Name   string
	File   string // path relative to the scene directory
	Convex bool   // as the scene declares it
	Closed bool   // as the scene declares it
	Mesh   *mesh.Mesh
}

// Body is a body of a scene. Its mesh is in the body frame with the centre
// of mass at the origin.
type Body struct {
	ID      int
	Mesh    int // index into Scene.Meshes
	Static  bool
	Mass    float64   // kg; 0 for static bodies
	Inertia geom.Mat3 // about the centre of mass, body frame, kg m^2
}

// Scene is a rigid-body scene.
type Scene struct {
	Name        string
	Kind        string
	Gravity     geom.Vec3
	Dt          float64
	Steps       int
	Friction    float64
	Restitution float64
	Meshes      []Mesh
	Bodies      []Body
	Initial     []State // one per body, in id order
	// Bounds must contain every dynamic body's centre of mass at every step.
	Bounds geom.AABB
	// Settles is params.settles: the scene is meant to come to rest.
	Settles bool
	// Params is the scene's params object as read (informational).
	Params map[string]any
}

type sceneJSON struct {
	Format      string          `json:"format"`
	Name        string          `json:"name"`
	Kind        string          `json:"kind"`
	Generator   string          `json:"generator,omitempty"`
	Seed        *int64          `json:"seed,omitempty"`
	Params      map[string]any  `json:"params,omitempty"`
	Gravity     []float64       `json:"gravity"`
	Dt          float64         `json:"dt"`
	Steps       int             `json:"steps"`
	Friction    float64         `json:"friction"`
	Restitution float64         `json:"restitution"`
	Meshes      []sceneMeshJSON `json:"meshes"`
	Bodies      []sceneBodyJSON `json:"bodies"`
	Initial     string          `json:"initial"`
	Bounds      []float64       `json:"bounds"`
}

type sceneMeshJSON struct {
	Name     string `json:"name"`
	File     string `json:"file"`
	Vertices int    `json:"vertices"`
	Faces    int    `json:"faces"`
	Convex   bool   `json:"convex"`
	Closed   bool   `json:"closed"`
}

type sceneBodyJSON struct {
	ID      int       `json:"id"`
	Mesh    string    `json:"mesh"`
	Static  bool      `json:"static"`
	Mass    float64   `json:"mass"`
	Inertia []float64 `json:"inertia"`
}

func formatErr(file string, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", file, ErrFormat, fmt.Sprintf(format, args...))
}

// jsonErr turns a decoding error into one with the line and column.
func jsonErr(file string, data []byte, err error) error {
	line, col, ok := jsonpos.Of(data, err)
	if !ok {
		return formatErr(file, "%v", err)
	}
	return fmt.Errorf("%s:%d:%d: %w: %v", file, line, col, ErrFormat, err)
}

// inside resolves rel against dir and checks that it stays inside dir.
func inside(dir, rel, file, field string) (string, error) {
	if rel == "" {
		return "", formatErr(file, "%s is empty", field)
	}
	if filepath.IsAbs(rel) || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return "", formatErr(file, "%s %q leaves the directory (give a path inside it)", field, rel)
	}
	return filepath.Join(dir, filepath.FromSlash(rel)), nil
}

func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// ReadScene reads the scene in directory dir with its meshes.
func ReadScene(dir string) (*Scene, error) {
	file := filepath.Join(dir, "scene.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("simio: %w", err)
	}
	var sj sceneJSON
	if err := json.Unmarshal(data, &sj); err != nil {
		return nil, fmt.Errorf("simio: %w", jsonErr(file, data, err))
	}
	s, err := sceneFromJSON(dir, file, &sj)
	if err != nil {
		return nil, fmt.Errorf("simio: %w", err)
	}
	return s, nil
}

func sceneFromJSON(dir, file string, sj *sceneJSON) (*Scene, error) {
	if sj.Format != SceneFormat {
		return nil, formatErr(file, "format %q, want %q", sj.Format, SceneFormat)
	}
	if sj.Name == "" {
		return nil, formatErr(file, "name is empty")
	}
	s := &Scene{Name: sj.Name, Kind: sj.Kind, Dt: sj.Dt, Steps: sj.Steps,
		Friction: sj.Friction, Restitution: sj.Restitution, Params: sj.Params}
	if len(sj.Gravity) != 3 || !finite(sj.Gravity...) {
		return nil, formatErr(file, "gravity must be 3 finite numbers, got %v", sj.Gravity)
	}
	s.Gravity = geom.Vec3{X: sj.Gravity[0], Y: sj.Gravity[1], Z: sj.Gravity[2]}
	if !(sj.Dt > 0) || !finite(sj.Dt) || sj.Dt > 10 {
		return nil, formatErr(file, "dt %v: want a step in (0, 10] seconds", sj.Dt)
	}
	if sj.Steps < 1 || sj.Steps > MaxSteps {
		return nil, formatErr(file, "steps %d: want 1 to %d", sj.Steps, MaxSteps)
	}
	if !(sj.Friction >= 0) || !finite(sj.Friction) {
		return nil, formatErr(file, "friction %v: want a finite number >= 0", sj.Friction)
	}
	if !(sj.Restitution >= 0 && sj.Restitution <= 1) {
		return nil, formatErr(file, "restitution %v: want a number in [0, 1]", sj.Restitution)
	}
	if len(sj.Bounds) != 6 || !finite(sj.Bounds...) {
		return nil, formatErr(file, "bounds must be 6 finite numbers, got %v", sj.Bounds)
	}
	s.Bounds = geom.AABB{Min: geom.Vec3{X: sj.Bounds[0], Y: sj.Bounds[1], Z: sj.Bounds[2]},
		Max: geom.Vec3{X: sj.Bounds[3], Y: sj.Bounds[4], Z: sj.Bounds[5]}}
	if s.Bounds.Min.X > s.Bounds.Max.X || s.Bounds.Min.Y > s.Bounds.Max.Y || s.Bounds.Min.Z > s.Bounds.Max.Z {
		return nil, formatErr(file, "bounds %v: min above max", sj.Bounds)
	}
	if v, ok := sj.Params["settles"].(bool); ok {
		s.Settles = v
	}
	if len(sj.Meshes) == 0 {
		return nil, formatErr(file, "no meshes")
	}
	index := map[string]int{}
	for i, mj := range sj.Meshes {
		if mj.Name == "" {
			return nil, formatErr(file, "meshes[%d]: name is empty", i)
		}
		if _, dup := index[mj.Name]; dup {
			return nil, formatErr(file, "meshes[%d]: name %q repeats", i, mj.Name)
		}
		path, err := inside(dir, mj.File, file, fmt.Sprintf("meshes[%d].file", i))
		if err != nil {
			return nil, err
		}
		m, err := meshio.ReadFile(path, nil)
		if err != nil {
			return nil, fmt.Errorf("meshes[%d] (%s): %w", i, mj.Name, err)
		}
		index[mj.Name] = i
		s.Meshes = append(s.Meshes, Mesh{Name: mj.Name, File: mj.File, Convex: mj.Convex, Closed: mj.Closed, Mesh: m})
	}
	if len(sj.Bodies) == 0 || len(sj.Bodies) > MaxBodies {
		return nil, formatErr(file, "%d bodies: want 1 to %d", len(sj.Bodies), MaxBodies)
	}
	for i, bj := range sj.Bodies {
		if bj.ID != i {
			return nil, formatErr(file, "bodies[%d]: id %d, want %d (ids 0..N-1 in order)", i, bj.ID, i)
		}
		mi, ok := index[bj.Mesh]
		if !ok {
			return nil, formatErr(file, "bodies[%d]: mesh %q is not in meshes", i, bj.Mesh)
		}
		if len(bj.Inertia) != 9 || !finite(bj.Inertia...) {
			return nil, formatErr(file, "bodies[%d]: inertia must be 9 finite numbers", i)
		}
		b := Body{ID: i, Mesh: mi, Static: bj.Static, Mass: bj.Mass}
		for r := 0; r < 3; r++ {
			for c := 0; c < 3; c++ {
				b.Inertia[r][c] = bj.Inertia[3*r+c]
			}
		}
		if !bj.Static && !(bj.Mass > 0 && finite(bj.Mass)) {
			return nil, formatErr(file, "bodies[%d]: mass %v: a dynamic body needs a positive finite mass", i, bj.Mass)
		}
		if !bj.Static && !(b.Inertia[0][0] > 0 && b.Inertia[1][1] > 0 && b.Inertia[2][2] > 0) {
			return nil, formatErr(file, "bodies[%d]: inertia %v: a dynamic body needs positive principal moments", i, bj.Inertia)
		}
		s.Bodies = append(s.Bodies, b)
	}
	ipath, err := inside(dir, sj.Initial, file, "initial")
	if err != nil {
		return nil, err
	}
	states, err := readInitial(ipath, len(s.Bodies))
	if err != nil {
		return nil, err
	}
	s.Initial = states
	return s, nil
}

// csvReader reads a CSV file line by line, checking the header and the
// number of fields, with errors that name file and line.
type csvReader struct {
	file   string
	sc     *bufio.Scanner
	line   int
	fields []string
	n      int
}

// writeFile writes data to the file name in directory dir.
func writeFile(dir, name string, data []byte) error {
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		return fmt.Errorf("simio: %w", err)
	}
	return nil
}

// writeJSON writes v as JSON and a newline to the file name in dir: on one
// line when indent is empty, else indented by indent per level.
func writeJSON(dir, name string, v any, indent string) error {
	var data []byte
	var err error
	if indent == "" {
		data, err = json.Marshal(v)
	} else {
		data, err = json.MarshalIndent(v, "", indent)
	}
	if err != nil {
		return fmt.Errorf("simio: %w", err)
	}
	return writeFile(dir, name, append(data, '\n'))
}

// readCSVFile opens the CSV file at path, checks its header and calls row
// for every data line, stopping at the first error.
func readCSVFile(path, header string, row func(c *csvReader) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	c, err := newCSV(bufio.NewReaderSize(f, 1<<16), path, header)
	if err != nil {
		return err
	}
	for {
		ok, err := c.row()
		if err != nil || !ok {
			return err
		}
		if err := row(c); err != nil {
			return err
		}
	}
}

func newCSV(r io.Reader, file, header string) (*csvReader, error) {
	c := &csvReader{file: file, sc: bufio.NewScanner(r), n: strings.Count(header, ",") + 1}
	c.sc.Buffer(make([]byte, 64*1024), 1<<20)
	if !c.next() {
		if err := c.sc.Err(); err != nil {
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		return nil, formatErr(file, "empty file, want header %q", header)
	}
	if got := strings.TrimSpace(c.sc.Text()); got != header {
		return nil, fmt.Errorf("%s:1: %w: header %q, want %q", file, ErrFormat, got, header)
	}
	return c, nil
}

// next advances to the next non-empty line.
func (c *csvReader) next() bool {
	for c.sc.Scan() {
		c.line++
		if strings.TrimSpace(c.sc.Text()) != "" {
			return true
		}
	}
	return false
}

// row reads the next row; ok is false at the end of the file.
func (c *csvReader) row() (ok bool, err error) {
	if !c.next() {
		if err := c.sc.Err(); err != nil {
			return false, fmt.Errorf("%s:%d: %w", c.file, c.line+1, err)
		}
		return false, nil
	}
	if c.line > MaxRows {
		return false, c.errf("more than %d rows", MaxRows)
	}
	c.fields = strings.Split(strings.TrimSpace(c.sc.Text()), ",")
	if len(c.fields) != c.n {
		return false, c.errf("%d fields, want %d", len(c.fields), c.n)
	}
	return true, nil
}

func (c *csvReader) errf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %w: %s", c.file, c.line, ErrFormat, fmt.Sprintf(format, args...))
}

func (c *csvReader) int(i int, name string) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(c.fields[i]))
	if err != nil {
		return 0, c.errf("%s %q is not an integer", name, c.fields[i])
	}
	return v, nil
}

func (c *csvReader) floats(from int, dst []float64, names string) error {
	for k := range dst {
		f := strings.TrimSpace(c.fields[from+k])
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || !finite(v) {
			return c.errf("%s: field %d (%q) is not a finite number", names, from+k+1, f)
		}
		dst[k] = v
	}
	return nil
}

// state reads pose and velocities from fields from..from+12.
func (c *csvReader) state(from int) (State, error) {
	var f [13]float64
	if err := c.floats(from, f[:], "state"); err != nil {
		return State{}, err
	}
	q := geom.Quat{W: f[3], X: f[4], Y: f[5], Z: f[6]}
	if n := q.Norm(); math.Abs(n-1) > 1e-6 {
		return State{}, c.errf("quaternion %v has norm %v, want 1", q, n)
	}
	p := geom.Vec3{X: f[0], Y: f[1], Z: f[2]}
	if math.Abs(p.X) > geom.MaxCoord || math.Abs(p.Y) > geom.MaxCoord || math.Abs(p.Z) > geom.MaxCoord {
		return State{}, c.errf("position %v beyond %g", p, geom.MaxCoord)
	}
	return State{Pose: geom.Pose{P: p, Q: q},
		V: geom.Vec3{X: f[7], Y: f[8], Z: f[9]}, W: geom.Vec3{X: f[10], Y: f[11], Z: f[12]}}, nil
}

const initialHeader = "body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"

func readInitial(path string, n int) ([]State, error) {
	out := make([]State, 0, n)
	err := readCSVFile(path, initialHeader, func(c *csvReader) error {
		id, err := c.int(0, "body")
		if err != nil {
			return err
		}
		if id != len(out) {
			return c.errf("body %d, want %d (one row per body in id order)", id, len(out))
		}
		if id >= n {
			return c.errf("body %d: the scene has %d bodies", id, n)
		}
		st, err := c.state(1)
		if err != nil {
			return err
		}
		out = append(out, st)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) != n {
		return nil, formatErr(path, "%d rows, want one per body (%d)", len(out), n)
	}
	return out, nil
}

// WriteScene writes s into directory dir (created if needed): scene.json,
// initial.csv and every mesh as OBJ under the file name the Mesh gives
// (meshes/NAME.obj when File is empty).
func WriteScene(dir string, s *Scene) error {
	if len(s.Initial) != len(s.Bodies) {
		return fmt.Errorf("simio: scene %q has %d bodies and %d initial states", s.Name, len(s.Bodies), len(s.Initial))
	}
	sj := sceneJSON{Format: SceneFormat, Name: s.Name, Kind: s.Kind, Generator: "collide", Params: s.Params,
		Gravity: []float64{s.Gravity.X, s.Gravity.Y, s.Gravity.Z}, Dt: s.Dt, Steps: s.Steps,
		Friction: s.Friction, Restitution: s.Restitution, Initial: "initial.csv",
		Bounds: []float64{s.Bounds.Min.X, s.Bounds.Min.Y, s.Bounds.Min.Z, s.Bounds.Max.X, s.Bounds.Max.Y, s.Bounds.Max.Z}}
	if sj.Params == nil {
		sj.Params = map[string]any{}
	}
	sj.Params["settles"] = s.Settles
	for i, m := range s.Meshes {
		file := m.File
		if file == "" {
			file = "meshes/" + m.Name + ".obj"
		}
		path, err := inside(dir, file, "scene "+s.Name, fmt.Sprintf("meshes[%d].file", i))
		if err != nil {
			return fmt.Errorf("simio: %w", err)
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("simio: %w", err)
		}
		if err := meshio.WriteFile(path, m.Mesh); err != nil {
			return fmt.Errorf("simio: %w", err)
		}
		sj.Meshes = append(sj.Meshes, sceneMeshJSON{Name: m.Name, File: file, Vertices: m.Mesh.NumVerts(),
			Faces: m.Mesh.NumFaces(), Convex: m.Convex, Closed: m.Closed})
	}
	for i, b := range s.Bodies {
		in := make([]float64, 0, 9)
		for r := 0; r < 3; r++ {
			in = append(in, b.Inertia[r][:]...)
		}
		sj.Bodies = append(sj.Bodies, sceneBodyJSON{ID: i, Mesh: s.Meshes[b.Mesh].Name, Static: b.Static, Mass: b.Mass, Inertia: in})
	}
	if err := writeJSON(dir, "scene.json", &sj, " "); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(initialHeader + "\n")
	for i, st := range s.Initial {
		buf.WriteString(strconv.Itoa(i))
		writeState(&buf, st)
	}
	return writeFile(dir, "initial.csv", buf.Bytes())
}

func writeState(buf *bytes.Buffer, st State) {
	for _, x := range [13]float64{st.Pose.P.X, st.Pose.P.Y, st.Pose.P.Z, st.Pose.Q.W, st.Pose.Q.X, st.Pose.Q.Y, st.Pose.Q.Z,
		st.V.X, st.V.Y, st.V.Z, st.W.X, st.W.Y, st.W.Z} {
		buf.WriteByte(',')
		buf.WriteString(strconv.FormatFloat(x, 'g', 17, 64))
	}
	buf.WriteByte('\n')
}
