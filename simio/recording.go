package simio

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"github.com/collide-go/collide/geom"
)

// Recording is the output of a simulator on a scene.
type Recording struct {
	Scene       string // the scene's name
	Engine      string // simulator name, version and settings (free text)
	Steps       int
	Dt          float64
	RecordEvery int // states are recorded at steps 0, k, 2k, ... and the last step
	Threads     int
	WallNs      int64   // wall time of the simulation loop
	NsPerStep   float64 // WallNs / Steps
	// ContactsPerStep is the mean number of contact points per step, or
	// NaN when the engine does not say.
	ContactsPerStep float64
	Note            string
	// Bodies lists the dynamic bodies' ids, in increasing order; every
	// frame has one state per entry.
	Bodies []int
	// Frames are the recorded steps in increasing order.
	Frames []Frame
	// Contacts are the contacts of contacts.csv (nil when absent), sorted
	// by step.
	Contacts []Contact
}

// Frame is the state of the dynamic bodies at one recorded step.
type Frame struct {
	Step   int
	States []State // aligned with Recording.Bodies
}

// Contact is one row of contacts.csv: a contact point used in step Step
// between bodies A and B, with the unit normal from A to B and the depth of
// overlap (>= 0, 0 for touching or continuous contacts).
type Contact struct {
	Step   int
	A, B   int
	Point  geom.Vec3
	Normal geom.Vec3
	Depth  float64
}

type recordingJSON struct {
	Format          string   `json:"format"`
	Scene           string   `json:"scene"`
	Engine          string   `json:"engine"`
	Steps           int      `json:"steps"`
	Dt              float64  `json:"dt"`
	RecordEvery     int      `json:"record_every"`
	Threads         int      `json:"threads"`
	WallNs          int64    `json:"wall_ns"`
	NsPerStep       float64  `json:"ns_per_step"`
	ContactsPerStep *float64 `json:"contacts_per_step,omitempty"`
	Note            string   `json:"note,omitempty"`
}

const (
	statesHeader   = "step,body,px,py,pz,qw,qx,qy,qz,vx,vy,vz,wx,wy,wz"
	contactsHeader = "step,a,b,px,py,pz,nx,ny,nz,depth"
)

// RecordedSteps returns the steps a recording of steps steps with
// record_every k holds: 0, k, 2k, ... and always the last step.
func RecordedSteps(steps, k int) []int {
	var out []int
	for s := 0; s < steps; s += k {
		out = append(out, s)
	}
	return append(out, steps)
}

// ReadRecording reads the recording in directory dir. It checks that the
// recorded steps are the ones record_every promises, that every frame has
// the same dynamic bodies, and that quaternions are unit.
func ReadRecording(dir string) (*Recording, error) {
	r, err := readRecording(dir)
	if err != nil {
		return nil, fmt.Errorf("simio: %w", err)
	}
	return r, nil
}

func readRecording(dir string) (*Recording, error) {
	file := filepath.Join(dir, "recording.json")
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var rj recordingJSON
	if err := json.Unmarshal(data, &rj); err != nil {
		return nil, jsonErr(file, data, err)
	}
	if rj.Format != RecordingFormat {
		return nil, formatErr(file, "format %q, want %q", rj.Format, RecordingFormat)
	}
	if rj.Steps < 1 || rj.Steps > MaxSteps {
		return nil, formatErr(file, "steps %d: want 1 to %d", rj.Steps, MaxSteps)
	}
	if rj.RecordEvery < 1 {
		return nil, formatErr(file, "record_every %d: want >= 1", rj.RecordEvery)
	}
	if !(rj.Dt > 0) || !finite(rj.Dt) {
		return nil, formatErr(file, "dt %v: want a positive step", rj.Dt)
	}
	r := &Recording{Scene: rj.Scene, Engine: rj.Engine, Steps: rj.Steps, Dt: rj.Dt, RecordEvery: rj.RecordEvery,
		Threads: rj.Threads, WallNs: rj.WallNs, NsPerStep: rj.NsPerStep, ContactsPerStep: math.NaN(), Note: rj.Note}
	if rj.ContactsPerStep != nil {
		r.ContactsPerStep = *rj.ContactsPerStep
	}
	if err := r.readStates(filepath.Join(dir, "states.csv")); err != nil {
		return nil, err
	}
	cpath := filepath.Join(dir, "contacts.csv")
	if _, err := os.Stat(cpath); err == nil {
		if err := r.readContacts(cpath); err != nil {
			return nil, err
		}
	}
	return r, nil
}

