package toc

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Algorithm selects how a sample point's time of contact is found.
type Algorithm int

const (
	// Boxes is Algorithm 2: the trajectory is bounded by oriented boxes,
	// bisected in time where a box meets the other body until its
	// thickness is at most the tolerance. It misses no contact: every
	// crossing of the other body's surface by a sample point is found, and
	// the time reported is never later than the true one (a trajectory
	// passing within the tolerance of a triangle earlier reports that
	// moment: the paper's Sec. 3.3 meaning of epsilon).
	Boxes Algorithm = iota
	// Segments is Algorithm 3: the trajectory is bisected until every
	// piece has deviation nu at most the tolerance (the paper's test), and
	// the chords are tested against the triangles with exact-sign
	// segment-triangle tests. Pieces whose box misses the other body are
	// dropped on the way down (every chord of a piece lies in its box, so
	// this changes no answer, only the cost). Faster, but a contact
	// shallower than the chord's distance from the curve, at most
	// sqrt(nu (2 d + nu)) / 2 for a chord of length d, can be missed, and
	// the time is the chord's crossing, not a bound.
	Segments
)

// String returns "boxes" or "segments".
func (a Algorithm) String() string {
	switch a {
	case Boxes:
		return "boxes"
	case Segments:
		return "segments"
	}
	return fmt.Sprintf("Algorithm(%d)", int(a))
}

// Defaults of Options.
const (
	// DefaultRelTolerance: the default tolerance is this fraction of the
	// smaller bounding-sphere radius of the two shapes.
	DefaultRelTolerance = 1e-3
	// DefaultRelTimeTolerance: the default time tolerance is this
	// fraction of the step.
	DefaultRelTimeTolerance = 1e-6
	// DefaultMaxDepth bounds the number of bisections of a trajectory.
	DefaultMaxDepth = 40
)

// Options tune a query. The zero value means the documented defaults.
type Options struct {
	// Algorithm: Boxes (Algorithm 2, the default) or Segments (Algorithm 3).
	Algorithm Algorithm
	// Tolerance (length units, the paper's epsilon). With Boxes a
	// trajectory piece is final when its box reaches at most this far
	// from its chord across it; with Segments when its deviation nu is at
	// most this. Default DefaultRelTolerance times the smaller bounding
	// radius of the two shapes.
	Tolerance float64
	// TimeTolerance (time units): with Boxes, a final piece that meets the
	// other body is bisected further until nu / L, the spread between
	// the earliest and the latest time at which the point can be at a
	// given place along the piece, is at most TimeTolerance. Default
	// DefaultRelTimeTolerance times the step. (Straight motion has nu = 0
	// and needs no further bisection.)
	TimeTolerance float64
	// Within: when positive, every sample point whose time of contact is
	// within Within (time units) of the first is reported (the "simple
	// modification" of Algorithm 1); when zero only the first contact.
	Within float64
	// MaxDepth bounds the bisections per trajectory (default
	// DefaultMaxDepth); a piece at that depth is treated as final, which
	// keeps the guarantee of Boxes but coarsens its time.
	MaxDepth int
	// SkipSeparating ignores contacts where the sample point moves away
	// from the surface it touches (at both ends of the final piece), so
	// that a contact just resolved by a collision response is not found
	// again at the start of the next interval.
	SkipSeparating bool
}

// Contact is a time of contact between two bodies.
type Contact struct {
	// T is the time of contact in [0, dt]. With Boxes it is a lower bound
	// of the true time of the sample point's contact: exact for a point
	// moving on a straight line, earlier by at most the time the point
	// needs to cross its final box otherwise.
	T float64
	// Point is the world position of the sample point at T.
	Point geom.Vec3
	// Normal is the unit world normal, at T, of the surface the sample
	// point meets, oriented from B towards A (the direction in which an
	// impulse pushes A).
	Normal geom.Vec3
	// OnA tells whether the sample point belongs to A (and the triangle to
	// B) or to B (and the triangle to A).
	OnA bool
	// Sample is the index of the sample point in its shape's Samples, and
	// Triangle the id of the triangle it meets in the other shape's soup.
	Sample, Triangle int
}

