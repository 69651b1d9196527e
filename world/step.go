package world

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/toc"
)

// Contact is a pair of bodies found colliding in a step.
type Contact struct {
	A, B   BodyID // A < B
	Method Method
	// Time is the first time of contact in [0, 1] (0 = the start poses,
	// 1 = the end poses) for continuous methods, and 1 for the discrete
	// methods, which test the end poses.
	Time float64
	// Point and Normal locate the contact at Time in world coordinates;
	// Normal is a unit vector from A towards B. Both are zero for the
	// discrete methods, which only decide intersection.
	Point, Normal geom.Vec3
}

// String formats a contact on one line.
func (c Contact) String() string {
	return fmt.Sprintf("%d-%d %v t=%.6g p=%v n=%v", c.A, c.B, c.Method, c.Time, c.Point, c.Normal)
}

// Stats describes the last step.
type Stats struct {
	Bodies     int             // bodies in the world
	BroadPairs int             // pairs whose boxes overlap
	Tests      int             // pairs given to a narrow phase (after filters)
	Contacts   int             // pairs found colliding
	ByMethod   [numMethods]int // tests per method
	Broad      time.Duration   // time of the broad phase (boxes and pairs)
	Narrow     time.Duration   // time of the narrow phase
	Workers    int             // goroutines used for the narrow phase
}

// Stats returns the statistics of the last Step.
func (w *World) Stats() Stats { return w.stats }

// Motion models whose swept boxes a body needs.
const (
	motionEnd    = 1 << iota // discrete test at the end pose
	motionScrew              // screw motion between the poses
	motionLinear             // constant linear and angular velocity
	motionVerts              // vertices moving on straight lines
)

func motionOf(m Method) uint8 {
	switch m {
	case SeparatingVector, GJK:
		return motionEnd
	case ScrewCCD:
		return motionScrew
	case TimeOfContact:
		return motionLinear
	case ElementaryCCD:
		return motionVerts
	}
	return 0
}

// tightBox returns the box of the mesh's vertices at pose p.
func tightBox(sh *shape, p geom.Pose) geom.AABB {
	t := p.Transform()
	vs := sh.mesh.Verts
	lo := t.Apply(vs[0])
	hi := lo
	for _, v := range vs[1:] {
		x := t.Apply(v)
		if x.X < lo.X {
			lo.X = x.X
		}
		if x.X > hi.X {
			hi.X = x.X
		}
		if x.Y < lo.Y {
			lo.Y = x.Y
		}
		if x.Y > hi.Y {
			hi.Y = x.Y
		}
		if x.Z < lo.Z {
			lo.Z = x.Z
		}
		if x.Z > hi.Z {
			hi.Z = x.Z
		}
	}
	return geom.AABB{Min: lo, Max: hi}
}

// convexBox returns the same box as tightBox for a convex body from six
// supporting vertices (Chung and Wang Sec. 2.3): the world axes turned into
// the body frame, hill climbing from the previous step's vertices, so the
// cost does not grow with the vertex count. Below about 32 vertices
// transforming them all is faster.
func convexBox(b *body, p geom.Pose) geom.AABB {
	t := p.Transform()
	poly := b.sh.poly
	var out [6]float64
	for k := 0; k < 3; k++ {
		// World axis k in the body frame: R^T e_k, row k of R.
		d := geom.Vec3{X: t.R[k][0], Y: t.R[k][1], Z: t.R[k][2]}
		if !b.supOK {
			b.sup[k], _ = poly.Support(d)
			b.sup[k+3], _ = poly.Support(d.Neg())
		}
		var hi, lo float64
		b.sup[k], hi = poly.SupportFrom(d, b.sup[k])
		b.sup[k+3], lo = poly.SupportFrom(d.Neg(), b.sup[k+3])
		tk := t.T.Get(k)
		out[k], out[k+3] = tk-lo, tk+hi
	}
	b.supOK = true
	return geom.AABB{Min: geom.Vec3{X: out[0], Y: out[1], Z: out[2]}, Max: geom.Vec3{X: out[3], Y: out[4], Z: out[5]}}
}

// box returns the broad-phase box of body b for the step; motion says
// which motion models the box must cover.
func (w *World) box(b *body, motion uint8) geom.AABB {
	var end geom.AABB
	if b.sh.poly != nil && len(b.sh.mesh.Verts) > 32 {
		end = convexBox(b, b.p1)
	} else {
		end = tightBox(b.sh, b.p1)
	}
	if b.p0 == b.p1 {
		return end
	}
	out := end
	if motion&motionScrew != 0 {
		out = out.Union(broad.SweptScrew(b.sh.extent, b.p0, b.p1, &w.opt.Swept))
	}
	if motion&motionLinear != 0 {
		out = out.Union(broad.SweptLinear(b.sh.extent, b.p0, b.p1, &w.opt.Swept))
	}
	if motion&motionVerts != 0 {
		out = out.Union(tightBox(b.sh, b.p0))
	}
	return out
}

