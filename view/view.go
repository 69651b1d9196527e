// Package view is collide's 3D viewer in the browser: it turns a simulation
// recording, a screw-motion query or a world run into one data model (meshes,
// the pose of every body in every frame, and per-frame markers such as
// contact points with their normals) and shows it in a page built on three.js
// (https://threejs.org, MIT licence; the module build and OrbitControls are
// embedded, so the page needs no network). The page replays the frames with
// play, pause, step, a time slider and a playback speed, lets the user orbit,
// pan and zoom, colours bodies by mesh, draws markers as points with their
// normals and plots per-frame figures beside the picture.
//
// The same page is either served by Handler (the frames travel as one binary
// file) or written by WriteHTML as one self-contained HTML file that opens from
// disk (the frames are embedded in base64, in chunks that the page decodes
// one at a time).
//
// The frame data is binary: a JSON header followed by little-endian typed
// arrays that the page views in place (Float32Array, Uint32Array), so a large
// recording loads without a parse. The data also carries simplified levels
// of each mesh of many triangles (quadric edge collapse, each level with
// the largest distance between its surface and the mesh's at their
// vertices); the page draws all bodies in one draw call, each with the
// coarsest level within two pixels of its mesh on screen, and skips bodies
// outside the view.
package view

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// ErrScene is wrapped by every error about an unusable Scene.
var ErrScene = errors.New("view: bad scene")

// Scene is what the viewer shows: bodies with meshes, their poses in every
// frame, and markers and figures per frame.
type Scene struct {
	// Title is shown above the controls.
	Title string
	// Info lines are shown under the title (engine, scene, query).
	Info []string
	// TimeUnit names the unit of Frame.Time ("s" for a recording, "t" for
	// the fraction of a step, "step" for world steps).
	TimeUnit string
	// Rate is how many time units playback advances per second at speed 1
	// (0: 1).
	Rate float64
	// Up is the world's up direction for the camera (zero: +z).
	Up geom.Vec3
	// Meshes are the distinct meshes; bodies refer to them by index.
	Meshes []Mesh
	// Bodies are drawn in every frame at the frame's pose.
	Bodies []Body
	// Figures names the per-frame numbers of Frame.Figures (for example
	// "contacts" and "max depth (m)"); the page prints and plots them.
	Figures []string
	// Frames in increasing time.
	Frames []Frame
	// MarkerList, when set, lists every marker of the scene with its frame
	// in the side panel (for a few markers, such as the collisions of one
	// screw-motion query); a click jumps to the frame.
	MarkerList bool
}

// Mesh is one mesh of the scene with the name shown in the legend.
type Mesh struct {
	Name string
	Mesh *mesh.Mesh
}

// Body is one body: its mesh and whether it is static (drawn translucent).
type Body struct {
	Mesh   int
	Static bool
	Label  string
}

// Frame is the state of the scene at one time.
type Frame struct {
	Time float64
	// Step is the simulation step of the frame, or -1 when it has none.
	Step int
	// Poses holds one pose per body, aligned with Scene.Bodies.
	Poses []geom.Pose
	// Markers are shown in this frame only.
	Markers []Marker
	// Figures holds one number per Scene.Figures name.
	Figures []float64
}

// Marker is a point with a normal shown in one frame: a contact between
// bodies A and B (indices into Scene.Bodies, -1 when unknown), with its
// depth of overlap (0 for touching or continuous contacts) and the time at
// which it holds. Label is printed in the marker list (for example a screw
// collision's kind and properness).
type Marker struct {
	A, B   int
	Point  geom.Vec3
	Normal geom.Vec3
	Depth  float64
	Time   float64
	Label  string
}

// MaxFrameValues bounds the number of pose and marker values a scene may hold
// (frames times bodies plus markers), so that the page's typed arrays stay
// within a browser's memory.
const MaxFrameValues = 1 << 27

