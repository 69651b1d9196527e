// Package bench runs collision algorithms on benchmark workloads in the
// format of the collide benchmark, FORMAT.md (a copy of the samples is in
// testdata/bench-samples) and writes result directories: results.csv and
// timing.json per algorithm, timed as the format's Sec. 7 prescribes.
//
// Algorithms plug in through RegisterNarrow, RegisterBroad, RegisterCCD and
// RegisterContact,
// each from its own file (algo_*.go) so that every algorithm family of the
// library is reachable from "collide bench".
package bench

import (
	"fmt"
	"github.com/collide-go/collide/broad"
	"sort"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Workload is a loaded benchmark workload.
type Workload struct {
	Dir  string // directory it was read from
	Name string // workload.json "name"
	Kind string // "frames", "motions" or "placements"

	// Meshes in workload.json order, their names, and name -> index.
	Meshes    []*mesh.Mesh
	MeshNames []string
	MeshIndex map[string]int

	// Frames workloads: the mesh index of every body, the number of
	// frames and the poses, Poses[frame][body].
	BodyMesh []int
	Frames   int
	Poses    [][]geom.Pose

	// Motions workloads: the queries in file order.
	Queries []Query

	// Placements workloads: the placements in file order.
	Placements []Placement

	params map[string]any // generator parameters, for Save
	seed   uint64
}

// Query is one "motions" query: body A (mesh MeshA) moves from A0 to A1 and
// body B (mesh MeshB) from B0 to B1 by a screw motion during t in [0, 1].
type Query struct {
	ID             int
	MeshA, MeshB   int // indices into Workload.Meshes
	A0, A1, B0, B1 geom.Pose
}

// Pair is a pair of body ids, A < B: the broad phase's pair type.
type Pair = broad.Pair

// NarrowAlgo answers "narrow" queries of a frames workload: do the convex
// hulls of two bodies intersect (touching counts)? It is made once per
// workload (untimed preprocessing); Reset is called before every pass over
// the workload (so caches carried from frame to frame start empty), then
// Test for every AABB-overlapping pair of every frame, frames in order.
type NarrowAlgo interface {
	Reset()
	Test(frame, a, b int, ta, tb *geom.Transform) bool
}

// FrameNarrowAlgo is a NarrowAlgo that can also test a whole frame's pairs
// in one call, which lets it do the per-body work of the frame (such as
// transforming the vertices of every body that takes part in a test) in one
// batch before the pair tests, instead of at each body's first test. Run
// calls TestFrame, and times all of it, when an algorithm has it; the
// pairs come in the order of the frame's pair list, and the per-pair Test
// must give the same answers.
type FrameNarrowAlgo interface {
	NarrowAlgo
	// TestFrame sets hit[k] to the answer for pairs[k] (len(hit) ==
	// len(pairs)); tf[b] is body b's transform in this frame.
	TestFrame(frame int, tf []geom.Transform, pairs []Pair, hit []bool)
}

// BroadAlgo answers "broad" queries: per frame it receives every body's
// world AABB (index = body id) and appends every overlapping pair a < b to
// dst, with no duplicates, in any order. Reset is called before each pass.
type BroadAlgo interface {
	Reset()
	Frame(boxes []geom.AABB, dst []Pair) []Pair
}

// CCDAlgo answers "ccd" queries of a motions workload: the first time of
// contact in [0, 1] of the two solids, if any.
type CCDAlgo interface {
	Query(q *Query) (hit bool, toc float64)
}

// Factory types build an algorithm for a workload (untimed).
type (
	NarrowFactory func(w *Workload) (NarrowAlgo, error)
	BroadFactory  func(w *Workload) (BroadAlgo, error)
	CCDFactory    func(w *Workload) (CCDAlgo, error)
)

type entry struct {
	name, task string
	narrow     NarrowFactory
	broad      BroadFactory
	ccd        CCDFactory
	contact    ContactFactory
	meshdist   MeshDistFactory
}

var registry = map[string]*entry{}

func add(e *entry) {
	if _, dup := registry[e.name]; dup {
		panic(fmt.Sprintf("bench: algorithm %q registered twice", e.name))
	}
	registry[e.name] = e
}

// RegisterNarrow registers a narrow-phase algorithm under name.
func RegisterNarrow(name string, f NarrowFactory) { add(&entry{name: name, task: "narrow", narrow: f}) }

// RegisterBroad registers a broad-phase algorithm under name.
func RegisterBroad(name string, f BroadFactory) { add(&entry{name: name, task: "broad", broad: f}) }

// RegisterCCD registers a continuous collision algorithm under name.
func RegisterCCD(name string, f CCDFactory) { add(&entry{name: name, task: "ccd", ccd: f}) }

// Algorithms returns the registered algorithm names for a task ("narrow",
// "broad", "ccd" or "contact"), sorted.
func Algorithms(task string) []string {
	var names []string
	for n, e := range registry {
		if e.task == task {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return names
}