// task is one narrow-phase test.
type task struct {
	a, b  int32
	m     Method
	cache int32 // index into the pair caches (SeparatingVector, GJK)
}

type result struct {
	hit bool
	c   Contact
	err error
}

// worker holds one goroutine's scratch space.
type worker struct {
	sv    convex.Searcher
	det   *screw.Detector
	tq    toc.Query
	cols  []screw.Collision
	tcs   []toc.Contact
	va0   []geom.Vec3
	va1   []geom.Vec3
	vb0   []geom.Vec3
	vb1   []geom.Vec3
	res   []result
	tasks []task
}

// Step runs one step: the broad phase on the bodies' boxes (swept over
// the step for continuous methods), then the narrow phase of every
// candidate pair that passes the filters, in parallel. It appends the
// contacts to dst sorted by (A, B), moves every body to its end pose (the
// start of the next step) and returns the extended slice. A narrow phase
// that fails on a pair does not stop the others: the error names the first
// such pair.
func (w *World) Step(dst []Contact) ([]Contact, error) {
	w.step++
	st := Stats{Bodies: w.n}
	t0 := time.Now()
	var motion [numKinds]uint8
	for k := Kind(0); k < numKinds; k++ {
		for j := Kind(0); j < numKinds; j++ {
			if w.kindCount[j] > 0 {
				motion[k] |= motionOf(w.table[k][j])
			}
		}
	}
	// The boxes, in parallel for many bodies (each body's box depends on
	// that body alone), then given to the broad phase in id order.
	if cap(w.boxes) < len(w.bodies) {
		w.boxes = make([]geom.AABB, len(w.bodies), 2*len(w.bodies))
	}
	boxes := w.boxes[:len(w.bodies)]
	w.parallel(len(w.bodies), 64, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if b := &w.bodies[i]; b.live {
				boxes[i] = w.box(b, motion[b.kind])
			}
		}
	})
	for i := range w.bodies {
		if !w.bodies[i].live {
			continue
		}
		if err := w.phase.Set(i, boxes[i]); err != nil {
			return dst, fmt.Errorf("world: body %d: %w", i, err)
		}
	}
	w.pairs = w.phase.Pairs(w.pairs[:0])
	st.BroadPairs = len(w.pairs)

	// Filters and dispatch.
	tasks := w.tasks[:0]
	for _, p := range w.pairs {
		a, b := &w.bodies[p.A], &w.bodies[p.B]
		if a.static && b.static || !collide(a.filter, b.filter) {
			continue
		}
		m := w.table[a.kind][b.kind]
		if m == None {
			continue
		}
		if m.continuous() && a.p0 == a.p1 && b.p0 == b.p1 && !(m == TimeOfContact || m == ElementaryCCD) {
			// Screw CCD of two bodies that do not move: no relative
			// motion, no collision during the step (the bodies are
			// assumed apart at its start).
			continue
		}
		t := task{a: p.A, b: p.B, m: m, cache: -1}
		if m == SeparatingVector || m == GJK {
			t.cache = w.caches.get(pairKey(p.A, p.B), w.step, a.sh.poly, b.sh.poly)
		}
		st.ByMethod[m]++
		tasks = append(tasks, t)
	}
	w.tasks = tasks
	st.Tests = len(tasks)
	st.Broad = time.Since(t0)

	t1 := time.Now()
	res := w.run(tasks, &st)
	st.Narrow = time.Since(t1)

	var errs []error
	k := len(dst)
	for i, r := range res {
		if r.err != nil {
			errs = append(errs, fmt.Errorf("world: bodies %d and %d (%v): %w", tasks[i].a, tasks[i].b, tasks[i].m, r.err))
			continue
		}
		if r.hit {
			dst = append(dst, r.c)
		}
	}
	slices.SortFunc(dst[k:], func(x, y Contact) int {
		if c := cmp.Compare(x.A, y.A); c != 0 {
			return c
		}
		return cmp.Compare(x.B, y.B)
	})
	st.Contacts = len(dst) - k
	for i := range w.bodies {
		w.bodies[i].p0 = w.bodies[i].p1
	}
	w.caches.sweep(w.step)
	w.stats = st
	if len(errs) > 0 {
		return dst, errs[0]
	}
	return dst, nil
}

