package world

import (
	"cmp"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/toc"
)

// Contact is one contact of a pair of bodies in a step: the record of
// package contact (status, time in [0, 1] of the step on Options.Motion,
// world point at that time, unit normal from A to B, signed separation,
// features of each body in its mesh's numbering, properness where the
// method defines it), with the bodies and the narrow phase that found it.
// A pair may have several contacts in a step: every collision of a
// screw-motion step, every point of a convex pair's manifold.
type Contact struct {
	A, B   BodyID // A < B
	Method Method
	contact.Contact
}

// String formats a contact on one line.
func (c Contact) String() string {
	return fmt.Sprintf("%d-%d %v %v", c.A, c.B, c.Method, c.Contact)
}

// Stats describes the last step.
type Stats struct {
	Bodies     int             // bodies in the world
	BroadPairs int             // pairs whose boxes overlap
	Tests      int             // pairs given to a narrow phase (after filters)
	Pairs      int             // pairs with at least one contact
	Contacts   int             // contact records
	ByMethod   [numMethods]int // tests per method
	Broad      time.Duration   // time of the broad phase (boxes and pairs)
	Narrow     time.Duration   // time of the narrow phase
	Workers    int             // goroutines used for the narrow phase
	// Reused counts the FeatureContacts pairs whose candidate feature
	// pairs were kept from an earlier step (their bodies moved relative to
	// each other by less than the candidates' spare pad).
	Reused int
}

// Stats returns the statistics of the last Step.
func (w *World) Stats() Stats { return w.stats }

// Motions whose swept boxes a body needs.
const (
	motionEnd   = 1 << iota // discrete test at the end pose
	motionSwept             // the step's motion (Options.Motion)
	motionReach             // the start pose and how far the step can move it
)

func motionOf(m Method) uint8 {
	switch m {
	case SeparatingVector, GJK, MeshContacts:
		return motionEnd
	case FeatureContacts:
		return motionReach
	case ScrewCCD, TimeOfContact:
		return motionSwept
	}
	return 0
}

// tightBox returns the box of the mesh's vertices at pose p.
func tightBox(sh *shape, p geom.Pose) geom.AABB {
	return addPoints(geom.EmptyAABB(), sh.mesh.Verts, p.Transform())
}