func (r *Recording) readStates(path string) error {
	want := RecordedSteps(r.Steps, r.RecordEvery)
	var cur *Frame
	err := readCSVFile(path, statesHeader, func(c *csvReader) error {
		step, err := c.int(0, "step")
		if err != nil {
			return err
		}
		body, err := c.int(1, "body")
		if err != nil {
			return err
		}
		st, err := c.state(2)
		if err != nil {
			return err
		}
		if cur == nil || step != cur.Step {
			if cur != nil && len(cur.States) != len(r.Bodies) {
				return c.errf("step %d has %d bodies, step %d has %d", cur.Step, len(cur.States), r.Frames[0].Step, len(r.Bodies))
			}
			k := len(r.Frames)
			if k >= len(want) || step != want[k] {
				exp := "no further step"
				if k < len(want) {
					exp = "step " + strconv.Itoa(want[k])
				}
				return c.errf("step %d, want %s (steps 0, %d, %d, ... and the last, %d)", step, exp, r.RecordEvery, 2*r.RecordEvery, r.Steps)
			}
			r.Frames = append(r.Frames, Frame{Step: step, States: make([]State, 0, len(r.Bodies))})
			cur = &r.Frames[k]
		}
		i := len(cur.States)
		if len(r.Frames) == 1 {
			if i > 0 && body <= r.Bodies[i-1] {
				return c.errf("body %d after body %d (rows sorted by step, then body)", body, r.Bodies[i-1])
			}
			if body < 0 || body >= MaxBodies {
				return c.errf("body %d out of range", body)
			}
			r.Bodies = append(r.Bodies, body)
		} else if i >= len(r.Bodies) || r.Bodies[i] != body {
			return c.errf("step %d: body %d where step %d has a different body list", step, body, r.Frames[0].Step)
		}
		cur.States = append(cur.States, st)
		return nil
	})
	if err != nil {
		return err
	}
	if len(r.Frames) != len(want) {
		return formatErr(path, "%d recorded steps, want %d (record_every %d, steps %d)", len(r.Frames), len(want), r.RecordEvery, r.Steps)
	}
	if cur != nil && len(cur.States) != len(r.Bodies) {
		return formatErr(path, "last step %d has %d bodies, want %d", cur.Step, len(cur.States), len(r.Bodies))
	}
	return nil
}

func (r *Recording) readContacts(path string) error {
	r.Contacts = []Contact{}
	prev := -1
	return readCSVFile(path, contactsHeader, func(c *csvReader) error {
		var ints [3]int
		var err error
		for k, name := range []string{"step", "a", "b"} {
			if ints[k], err = c.int(k, name); err != nil {
				return err
			}
		}
		if ints[0] < prev || ints[0] < 0 || ints[0] > r.Steps {
			return c.errf("step %d out of order or range", ints[0])
		}
		prev = ints[0]
		if ints[1] < 0 || ints[2] < 0 || ints[1] >= MaxBodies || ints[2] >= MaxBodies {
			return c.errf("body ids %d, %d out of range", ints[1], ints[2])
		}
		var f [7]float64
		if err := c.floats(3, f[:], "contact"); err != nil {
			return err
		}
		r.Contacts = append(r.Contacts, Contact{Step: ints[0], A: ints[1], B: ints[2],
			Point: geom.Vec3{X: f[0], Y: f[1], Z: f[2]}, Normal: geom.Vec3{X: f[3], Y: f[4], Z: f[5]}, Depth: f[6]})
		return nil
	})
}

// WriteRecording writes r into directory dir (created if needed):
// recording.json, states.csv, and contacts.csv when r.Contacts is not nil.
func WriteRecording(dir string, r *Recording) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("simio: %w", err)
	}
	rj := recordingJSON{Format: RecordingFormat, Scene: r.Scene, Engine: r.Engine, Steps: r.Steps, Dt: r.Dt,
		RecordEvery: r.RecordEvery, Threads: r.Threads, WallNs: r.WallNs, NsPerStep: r.NsPerStep, Note: r.Note}
	if !math.IsNaN(r.ContactsPerStep) {
		v := r.ContactsPerStep
		rj.ContactsPerStep = &v
	}
	if err := writeJSON(dir, "recording.json", &rj, ""); err != nil {
		return err
	}
	var buf bytes.Buffer
	buf.WriteString(statesHeader + "\n")
	for _, fr := range r.Frames {
		if len(fr.States) != len(r.Bodies) {
			return fmt.Errorf("simio: step %d has %d states for %d bodies", fr.Step, len(fr.States), len(r.Bodies))
		}
		for i, st := range fr.States {
			buf.WriteString(strconv.Itoa(fr.Step))
			buf.WriteByte(',')
			buf.WriteString(strconv.Itoa(r.Bodies[i]))
			writeState(&buf, st)
		}
	}
	if err := writeFile(dir, "states.csv", buf.Bytes()); err != nil {
		return err
	}
	if r.Contacts == nil {
		return nil
	}
	buf.Reset()
	buf.WriteString(contactsHeader + "\n")
	g := func(x float64) { buf.WriteByte(','); buf.WriteString(strconv.FormatFloat(x, 'g', 17, 64)) }
	for _, c := range r.Contacts {
		fmt.Fprintf(&buf, "%d,%d,%d", c.Step, c.A, c.B)
		for _, x := range [7]float64{c.Point.X, c.Point.Y, c.Point.Z, c.Normal.X, c.Normal.Y, c.Normal.Z, c.Depth} {
			g(x)
		}
		buf.WriteByte('\n')
	}
	return writeFile(dir, "contacts.csv", buf.Bytes())
}