// parallel calls fn on consecutive ranges [lo, hi) covering [0, n), on
// all workers when n is at least 4 chunks and inline otherwise.
func (w *World) parallel(n, chunk int, fn func(lo, hi int)) {
	nw := len(w.workers)
	if nw == 1 || n < 4*chunk {
		fn(0, n)
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range nw {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		}()
	}
	wg.Wait()
}

// run executes the tasks on the workers and returns the results in task
// order.
func (w *World) run(tasks []task, st *Stats) []result {
	w0 := w.workers[0]
	if cap(w0.res) < len(tasks) {
		w0.res = make([]result, len(tasks), 2*len(tasks))
	}
	res := w0.res[:len(tasks)]
	nw := len(w.workers)
	if len(tasks) < 16 {
		nw = 1
	}
	st.Workers = nw
	if nw == 1 {
		for i := range tasks {
			res[i] = w.test(w0, &tasks[i])
		}
		return res
	}
	const chunk = 8
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, wk := range w.workers[:nw] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(chunk)) - chunk
				if i >= len(tasks) {
					return
				}
				for j := i; j < min(i+chunk, len(tasks)); j++ {
					res[j] = w.test(wk, &tasks[j])
				}
			}
		}()
	}
	wg.Wait()
	return res
}

// test runs the narrow phase of one pair.
func (w *World) test(wk *worker, t *task) result {
	a, b := &w.bodies[t.a], &w.bodies[t.b]
	c := Contact{A: BodyID(t.a), B: BodyID(t.b), Method: t.m, Time: 1}
	switch t.m {
	case SeparatingVector:
		ta, tb := a.p1.Transform(), b.p1.Transform()
		wk.sv.Options = w.opt.Convex
		r := wk.sv.Intersect(a.sh.poly, &ta, b.sh.poly, &tb, &w.caches.list[t.cache].sv)
		if r.Status == convex.Invalid {
			return result{err: errors.New("separating vector: invalid input")}
		}
		return result{hit: r.Intersecting(), c: c}
	case GJK:
		ta, tb := a.p1.Transform(), b.p1.Transform()
		r := convex.GJKIntersect(a.sh.poly, &ta, b.sh.poly, &tb, &w.caches.list[t.cache].gjk, &w.opt.Convex)
		if r.Status == convex.Invalid {
			return result{err: errors.New("GJK: invalid input")}
		}
		return result{hit: r.Status == convex.Intersecting, c: c}
	case ScrewCCD:
		var err error
		wk.cols, err = wk.det.Detect(a.sh.mesh, b.sh.mesh, a.p0, a.p1, b.p0, b.p1, w.opt.Screw, wk.cols[:0])
		if err != nil {
			return result{err: err}
		}
		if len(wk.cols) == 0 {
			return result{}
		}
		first := wk.cols[0]
		for _, col := range wk.cols[1:] {
			if col.Time < first.Time {
				first = col
			}
		}
		c.Time, c.Point, c.Normal = first.Time, first.Point, first.Normal
		return result{hit: true, c: c}
	case TimeOfContact:
		var err error
		wk.tcs, err = wk.tq.Contacts(a.sh.toc, linearState(a), b.sh.toc, linearState(b), 1, w.tocOpt, wk.tcs[:0])
		if err != nil {
			return result{err: err}
		}
		if len(wk.tcs) == 0 {
			return result{}
		}
		first := wk.tcs[0]
		for _, tc := range wk.tcs[1:] {
			if tc.Time < first.Time {
				first = tc
			}
		}
		c.Time, c.Point, c.Normal = first.Time, first.Point, first.Normal
		return result{hit: true, c: c}
	case ElementaryCCD:
		return w.elementary(wk, a, b, c)
	}
	return result{}
}

// linearState is the constant-velocity motion from p0 to p1 over a unit
// step: V = p1 - p0, W the rotation vector of q1 q0* (shorter arc).
func linearState(b *body) toc.State {
	return toc.State{Pose: b.p0, V: b.p1.P.Sub(b.p0.P), W: b.p1.Q.Mul(b.p0.Q.Conj()).RotationVector()}
}