// Shape is a body's geometry for time-of-contact queries: a triangle soup
// with its BVH, and the points sampled from its surface (its vertices by
// default, Algorithm 1).
type Shape struct {
	soup    *Soup
	samples []geom.Vec3
	center  geom.Vec3
	radius  float64
}

// NewShape returns the shape of a soup with the given sample points (local
// coordinates); nil samples means the soup's vertices. It returns an error
// naming the sample when a coordinate is not finite or above MaxMagnitude
// in magnitude.
func NewShape(s *Soup, samples []geom.Vec3) (*Shape, error) {
	if s == nil {
		return nil, errors.New("toc.NewShape: nil soup")
	}
	if samples == nil {
		samples = s.verts
	}
	sh := &Shape{soup: s, samples: append([]geom.Vec3(nil), samples...), center: s.center, radius: s.radius}
	for i, p := range samples {
		if !p.IsFinite() || p.MaxAbs() > MaxMagnitude {
			return nil, fmt.Errorf("sample %d: coordinate is not finite or above %g in magnitude: %v", i, MaxMagnitude, p)
		}
		sh.radius = math.Max(sh.radius, p.Dist(sh.center))
	}
	return sh, nil
}

// ShapeOf returns the shape of a mesh: its triangulated faces, sampled at
// its vertices.
func ShapeOf(m *mesh.Mesh) (*Shape, error) {
	s, err := SoupOf(m)
	if err != nil {
		return nil, err
	}
	return NewShape(s, nil)
}

// Soup returns the shape's triangle soup.
func (sh *Shape) Soup() *Soup { return sh.soup }

// Samples returns the sample points (local coordinates); do not modify.
func (sh *Shape) Samples() []geom.Vec3 { return sh.samples }

// Sphere returns a bounding sphere of the soup and samples (local frame).
func (sh *Shape) Sphere() (center geom.Vec3, radius float64) { return sh.center, sh.radius }

// hit is a candidate contact found during a query.
type hit struct {
	t      float64
	sample int32
	tri    int32 // BVH position in the other soup
	onA    bool
	flip   bool // the triangle normal is reversed to face the sample
}

// seg is a piece of a trajectory on the bisection stack.
type seg struct {
	ta, tb         float64
	qa, qb, va, vb geom.Vec3
	depth          int32
}

// window is a time interval in which a body's bounding sphere may meet the
// other body, with the box swept by the sphere (other body's frame).
type window struct {
	ta, tb float64
	b      box
}

// Query holds the scratch space of time-of-contact queries, so that
// repeated queries allocate nothing. The zero value is ready to use; a
// Query must not be used by two goroutines at once.
type Query struct {
	stack []int32
	segs  []seg
	cand  []int32
	wins  []window
	hits  []hit
	pts   []int32
	leaf  []int32
	// done[0][i] (A) and done[1][i] (B) equal gen once sample i has its
	// contact, so later windows skip it.
	done [2][]uint32
	gen  uint32
	// fcut is the frame at time tcut (the current pruning limit) of the
	// pass in progress, to cut pieces short at the limit.
	fcut Frame
	tcut float64
	keys []sampleKey
	work int // bisections in this query
	// fc caches frames of the pass in progress by time: the points of a
	// pass are bisected at the same instants. An entry is valid when its
	// gen equals fgen.
	fc   [64]frameEntry
	fgen uint64
}

type frameEntry struct {
	t   float64
	gen uint64
	f   Frame
}

// frame returns rel's frame at t through the cache of the current pass.
func (q *Query) frame(rel *Relative, t float64) *Frame {
	b := math.Float64bits(t)
	e := &q.fc[(b*0x9E3779B97F4A7C15)>>58]
	if e.gen != q.fgen || e.t != t {
		e.t, e.gen, e.f = t, q.fgen, rel.Frame(t)
	}
	return &e.f
}

type sampleKey struct {
	lead float64
	i    int32
}