// addPoints returns box grown to hold the points vs moved by t.
func addPoints(box geom.AABB, vs []geom.Vec3, t geom.Transform) geom.AABB {
	lo, hi := box.Min, box.Max
	for _, v := range vs {
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

// convexBox returns the box of the vertices of b's box polytope at
// transform t from six supporting vertices (Chung and Wang Sec. 2.3): the
// world axes turned into the body frame, hill climbing from the previous
// step's vertices, so the cost does not grow with the vertex count.
func convexBox(b *body, t *geom.Transform) geom.AABB {
	poly := b.sh.box.poly
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

// turnedBox returns a box holding the local box of e moved by t (Arvo's
// box of a transformed box, geom.AABB.Transform), grown by a rounding
// allowance so that it holds every vertex as t.Apply rounds it.
func turnedBox(e *broad.Extent, t *geom.Transform) geom.AABB {
	out := e.Box.Transform(*t)
	return out.Expand(1e-12 * (e.Radius + t.T.Abs().MaxAbs()))
}

// poseBox returns the box of body b's vertices at transform t, computed
// from the shape's box points (newBoxPoints): the same box as tightBox's.
func poseBox(b *body, t *geom.Transform) geom.AABB {
	bp := &b.sh.box
	if bp.poly == nil && bp.verts == nil {
		return addPoints(geom.EmptyAABB(), b.sh.mesh.Verts, *t)
	}
	out := geom.EmptyAABB()
	if bp.poly != nil {
		out = convexBox(b, t)
	}
	out = addPoints(out, bp.verts, *t)
	for i := range bp.faces {
		f := &bp.faces[i]
		// (d.n)^2 for the world axes d, the rows of R.
		for k := 0; k < 3; k++ {
			if c := t.R[k][0]*f.n.X + t.R[k][1]*f.n.Y + t.R[k][2]*f.n.Z; c*c >= f.cos2 {
				out = addPoints(out, f.verts, *t)
				break
			}
		}
	}
	return out
}

// reach bounds how far any point of body b moves from its start pose to
// its end pose: the displacement of the body's origin plus the turn times
// the mesh's radius about the origin.
func (b *body) reach() float64 {
	if b.p0 == b.p1 {
		return 0
	}
	return b.p1.P.Sub(b.p0.P).Norm() + turn(b.p0.Q, b.p1.Q)*b.sh.extent.Radius
}

// turn returns the angle in [0, pi] of the rotation from q0 to q1 (unit
// quaternions).
func turn(q0, q1 geom.Quat) float64 {
	_, a := q1.Mul(q0.Conj()).AxisAngle()
	return a
}

// box returns the broad-phase box of body b for the step; motion says
// whether the box must cover the step's motion or only the end pose. It
// also sets b.t1.
func (w *World) box(b *body, motion uint8) geom.AABB {
	b.t1 = b.p1.Transform()
	if (b.static || b.asleep) && b.boxOK {
		return b.box
	}
	var out geom.AABB
	switch {
	case b.p0 == b.p1:
		// At rest: the start pose's box is the end pose's, the reach 0.
		out = poseBox(b, &b.t1)
	case motion == motionReach:
		// Only the start pose: the box there grown by the step's reach.
		t0 := b.p0.Transform()
		if r := b.reach(); r >= b.sh.extent.Radius {
			// The motion outweighs the body's size: its local box
			// turned (looser than the vertices' box by less than the
			// reach) costs a few products instead of the box points.
			out = turnedBox(&b.sh.extent, &t0).Expand(r)
		} else {
			out = poseBox(b, &t0).Expand(r)
		}
	case motion&motionReach != 0:
		t0 := b.p0.Transform()
		out = poseBox(b, &b.t1).Union(poseBox(b, &t0).Expand(b.reach()))
	default:
		out = poseBox(b, &b.t1)
	}
	if b.p0 != b.p1 && motion&motionSwept != 0 {
		if w.opt.Motion == geom.LinearAngular {
			out = out.Union(broad.SweptLinear(b.sh.extent, b.p0, b.p1, &w.opt.Swept))
		} else {
			out = out.Union(broad.SweptScrew(b.sh.extent, b.p0, b.p1, &w.opt.Swept))
		}
	}
	if m := w.opt.Margin/2 + b.margin; m > 0 {
		out.Min = out.Min.Sub(geom.Vec3{X: m, Y: m, Z: m})
		out.Max = out.Max.Add(geom.Vec3{X: m, Y: m, Z: m})
	}
	b.box, b.boxOK = out, b.static || b.asleep
	return out
}

// task is one narrow-phase test.
type task struct {
	a, b  int32
	m     Method
	cache int32 // index into the pair caches (SeparatingVector, GJK, FeatureContacts)
}

// result locates a task's contacts in its worker's buffer.
type result struct {
	wk     int32
	lo, hi int32
	err    error
}

// worker holds one goroutine's scratch space.
type worker struct {
	sv  convex.Searcher
	det *screw.Detector
	tq  toc.Scratch
	mq  meshquery.Scratch
	fp  probe
	// reused counts this step's pairs whose FeatureContacts candidates
	// were kept from an earlier step.
	reused int
	recs   []contact.Contact
	tcs    []toc.Contact
	out    []Contact // the contacts of this worker's tasks in this step
}

// Step runs one step: the broad phase on the bodies' boxes (swept over
// the step for continuous methods, enlarged by Options.Margin), then the
// narrow phase of every candidate pair that passes the filters, in
// parallel. It appends every contact of the step to dst, sorted by (A, B)
// and within a pair in the order the method gives (by time for the
// continuous methods), moves every body to its end pose (the start of the
// next step) and returns the extended slice. The contacts do not depend on
// Options.Workers. A narrow phase that fails on a pair does not stop the
// others: the error names the first such pair.
func (w *World) Step(dst []Contact) ([]Contact, error) {
	w.step++
	st := Stats{Bodies: w.n}
	t0 := time.Now()
	var motion [numKinds]uint8
	for k := BodyKind(0); k < numKinds; k++ {
		for j := BodyKind(0); j < numKinds; j++ {
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
	if n := len(w.bodies); w.inline(n, boxChunk) {
		w.boxRange(motion, boxes, 0, n)
	} else {
		// Only this branch makes a closure (a step on one worker
		// allocates nothing).
		w.parallel(n, boxChunk, func(lo, hi int) { w.boxRange(motion, boxes, lo, hi) })
	}
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
		if (a.static || a.asleep) && (b.static || b.asleep) || !collide(a.filter, b.filter) {
			continue
		}
		m := w.table[a.kind][b.kind]
		if m == None {
			continue
		}
		t := task{a: p.A, b: p.B, m: m, cache: -1}
		if m == SeparatingVector || m == GJK || m == FeatureContacts {
			t.cache = w.caches.get(pairKey(p.A, p.B), w.step, a.sh, b.sh)
		}
		st.ByMethod[m]++
		tasks = append(tasks, t)
	}
	// In (A, B) order (each pair once), the tasks' contacts come out
	// sorted by pair, each pair's in the order its method gives.
	slices.SortFunc(tasks, func(x, y task) int {
		if c := cmp.Compare(x.a, y.a); c != 0 {
			return c
		}
		return cmp.Compare(x.b, y.b)
	})
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
		if r.hi > r.lo {
			st.Pairs++
			dst = append(dst, w.workers[r.wk].out[r.lo:r.hi]...)
		}
	}
	st.Contacts = len(dst) - k
	for i := range w.bodies {
		w.bodies[i].p0 = w.bodies[i].p1
	}
	w.qdirty = true
	w.caches.sweep(w.step)
	w.stats = st
	if len(errs) > 0 {
		return dst, errs[0]
	}
	return dst, nil
}

// boxChunk is the number of bodies whose boxes one worker takes at a time.
const boxChunk = 64

// boxRange computes the broad-phase boxes of bodies [lo, hi).
func (w *World) boxRange(motion [numKinds]uint8, boxes []geom.AABB, lo, hi int) {
	for i := lo; i < hi; i++ {
		if b := &w.bodies[i]; b.live {
			boxes[i] = w.box(b, motion[b.kind])
		}
	}
}

// inline reports whether work on n items in chunks of chunk runs on the
// calling goroutine: one worker, or fewer than 4 chunks.
func (w *World) inline(n, chunk int) bool { return len(w.workers) == 1 || n < 4*chunk }

// parallel calls fn on consecutive ranges [lo, hi) covering [0, n), on
// all workers when n is at least 4 chunks and inline otherwise.
func (w *World) parallel(n, chunk int, fn func(lo, hi int)) {
	nw := len(w.workers)
	if w.inline(n, chunk) {
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
	for _, wk := range w.workers {
		wk.out = wk.out[:0]
		wk.reused = 0
	}
	defer func() {
		for _, wk := range w.workers {
			st.Reused += wk.reused
		}
	}()
	if cap(w.res) < len(tasks) {
		w.res = make([]result, len(tasks), 2*len(tasks))
	}
	res := w.res[:len(tasks)]
	nw := len(w.workers)
	if len(tasks) < 16 {
		nw = 1
	}
	st.Workers = nw
	if nw == 1 {
		for i := range tasks {
			res[i] = w.test(0, w0, &tasks[i])
		}
		return res
	}
	const chunk = 8
	var next atomic.Int64
	var wg sync.WaitGroup
	for wi, wk := range w.workers[:nw] {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(chunk)) - chunk
				if i >= len(tasks) {
					return
				}
				for j := i; j < min(i+chunk, len(tasks)); j++ {
					res[j] = w.test(int32(wi), wk, &tasks[j])
				}
			}
		}()
	}
	wg.Wait()
	return res
}

func pairKey(a, b int32) uint64 { return uint64(uint32(a))<<32 | uint64(uint32(b)) }

// pairCaches holds the per-pair state of the convex methods and of
// FeatureContacts' deep-overlap check from step to step; entries not used
// in a step are dropped after it.
type pairCaches struct {
	index map[uint64]int32
	list  []pairCache
}

type pairCache struct {
	key    uint64
	seen   uint32
	sa, sb *shape // the cache belongs to this pair of shapes
	sv     convex.Cache
	gjk    convex.GJKCache
	dist   convex.DistanceCache
	deep   deepCache
	feat   featCache
}

// get returns the index of the cache of pair key for shapes sa and sb,
// new or reset if the ids now name other shapes (a body removed and its id
// reused).
func (p *pairCaches) get(key uint64, step uint32, sa, sb *shape) int32 {
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
	if c.sa != sa || c.sb != sb {
		*c = pairCache{key: key, sa: sa, sb: sb}
	}
	c.seen = step
	return i
}

// keepSteps is how many steps a pair's cache outlives its last use: a
// simulation runs several steps of the world per step of its own (pieces
// of a split step, a recheck of some bodies), in which a pair may be left
// out and come back.
const keepSteps = 4

func (p *pairCaches) sweep(step uint32) {
	for i := 0; i < len(p.list); {
		if step-p.list[i].seen < keepSteps {
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
