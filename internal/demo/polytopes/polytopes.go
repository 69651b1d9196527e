// Package polytopes runs the experiments of Chung and Wang, "Quick
// Collision Detection of Polytopes in Virtual Environments" (Sec. 6),
// behind "collide experiment polytopes": polytopes of n vertices shaped
// as ellipsoids, rods and plates move in a closed box (a translation of a
// fraction of the radius and a rotation per frame, velocities reversed on
// collision); every pair whose bounding boxes overlap is tested by the
// separating-vector search with its per-pair cache, and timed against the
// search without cache and GJK with and without warm start. The bodies
// live in a world (package world): it moves them, finds the pairs whose
// boxes overlap (World.QueryBox) and gives the contacts that drive the
// collision response, which must name exactly the pairs the timed methods
// find intersecting.
package polytopes

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"sort"
	"time"

	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/cputime"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/world"
)

// Config is one simulation.
type Config struct {
	Shape   string  `json:"shape"` // ellipsoid, rod, plate or mixed
	N       int     `json:"n"`     // vertices per polytope
	Bodies  int     `json:"bodies"`
	Frames  int     `json:"frames"`
	Meshes  int     `json:"meshes"`  // distinct random polytopes, shared by the bodies
	Speed   float64 `json:"speed"`   // translation per frame, fraction of the radius
	RotDeg  float64 `json:"rot_deg"` // rotation per frame, degrees
	Density float64 `json:"density"` // body volume / box volume
	Seed    uint64  `json:"seed"`
}

// Algorithms are the timed narrow-phase methods, in the order they run.
var Algorithms = []string{"sepvec", "sepvec-nocache", "gjk", "gjk-warm"}

// Stats is the outcome of one simulation.
type Stats struct {
	Config        Config             `json:"config"`
	Verts         float64            `json:"mean_vertices"` // actual hull vertex count
	Tests         int                `json:"tests"`
	Separated     int                `json:"separated"`
	KAll          []int              `json:"k_all"` // histogram: KAll[k] tests ended after k iterations
	KSep          []int              `json:"k_separated"`
	MaxK          int                `json:"max_k"`
	MaxKSep       int                `json:"max_k_separated"`
	Restarts      int                `json:"restarts"`      // tests with a Lemma 4 restart
	Fallbacks     int                `json:"fallbacks"`     // tests decided by GJK
	Witness       int                `json:"witness"`       // intersecting by the cached tetrahedron
	Disagreements int                `json:"disagreements"` // tests where the methods (or the world's contacts) disagree
	NsPerTest     map[string]float64 `json:"ns_per_test"`   // by algorithm
	Seconds       float64            `json:"seconds"`       // wall time of the simulation
	Collisions    int                `json:"collision_events"`
}

// FracKAtMost returns the fraction of total tests of histogram h that
// ended after at most k iterations.
func (s *Stats) FracKAtMost(h []int, k int, total int) float64 {
	if total == 0 {
		return math.NaN()
	}
	n := 0
	for i := 0; i <= k && i < len(h); i++ {
		n += h[i]
	}
	return float64(n) / float64(total)
}

// MeanK returns the mean number of iterations over all tests.
func (s *Stats) MeanK() float64 {
	sum := 0
	for k, c := range s.KAll {
		sum += k * c
	}
	if s.Tests == 0 {
		return math.NaN()
	}
	return float64(sum) / float64(s.Tests)
}

// randomPolytope is shapes.RandomPolytope (points on the surface of an
// ellipsoid, rod or plate, exactly n hull vertices) of a random radius in
// [0.8, 1.1], prepared for the queries.
func randomPolytope(rng *rand.Rand, shape string, n int) (*convex.Polytope, error) {
	sh, err := shapes.ParsePolytopeShape(shape)
	if err != nil {
		return nil, err
	}
	radius := 0.8 + 0.3*rng.Float64()
	if err := shapes.CheckPolytope(sh, n, radius); err != nil {
		return nil, err
	}
	return convex.New(shapes.RandomPolytope(sh, n, radius, rng.Uint64()))
}

type simBody struct {
	poly   *convex.Polytope
	p      geom.Vec3 // position (the local origin)
	q      geom.Quat
	v      geom.Vec3 // velocity per frame
	w      geom.Vec3 // rotation vector per frame
	tr     geom.Transform
	box    geom.AABB
	radius float64
}

