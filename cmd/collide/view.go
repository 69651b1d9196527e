package main

import (
	"bytes"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/simio"
	"github.com/collide-go/collide/view"
)

// Command "view": the 3D viewer of package view in the browser, for
// recordings; "screw --html" and "world --html" write the same viewer for
// their query.

func runView(e *env, args []string) error {
	fs := newFlags("view")
	sceneDir := fs.String("scene", "", "scene directory (default: REC_DIR/scene, or a directory named after the recording's scene beside REC_DIR or beside its parent)")
	port := fs.Int("port", 0, "port on 127.0.0.1 (0: a free one)")
	html := fs.String("html", "", "write the viewer as one self-contained HTML file instead of serving it")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want one recording directory, got %d arguments", len(pos))
	}
	if *port < 0 || *port > 65535 {
		return usagef("--port %d is not a port number", *port)
	}
	s, err := recordingView(pos[0], *sceneDir)
	if err != nil {
		return err
	}
	if *html != "" {
		return writeViewHTML(e, *html, s)
	}
	h, err := view.Handler(s)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", *port))
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "collide view: serving %s at http://%s/ (Ctrl-C to stop)\n", s.Title, ln.Addr())
	return http.Serve(ln, h)
}

// recordingView reads the recording in recDir and its scene (sceneDir, or
// the one view.FindScene finds).
func recordingView(recDir, sceneDir string) (*view.Scene, error) {
	rec, err := simio.ReadRecording(recDir)
	if err != nil {
		return nil, err
	}
	if sceneDir == "" {
		if sceneDir = view.FindScene(recDir, rec.Scene); sceneDir == "" {
			return nil, usagef("no scene %q found beside %s: name its directory with --scene", rec.Scene, recDir)
		}
	}
	sc, err := simio.ReadScene(sceneDir)
	if err != nil {
		return nil, err
	}
	return view.FromRecording(sc, rec)
}

// writeViewHTML writes s as a self-contained HTML file at path.
func writeViewHTML(e *env, path string, s *view.Scene) error {
	var buf bytes.Buffer
	if err := view.WriteHTML(&buf, s); err != nil {
		return err
	}
	if err := writeFile(path, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(e.stderr, "wrote %s (%.1f MB; open it in a browser)\n", path, float64(buf.Len())/1e6)
	return nil
}

// writeScrewHTML writes the viewer of one screw-motion query.
func writeScrewHTML(e *env, path string, names []string, a, b *mesh.Mesh, p [4]geom.Pose, cs []screw.Collision) error {
	s, err := view.FromScrew(filepath.Base(names[0]), filepath.Base(names[1]), a, b, p, cs, 200)
	if err != nil {
		return err
	}
	return writeViewHTML(e, path, s)
}

// writeWorldHTML writes the viewer of a "collide world" run of config c:
// it runs the steps on a scene of its own (so the main run's output and
// timing are untouched), keeping every frame's poses and each step's
// contacts; step i's contacts go on frame i+1, the step's end poses.
func writeWorldHTML(e *env, path string, c worldConfig) error {
	if float64(c.Bodies)*float64(c.Steps+1)*7 > view.MaxFrameValues {
		return usagef("--html: %d bodies over %d steps are too many poses for the viewer (at most %d values)", c.Bodies, c.Steps, view.MaxFrameValues)
	}
	s, err := newWorldScene(c)
	if err != nil {
		return err
	}
	wl := s.src.Workload()
	v := &view.Scene{
		Title:    fmt.Sprintf("world: %d %s bodies, %s broad phase", c.Bodies, c.Kind, c.Broad),
		TimeUnit: "step",
		Rate:     10,
		Figures:  []string{"contacts", "broad pairs"},
	}
	v.Info = append(v.Info, fmt.Sprintf("seed %d, %d steps; contacts of a step shown at its end", c.Seed, c.Steps))
	for i, m := range wl.Meshes {
		name := fmt.Sprintf("mesh %d", i)
		if i < len(wl.MeshNames) {
			name = wl.MeshNames[i]
		}
		v.Meshes = append(v.Meshes, view.Mesh{Name: name, Mesh: m})
	}
	for _, mi := range wl.BodyMesh {
		v.Bodies = append(v.Bodies, view.Body{Mesh: mi})
	}
	index := map[int]int{} // world body id -> body index
	for i, id := range s.ids {
		index[int(id)] = i
	}
	body := func(id int) int {
		if i, ok := index[id]; ok {
			return i
		}
		return -1
	}
	v.Frames = append(v.Frames, view.Frame{Time: 0, Step: 0, Poses: slices.Clone(s.poses), Figures: []float64{0, 0}})
	err = runWorldSteps(s, c.Steps, true, func(int, int) {}, func(st *worldStep) error {
		f := view.Frame{Time: float64(st.Step + 1), Step: st.Step + 1, Poses: slices.Clone(s.poses),
			Figures: []float64{float64(st.Contacts), float64(st.BroadPairs)}}
		for _, ct := range st.List {
			n := geom.Vec3{X: ct.Normal[0], Y: ct.Normal[1], Z: ct.Normal[2]}
			if !(n.Norm() > 0) {
				continue // discrete methods locate no point
			}
			f.Markers = append(f.Markers, view.Marker{A: body(ct.A), B: body(ct.B), Time: float64(st.Step) + ct.Time,
				Point: geom.Vec3{X: ct.Point[0], Y: ct.Point[1], Z: ct.Point[2]}, Normal: n})
		}
		v.Frames = append(v.Frames, f)
		return nil
	})
	if err != nil {
		return err
	}
	return writeViewHTML(e, path, v)
}