// elementary runs the vertex-face and edge-edge tests of two bodies whose
// vertices move on straight lines between their start and end positions,
// and keeps the earliest hit.
func (w *World) elementary(wk *worker, a, b *body, c Contact) result {
	wk.va0, wk.va1 = place(a.sh, a.p0, wk.va0), place(a.sh, a.p1, wk.va1)
	wk.vb0, wk.vb1 = place(b.sh, b.p0, wk.vb0), place(b.sh, b.p1, wk.vb1)
	best := ccd.Result{Time: 2}
	bestAFirst := true
	try := func(r ccd.Result, aFirst bool) {
		if r.Hit() && r.Time < best.Time {
			best, bestAFirst = r, aFirst
		}
	}
	segBox := func(p0, p1 geom.Vec3) geom.AABB { return geom.AABB{Min: p0.Min(p1), Max: p0.Max(p1)} }
	// Vertex of one body against the triangles of the other.
	vf := func(v0, v1 []geom.Vec3, ts *shape, t0, t1 []geom.Vec3, vertOnA bool) {
		for _, tri := range ts.tris {
			i, j, k := tri.V[0], tri.V[1], tri.V[2]
			tb := segBox(t0[i], t1[i]).Union(segBox(t0[j], t1[j])).Union(segBox(t0[k], t1[k]))
			for p := range v0 {
				if !segBox(v0[p], v1[p]).Overlaps(tb) {
					continue
				}
				r := ccd.VertexFace([4]geom.Vec3{v0[p], t0[i], t0[j], t0[k]}, [4]geom.Vec3{v1[p], t1[i], t1[j], t1[k]}, w.opt.CCD)
				try(r, vertOnA)
			}
		}
	}
	vf(wk.va0, wk.va1, b.sh, wk.vb0, wk.vb1, true)
	vf(wk.vb0, wk.vb1, a.sh, wk.va0, wk.va1, false)
	for _, ea := range a.sh.mesh.Edges {
		i, j := ea.V[0], ea.V[1]
		ba := segBox(wk.va0[i], wk.va1[i]).Union(segBox(wk.va0[j], wk.va1[j]))
		for _, eb := range b.sh.mesh.Edges {
			k, l := eb.V[0], eb.V[1]
			bb := segBox(wk.vb0[k], wk.vb1[k]).Union(segBox(wk.vb0[l], wk.vb1[l]))
			if !ba.Overlaps(bb) {
				continue
			}
			r := ccd.EdgeEdge([4]geom.Vec3{wk.va0[i], wk.va0[j], wk.vb0[k], wk.vb0[l]}, [4]geom.Vec3{wk.va1[i], wk.va1[j], wk.vb1[k], wk.vb1[l]}, w.opt.CCD)
			try(r, true)
		}
	}
	if best.Time > 1 {
		return result{}
	}
	// ccd's normal points from its first primitive (the vertex, edge A) to
	// the second: from A towards B unless the vertex is B's.
	n := best.Normal
	if !bestAFirst {
		n = n.Neg()
	}
	c.Time, c.Point, c.Normal = best.Time, best.Point, n
	return result{hit: true, c: c}
}

// place returns the world positions of the mesh's vertices at pose p.
func place(sh *shape, p geom.Pose, dst []geom.Vec3) []geom.Vec3 {
	t := p.Transform()
	dst = dst[:0]
	for _, v := range sh.mesh.Verts {
		dst = append(dst, t.Apply(v))
	}
	return dst
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// pairCaches holds the per-pair state of the convex methods from step to
// step; entries not used in a step are dropped after it.
type pairCaches struct {
	index map[uint64]int32
	list  []pairCache
}

type pairCache struct {
	key    uint64
	seen   uint32
	pa, pb *convex.Polytope // the cache belongs to this pair of polytopes
	sv     convex.Cache
	gjk    convex.GJKCache
}

// get returns the index of the cache of pair key for polytopes pa and pb,
// new or reset if the ids now name other polytopes (a body removed and its
// id reused).
func (p *pairCaches) get(key uint64, step uint32, pa, pb *convex.Polytope) int32 {
	if p.index == nil {
		p.index = map[uint64]int32{}
	}
	i, ok := p.index[key]
	if !ok {
		i = int32(len(p.list))
		p.list = append(p.list, pairCache{key: key})
		p.index[key] = i
	}
	c := &p.list[i]
	if c.pa != pa || c.pb != pb {
		*c = pairCache{key: key, pa: pa, pb: pb}
	}
	c.seen = step
	return i
}

func (p *pairCaches) sweep(step uint32) {
	for i := 0; i < len(p.list); {
		if p.list[i].seen == step {
			i++
			continue
		}
		delete(p.index, p.list[i].key)
		last := len(p.list) - 1
		if i != last {
			p.list[i] = p.list[last]
			p.index[p.list[i].key] = int32(i)
		}
		p.list = p.list[:last]
	}
}