// Simulate runs one configuration; progress, if not nil, is called after
// every frame.
func Simulate(cfg Config, progress func(frame int)) (*Stats, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, uint64(cfg.N)*7919+uint64(len(cfg.Shape))))
	st := &Stats{Config: cfg, NsPerTest: map[string]float64{}}
	shapesFor := func(i int) string {
		if cfg.Shape == "mixed" {
			return []string{"ellipsoid", "rod", "plate"}[i%3]
		}
		return cfg.Shape
	}
	nm := cfg.Meshes
	if nm <= 0 || nm > cfg.Bodies {
		nm = cfg.Bodies
	}
	polys := make([]*convex.Polytope, nm)
	vol := make([]float64, nm)
	for i := range polys {
		p, err := randomPolytope(rng, shapesFor(i), cfg.N)
		if err != nil {
			return nil, fmt.Errorf("polytope %d: %w", i, err)
		}
		polys[i], vol[i] = p, p.Mesh().Volume()
		st.Verts += float64(p.NumVerts()) / float64(nm)
	}
	total := 0.0
	bodies := make([]simBody, cfg.Bodies)
	for i := range bodies {
		total += vol[i%nm]
	}
	L := math.Cbrt(total / cfg.Density)
	for i := range bodies {
		b := &bodies[i]
		b.poly = polys[i%nm]
		b.radius = b.poly.Radius()
		lo, hi := b.radius, L-b.radius
		if hi < lo {
			lo, hi = L/2, L/2
		}
		b.p = geom.Vec3{X: lo + (hi-lo)*rng.Float64(), Y: lo + (hi-lo)*rng.Float64(), Z: lo + (hi-lo)*rng.Float64()}
		b.q, _ = geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		d := func() geom.Vec3 {
			for {
				u, ok := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
				if ok {
					return u
				}
			}
		}
		b.v = d().Scale(cfg.Speed * b.radius)
		b.w = d().Scale(cfg.RotDeg * math.Pi / 180)
	}
	// The world moves the bodies, runs the broad phase and the separating
	// vector with its per-pair cache on every candidate pair; its contacts
	// drive the collision response. Bodies are added in order to a fresh
	// world, so body i has id i.
	w, err := world.New(&world.Options{Workers: 1})
	if err != nil {
		return nil, err
	}
	for i := range bodies {
		b := &bodies[i]
		if _, err := w.Add(world.BodyDef{Mesh: b.poly.Mesh(), Kind: world.Convex, Pose: geom.Pose{P: b.p, Q: b.q}}); err != nil {
			return nil, fmt.Errorf("body %d: %w", i, err)
		}
	}
	var sv convex.Searcher
	var svc, svTimed convex.PairMap[convex.Cache]
	var gwc convex.PairMap[convex.GJKCache]
	colliding := map[[2]int32]bool{}
	type pair struct{ a, b int32 }
	var pairs []pair
	var near []world.BodyID
	var contacts []world.Contact
	status := make([]convex.Status, 0, 1024)
	reversed := make([]bool, len(bodies))
	var ns [4]time.Duration
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	start := time.Now()
	for f := 0; f < cfg.Frames; f++ {
		// Move, bounce off the walls (bounding sphere), update boxes.
		for i := range bodies {
			b := &bodies[i]
			if f > 0 {
				b.p = b.p.Add(b.v)
				b.q, _ = geom.QuatRotationVector(b.w).Mul(b.q).Normalize()
				for k := 0; k < 3; k++ {
					if (b.p.Get(k)-b.radius < 0 && b.v.Get(k) < 0) || (b.p.Get(k)+b.radius > L && b.v.Get(k) > 0) {
						b.v = b.v.Set(k, -b.v.Get(k))
					}
				}
				if err := w.Move(world.BodyID(i), geom.Pose{P: b.p, Q: b.q}); err != nil {
					return nil, fmt.Errorf("frame %d: %w", f, err)
				}
			}
			b.tr = geom.Pose{P: b.p, Q: b.q}.Transform()
			box := geom.EmptyAABB()
			for k := 0; k < b.poly.NumVerts(); k++ {
				box = box.AddPoint(b.tr.Apply(b.poly.Vertex(k)))
			}
			b.box = box
			reversed[i] = false
		}
		if contacts, err = w.Step(contacts[:0]); err != nil {
			return nil, fmt.Errorf("frame %d: %w", f, err)
		}
		// The pairs whose bounding boxes overlap (the experiment's tests),
		// from the world's box query.
		pairs = pairs[:0]
		for i := range bodies {
			near = w.QueryBox(bodies[i].box, near[:0])
			for _, j := range near {
				if int(j) > i && bodies[i].box.Overlaps(bodies[j].box) {
					pairs = append(pairs, pair{int32(i), int32(j)})
				}
			}
		}
		sort.Slice(pairs, func(i, j int) bool {
			return pairs[i].a < pairs[j].a || pairs[i].a == pairs[j].a && pairs[i].b < pairs[j].b
		})
		// The separating vector with coherence: the statistics (untimed;
		// this pass also brings the frame's data into the caches).
		status = status[:0]
		for _, pr := range pairs {
			a, b := &bodies[pr.a], &bodies[pr.b]
			r := sv.Intersect(a.poly, &a.tr, b.poly, &b.tr, svc.Get(int(pr.a), int(pr.b)))
			status = append(status, r.Status)
			k := r.Iterations
			for len(st.KAll) <= k {
				st.KAll = append(st.KAll, 0)
				st.KSep = append(st.KSep, 0)
			}
			st.KAll[k]++
			st.MaxK = max(st.MaxK, k)
			if r.Status == convex.Separated {
				st.Separated++
				st.KSep[k]++
				st.MaxKSep = max(st.MaxKSep, k)
			}
			if r.Restarts > 0 {
				st.Restarts++
			}
			if r.Fallback {
				st.Fallbacks++
			}
			if r.Witness {
				st.Witness++
			}
		}
		st.Tests += len(pairs)
		// The four methods timed over the same tests, in an order that
		// rotates from frame to frame. The timed search with coherence has
		// its own caches, which evolve exactly as the statistics pass's.
		for j := 0; j < len(Algorithms); j++ {
			alg := (f + j) % len(Algorithms)
			t0 := cputime.Thread()
			for i, pr := range pairs {
				a, b := &bodies[pr.a], &bodies[pr.b]
				var got convex.Status
				switch alg {
				case 0:
					got = sv.Intersect(a.poly, &a.tr, b.poly, &b.tr, svTimed.Get(int(pr.a), int(pr.b))).Status
				case 1:
					got = sv.Intersect(a.poly, &a.tr, b.poly, &b.tr, nil).Status
				case 2:
					got = convex.GJKIntersect(a.poly, &a.tr, b.poly, &b.tr, nil, nil).Status
				default:
					got = convex.GJKIntersect(a.poly, &a.tr, b.poly, &b.tr, gwc.Get(int(pr.a), int(pr.b)), nil).Status
				}
				if got != status[i] {
					st.Disagreements++
				}
			}
			ns[alg] += time.Duration(cputime.Thread() - t0)
		}
		// Collision response: reverse both velocities when a pair starts
		// colliding (Sec. 6), once per body and frame. The world's
		// contacts name the colliding pairs; they must be the pairs the
		// statistics pass found intersecting.
		now := make(map[[2]int32]bool, len(pairs)/2)
		for _, c := range contacts {
			now[[2]int32{int32(c.A), int32(c.B)}] = true
		}
		for i, pr := range pairs {
			if now[[2]int32{pr.a, pr.b}] != (status[i] == convex.Intersecting) {
				st.Disagreements++
			}
		}
		for key := range now {
			if colliding[key] {
				continue
			}
			st.Collisions++
			for _, id := range key {
				if !reversed[id] {
					reversed[id] = true
					bodies[id].v, bodies[id].w = bodies[id].v.Neg(), bodies[id].w.Neg()
				}
			}
		}
		colliding = now
		if progress != nil {
			progress(f + 1)
		}
	}
	st.Seconds = time.Since(start).Seconds()
	for i, name := range Algorithms {
		if st.Tests > 0 {
			st.NsPerTest[name] = float64(ns[i].Nanoseconds()) / float64(st.Tests)
		}
	}
	return st, nil
}