// startDone prepares the per-sample marks for a new query.
func (q *Query) startDone(na, nb int) {
	q.gen++
	if q.gen == 0 { // wrapped: clear
		clear(q.done[0])
		clear(q.done[1])
		q.gen = 1
	}
	for k, n := range [2]int{na, nb} {
		if len(q.done[k]) < n {
			q.done[k] = append(q.done[k], make([]uint32, n-len(q.done[k]))...)
		}
	}
}

// opts are resolved options.
type opts struct {
	alg            Algorithm
	eps, within    float64
	timeTol        float64
	maxDepth       int32
	skipSeparating bool
}

func resolve(o *Options, a, b *Shape, dt float64) (opts, error) {
	r := opts{alg: Boxes, maxDepth: DefaultMaxDepth, timeTol: DefaultRelTimeTolerance * dt}
	r.eps = DefaultRelTolerance * math.Min(a.radius, b.radius)
	if o != nil {
		if o.Algorithm != Boxes && o.Algorithm != Segments {
			return r, fmt.Errorf("toc: unknown algorithm %d", int(o.Algorithm))
		}
		r.alg = o.Algorithm
		if o.Tolerance < 0 || math.IsNaN(o.Tolerance) || math.IsInf(o.Tolerance, 0) {
			return r, fmt.Errorf("toc: tolerance %v must be finite and >= 0", o.Tolerance)
		}
		if o.Tolerance > 0 {
			r.eps = o.Tolerance
		}
		if o.Within < 0 || math.IsNaN(o.Within) || math.IsInf(o.Within, 0) {
			return r, fmt.Errorf("toc: within %v must be finite and >= 0", o.Within)
		}
		r.within = o.Within
		if o.TimeTolerance < 0 || math.IsNaN(o.TimeTolerance) || math.IsInf(o.TimeTolerance, 0) {
			return r, fmt.Errorf("toc: time tolerance %v must be finite and >= 0", o.TimeTolerance)
		}
		if o.TimeTolerance > 0 {
			r.timeTol = o.TimeTolerance
		}
		if o.MaxDepth < 0 {
			return r, fmt.Errorf("toc: max depth %d must be >= 0", o.MaxDepth)
		}
		if o.MaxDepth > 0 {
			r.maxDepth = int32(min(o.MaxDepth, 200))
		}
		r.skipSeparating = o.SkipSeparating
	}
	if !(r.eps > 0) {
		r.eps = math.SmallestNonzeroFloat64
	}
	return r, nil
}

// pruned reports whether a piece starting at t can still give a reported
// contact.
func (q *Query) pruned(t, best float64, o *opts) bool {
	if o.within > 0 {
		return t > best+o.within
	}
	return t >= best
}