// Validate reports the first problem that would keep the page from showing
// s: mesh indices, pose counts, figure counts, non-finite numbers, times out
// of order.
func (s *Scene) Validate() error {
	if len(s.Bodies) == 0 {
		return fmt.Errorf("%w: no bodies", ErrScene)
	}
	if len(s.Frames) == 0 {
		return fmt.Errorf("%w: no frames", ErrScene)
	}
	if !finite(s.Rate) || s.Rate < 0 {
		return fmt.Errorf("%w: rate %v", ErrScene, s.Rate)
	}
	if !finiteVec(s.Up) {
		return fmt.Errorf("%w: up %v", ErrScene, s.Up)
	}
	for i, m := range s.Meshes {
		if m.Mesh == nil || len(m.Mesh.Verts) == 0 {
			return fmt.Errorf("%w: mesh %d (%q) is empty", ErrScene, i, m.Name)
		}
		for v, p := range m.Mesh.Verts {
			if !coordVec(p) {
				return fmt.Errorf("%w: mesh %d (%q) vertex %d is not finite or beyond %g", ErrScene, i, m.Name, v, geom.MaxCoord)
			}
		}
	}
	for i, b := range s.Bodies {
		if b.Mesh < 0 || b.Mesh >= len(s.Meshes) {
			return fmt.Errorf("%w: body %d: mesh %d of %d", ErrScene, i, b.Mesh, len(s.Meshes))
		}
	}
	values := 0
	for f := range s.Frames {
		fr := &s.Frames[f]
		if !coord(fr.Time) || f > 0 && fr.Time < s.Frames[f-1].Time {
			return fmt.Errorf("%w: frame %d: time %v out of order", ErrScene, f, fr.Time)
		}
		if len(fr.Poses) != len(s.Bodies) {
			return fmt.Errorf("%w: frame %d: %d poses for %d bodies", ErrScene, f, len(fr.Poses), len(s.Bodies))
		}
		for b, p := range fr.Poses {
			if !coordVec(p.P) || !finite(p.Q.W) || !finite(p.Q.X) || !finite(p.Q.Y) || !finite(p.Q.Z) {
				return fmt.Errorf("%w: frame %d body %d: pose not finite or beyond %g", ErrScene, f, b, geom.MaxCoord)
			}
		}
		if len(fr.Figures) != len(s.Figures) {
			return fmt.Errorf("%w: frame %d: %d figures for %d names", ErrScene, f, len(fr.Figures), len(s.Figures))
		}
		for k, x := range fr.Figures {
			if math.IsNaN(x) || math.Abs(x) > math.MaxFloat32 {
				return fmt.Errorf("%w: frame %d: figure %d is NaN or beyond float32", ErrScene, f, k)
			}
		}
		for k, m := range fr.Markers {
			if !coordVec(m.Point) || !finiteVec(m.Normal) || !coord(m.Depth) || !coord(m.Time) {
				return fmt.Errorf("%w: frame %d marker %d: not finite or beyond %g", ErrScene, f, k, geom.MaxCoord)
			}
			if m.A < -1 || m.A >= len(s.Bodies) || m.B < -1 || m.B >= len(s.Bodies) {
				return fmt.Errorf("%w: frame %d marker %d: bodies %d, %d of %d", ErrScene, f, k, m.A, m.B, len(s.Bodies))
			}
		}
		values += len(fr.Poses)*7 + len(fr.Markers)*8
		if values > MaxFrameValues {
			return fmt.Errorf("%w: more than %d pose and marker values", ErrScene, MaxFrameValues)
		}
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func finiteVec(v geom.Vec3) bool { return finite(v.X) && finite(v.Y) && finite(v.Z) }

// coord reports whether x is a usable coordinate: finite and within
// geom.MaxCoord, so that it stays finite in float32.
func coord(x float64) bool { return math.Abs(x) <= geom.MaxCoord }

func coordVec(v geom.Vec3) bool { return coord(v.X) && coord(v.Y) && coord(v.Z) }
