package main

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/collide-go/collide/bench"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/world"
)

func init() {
	registerDemo(demoSection{order: 70, title: "world: 300 bodies in a box, broad phase then per-pair narrow phase (sweep and prune, Chung-Wang Sec. 1)", run: demoWorld})
}

// worldConfig is a scene for "collide world".
type worldConfig struct {
	Bodies  int     `json:"bodies"`
	Steps   int     `json:"steps"`
	Verts   int     `json:"verts"`
	Workers int     `json:"workers"`
	Kind    string  `json:"kind"`
	Broad   string  `json:"broad"`
	Speed   float64 `json:"speed"`
	RotDeg  float64 `json:"rot_deg"`
	Density float64 `json:"density"`
	Seed    uint64  `json:"seed"`
}

// worldStep is one step's report.
type worldStep struct {
	Step       int            `json:"step"`
	BroadPairs int            `json:"broad_pairs"`
	Tests      int            `json:"tests"`
	Contacts   int            `json:"contacts"`
	BroadNS    int64          `json:"broad_ns"`
	NarrowNS   int64          `json:"narrow_ns"`
	List       []worldContact `json:"contact_list,omitempty"`
	ByMethod   map[string]int `json:"tests_by_method"`
	stats      world.Stats
}

type worldContact struct {
	A      int        `json:"a"`
	B      int        `json:"b"`
	Method string     `json:"method"`
	Time   float64    `json:"time"`
	Point  [3]float64 `json:"point"`
	Normal [3]float64 `json:"normal"`
}

// worldScene is the running scene: the poses of a generated frames
// workload (bench.GenerateFrames, the bench's "polytopes" generator) played
// through a world.
type worldScene struct {
	w     *world.World
	ids   []world.BodyID
	src   *bench.FrameSource
	poses []geom.Pose // the current frame's
	side  float64
}

func parseKind(s string) ([]world.BodyKind, error) {
	switch s {
	case "convex":
		return []world.BodyKind{world.Convex}, nil
	case "polyhedron":
		return []world.BodyKind{world.Polyhedron}, nil
	case "soup":
		return []world.BodyKind{world.Soup}, nil
	case "mixed":
		return []world.BodyKind{world.Convex, world.Convex, world.Polyhedron, world.Soup}, nil
	}
	return nil, usagef("--kind must be convex, polyhedron, soup or mixed, got %q", s)
}

func parseBroad(s string) (world.BroadKind, error) {
	switch s {
	case "sweep":
		return world.BroadSweep, nil
	case "sap":
		return world.BroadSAP, nil
	case "tree":
		return world.BroadTree, nil
	case "brute":
		return world.BroadBrute, nil
	}
	return 0, usagef("--broad must be sweep, sap, tree or brute, got %q", s)
}

// newWorldScene generates the polytopes and their poses (Chung-Wang Sec. 6
// ellipsoids, rods and plates bouncing in a box) and adds the bodies with
// the kinds of --kind in turn.
func newWorldScene(c worldConfig) (*worldScene, error) {
	kinds, err := parseKind(c.Kind)
	if err != nil {
		return nil, err
	}
	bk, err := parseBroad(c.Broad)
	if err != nil {
		return nil, err
	}
	w, err := world.New(&world.Options{Broad: bk, Workers: c.Workers})
	if err != nil {
		return nil, err
	}
	src, err := bench.NewFrameSource(bench.FramesSpec{Bodies: c.Bodies, Verts: c.Verts, Frames: c.Steps + 1,
		Density: c.Density, Speed: c.Speed, RotDeg: c.RotDeg, Seed: c.Seed})
	if err != nil {
		return nil, err
	}
	wl := src.Workload()
	s := &worldScene{w: w, src: src, poses: src.Next(nil)}
	box := geom.EmptyAABB()
	for i, mi := range wl.BodyMesh {
		p := s.poses[i]
		id, err := w.Add(world.BodyDef{Mesh: wl.Meshes[mi], Kind: kinds[i%len(kinds)], Pose: p})
		if err != nil {
			return nil, err
		}
		s.ids = append(s.ids, id)
		box = box.AddPoint(p.P)
	}
	s.side = box.Size().MaxAbs()
	return s, nil
}

// advance moves every body to its pose in the next frame and runs the
// world step.
func (s *worldScene) advance(dst []world.Contact) ([]world.Contact, error) {
	s.poses = s.src.Next(s.poses)
	for i, id := range s.ids {
		if err := s.w.Move(id, s.poses[i]); err != nil {
			return dst, err
		}
	}
	return s.w.Step(dst)
}

