package view

import (
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/simio"
)

// FromRecording builds the viewer's scene of a simulation recording: every
// body of sc (static bodies at their initial pose) in every recorded frame,
// and the contacts of contacts.csv, when present, as markers of the frames
// of their steps (contacts of steps between two recorded frames are not
// shown). Figures: the number of contacts and the largest depth per frame.
func FromRecording(sc *simio.Scene, rec *simio.Recording) (*Scene, error) {
	if rec.Scene != sc.Name {
		return nil, fmt.Errorf("%w: the recording is of scene %q, not %q", ErrScene, rec.Scene, sc.Name)
	}
	slot := make([]int, len(sc.Bodies)) // body id -> index in a frame's states, or -1
	for i := range slot {
		slot[i] = -1
	}
	for k, id := range rec.Bodies {
		if id < 0 || id >= len(sc.Bodies) || sc.Bodies[id].Static {
			return nil, fmt.Errorf("%w: recorded body %d is not a dynamic body of scene %q", ErrScene, id, sc.Name)
		}
		slot[id] = k
	}
	for id, b := range sc.Bodies {
		if !b.Static && slot[id] < 0 {
			return nil, fmt.Errorf("%w: dynamic body %d of scene %q is not in the recording", ErrScene, id, sc.Name)
		}
	}
	s := &Scene{
		Title:    sc.Name,
		TimeUnit: "s",
		Rate:     1,
		Figures:  []string{"contacts", "max depth (m)"},
		Frames:   make([]Frame, 0, len(rec.Frames)),
	}
	if sc.Gravity.Norm() > 0 {
		s.Up = sc.Gravity.Neg()
	}
	s.Info = append(s.Info, fmt.Sprintf("%s scene, %d bodies, %d steps of %.4g s, %d frames", sc.Kind, len(sc.Bodies), rec.Steps, rec.Dt, len(rec.Frames)))
	if rec.Engine != "" {
		s.Info = append(s.Info, "engine: "+rec.Engine)
	}
	if rec.NsPerStep > 0 {
		s.Info = append(s.Info, fmt.Sprintf("%.4g ms per step, %d threads", rec.NsPerStep/1e6, rec.Threads))
	}
	if rec.Contacts == nil {
		s.Info = append(s.Info, "no contacts recorded")
	}
	for _, m := range sc.Meshes {
		s.Meshes = append(s.Meshes, Mesh{Name: m.Name, Mesh: m.Mesh})
	}
	for id, b := range sc.Bodies {
		s.Bodies = append(s.Bodies, Body{Mesh: b.Mesh, Static: b.Static, Label: fmt.Sprintf("body %d", id)})
	}
	ci := 0
	for _, fr := range rec.Frames {
		f := Frame{Time: float64(fr.Step) * rec.Dt, Step: fr.Step, Poses: make([]geom.Pose, len(sc.Bodies))}
		for id := range sc.Bodies {
			if k := slot[id]; k >= 0 {
				f.Poses[id] = fr.States[k].Pose
			} else {
				f.Poses[id] = sc.Initial[id].Pose
			}
		}
		for ci < len(rec.Contacts) && rec.Contacts[ci].Step < fr.Step {
			ci++
		}
		depth := 0.0
		for ; ci < len(rec.Contacts) && rec.Contacts[ci].Step == fr.Step; ci++ {
			c := rec.Contacts[ci]
			a, b := c.A, c.B
			if a < 0 || a >= len(sc.Bodies) {
				a = -1
			}
			if b < 0 || b >= len(sc.Bodies) {
				b = -1
			}
			f.Markers = append(f.Markers, Marker{A: a, B: b, Point: c.Point, Normal: c.Normal, Depth: c.Depth, Time: f.Time})
			depth = math.Max(depth, c.Depth)
		}
		f.Figures = []float64{float64(len(f.Markers)), depth}
		s.Frames = append(s.Frames, f)
	}
	return s, s.Validate()
}

// FindScene returns the scene directory of the recording in recDir when the
// caller names none: recDir/scene, then a directory named after the scene
// (the recording's "scene" field) beside recDir or beside recDir's parent.
// It returns "" when none of them holds a scene.json.
func FindScene(recDir, sceneName string) string {
	cands := []string{filepath.Join(recDir, "scene")}
	if sceneName != "" && filepath.Base(sceneName) == sceneName {
		parent := filepath.Dir(filepath.Clean(recDir))
		cands = append(cands, filepath.Join(parent, sceneName), filepath.Join(filepath.Dir(parent), sceneName))
	}
	for _, c := range cands {
		if fileExists(filepath.Join(c, "scene.json")) {
			return c
		}
	}
	return ""
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}
