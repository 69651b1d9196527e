package sim

import (
	"fmt"
	"runtime"
	"time"

	"github.com/collide-go/collide/simio"
)

// FromScene builds a simulation of a scene of the collide simulation format:
// its bodies in id order (BodyID i is the scene's body i), gravity, step,
// friction and restitution. opt supplies the other options (nil for the
// defaults); its Gravity, Dt, Friction and Restitution are replaced by the
// scene's.
func FromScene(sc *simio.Scene, opt *Options) (*Sim, error) {
	var o Options
	if opt != nil {
		o = *opt
	}
	o.Gravity, o.Dt, o.Friction, o.Restitution = sc.Gravity, sc.Dt, sc.Friction, sc.Restitution
	s, err := New(&o)
	if err != nil {
		return nil, err
	}
	if len(sc.Initial) != len(sc.Bodies) {
		return nil, fmt.Errorf("sim: scene %s: %d initial states for %d bodies", sc.Name, len(sc.Initial), len(sc.Bodies))
	}
	for i, b := range sc.Bodies {
		if b.Mesh < 0 || b.Mesh >= len(sc.Meshes) {
			return nil, fmt.Errorf("sim: scene %s: body %d: mesh index %d out of range", sc.Name, i, b.Mesh)
		}
		st := sc.Initial[i]
		if _, err := s.Add(BodyDef{Mesh: sc.Meshes[b.Mesh].Mesh, Static: b.Static, Mass: b.Mass, Inertia: b.Inertia, Pose: st.Pose, V: st.V, W: st.W}); err != nil {
			return nil, fmt.Errorf("sim: scene %s: %w", sc.Name, err)
		}
	}
	return s, nil
}

// RunOptions configure Run.
type RunOptions struct {
	// RecordEvery is k: states are kept at steps 0, k, 2k, ... and the last
	// step (default 1).
	RecordEvery int
	// Contacts keeps the contacts the solver used (normal impulse > 0) at
	// the recorded steps.
	Contacts bool
	// Progress, when not nil, is called after every step with the number
	// of steps done.
	Progress func(done int)
}

// RunStats summarise a run.
type RunStats struct {
	Steps           int
	WallNs          int64   // the simulation loop only
	ContactsPerStep float64 // mean contact points per step
	MaxDepth        float64 // deepest overlap among the contacts found, metres
}

// Run simulates a scene for its number of steps and returns the recording
// (engine, threads and timing filled in) and a summary. Only the loop is
// timed, as the format asks: building the simulation and the recording's
// memory are outside it, and so are sizing and first writing the contact
// buffers and a garbage collection of the setup.
func Run(sc *simio.Scene, opt *Options, ro *RunOptions) (*simio.Recording, RunStats, error) {
	var r RunOptions
	if ro != nil {
		r = *ro
	}
	if r.RecordEvery <= 0 {
		r.RecordEvery = 1
	}
	s, err := FromScene(sc, opt)
	if err != nil {
		return nil, RunStats{}, err
	}
	rec := &simio.Recording{
		Scene:       sc.Name,
		Steps:       sc.Steps,
		Dt:          sc.Dt,
		RecordEvery: r.RecordEvery,
		Threads:     s.opt.Workers,
		Engine:      fmt.Sprintf("collide sim (substeps %d, soft contacts %g Hz, speculative margin, vertex-face and edge-edge contacts)", s.opt.Substeps, s.opt.ContactHertz),
	}
	var dyn []BodyID
	for i := range s.bodies {
		if !s.bodies[i].static {
			dyn = append(dyn, BodyID(i))
			rec.Bodies = append(rec.Bodies, i)
		}
	}
	steps := simio.RecordedSteps(sc.Steps, r.RecordEvery)
	rec.Frames = make([]simio.Frame, len(steps))
	for i, st := range steps {
		rec.Frames[i] = simio.Frame{Step: st, States: make([]simio.State, len(dyn))}
	}
	snap := func(f *simio.Frame) {
		for j, id := range dyn {
			b := &s.bodies[id]
			f.States[j] = simio.State{Pose: b.pose, V: b.v, W: b.w}
		}
	}
	next := 0
	if len(steps) > 0 && steps[0] == 0 {
		snap(&rec.Frames[0])
		next = 1
	}
	var st RunStats
	total := 0
	s.reserve()
	// Collect the garbage of reading and preparing the scene now, so that
	// a collection does not run concurrently with the timed loop.
	runtime.GC()
	start := time.Now()
	for step := 1; step <= sc.Steps; step++ {
		if err := s.Step(); err != nil {
			return nil, st, fmt.Errorf("sim: scene %s: step %d: %w", sc.Name, step, err)
		}
		total += len(s.raw)
		if s.stats.MaxDepth > st.MaxDepth {
			st.MaxDepth = s.stats.MaxDepth
		}
		if next < len(steps) && steps[next] == step {
			snap(&rec.Frames[next])
			if r.Contacts {
				for _, c := range s.raw {
					if c.Impulse <= 0 {
						continue
					}
					d := -c.Separation
					if d < 0 {
						d = 0
					}
					rec.Contacts = append(rec.Contacts, simio.Contact{Step: step, A: int(c.A), B: int(c.B), Point: c.Point, Normal: c.Normal, Depth: d})
				}
			}
			next++
		}
		if r.Progress != nil {
			r.Progress(step)
		}
	}
	st.WallNs = time.Since(start).Nanoseconds()
	st.Steps = sc.Steps
	if sc.Steps > 0 {
		st.ContactsPerStep = float64(total) / float64(sc.Steps)
		rec.NsPerStep = float64(st.WallNs) / float64(sc.Steps)
	}
	rec.WallNs = st.WallNs
	rec.ContactsPerStep = st.ContactsPerStep
	return rec, st, nil
}