// Contacts runs Algorithm 1: the time of contact of bodies A and B moving
// with constant velocities (states sa, sb at the start) during [0, dt],
// from the trajectories of A's sample points against B's triangles and of
// B's sample points against A's triangles (each in the frame of the other
// body, Sec. 3.2). It appends the first contact, or with Options.Within
// every sample point's contact within Within of the first in time order,
// to dst. Nothing is appended when the bodies do not touch during the
// step. The bodies should be apart at time 0; a sample point already on
// the other's surface gives a contact at 0.
//
// It returns an error when a state is not finite, dt is negative, a
// magnitude exceeds MaxMagnitude, or an option is out of range.
func (q *Query) Contacts(a *Shape, sa State, b *Shape, sb State, dt float64, opt *Options, dst []Contact) ([]Contact, error) {
	if a == nil || b == nil {
		return dst, errors.New("toc: nil shape")
	}
	if err := sa.Validate(); err != nil {
		return dst, fmt.Errorf("toc: body A: %w", err)
	}
	if err := sb.Validate(); err != nil {
		return dst, fmt.Errorf("toc: body B: %w", err)
	}
	if !(dt >= 0) || dt > MaxMagnitude {
		return dst, fmt.Errorf("toc: step %v must be in [0, %g]", dt, MaxMagnitude)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{
		{"A's position", sa.Pose.P.MaxAbs()}, {"A's velocity times the step", sa.V.MaxAbs() * dt},
		{"A's angular velocity times the step", sa.W.MaxAbs() * dt},
		{"B's position", sb.Pose.P.MaxAbs()}, {"B's velocity times the step", sb.V.MaxAbs() * dt},
		{"B's angular velocity times the step", sb.W.MaxAbs() * dt},
		{"A's size", a.soup.scale + a.radius}, {"B's size", b.soup.scale + b.radius},
	} {
		if c.v > MaxMagnitude {
			return dst, fmt.Errorf("toc: %s is %g, above the limit %g", c.name, c.v, MaxMagnitude)
		}
	}
	o, err := resolve(opt, a, b, dt)
	if err != nil {
		return dst, err
	}
	best := math.Inf(1)
	q.hits = q.hits[:0]
	q.startDone(len(a.samples), len(b.samples))
	q.work = 0
	relAB, relBA := NewRelative(sa, sb), NewRelative(sb, sa)
	// The smaller body's bounding sphere, swept against the other's
	// soup, finds the windows of time in which they may touch.
	mover, other, relMO, relOM, moverIsA := a, b, &relAB, &relBA, true
	if b.radius < a.radius {
		mover, other, relMO, relOM, moverIsA = b, a, &relBA, &relAB, false
	}
	q.windows(other.soup, relMO, mover.center, mover.radius, dt, &o)
	for wi := range q.wins {
		w := q.wins[wi]
		if q.pruned(w.ta, best, &o) {
			break
		}
		// Mover's points against the other's triangles in the window.
		q.cand = other.soup.collect(&w.b, q.cand[:0], &q.stack)
		if len(q.cand) > 0 {
			best = q.pass(mover, nil, moverIsA, other.soup, q.cand, relMO, w.ta, w.tb, &o, best)
		}
		// The other's points swept by the mover's sphere against the
		// mover's triangles.
		q.pts = q.pts[:0]
		for i, p := range other.samples {
			if w.b.contains(p) {
				q.pts = append(q.pts, int32(i))
			}
		}
		if len(q.pts) > 0 {
			best = q.pass(other, q.pts, !moverIsA, mover.soup, nil, relOM, w.ta, w.tb, &o, best)
		}
	}
	if len(q.hits) == 0 {
		return dst, nil
	}
	if o.within == 0 {
		first := 0
		for i := range q.hits {
			if q.hits[i].t < q.hits[first].t {
				first = i
			}
		}
		return append(dst, q.contact(q.hits[first], a, sa, b, sb)), nil
	}
	slices.SortStableFunc(q.hits, func(x, y hit) int { return cmp.Compare(x.t, y.t) })
	for _, h := range q.hits {
		if h.t > best+o.within {
			break
		}
		dst = append(dst, q.contact(h, a, sa, b, sb))
	}
	return dst, nil
}

// contact converts a hit to a world-frame Contact.
func (q *Query) contact(h hit, a *Shape, sa State, b *Shape, sb State) Contact {
	own, oth, so, st := a, b, sa, sb
	if !h.onA {
		own, oth, so, st = b, a, sb, sa
	}
	t := &oth.soup.tris[h.tri]
	n := t.n
	if h.flip {
		n = n.Neg()
	}
	n = st.At(h.t).ApplyDir(n)
	if !h.onA {
		n = n.Neg()
	}
	return Contact{
		T:        h.t,
		Point:    so.At(h.t).Apply(own.samples[h.sample]),
		Normal:   n,
		OnA:      h.onA,
		Sample:   int(h.sample),
		Triangle: int(t.id),
	}
}

// padFor returns the rounding guard added to a box around a trajectory
// piece of length ell centred at c, against a soup.
func padFor(s *Soup, c geom.Vec3, ell float64) float64 {
	return 1e-12 * (math.Abs(c.X) + math.Abs(c.Y) + math.Abs(c.Z) + ell + s.scale)
}

// norm is |v| without geom's overflow guard (trajectory coordinates are
// far below 1e150; an overflow gives an infinite box, which only makes a
// query slower).
func norm(v geom.Vec3) float64 { return math.Sqrt(v.X*v.X + v.Y*v.Y + v.Z*v.Z) }

// trajBox returns the box of a trajectory piece (TrajectoryOBB padded by
// extra) and its half thickness across the chord.
func trajBox(qa, qb geom.Vec3, ell, extra float64) (box, float64) {
	dv := qb.Sub(qa)
	d := norm(dv)
	if ell < d {
		ell = d
	}
	perp := math.Sqrt((ell-d)*(ell+d)) / 2
	var b box
	b.c = qa.Add(qb).Scale(0.5)
	b.h = [3]float64{ell/2 + extra, perp + extra, perp + extra}
	if d > 0 {
		n := dv.Scale(1 / d)
		u, w := n.Orthonormal()
		b.ax = [3]geom.Vec3{n, u, w}
	} else {
		b.ax = [3]geom.Vec3{{X: 1}, {Y: 1}, {Z: 1}}
	}
	e := geom.Vec3{
		X: math.Abs(b.ax[0].X)*b.h[0] + math.Abs(b.ax[1].X)*b.h[1] + math.Abs(b.ax[2].X)*b.h[2],
		Y: math.Abs(b.ax[0].Y)*b.h[0] + math.Abs(b.ax[1].Y)*b.h[1] + math.Abs(b.ax[2].Y)*b.h[2],
		Z: math.Abs(b.ax[0].Z)*b.h[0] + math.Abs(b.ax[1].Z)*b.h[1] + math.Abs(b.ax[2].Z)*b.h[2],
	}
	b.min, b.max = b.c.Sub(e), b.c.Add(e)
	return b, perp
}

// contains reports whether p is in the closed box.
func (b *box) contains(p geom.Vec3) bool {
	if p.X < b.min.X || p.X > b.max.X || p.Y < b.min.Y || p.Y > b.max.Y || p.Z < b.min.Z || p.Z > b.max.Z {
		return false
	}
	l := b.local(p)
	return math.Abs(l.X) <= b.h[0] && math.Abs(l.Y) <= b.h[1] && math.Abs(l.Z) <= b.h[2]
}

// windows fills q.wins with the time intervals, in order, in which the
// sphere (c, r) of the moving body can meet soup s: the centre's
// trajectory is bisected while its box grown by r meets s and is longer
// than a few radii.
func (q *Query) windows(s *Soup, rel *Relative, c geom.Vec3, r, dt float64, o *opts) {
	q.wins = q.wins[:0]
	k, rb := rel.Lipschitz(c), rel.RotationBound(c)
	f0, f1 := rel.Frame(0), rel.Frame(dt)
	q.segs = append(q.segs[:0], seg{ta: 0, tb: dt, qa: f0.Pos(c), qb: f1.Pos(c), va: f0.Vel(c), vb: f1.Vel(c)})
	const maxWinDepth = 30
	splits := 0
	for len(q.segs) > 0 {
		sg := q.segs[len(q.segs)-1]
		q.segs = q.segs[:len(q.segs)-1]
		h := sg.tb - sg.ta
		ell := math.Min(SpeedBound(norm(sg.va), norm(sg.vb), k, h), rel.SpeedBoundGlobal(rb, sg.ta, sg.tb)) * h
		bx, _ := trajBox(sg.qa, sg.qb, ell, r+padFor(s, sg.qa, ell))
		if !s.anyOverlap(&bx, &q.stack) {
			continue
		}
		tm := (sg.ta + sg.tb) / 2
		if ell > 4*r && sg.depth < maxWinDepth && splits < maxWinSplits && tm > sg.ta && tm < sg.tb {
			splits++
			fm := rel.Frame(tm)
			qm, vm := fm.Pos(c), fm.Vel(c)
			q.segs = append(q.segs,
				seg{ta: tm, tb: sg.tb, qa: qm, qb: sg.qb, va: vm, vb: sg.vb, depth: sg.depth + 1},
				seg{ta: sg.ta, tb: tm, qa: sg.qa, qb: qm, va: sg.va, vb: vm, depth: sg.depth + 1})
			continue
		}
		q.wins = append(q.wins, window{ta: sg.ta, tb: sg.tb, b: bx})
	}
}

// MaxMagnitude bounds the coordinates, the distances and angles travelled
// in a step and the step itself, so that no intermediate result of a
// query overflows; Contacts rejects larger inputs.
const MaxMagnitude = 1e60

// Work limits: maxWinSplits bounds the bisections of the windows of one
// query, maxSplits the bisections of one trajectory and maxWork those of
// all trajectories of one query. Past a limit, pieces are final as they
// are, which keeps every guarantee and only coarsens the time. They stop
// pathological inputs (enormous speeds, a trajectory hugging a surface
// with enormous rotation) from taking exponential time.
const (
	maxWinSplits = 1 << 10
	maxSplits    = 1 << 14
	maxWork      = 1 << 20
)

// maxCand is the largest candidate list scanned linearly; larger ones are
// searched through the BVH.
const maxCand = 48

// pass runs Algorithm 2 or 3 for the samples of sh (all, or those listed
// in idx) against soup s during [ta, tb], and returns the updated best
// time.
func (q *Query) pass(sh *Shape, idx []int32, onA bool, s *Soup, cand []int32, rel *Relative, ta, tb float64, o *opts, best float64) float64 {
	if len(cand) > maxCand {
		cand = nil
	}
	fa, fb := rel.Frame(ta), rel.Frame(tb)
	q.tcut = math.NaN()
	q.fgen++
	done := q.done[0]
	if !onA {
		done = q.done[1]
	}
	// Leading points first: they are likely to touch first, and the
	// earlier the first contact is known the more of the other points'
	// trajectories are cut short.
	lc := fb.Pos(sh.center).Sub(fa.Pos(sh.center))
	dir := fa.A.MulVecT(lc)
	q.keys = q.keys[:0]
	if idx == nil {
		for i, u := range sh.samples {
			q.keys = append(q.keys, sampleKey{-u.Dot(dir), int32(i)})
		}
	} else {
		for _, i := range idx {
			q.keys = append(q.keys, sampleKey{-sh.samples[i].Dot(dir), i})
		}
	}
	slices.SortFunc(q.keys, func(a, b sampleKey) int { return cmp.Compare(a.lead, b.lead) })
	for _, key := range q.keys {
		i := key.i
		if q.pruned(ta, best, o) {
			break
		}
		if done[i] == q.gen {
			continue
		}
		u := sh.samples[i]
		sg := seg{ta: ta, tb: tb, qa: fa.Pos(u), qb: fb.Pos(u), va: fa.Vel(u), vb: fb.Vel(u)}
		var h hit
		var ok bool
		if o.alg == Segments {
			h, ok = q.segments(s, cand, rel, u, sg, o, best)
		} else {
			h, ok = q.boxes(s, cand, rel, u, sg, o, best)
		}
		if ok {
			h.sample, h.onA = i, onA
			q.hits = append(q.hits, h)
			done[i] = q.gen
			if h.t < best {
				best = h.t
			}
		}
	}
	return best
}

// boxes is Algorithm 2 (DETERMINE-TOC) for the point u of the moving body:
// its trajectory from sg is bounded by boxes, bisected where they meet s,
// and the first final box that meets s gives the time of contact, the
// lower bound ta + (a_min + d/2) / L where a_min is the least coordinate
// along the chord of the part of a triangle inside the box, d the chord's
// length and L the speed bound.
func (q *Query) boxes(s *Soup, cand []int32, rel *Relative, u geom.Vec3, root seg, o *opts, best float64) (hit, bool) {
	k, rb := rel.Lipschitz(u), rel.RotationBound(u)
	q.segs = append(q.segs[:0], root)
	splits := 0
	for len(q.segs) > 0 {
		sg := q.segs[len(q.segs)-1]
		q.segs = q.segs[:len(q.segs)-1]
		if q.pruned(sg.ta, best, o) {
			continue
		}
		q.cut(&sg, rel, u, best, o)
		h := sg.tb - sg.ta
		speed := math.Min(SpeedBound(norm(sg.va), norm(sg.vb), k, h), rel.SpeedBoundGlobal(rb, sg.ta, sg.tb))
		ell := speed * h
		bx, perp := trajBox(sg.qa, sg.qb, ell, padFor(s, sg.qa, ell))
		tm := (sg.ta + sg.tb) / 2
		final := (perp <= o.eps && ell-norm(sg.qb.Sub(sg.qa)) <= o.timeTol*speed) ||
			sg.depth >= o.maxDepth || splits >= maxSplits || q.work >= maxWork || !(tm > sg.ta && tm < sg.tb)
		if !final {
			if !q.overlapAny(s, cand, &bx) {
				continue
			}
			splits++
			q.bisect(rel, u, sg, tm)
			continue
		}
		// Final box: the earliest time any overlapping triangle allows.
		q.leaf = q.overlapping(s, cand, &bx, q.leaf[:0])
		if len(q.leaf) == 0 {
			continue
		}
		d := norm(sg.qb.Sub(sg.qa))
		var res hit
		res.t = math.Inf(1)
		for _, ti := range q.leaf {
			t := &s.tris[ti]
			amin, ok := minAxial(&bx, t)
			if !ok {
				continue
			}
			tc := sg.ta
			if speed > 0 {
				tc = sg.ta + math.Max(0, amin+d/2)/speed
			}
			tc = math.Min(tc, sg.tb)
			flip, sep := facing(t, sg)
			if o.skipSeparating && sep {
				continue
			}
			if tc < res.t {
				res = hit{t: tc, tri: ti, flip: flip}
			}
		}
		if res.t <= sg.tb {
			return res, true
		}
	}
	return hit{}, false
}

// bisect pushes the two halves of sg, split at time tm, onto the segment
// stack, the later half first so that the earlier one is processed next.
func (q *Query) bisect(rel *Relative, u geom.Vec3, sg seg, tm float64) {
	q.work++
	fm := q.frame(rel, tm)
	qm, vm := fm.Pos(u), fm.Vel(u)
	q.segs = append(q.segs,
		seg{ta: tm, tb: sg.tb, qa: qm, qb: sg.qb, va: vm, vb: sg.vb, depth: sg.depth + 1},
		seg{ta: sg.ta, tb: tm, qa: sg.qa, qb: qm, va: sg.va, vb: vm, depth: sg.depth + 1})
}

// cut shortens a piece that ends after the pruning limit (best, or best +
// within) to end at the limit: nothing after it can be reported. The frame
// at the limit is computed once per limit.
func (q *Query) cut(sg *seg, rel *Relative, u geom.Vec3, best float64, o *opts) {
	lim := best + o.within
	if !(lim < sg.tb) || !(lim > sg.ta) {
		return
	}
	if q.tcut != lim {
		q.fcut, q.tcut = rel.Frame(lim), lim
	}
	sg.tb, sg.qb, sg.vb = lim, q.fcut.Pos(u), q.fcut.Vel(u)
}

// facing returns whether triangle t's normal must be reversed to face the
// sample point at the start of the piece, and whether the point moves away
// from that face at both ends of the piece.
func facing(t *tri, sg seg) (flip, separating bool) {
	side := t.n.Dot(sg.qa.Sub(t.a))
	if side == 0 {
		side = -t.n.Dot(sg.va)
	}
	flip = side < 0
	n := t.n
	if flip {
		n = n.Neg()
	}
	return flip, n.Dot(sg.va) > 0 && n.Dot(sg.vb) > 0
}

// overlapAny reports whether a triangle of s (of cand when not nil)
// overlaps b.
func (q *Query) overlapAny(s *Soup, cand []int32, b *box) bool {
	if cand == nil {
		return s.anyOverlap(b, &q.stack)
	}
	for _, i := range cand {
		if b.overlapsTri(&s.tris[i]) {
			return true
		}
	}
	return false
}

// overlapping appends the triangles of s (of cand when not nil) that
// overlap b.
func (q *Query) overlapping(s *Soup, cand []int32, b *box, dst []int32) []int32 {
	if cand == nil {
		dst = s.collect(b, dst, &q.stack)
		return dst
	}
	for _, i := range cand {
		if b.overlapsTri(&s.tris[i]) {
			dst = append(dst, i)
		}
	}
	return dst
}

// minAxial returns the least coordinate along the box's first axis (the
// chord) of the part of triangle t inside the box, by clipping the
// triangle to the box in the box's frame (Sutherland-Hodgman); ok is false
// when nothing is left.
func minAxial(b *box, t *tri) (float64, bool) {
	var buf [2][12]geom.Vec3
	poly := buf[0][:0]
	poly = append(poly, b.local(t.a), b.local(t.b), b.local(t.c))
	out := buf[1][:0]
	for axis := 0; axis < 3; axis++ {
		for sgn := -1.0; sgn <= 1; sgn += 2 {
			// keep sgn * x_axis <= h
			lim := b.h[axis]
			out = out[:0]
			for i := range poly {
				p, r := poly[i], poly[(i+1)%len(poly)]
				dp, dr := sgn*p.Get(axis)-lim, sgn*r.Get(axis)-lim
				if dp <= 0 {
					out = append(out, p)
				}
				if (dp < 0 && dr > 0) || (dp > 0 && dr < 0) {
					out = append(out, p.Lerp(r, dp/(dp-dr)))
				}
			}
			if len(out) == 0 {
				return 0, false
			}
			poly, out = out, poly[:0]
		}
	}
	m := math.Inf(1)
	for _, p := range poly {
		m = math.Min(m, p.X)
	}
	return math.Max(m, -b.h[0]), true
}

// segments is Algorithm 3 (DETERMINE-TOC-ALT) for the point u: the
// trajectory is bisected until nu <= eps (pieces whose box misses s are
// dropped), and the chords are tested against the triangles in time
// order.
func (q *Query) segments(s *Soup, cand []int32, rel *Relative, u geom.Vec3, root seg, o *opts, best float64) (hit, bool) {
	k, rb := rel.Lipschitz(u), rel.RotationBound(u)
	q.segs = append(q.segs[:0], root)
	splits := 0
	for len(q.segs) > 0 {
		sg := q.segs[len(q.segs)-1]
		q.segs = q.segs[:len(q.segs)-1]
		if q.pruned(sg.ta, best, o) {
			continue
		}
		h := sg.tb - sg.ta
		ell := math.Min(SpeedBound(norm(sg.va), norm(sg.vb), k, h), rel.SpeedBoundGlobal(rb, sg.ta, sg.tb)) * h
		d := norm(sg.qb.Sub(sg.qa))
		if ell < d {
			ell = d
		}
		tm := (sg.ta + sg.tb) / 2
		if ell-d > o.eps && sg.depth < o.maxDepth && splits < maxSplits && q.work < maxWork && tm > sg.ta && tm < sg.tb {
			// Every chord of a sub-piece lies in this piece's box, so a
			// box that misses s cannot lead to a hit: cull it.
			bx, _ := trajBox(sg.qa, sg.qb, ell, padFor(s, sg.qa, ell))
			if !q.overlapAny(s, cand, &bx) {
				continue
			}
			splits++
			q.bisect(rel, u, sg, tm)
			continue
		}
		ti, sp := int32(-1), math.Inf(1)
		if cand == nil {
			ti, sp = s.firstSegment(sg.qa, sg.qb, &q.stack)
		} else {
			for _, i := range cand {
				t := &s.tris[i]
				if v, ok := geom.SegmentTriangle(sg.qa, sg.qb, t.a, t.b, t.c); ok && v < sp {
					ti, sp = i, v
				}
			}
		}
		if ti < 0 {
			continue
		}
		flip, sep := facing(&s.tris[ti], sg)
		if o.skipSeparating && sep {
			continue
		}
		return hit{t: sg.ta + sp*h, tri: ti, flip: flip}, true
	}
	return hit{}, false
}