func runWorld(e *env, args []string) error {
	fs := newFlags("world")
	var c worldConfig
	fs.IntVar(&c.Bodies, "bodies", 500, "number of bodies")
	fs.IntVar(&c.Steps, "steps", 40, "number of steps")
	fs.IntVar(&c.Verts, "verts", 10, "vertices per random polytope")
	fs.IntVar(&c.Workers, "workers", 0, "goroutines for the pair work (0: all cores)")
	fs.StringVar(&c.Kind, "kind", "convex", "body kind: convex, polyhedron, soup or mixed")
	fs.StringVar(&c.Broad, "broad", "sweep", "broad phase: sweep, sap, tree or brute")
	fs.Float64Var(&c.Speed, "speed", 0.05, "translation per step, fraction of the radius")
	fs.Float64Var(&c.RotDeg, "rot", 10, "rotation per step, degrees")
	fs.Float64Var(&c.Density, "density", 0.05, "total body volume over box volume")
	fs.Uint64Var(&c.Seed, "seed", 1, "random seed")
	list := fs.Bool("contacts", false, "list every contact")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress output")
	html := fs.String("html", "", "also write a 3D viewer of the steps and their contacts as one HTML file (runs the steps once more)")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	if *html != "" {
		if err := writeWorldHTML(e, *html, c); err != nil {
			return err
		}
	}
	s, err := newWorldScene(c)
	if err != nil {
		return err
	}
	prog := newProgress(e.stderr, *quiet || *asJSON, "world")
	defer prog.done()
	var sum worldTotals
	if *asJSON {
		// One JSON object, written step by step: the config, the steps,
		// then the summary.
		cfg, err := json.Marshal(c)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, `{"config":%s,"spread":%s,"steps":[`, cfg, strconv.FormatFloat(s.side, 'g', -1, 64))
		err = runWorldSteps(s, c.Steps, *list, prog.update, func(st *worldStep) error {
			b, err := json.Marshal(st)
			if err != nil {
				return err
			}
			if st.Step > 0 {
				e.stdout.Write([]byte{','})
			}
			_, err = e.stdout.Write(b)
			sum.add(st)
			return err
		})
		if err != nil {
			return err
		}
		b, err := json.Marshal(sum.summary())
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "],\"summary\":%s}\n", b)
		return nil
	}
	err = runWorldSteps(s, c.Steps, *list, prog.update, func(st *worldStep) error {
		if st.Step == 0 {
			fmt.Fprintf(e.stdout, "%d %s bodies (spread %.3g), %s broad phase, %d workers\n", c.Bodies, c.Kind, s.side, c.Broad, st.stats.Workers)
		}
		fmt.Fprintf(e.stdout, "step %3d: %6d broad pairs %6d tests %5d contacts  broad %8.1f us  narrow %9.1f us\n",
			st.Step, st.BroadPairs, st.Tests, st.Contacts, float64(st.BroadNS)/1e3, float64(st.NarrowNS)/1e3)
		for _, ct := range st.List {
			fmt.Fprintf(e.stdout, "    %d-%d %s t=%.6g point (%.6g, %.6g, %.6g) normal (%.4g, %.4g, %.4g)\n", ct.A, ct.B, ct.Method, ct.Time,
				ct.Point[0], ct.Point[1], ct.Point[2], ct.Normal[0], ct.Normal[1], ct.Normal[2])
		}
		sum.add(st)
		return nil
	})
	if err != nil {
		return err
	}
	m := sum.summary()
	fmt.Fprintf(e.stdout, "mean per step: %.1f broad pairs, %.1f tests, %.1f contacts; broad %.1f us, narrow %.1f us (%.0f ns per test)\n",
		m.BroadPairs, m.Tests, m.Contacts, m.BroadUS, m.NarrowUS, m.NSPerTest)
	return nil
}

// Limits of "collide world": a scene beyond them would not fit in memory
// or in any sensible run time.
const (
	worldMaxBodies  = 200_000
	worldMaxVerts   = 100_000
	worldMaxTotal   = 20_000_000 // bodies x verts
	worldMaxSteps   = 100_000_000
	worldMaxWorkers = 1024
)

// validate checks every flag of c and names the first one out of range.
func (c worldConfig) validate() error {
	bad := func(flag string, v any, want string) error {
		return usagef("--%s %v: %s", flag, v, want)
	}
	switch {
	case c.Bodies < 1 || c.Bodies > worldMaxBodies:
		return bad("bodies", c.Bodies, fmt.Sprintf("must be in [1, %d]", worldMaxBodies))
	case c.Steps < 1 || c.Steps > worldMaxSteps:
		return bad("steps", c.Steps, fmt.Sprintf("must be in [1, %d]", worldMaxSteps))
	case c.Verts < 4 || c.Verts > worldMaxVerts:
		return bad("verts", c.Verts, fmt.Sprintf("must be in [4, %d]", worldMaxVerts))
	case c.Bodies*c.Verts > worldMaxTotal:
		return bad("verts", c.Verts, fmt.Sprintf("with --bodies %d makes %d vertices, more than %d", c.Bodies, c.Bodies*c.Verts, worldMaxTotal))
	case c.Workers < 0 || c.Workers > worldMaxWorkers:
		return bad("workers", c.Workers, fmt.Sprintf("must be in [0, %d] (0: all cores)", worldMaxWorkers))
	case !(c.Density > 0 && c.Density < 1):
		return bad("density", c.Density, "must be in (0, 1)")
	case !(c.Speed >= 0) || math.IsInf(c.Speed, 0):
		return bad("speed", c.Speed, "must be finite and >= 0")
	case !(c.RotDeg >= 0) || math.IsInf(c.RotDeg, 0):
		return bad("rot", c.RotDeg, "must be finite and >= 0")
	}
	return nil
}

// worldTotals accumulates the steps' figures for the summary.
type worldTotals struct {
	n                           int
	broadPairs, tests, contacts int
	broadNS, narrowNS           int64
}

func (t *worldTotals) add(st *worldStep) {
	t.n++
	t.broadPairs += st.BroadPairs
	t.tests += st.Tests
	t.contacts += st.Contacts
	t.broadNS += st.BroadNS
	t.narrowNS += st.NarrowNS
}

// summary returns the means per step.
func (t *worldTotals) summary() worldSummary {
	var s worldSummary
	if t.n == 0 {
		return s
	}
	n := float64(t.n)
	s.BroadPairs = float64(t.broadPairs) / n
	s.Tests = float64(t.tests) / n
	s.Contacts = float64(t.contacts) / n
	s.BroadUS = float64(t.broadNS) / 1e3 / n
	s.NarrowUS = float64(t.narrowNS) / 1e3 / n
	if t.tests > 0 {
		s.NSPerTest = float64(t.narrowNS) / float64(t.tests)
	}
	return s
}

type worldSummary struct {
	BroadPairs float64 `json:"broad_pairs"`
	Tests      float64 `json:"tests"`
	Contacts   float64 `json:"contacts"`
	BroadUS    float64 `json:"broad_us"`
	NarrowUS   float64 `json:"narrow_us"`
	NSPerTest  float64 `json:"ns_per_test"`
}

// runWorldSteps runs n steps and hands each step's report to emit as it
// is made (no report is kept).
func runWorldSteps(s *worldScene, n int, list bool, progress func(done, total int), emit func(*worldStep) error) error {
	var cs []world.Contact
	ws := worldStep{ByMethod: map[string]int{}}
	for i := 0; i < n; i++ {
		var err error
		if cs, err = s.advance(cs[:0]); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		st := s.w.Stats()
		ws = worldStep{Step: i, BroadPairs: st.BroadPairs, Tests: st.Tests, Contacts: st.Contacts,
			BroadNS: st.Broad.Nanoseconds(), NarrowNS: st.Narrow.Nanoseconds(), ByMethod: ws.ByMethod, List: ws.List[:0], stats: st}
		clear(ws.ByMethod)
		for m, k := range st.ByMethod {
			if k > 0 {
				ws.ByMethod[world.Method(m).String()] = k
			}
		}
		if list {
			for _, c := range cs {
				ws.List = append(ws.List, worldContact{A: int(c.A), B: int(c.B), Method: c.Method.String(), Time: c.Time,
					Point: [3]float64{c.Point.X, c.Point.Y, c.Point.Z}, Normal: [3]float64{c.Normal.X, c.Normal.Y, c.Normal.Z}})
			}
		}
		if err := emit(&ws); err != nil {
			return err
		}
		progress(i+1, n)
	}
	return nil
}

// demoWorld runs a mixed scene of 300 bodies for 10 steps.
func demoWorld(e *env, _ string) error {
	c := worldConfig{Bodies: 300, Steps: 10, Verts: 10, Kind: "mixed", Broad: "sweep", Speed: 0.05, RotDeg: 10, Density: 0.05, Seed: 1}
	s, err := newWorldScene(c)
	if err != nil {
		return err
	}
	var t worldTotals
	err = runWorldSteps(s, c.Steps, false, func(int, int) {}, func(st *worldStep) error { t.add(st); return nil })
	if err != nil {
		return err
	}
	sum := t.summary()
	fmt.Fprintf(e.stdout, "300 mixed bodies (convex: separating vector; polyhedra: screw CCD; soups: time of contact), 10 steps:\n")
	fmt.Fprintf(e.stdout, "  per step %.1f broad pairs, %.1f narrow tests, %.1f contacts; broad phase %.1f us, narrow phase %.1f us\n",
		sum.BroadPairs, sum.Tests, sum.Contacts, sum.BroadUS, sum.NarrowUS)
	return nil
}
