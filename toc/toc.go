package toc

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshquery"
)

// Method selects how a sample point's time of contact is found.
type Method int

const (
	// Boxes is Algorithm 2: the trajectory is bounded by oriented boxes,
	// bisected in time where a box meets the other body until its
	// thickness is at most the tolerance. It misses no contact: every
	// crossing of the other body's surface by a sample point is found, and
	// the time reported is never later than the true one (a trajectory
	// passing within the tolerance of a triangle earlier reports that
	// moment: the paper's Sec. 3.3 meaning of epsilon).
	Boxes Method = iota
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
func (a Method) String() string {
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
	// Method: Boxes (Algorithm 2 of the paper, the default) or Segments
	// (Algorithm 3).
	Method Method
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
	// SkipSeparating ignores contacts where the sample point (or edge)
	// moves away from the surface (or edge) it touches, at both ends of the
	// final piece, so that a contact just resolved by a collision response
	// is not found again at the start of the next interval.
	SkipSeparating bool
	// PointsOnly skips the edge phase: only sample points are tested
	// against triangles (Algorithm 1 as written). Faster, but a first
	// contact of an edge against an edge is then found late, when a sample
	// point finally touches.
	PointsOnly bool
	// Motion is the motion model of Scratch.Between: how each body moves
	// from its start pose to its end pose (zero: geom.ScrewMotion).
	// Scratch.Contacts takes the motion from its States and ignores it.
	Motion geom.MotionModel
}

// Contact is a contact between bodies A and B, in the conventions of
// package contact.
type Contact struct {
	// Status is contact.Hit for a time of contact during the step
	// (contact.Unconfirmed for an edge contact that a work limit or an
	// elementary edge test's box budget left unproven within the
	// tolerance; its time is still no later than the true one),
	// contact.Touching when the surfaces are within the tolerance of each
	// other at time 0 (bodies at rest on each other included), and
	// contact.Penetrating when they cross at time 0.
	Status contact.Status
	// Time is the time of contact as a fraction of the step, in [0, 1].
	// With Boxes it is a lower bound of the true time of the feature's
	// contact: exact for a point moving on a straight line, earlier by at
	// most the time the feature needs to cross its final box otherwise.
	Time float64
	// Point is the world position at Time of the touching sample point,
	// or of the point of the moving edge for an edge contact, or where an
	// edge crosses a triangle for a Penetrating contact.
	Point geom.Vec3
	// Normal is the unit world normal at Time, pointing from A towards B:
	// the normal of the triangle touched by a sample point, oriented
	// across from the point's side (a vertex touching beside its
	// triangle, or with triangles around it across the triangle's plane,
	// is reported as the contact of its edge with the triangle's edge
	// nearest to it, at the same time), or the normal of two touching edges:
	// their cross product, across from A's edge to B's, or where that
	// plane would cut into the triangles at the edges (parallel edges,
	// edges touching at an end) the direction between the edges' closest
	// points or the normal of one of their triangles, whichever keeps the
	// triangles around the contact on their sides. For a
	// Penetrating contact it is the crossed triangle's normal as wound,
	// pointing into the triangle's body for a triangle of B (outward
	// winding), out of it for a triangle of A.
	Normal geom.Vec3
	// Separation is 0 except for a Penetrating contact, where it is minus
	// an estimate of the depth: the shorter distance from the crossing
	// edge's ends to the crossed triangle's plane.
	Separation float64
	// FeatureA and FeatureB are the touching features in the meshes'
	// numbering (see SoupOf and Soup.Edges): a sample point is a
	// contact.Vertex with its index in Shape.Samples (the mesh's vertex
	// index when the samples are the soup's vertices, the default; with
	// other samples the kind is contact.NoFeature), a triangle the
	// contact.Face it belongs to, and an edge a contact.Edge.
	FeatureA, FeatureB contact.Feature
}

// Record returns the contact as a contact.Contact (the same fields).
func (c *Contact) Record() contact.Contact {
	return contact.Contact{Status: c.Status, Time: c.Time, Point: c.Point, Normal: c.Normal,
		Separation: c.Separation, FeatureA: c.FeatureA, FeatureB: c.FeatureB}
}

// Shape is a body's geometry for time-of-contact queries: a triangle soup
// with its BVH, and the points sampled from its surface (its vertices by
// default, Algorithm 1).
type Shape struct {
	soup    *Soup
	samples []geom.Vec3
	center  geom.Vec3
	radius  float64
	// verts is set when the samples are the soup's vertices.
	verts bool
	// uniq lists one sample index per distinct position (the first):
	// soups that store every triangle with its own vertices repeat each
	// point several times, and one trajectory stands for all copies.
	uniq []int32
	// pnodes is a bounding-sphere tree over the distinct samples,
	// porder[pnodes[i].lo:pnodes[i].hi] the samples of node i.
	pnodes []pnode
	porder []int32
}

// NewShape returns the shape of a soup with the given sample points (local
// coordinates); nil samples means the soup's vertices. It returns an error
// naming the sample when a coordinate is not finite or above geom.MaxCoord
// in magnitude.
func NewShape(s *Soup, samples []geom.Vec3) (*Shape, error) {
	if s == nil {
		return nil, errors.New("toc: NewShape: nil soup")
	}
	verts := samples == nil
	if verts {
		samples = s.verts
	}
	sh := &Shape{soup: s, samples: append([]geom.Vec3(nil), samples...), center: s.center, radius: s.radius, verts: verts}
	for i, p := range samples {
		if !p.IsFinite() || p.MaxAbs() > geom.MaxCoord {
			return nil, fmt.Errorf("toc: sample %d: coordinate is not finite or above geom.MaxCoord (%g) in magnitude: %v", i, geom.MaxCoord, p)
		}
		sh.radius = math.Max(sh.radius, p.Dist(sh.center))
	}
	seen := make(map[geom.Vec3]bool, len(samples))
	for i, p := range samples {
		if !seen[p] {
			seen[p] = true
			sh.uniq = append(sh.uniq, int32(i))
		}
	}
	sh.buildPointTree()
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

// hit is a candidate contact found during a query: a sample point against
// a triangle, or (edge >= 0) an edge against an edge.
type hit struct {
	t      float64
	sample int32 // sample index, or the moving edge's number
	tri    int32 // BVH position in the other soup
	edge   int32 // the other soup's edge number, -1 for a point contact
	onA    bool  // the sample point or moving edge belongs to A
	flip   bool  // the triangle normal is reversed to face the sample
	// p and n are an edge contact's point (on the moving edge) and normal
	// (from the moving edge to the other), in the other body's frame.
	p, n geom.Vec3
	// unconfirmed: an edge contact found at a work limit, not within the
	// tolerance.
	unconfirmed bool
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

// Scratch holds the scratch space of time-of-contact queries, so that
// repeated queries allocate nothing. The zero value is ready to use; a
// Scratch must not be used by two goroutines at once.
type Scratch struct {
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
	// Edge phase: edone[i] == gen once the moving edge i has its contact;
	// ecand are the other's edges in the current window, epcs the
	// bisection stack of edge pieces.
	edone []uint32
	gstk  []gnode    // edge phase: groups of the mover's edges
	pairs [][2]int32 // node pairs of crossing's tree descent
	// xe caches edge ends placed in the other body's frame during
	// crossing: valid where xmark equals xgen.
	xe    [][2]geom.Vec3
	xmark []uint32
	xgen  uint32
	ecand []int32
	epcs  []epiece
	ebuf  []int32
	// wpos holds the points around both edges of a contact at its time
	// (edgeContactNormal).
	wpos []geom.Vec3
	// pstk is treePass's stack of point-tree nodes over time intervals,
	// hcand the triangles a node's swept box meets.
	pstk   []pitem
	hcand  []int32
	front  []int32 // fronts of treePass's items in the tree of the other soup
	stack2 []int32
	// pframes are the frames at the ends of treePass's items.
	pframes []Frame
	// fc caches frames of the pass in progress by time: the points of a
	// pass are bisected at the same instants. An entry is valid when its
	// gen equals fgen.
	fc   [64]frameEntry
	fgen uint64
	// certify's distance tests and the windows it splits.
	mq    meshquery.Scratch
	cwins []window
	// speed caches the point-free parts of the speed bound (speedGlobal).
	speed speedEntry
}

type frameEntry struct {
	t   float64
	gen uint64
	f   Frame
}

// frame returns rel's frame at t through the cache of the current pass.
func (q *Scratch) frame(rel *Relative, t float64) *Frame {
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
func (q *Scratch) startDone(na, nb int) {
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
	alg            Method
	eps, within    float64
	timeTol        float64
	maxDepth       int32
	skipSeparating bool
	edges          bool
}

func resolve(o *Options, a, b *Shape, dt float64) (opts, error) {
	r := opts{alg: Boxes, maxDepth: DefaultMaxDepth, timeTol: DefaultRelTimeTolerance * dt}
	r.eps = DefaultRelTolerance * math.Min(a.radius, b.radius)
	if o != nil {
		if o.Method != Boxes && o.Method != Segments {
			return r, fmt.Errorf("toc: unknown algorithm %d", int(o.Method))
		}
		r.alg = o.Method
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
		if o.Motion != geom.ScrewMotion && o.Motion != geom.LinearAngular {
			return r, fmt.Errorf("toc: unknown motion model %d", o.Motion)
		}
		r.edges = !o.PointsOnly
	} else {
		r.edges = true
	}
	if !(r.eps > 0) {
		r.eps = math.SmallestNonzeroFloat64
	}
	return r, nil
}

// pruned reports whether a piece starting at t can still give a reported
// contact.
func (q *Scratch) pruned(t, best float64, o *opts) bool {
	if o.within > 0 {
		return t > best+o.within
	}
	return t >= best
}

// Contacts runs Algorithm 1: the time of contact of bodies A and B moving
// with constant velocities (states sa, sb at the start; see State) during a
// step of length dt, from the trajectories of A's sample points against B's
// triangles and of B's sample points against A's triangles (each in the
// frame of the other body, Sec. 3.2), and, unless Options.PointsOnly, of
// the edges of the smaller body against the edges of the other (the edge
// phase: edges of a piece of trajectory are tested with the conservative
// elementary edge-edge test of package ccd, widened by the piece's
// deviation from straight motion, where the piece's box meets the other
// body's triangles). It appends the first contact, or with Options.Within
// every sample point's and edge's contact within Within of the first in
// time order, to dst; times are fractions of the step. Nothing is appended
// when the bodies do not touch during the step.
//
// Bodies whose surfaces already meet at time 0 get a contact at time 0:
// Penetrating (one record) when an edge of one crosses a triangle of the
// other by more than the tolerance at both ends, otherwise Touching for
// the features within the tolerance (one record, the edge and the
// triangle, for a shallower crossing), whether or not the bodies move. A
// body wholly inside the other without the surfaces meeting is no contact:
// a soup has no inside.
//
// It returns an error when a state is not finite, dt is negative, a
// coordinate, a distance or angle travelled in the step, a body's size or
// dt itself exceeds geom.MaxCoord (far beyond any sensible step: only
// overflow is guarded against), or an option is out of range.
func (q *Scratch) Contacts(a *Shape, sa State, b *Shape, sb State, dt float64, opt *Options, dst []Contact) ([]Contact, error) {
	if a == nil || b == nil {
		return dst, errors.New("toc: nil shape")
	}
	if err := sa.Validate(); err != nil {
		return dst, fmt.Errorf("toc: body A: %w", err)
	}
	if err := sb.Validate(); err != nil {
		return dst, fmt.Errorf("toc: body B: %w", err)
	}
	if !(dt >= 0) || dt > geom.MaxCoord {
		return dst, fmt.Errorf("toc: step %v must be in [0, geom.MaxCoord = %g]", dt, geom.MaxCoord)
	}
	for _, c := range []struct {
		name string
		v    float64
	}{
		{"A's position", sa.Pose.P.MaxAbs()}, {"A's velocity times the step", sa.V.MaxAbs() * dt},
		{"A's angular velocity times the step", sa.W.MaxAbs() * dt}, {"A's reference point", sa.Ref.MaxAbs()},
		{"B's position", sb.Pose.P.MaxAbs()}, {"B's velocity times the step", sb.V.MaxAbs() * dt},
		{"B's angular velocity times the step", sb.W.MaxAbs() * dt}, {"B's reference point", sb.Ref.MaxAbs()},
		{"A's size", a.soup.scale + a.radius}, {"B's size", b.soup.scale + b.radius},
	} {
		if c.v > geom.MaxCoord {
			return dst, fmt.Errorf("toc: %s is %g, above geom.MaxCoord (%g)", c.name, c.v, geom.MaxCoord)
		}
	}
	o, err := resolve(opt, a, b, dt)
	if err != nil {
		return dst, err
	}
	best := math.Inf(1)
	q.hits = q.hits[:0]
	q.speed.id = 0 // the numbers are reused by every query
	q.startDone(len(a.samples), len(b.samples))
	q.work = 0
	relAB, relBA := NewRelative(sa, sb), NewRelative(sb, sa)
	relAB.id, relBA.id = 1, 2
	// The smaller body's bounding sphere, swept against the other's
	// soup, finds the windows of time in which they may touch.
	mover, other, relMO, relOM, moverIsA := a, b, &relAB, &relBA, true
	if b.radius < a.radius {
		mover, other, relMO, relOM, moverIsA = b, a, &relBA, &relAB, false
	}
	q.windows(other.soup, relMO, mover.center, mover.radius, dt, &o)
	if certifiable(a, b, &o) {
		q.certify(mover, other, relMO, dt, &o)
	}
	// The surfaces at time 0, unless certify has found them apart during
	// an interval from 0 (then they neither cross nor touch at 0).
	var shallow Contact // a crossing at time 0 within the tolerance
	if len(q.wins) > 0 && q.wins[0].ta == 0 {
		c, ok := q.crossing(mover, other, relMO, relOM, moverIsA, &o)
		switch {
		case ok && (c.Status == contact.Penetrating || o.within == 0):
			return append(dst, c), nil
		case ok:
			// With Within, the contacts within it of time 0 follow.
			shallow, best = c, 0
		}
	}
	if o.edges {
		q.startEdges(len(mover.soup.edges))
	}
	for wi := range q.wins {
		w := q.wins[wi]
		if q.pruned(w.ta, best, &o) {
			break
		}
		// Mover's points against the other's triangles, and the
		// other's points against the mover's triangles, in the window,
		// culled by the point trees.
		best = q.treePass(mover, moverIsA, other.soup, relMO, w.ta, w.tb, &o, best)
		best = q.treePass(other, !moverIsA, mover.soup, relOM, w.ta, w.tb, &o, best)
		// Mover's edges against the other's edges in the window.
		if o.edges && len(other.soup.edges) > 0 && len(mover.soup.edges) > 0 && other.soup.anyOverlap(&w.b, &q.stack) {
			q.ecand = other.soup.etree.collectSegsMax(&w.b, maxCand, q.ecand[:0], &q.stack)
			if len(q.ecand) > 0 {
				best = q.edgePass(mover, moverIsA, other.soup, q.ecand, relMO, w.ta, w.tb, &o, best)
			}
		}
	}
	if shallow.Status != contact.Unknown {
		dst = append(dst, shallow)
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
		h := q.properVertexFace(q.hits[first], a, b, &relAB, &relBA, &o)
		return append(dst, q.contact(h, a, sa, b, sb, dt)), nil
	}
	slices.SortStableFunc(q.hits, func(x, y hit) int { return cmp.Compare(x.t, y.t) })
	for _, h := range q.hits {
		if h.t > best+o.within {
			break
		}
		h = q.properVertexFace(h, a, b, &relAB, &relBA, &o)
		dst = append(dst, q.contact(h, a, sa, b, sb, dt))
	}
	return dst, nil
}

// Between is Contacts for bodies that move from poses a0, b0 at the start
// of the step to a1, b1 at its end under the motion model
// Options.Motion (the screw motion by default): the states are StateOf the
// poses and the step has length 1.
func (q *Scratch) Between(a *Shape, a0, a1 geom.Pose, b *Shape, b0, b1 geom.Pose, opt *Options, dst []Contact) ([]Contact, error) {
	m := geom.ScrewMotion
	if opt != nil {
		m = opt.Motion
	}
	if m != geom.ScrewMotion && m != geom.LinearAngular {
		return dst, fmt.Errorf("toc: unknown motion model %d", m)
	}
	for i, p := range [4]geom.Pose{a0, a1, b0, b1} {
		if err := p.Validate(); err != nil {
			return dst, fmt.Errorf("toc: %s: %w", [4]string{"A's start pose", "A's end pose", "B's start pose", "B's end pose"}[i], err)
		}
	}
	return q.Contacts(a, StateOf(a0, a1, m), b, StateOf(b0, b1, m), 1, opt, dst)
}

// contact converts a hit to a world-frame Contact.
func (q *Scratch) contact(h hit, a *Shape, sa State, b *Shape, sb State, dt float64) Contact {
	own, oth, so, st := a, b, sa, sb
	if !h.onA {
		own, oth, so, st = b, a, sb, sa
	}
	t := &oth.soup.tris[h.tri]
	c := Contact{Status: contact.Hit}
	if dt > 0 {
		c.Time = min(1, h.t/dt)
	}
	switch {
	case h.unconfirmed:
		c.Status = contact.Unconfirmed
	case h.t == 0:
		c.Status = contact.Touching
	}
	pose := st.At(h.t)
	var fo, ft contact.Feature // the moving feature's and the other's
	if h.edge >= 0 {
		c.Point = pose.Apply(h.p)
		c.Normal = pose.ApplyDir(h.n)
		fo, ft = contact.E(h.sample), contact.E(h.edge)
	} else {
		n := t.n
		if !h.flip {
			n = n.Neg() // towards the triangle, away from the point
		}
		c.Point = so.At(h.t).Apply(own.samples[h.sample])
		c.Normal = pose.ApplyDir(n)
		if own.verts {
			fo = contact.V(h.sample)
		}
		ft = contact.F(oth.soup.faces[t.id])
	}
	c.FeatureA, c.FeatureB = fo, ft
	if !h.onA {
		c.Normal = c.Normal.Neg()
		c.FeatureA, c.FeatureB = ft, fo
	}
	return c
}

// properVertexFace checks a sample point's contact h with a triangle
// when the point is a vertex of its soup: the triangle's normal is the
// contact's only when the vertex is over the triangle (within the
// tolerance of its sides that are edges of the surface; a diagonal of a
// polygon face has the face beyond it) and the triangles around the vertex
// are behind the triangle's plane (within the tolerance). Otherwise the
// vertex meets the triangle's body near an edge of the triangle, and the
// contact is that of an edge at the vertex against an edge of the
// triangle: the pair nearest at h's time, within twice the tolerance,
// whose normal (edgeContactNormal, with the triangles around the ends of
// the edges) keeps both bodies on their sides replaces h's features, point
// and normal, at h's time. h is returned unchanged when it is proper or no
// such pair exists. relAB
// places A in B's frame, relBA B in A's.
func (q *Scratch) properVertexFace(h hit, a, b *Shape, relAB, relBA *Relative, o *opts) hit {
	own, oth, rel := a, b, relAB
	if !h.onA {
		own, oth, rel = b, a, relBA
	}
	if h.edge >= 0 || !own.verts {
		return h
	}
	ms, s := own.soup, oth.soup
	t := &s.tris[h.tri]
	f := rel.Frame(h.t)
	x := f.Pos(ms.verts[h.sample])
	n := t.n // from the triangle towards the vertex's side
	if h.flip {
		n = n.Neg()
	}
	proper := true
	for k, e := range [3][2]geom.Vec3{{t.a, t.b}, {t.b, t.c}, {t.c, t.a}} {
		d := e[1].Sub(e[0])
		if t.e[k] >= 0 && d.Cross(x.Sub(e[0])).Dot(t.n) < -o.eps*d.Norm() {
			proper = false
		}
	}
	for _, v := range ms.aroundVertex(h.sample) {
		if n.Dot(f.Pos(ms.verts[v]).Sub(x)) < -o.eps {
			proper = false
		}
	}
	if proper {
		return h
	}
	// A pair farther apart than twice the tolerance is not where the
	// bodies touch.
	best, bestD := h, 2*o.eps
	for me, e := range ms.edges {
		if e[0] != h.sample && e[1] != h.sample {
			continue
		}
		a0, a1 := f.Pos(ms.verts[e[0]]), f.Pos(ms.verts[e[1]])
		for _, oe := range t.e {
			if oe < 0 {
				continue
			}
			_, _, pa, pc := geom.ClosestSegmentPoints(a0, a1, s.verts[s.edges[oe][0]], s.verts[s.edges[oe][1]])
			d := pa.Dist(pc)
			if !(d < bestD) {
				continue
			}
			if nv, ok := q.edgeContactNormal(rel, h.t, ms, int32(me), s, oe, geom.Vec3{}, o.eps, o.eps); ok {
				best, bestD = hit{t: h.t, sample: int32(me), tri: h.tri, edge: oe, onA: h.onA, p: pa, n: nv, unconfirmed: h.unconfirmed}, d
			}
		}
	}
	return best
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
	b.bound()
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
func (q *Scratch) windows(s *Soup, rel *Relative, c geom.Vec3, r, dt float64, o *opts) {
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
		ell := q.pieceSpeed(rel, &sg, k, rb) * h
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

// edgeListDepth is the bisection depth from which an edge piece keeps the
// list of the other's edges its box meets (above it, the BVH is searched).
const edgeListDepth = 4

// edgeBoxBudget is the box budget (ccd.Options.MaxBoxes) of the edge
// phase's elementary tests.
const edgeBoxBudget = ccd.DefaultMaxBoxes

// maxCand is the largest candidate list scanned linearly; larger ones are
// searched through the BVH.
const maxCand = 48

// pass runs Algorithm 2 or 3 for the samples of sh (all, or those listed
// in idx) against soup s during [ta, tb] (rel's frames fa, fb at its
// ends), and returns the updated best time. It shares the frame cache of
// its caller, treePass, which follows the same relative motion.
func (q *Scratch) pass(sh *Shape, idx []int32, onA bool, s *Soup, cand []int32, rel *Relative, ta, tb float64, fa, fb *Frame, o *opts, best float64) float64 {
	if len(cand) > maxCand {
		cand = nil
	}
	q.tcut = math.NaN()
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
		for _, i := range sh.uniq {
			q.keys = append(q.keys, sampleKey{-sh.samples[i].Dot(dir), i})
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
			h.sample, h.onA, h.edge = i, onA, -1
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
func (q *Scratch) boxes(s *Soup, cand []int32, rel *Relative, u geom.Vec3, root seg, o *opts, best float64) (hit, bool) {
	k, rb := rel.Lipschitz(u), rel.RotationBound(u)
	q.segs = append(q.segs[:0], root)
	splits := 0
	var sg seg
	for q.popSeg(&sg, best, o) {
		q.cut(&sg, rel, u, best, o)
		h := sg.tb - sg.ta
		speed := q.pieceSpeed(rel, &sg, k, rb)
		ell := speed * h
		bx, perp := trajBox(sg.qa, sg.qb, ell, padFor(s, sg.qa, ell))
		tm := (sg.ta + sg.tb) / 2
		final := (perp <= o.eps && ell-norm(sg.qb.Sub(sg.qa)) <= o.timeTol*speed) ||
			sg.depth >= o.maxDepth || splits >= maxSplits || q.work >= maxWork || !(tm > sg.ta && tm < sg.tb)
		if !final {
			if !q.overlapAny(s, cand, &bx, false) {
				continue
			}
			splits++
			q.bisect(rel, u, sg, tm)
			continue
		}
		// Final box: the earliest time any overlapping triangle allows.
		q.leaf = q.overlapping(s, cand, &bx, false, q.leaf[:0])
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

// pieceSpeed bounds the speed of a point over the trajectory piece sg:
// the smaller of SpeedBound from the speeds at its ends with the point's
// Lipschitz constant k and SpeedBoundGlobal with its rotation bound rb.
func (q *Scratch) pieceSpeed(rel *Relative, sg *seg, k, rb float64) float64 {
	return math.Min(SpeedBound(norm(sg.va), norm(sg.vb), k, sg.tb-sg.ta), q.speedGlobal(rel, rb, sg.ta, sg.tb))
}

// speedGlobal is rel.SpeedBoundGlobal(rb, ta, tb) through a cache of the
// parts that do not depend on the point: the nodes of a tree and the
// pieces of an edge's two ends come over the same interval in turn.
func (q *Scratch) speedGlobal(rel *Relative, rb, ta, tb float64) float64 {
	c := &q.speed
	if rel.id == 0 {
		return rel.SpeedBoundGlobal(rb, ta, tb)
	}
	if c.id != rel.id || c.ta != ta || c.tb != tb {
		c.along, c.across = rel.speedParts(ta, tb)
		c.id, c.ta, c.tb = rel.id, ta, tb
	}
	return rel.speedFromParts(c.along, c.across, rb)
}

// speedEntry caches Relative.speedParts for the relative motion numbered
// id (Relative.id) and one interval.
type speedEntry struct {
	id                    uint8
	ta, tb, along, across float64
}

// popSeg pops into sg the next trajectory piece that can still give a
// reported contact; false when none is left.
func (q *Scratch) popSeg(sg *seg, best float64, o *opts) bool {
	for len(q.segs) > 0 {
		*sg = q.segs[len(q.segs)-1]
		q.segs = q.segs[:len(q.segs)-1]
		if !q.pruned(sg.ta, best, o) {
			return true
		}
	}
	return false
}

// bisect pushes the two halves of sg, split at time tm, onto the segment
// stack, the later half first so that the earlier one is processed next.
func (q *Scratch) bisect(rel *Relative, u geom.Vec3, sg seg, tm float64) {
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
func (q *Scratch) cut(sg *seg, rel *Relative, u geom.Vec3, best float64, o *opts) {
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

// overlapAny reports whether an entry of s (of cand when not nil) meets
// b: a triangle, or with seg an edge of an edge tree.
func (q *Scratch) overlapAny(s *Soup, cand []int32, b *box, seg bool) bool {
	if cand == nil {
		if seg {
			return s.anySegOverlap(b, &q.stack)
		}
		return s.anyOverlap(b, &q.stack)
	}
	if seg { // the branch outside the loops: the loops stay tight
		for _, i := range cand {
			if b.overlapsSegTri(&s.tris[i]) {
				return true
			}
		}
		return false
	}
	for _, i := range cand {
		if b.overlapsTri(&s.tris[i]) {
			return true
		}
	}
	return false
}

// overlapping appends the entries of s (of cand when not nil) that meet
// b: triangles, or with seg the edges of an edge tree.
func (q *Scratch) overlapping(s *Soup, cand []int32, b *box, seg bool, dst []int32) []int32 {
	if cand == nil {
		if seg {
			return s.collectSegs(b, dst, &q.stack)
		}
		return s.collect(b, dst, &q.stack)
	}
	if seg { // the branch outside the loops: the loops stay tight
		for _, i := range cand {
			if b.overlapsSegTri(&s.tris[i]) {
				dst = append(dst, i)
			}
		}
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
func (q *Scratch) segments(s *Soup, cand []int32, rel *Relative, u geom.Vec3, root seg, o *opts, best float64) (hit, bool) {
	k, rb := rel.Lipschitz(u), rel.RotationBound(u)
	q.segs = append(q.segs[:0], root)
	splits := 0
	var sg seg
	for q.popSeg(&sg, best, o) {
		h := sg.tb - sg.ta
		ell := q.pieceSpeed(rel, &sg, k, rb) * h
		d := norm(sg.qb.Sub(sg.qa))
		if ell < d {
			ell = d
		}
		tm := (sg.ta + sg.tb) / 2
		if ell-d > o.eps && sg.depth < o.maxDepth && splits < maxSplits && q.work < maxWork && tm > sg.ta && tm < sg.tb {
			// Every chord of a sub-piece lies in this piece's box, so a
			// box that misses s cannot lead to a hit: cull it.
			bx, _ := trajBox(sg.qa, sg.qb, ell, padFor(s, sg.qa, ell))
			if !q.overlapAny(s, cand, &bx, false) {
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

// startEdges sizes the marks of the edge phase: edone[i] == gen once the
// moving edge i has its contact.
func (q *Scratch) startEdges(nm int) {
	if len(q.edone) < nm {
		q.edone = append(q.edone, make([]uint32, nm-len(q.edone))...)
	}
	if q.gen == 1 { // the generation counter wrapped or starts: clear
		clear(q.edone)
	}
}

// epiece is a piece of the trajectory of an edge: the pieces of its two
// ends over the same time interval.
type epiece struct {
	e [2]seg
	// cs, cn locate in Scratch.ebuf the other's edges (etree positions) the
	// piece's parent box meets; cn < 0 means all of them (search the BVH).
	cs, cn int32
}

// edgePass runs the edge phase for the edges of mover against the edges
// of soup s's triangles (cand when not nil) during [ta, tb], and returns
// the updated best time. It is Algorithm 2 for segments: each edge's
// trajectory piece is bounded by the box around the boxes of its two ends
// (an edge of a rigid body is the segment between its ends at every
// instant, so it stays in their convex hull); pieces whose box meets s are
// bisected until each end deviates from its chord by at most the
// tolerance, and a final piece is tested with ccd's conservative
// edge-edge test on the chords, widened by the deviation.
func (q *Scratch) edgePass(mover *Shape, moverIsA bool, s *Soup, cand []int32, rel *Relative, ta, tb float64, o *opts, best float64) float64 {
	if len(cand) > maxCand {
		cand = nil
	}
	q.tcut = math.NaN()
	q.fgen++
	ms := mover.soup
	mt := ms.etree
	// The mover's edges are taken in groups, the nodes of its edge tree: a
	// node's edges stay within its radius of its centre's trajectory, so a
	// node whose swept box meets none of the other's edges during a piece
	// of time is done for all its edges at once. Pieces are bisected in time
	// while the trajectory is long for the node, and nodes are split
	// otherwise; a leaf's edges are then followed one by one.
	root := q.gpiece(mt, 0, rel, ta, tb, 0)
	// Without a candidate list, the other's edge tree is descended
	// together with the mover's (the fronts of treePass).
	q.front = append(q.front[:0], 0)
	root.fn = 1
	q.gstk = append(q.gstk[:0], root)
	for len(q.gstk) > 0 {
		g := q.gstk[len(q.gstk)-1]
		q.gstk = q.gstk[:len(q.gstk)-1]
		if q.pruned(g.sg.ta, best, o) {
			continue
		}
		n := &mt.nodes[g.node]
		c, r := nodeSphere(n)
		q.cut(&g.sg, rel, c, best, o)
		sg := g.sg
		h := sg.tb - sg.ta
		ell := q.pieceSpeed(rel, &sg, rel.Lipschitz(c), rel.RotationBound(c)) * h
		bx, _ := trajBox(sg.qa, sg.qb, ell, r+padFor(s, sg.qa, ell+r))
		q.tighter(&bx, rel, s, n.c, n.h, r, sg.ta, sg.tb)
		fs, fn := g.fs, g.fn
		if cand != nil {
			if !q.overlapAny(s.etree, cand, &bx, true) {
				continue
			}
		} else if fs, fn = q.descend(s.etree, true, &bx, fs, fn, nil, 0); fn == 0 {
			continue
		}
		tm := (sg.ta + sg.tb) / 2
		if ell > 2*r && sg.depth < o.maxDepth && q.work < maxWork && tm > sg.ta && tm < sg.tb {
			q.work++
			q.gstk = append(q.gstk, q.gpiece(mt, g.node, rel, tm, sg.tb, sg.depth+1).from(fs, fn), q.gpiece(mt, g.node, rel, sg.ta, tm, sg.depth+1).from(fs, fn))
			continue
		}
		if n.left >= 0 {
			// Both children over the same interval: its frames once.
			fa := *q.frame(rel, sg.ta) // a copy: the cache may reuse the slot for tb
			fb := q.frame(rel, sg.tb)
			q.gstk = append(q.gstk, gpieceIn(mt, n.left+1, &fa, fb, sg.ta, sg.tb, sg.depth).from(fs, fn), gpieceIn(mt, n.left, &fa, fb, sg.ta, sg.tb, sg.depth).from(fs, fn))
			continue
		}
		// A leaf: its edges one by one, from the other's edges this
		// node's box meets (one list for all of them, at the start of
		// q.ebuf: each edge's pieces append their own lists after it).
		fa := *q.frame(rel, sg.ta) // a copy: the cache may reuse the slot for tb
		fb := *q.frame(rel, sg.tb)
		q.ebuf = q.ebuf[:0]
		if cand == nil {
			q.descend(s.etree, true, &bx, fs, fn, &q.ebuf, 0)
		} else {
			q.ebuf = q.overlapping(s.etree, cand, &bx, true, q.ebuf)
		}
		nleaf := int32(len(q.ebuf))
		if nleaf == 0 {
			continue
		}
		for k := n.start; k < n.start+n.count; k++ {
			ei := mt.tris[k].id
			if q.edone[ei] == q.gen || q.pruned(sg.ta, best, o) {
				continue
			}
			e := ms.edges[ei]
			u0, u1 := ms.verts[e[0]], ms.verts[e[1]]
			ep := epiece{e: [2]seg{
				{ta: sg.ta, tb: sg.tb, qa: fa.Pos(u0), qb: fb.Pos(u0), va: fa.Vel(u0), vb: fb.Vel(u0), depth: sg.depth},
				{ta: sg.ta, tb: sg.tb, qa: fa.Pos(u1), qb: fb.Pos(u1), va: fa.Vel(u1), vb: fb.Vel(u1), depth: sg.depth},
			}}
			q.ebuf = q.ebuf[:nleaf]
			ep.cn = nleaf
			hh, ok := q.edgeBoxes(s, rel, ms, ei, ep, o, best)
			if ok {
				hh.sample, hh.onA = ei, moverIsA
				q.hits = append(q.hits, hh)
				q.edone[ei] = q.gen
				if hh.t < best {
					best = hh.t
				}
			}
		}
	}
	return best
}

// gnode is a node of the mover's edge tree over a piece of time, with the
// trajectory piece of the node's centre.
type gnode struct {
	node   int32
	sg     seg
	fs, fn int32 // the parent's front in the other's edge tree (Scratch.front)
}

// from returns g with the front fs, fn.
func (g gnode) from(fs, fn int32) gnode {
	g.fs, g.fn = fs, fn
	return g
}

// gpiece returns node ni of tree t over [ta, tb].
func (q *Scratch) gpiece(t *Soup, ni int32, rel *Relative, ta, tb float64, depth int32) gnode {
	fa := *q.frame(rel, ta) // a copy: the cache may reuse the slot for tb
	return gpieceIn(t, ni, &fa, q.frame(rel, tb), ta, tb, depth)
}

// gpieceIn is gpiece with the frames fa, fb at ta and tb.
func gpieceIn(t *Soup, ni int32, fa, fb *Frame, ta, tb float64, depth int32) gnode {
	c, _ := nodeSphere(&t.nodes[ni])
	return gnode{node: ni, sg: seg{ta: ta, tb: tb, qa: fa.Pos(c), qb: fb.Pos(c), va: fa.Vel(c), vb: fb.Vel(c), depth: depth}}
}

// nodeSphere returns the centre and radius of a node's box.
func nodeSphere(n *node) (geom.Vec3, float64) {
	return n.min.Add(n.max).Scale(0.5), norm(n.max.Sub(n.min)) / 2
}

// edgeBoxes finds the first contact of the edge ei of soup ms against the
// edges of s, from the root piece.
func (q *Scratch) edgeBoxes(s *Soup, rel *Relative, ms *Soup, ei int32, root epiece, o *opts, best float64) (hit, bool) {
	es := s.etree
	u := [2]geom.Vec3{ms.verts[ms.edges[ei][0]], ms.verts[ms.edges[ei][1]]}
	var k, rb [2]float64
	for i := range u {
		k[i], rb[i] = rel.Lipschitz(u[i]), rel.RotationBound(u[i])
	}
	q.epcs = append(q.epcs[:0], root)
	splits := 0
	for len(q.epcs) > 0 {
		pc := q.epcs[len(q.epcs)-1]
		q.epcs = q.epcs[:len(q.epcs)-1]
		if q.pruned(pc.e[0].ta, best, o) {
			continue
		}
		for i := range pc.e {
			q.cut(&pc.e[i], rel, u[i], best, o)
		}
		ta, tb := pc.e[0].ta, pc.e[0].tb
		h := tb - ta
		dev, pad := 0.0, 0.0
		for i := range pc.e {
			sg := &pc.e[i]
			ell := q.pieceSpeed(rel, sg, k[i], rb[i]) * h
			d := norm(sg.qb.Sub(sg.qa))
			if ell < d {
				ell = d
			}
			// Every point of the trajectory at time t is within
			// sqrt(nu^2 + w^2) <= nu + w of the chord's point at the same
			// fraction of the piece (nu = ell - d, w the half width of
			// TrajectoryOBB across the chord).
			dev = math.Max(dev, (ell-d)+math.Sqrt((ell-d)*(ell+d))/2)
			pad = math.Max(pad, padFor(s, sg.qa, ell))
		}
		a0, a1 := &pc.e[0], &pc.e[1]
		bx := edgeBox(a0.qa, a1.qa, a0.qb, a1.qb, dev+pad)
		// The other's edges this box meets, from those its parent met
		// (the trajectory during the piece is inside the parent's box).
		cs := int32(len(q.ebuf))
		tm := (ta + tb) / 2
		final := dev <= o.eps || pc.e[0].depth >= o.maxDepth || splits >= maxSplits || q.work >= maxWork || !(tm > ta && tm < tb)
		if pc.cn < 0 && !final && pc.e[0].depth < edgeListDepth {
			// A long piece meets many edges: search the BVH until the
			// pieces are short enough for lists to pay.
			if !es.anySegOverlap(&bx, &q.stack) {
				continue
			}
			q.bisectEdge(rel, u, &pc, tm, -1, -1)
			splits++
			continue
		}
		if pc.cn < 0 {
			q.ebuf = es.collectSegs(&bx, q.ebuf, &q.stack)
		} else {
			for _, i := range q.ebuf[pc.cs : pc.cs+pc.cn] {
				if bx.overlapsSegTri(&es.tris[i]) {
					q.ebuf = append(q.ebuf, i)
				}
			}
		}
		cn := int32(len(q.ebuf)) - cs
		if cn == 0 {
			continue
		}
		if !final {
			splits++
			q.bisectEdge(rel, u, &pc, tm, cs, cn)
			continue
		}
		// Final piece: ccd on the chords, widened by the deviation,
		// against every edge the box meets.
		res := hit{t: math.Inf(1)}
		// A test that runs out of its box budget reports the earliest
		// time it has not ruled out, which is as conservative.
		opt := ccd.Options{MinDistance: dev + pad, Tolerance: o.eps / 4, MaxBoxes: edgeBoxBudget}
		for _, ti := range q.ebuf[cs : cs+cn] {
			et := &es.tris[ti]
			c0, c1 := et.a, et.b
			st, en := [4]geom.Vec3{a0.qa, a1.qa, c0, c1}, [4]geom.Vec3{a0.qb, a1.qb, c0, c1}
			r := ccd.EdgeEdge(st, en, opt)
			capped := r.Capped
			if capped {
				r, capped = confirmEdges(st, en, opt, o.eps, r)
			}
			if !r.Hit() {
				continue
			}
			tc := math.Min(ta+r.Time*h, tb)
			if !(tc < res.t) {
				continue
			}
			n, ok := q.edgeContactNormal(rel, tc, ms, ei, s, et.id, r.Normal, o.eps+dev+pad, o.eps+dev+pad)
			if !ok {
				// The triangles around an end may admit no plane (a
				// saddle vertex of a non-convex body) while the contact
				// is inside the edges: ccd's time is conservative, up to
				// the tolerance early, and the edges may then be nearest
				// near an end that they no longer are when they touch.
				// The edges' own triangles decide.
				n, ok = q.edgeContactNormal(rel, tc, ms, ei, s, et.id, r.Normal, o.eps+dev+pad, 0)
			}
			if !ok {
				// No plane through the touching edges has both bodies'
				// triangles at them on its two sides: the edges come
				// near without touching first (a vertex at an end of one
				// meets the other body's faces, which the point phase
				// finds, or the bodies pass within the tolerance).
				continue
			}
			if o.skipSeparating {
				// n points from the moving edge to the other one: the
				// edge separates when its point moves against n.
				va, vb := a0.va.Lerp(a1.va, r.U), a0.vb.Lerp(a1.vb, r.U)
				if n.Dot(va) < 0 && n.Dot(vb) < 0 {
					continue
				}
			}
			res = hit{t: tc, edge: et.id, p: r.Point, n: n, unconfirmed: dev > o.eps || capped}
		}
		if res.t <= tb {
			return res, true
		}
	}
	return hit{}, false
}

// bisectEdge pushes the two halves of the edge piece pc, split at tm, with
// the candidate list (cs, cn), the later half first.
func (q *Scratch) bisectEdge(rel *Relative, u [2]geom.Vec3, pc *epiece, tm float64, cs, cn int32) {
	q.work++
	fm := q.frame(rel, tm)
	var early, late epiece
	for i := range pc.e {
		sg := &pc.e[i]
		qm, vm := fm.Pos(u[i]), fm.Vel(u[i])
		late.e[i] = seg{ta: tm, tb: sg.tb, qa: qm, qb: sg.qb, va: vm, vb: sg.vb, depth: sg.depth + 1}
		early.e[i] = seg{ta: sg.ta, tb: tm, qa: sg.qa, qb: qm, va: sg.va, vb: vm, depth: sg.depth + 1}
	}
	late.cs, late.cn, early.cs, early.cn = cs, cn, cs, cn
	q.epcs = append(q.epcs, late, early)
}

// confirmEdges settles the edge-edge test (st, en: edge A's ends and edge
// B's at the start and the end of the piece, moving linearly) whose
// result r ran out of ccd's box budget, which happens when the edges are
// nearly parallel or touch near an end of one: the pairs of parameters at
// which they are near then form a long thin set, or lie along a side of
// the parameter square, that interval boxes cover only in great numbers.
// No contact is earlier than r.Time, so when the edges are within
// opt.MinDistance + tol of each other then, r is a contact within the
// tolerance (the point and parameters are then the edges' closest points).
// Otherwise nearly parallel edges are settled by their ends. Two segments that are parallel first touch where an end of one meets
// the other, and segments at an angle phi touching at a point have an end
// within max(|A|, |B|) sin(phi) of the other segment then; when that
// widening is at most tol, the earliest of the four tests of an end
// against the other edge, widened by it, is a conservative answer for the
// edges (U along edge A, V along edge B, Point on edge A, no Normal).
// Otherwise, or when an end test also runs out of its budget, r is
// returned as it is, unconfirmed.
func confirmEdges(st, en [4]geom.Vec3, opt ccd.Options, tol float64, r ccd.Result) (ccd.Result, bool) {
	var x [4]geom.Vec3
	for i := range x {
		x[i] = st[i].Lerp(en[i], r.Time)
	}
	if u, v, pa, pb := geom.ClosestSegmentPoints(x[0], x[1], x[2], x[3]); pa.Dist(pb) <= opt.MinDistance+tol {
		r.U, r.V, r.Point = u, v, pa
		return r, false
	}
	da0, da1, db0, db1 := st[1].Sub(st[0]), en[1].Sub(en[0]), st[3].Sub(st[2]), en[3].Sub(en[2])
	cross := math.Max(da0.Cross(db0).Norm(), da1.Cross(db1).Norm())
	short := math.Min(math.Min(da0.Norm(), da1.Norm()), math.Min(db0.Norm(), db1.Norm()))
	if !(cross <= tol*short) {
		if x, ok := splitEdges(st, en, opt, 0); ok {
			return x, false
		}
		return r, true
	}
	opt.MinDistance += cross / short
	best := ccd.Result{Status: ccd.Separated, Time: math.Inf(1)}
	for _, e := range [4][3]int{{0, 2, 3}, {1, 2, 3}, {2, 0, 1}, {3, 0, 1}} {
		x := ccd.EdgeEdge([4]geom.Vec3{st[e[0]], st[e[0]], st[e[1]], st[e[2]]},
			[4]geom.Vec3{en[e[0]], en[e[0]], en[e[1]], en[e[2]]}, opt)
		if x.Capped {
			return r, true
		}
		if !x.Hit() || !(x.Time < best.Time) {
			continue
		}
		best = ccd.Result{Status: ccd.Hit, Time: x.Time, U: float64(e[0]), V: x.V}
		if e[0] >= 2 { // an end of edge B against edge A
			best.U, best.V = x.V, float64(e[0]-2)
		}
		best.Point = st[0].Lerp(en[0], x.Time).Lerp(st[1].Lerp(en[1], x.Time), best.U)
	}
	return best, false
}

// splitEdges runs the edge-edge test (st, en as for confirmEdges) on the
// halves of one edge, edge A and edge B in turn, each half with its own box
// budget, to depth 4 (at most 16 pieces): a thin set of near parameters
// is shorter in each. ok is false when a piece still runs out of its
// budget; otherwise x is the earliest hit of the pieces, in the
// parameters of the whole edges.
func splitEdges(st, en [4]geom.Vec3, opt ccd.Options, depth int) (x ccd.Result, ok bool) {
	x = ccd.Result{Status: ccd.Separated, Time: math.Inf(1)}
	k := 2 * (depth % 2) // the first end of the edge halved
	for half := range 2 {
		s, e := st, en
		lo, hi := float64(half)/2, float64(half+1)/2
		s[k], s[k+1] = st[k].Lerp(st[k+1], lo), st[k].Lerp(st[k+1], hi)
		e[k], e[k+1] = en[k].Lerp(en[k+1], lo), en[k].Lerp(en[k+1], hi)
		r := ccd.EdgeEdge(s, e, opt)
		if r.Capped {
			if depth == 3 {
				return x, false
			}
			if r, ok = splitEdges(s, e, opt, depth+1); !ok {
				return x, false
			}
		}
		if !r.Hit() || !(r.Time < x.Time) {
			continue
		}
		if k == 0 {
			r.U = lo + r.U/2
		} else {
			r.V = lo + r.V/2
		}
		x = r
	}
	return x, true
}

// edgeContactNormal returns the normal of a contact at time t of the
// moving edge me of soup ms (placed by rel) against the edge oe of soup s,
// pointing from the moving edge to the other: a direction for which the
// plane through the contact has the moving edge's triangles behind it and
// the other's in front, within tol (and the triangles around an end of an
// edge too when the edges are nearest within ends of that end: the contact
// may be at a vertex). An edge-edge contact of two surfaces is proper
// only when such a plane exists (the edges' dihedral wedges then lie on its
// two sides; the test of a Minkowski face in Gregorius, "The Separating
// Axis Test between Convex Polyhedra", GDC 2013). The first candidate is
// guess (ccd's normal, the edges' cross product oriented by their
// positions at the start of the piece, zero when they are parallel); when
// it fails, the best of the edges' cross product, the direction between
// their closest points and the normals of the edges' triangles, either
// way. ok is false when no candidate separates: the edges are near but the
// surfaces do not touch there edge against edge.
func (q *Scratch) edgeContactNormal(rel *Relative, t float64, ms *Soup, me int32, s *Soup, oe int32, guess geom.Vec3, tol, ends float64) (geom.Vec3, bool) {
	f := rel.Frame(t)
	ea, ec := ms.edges[me], s.edges[oe]
	a0, a1, c0, c1 := f.Pos(ms.verts[ea[0]]), f.Pos(ms.verts[ea[1]]), s.verts[ec[0]], s.verts[ec[1]]
	_, _, pa, pc := geom.ClosestSegmentPoints(a0, a1, c0, c1)
	q.wpos = append(q.wpos[:0], a0, a1)
	for _, v := range ms.edgeWings(me) {
		q.wpos = append(q.wpos, f.Pos(ms.verts[v]))
	}
	for k, x := range [2]geom.Vec3{a0, a1} {
		if pa.Dist(x) <= ends {
			for _, v := range ms.aroundVertex(ea[k]) {
				q.wpos = append(q.wpos, f.Pos(ms.verts[v]))
			}
		}
	}
	na := len(q.wpos)
	q.wpos = append(q.wpos, c0, c1)
	for _, v := range s.edgeWings(oe) {
		q.wpos = append(q.wpos, s.verts[v])
	}
	for k, x := range [2]geom.Vec3{c0, c1} {
		if pc.Dist(x) <= ends {
			for _, v := range s.aroundVertex(ec[k]) {
				q.wpos = append(q.wpos, s.verts[v])
			}
		}
	}
	// gap is the least distance along n from the moving side's points to
	// the other side's.
	gap := func(n geom.Vec3) float64 {
		hi, lo := math.Inf(-1), math.Inf(1)
		for i, x := range q.wpos {
			if d := n.Dot(x); i < na {
				hi = math.Max(hi, d)
			} else {
				lo = math.Min(lo, d)
			}
		}
		return lo - hi
	}
	if guess != (geom.Vec3{}) && gap(guess) >= -tol {
		return guess, true
	}
	best, bestGap := geom.Vec3{}, math.Inf(-1)
	try := func(v geom.Vec3) {
		n, ok := v.Normalize()
		if !ok {
			return
		}
		for range 2 {
			if g := gap(n); g > bestGap {
				best, bestGap = n, g
			}
			n = n.Neg()
		}
	}
	da, dc := a1.Sub(a0), c1.Sub(c0)
	try(da.Cross(dc))
	try(pc.Sub(pa))
	for _, v := range ms.edgeWings(me) {
		try(da.Cross(f.Pos(ms.verts[v]).Sub(a0)))
	}
	for _, v := range s.edgeWings(oe) {
		try(dc.Cross(s.verts[v].Sub(c0)))
	}
	return best, bestGap >= -tol
}

// crossing looks for surfaces that cross at time 0: an edge of one body
// through a triangle of the other, with both ends farther than the
// tolerance from the triangle's plane and the crossing point farther than
// the tolerance from the triangle's sides. The edges of each body are tested against the
// triangles of the other by a simultaneous descent of the edge tree and the
// triangle tree (the edge tree's boxes placed in the other body's frame).
//
// A shallower crossing (an edge through a triangle with an end or the
// crossing point within the tolerance of the triangle's plane or sides) is
// a Touching contact at time 0, returned when no edge crosses deeper: the
// surfaces already meet, and a feature that moves away from the one it
// touches (a vertex just under a face going deeper, an edge leaving a
// face) gives the continuous search nothing to cross.
func (q *Scratch) crossing(mover, other *Shape, relMO, relOM *Relative, moverIsA bool, o *opts) (Contact, bool) {
	var shallow Contact
	if c, ok := q.crossEdges(mover, other, relMO, moverIsA, o, &shallow); ok {
		return c, true
	}
	if c, ok := q.crossEdges(other, mover, relOM, !moverIsA, o, &shallow); ok {
		return c, true
	}
	return shallow, shallow.Status == contact.Touching
}

// inside reports whether the point x of triangle t's plane is inside the
// triangle and farther than eps from its three sides (a crossing through a
// side or corner is a touching of edges, not an overlap). The margin eps
// is far above rounding, so float arithmetic decides.
func inside(t *tri, x geom.Vec3, eps float64) bool {
	for _, e := range [3][2]geom.Vec3{{t.a, t.b}, {t.b, t.c}, {t.c, t.a}} {
		d := e[1].Sub(e[0])
		if d.Cross(x.Sub(e[0])).Dot(t.n) <= eps*d.Norm() {
			return false
		}
	}
	return true
}

// crossEdges tests the edges of own (placed by rel's frame at time 0 in
// oth's frame) against the triangles of oth: it returns the first deep
// crossing, and records the first shallow one in *shallow (Touching) when
// none is recorded yet.
func (q *Scratch) crossEdges(own, oth *Shape, rel *Relative, ownIsA bool, o *opts, shallow *Contact) (Contact, bool) {
	es, ts := own.soup.etree, oth.soup
	if es == nil || len(es.nodes) == 0 {
		return Contact{}, false
	}
	f := rel.Frame(0)
	pad := padFor(ts, f.B, own.soup.scale)
	abs := absFrame(&f)
	// The edges' ends placed in oth's frame, computed once each (xmark).
	if n := len(es.tris); len(q.xe) < n {
		q.xe = append(q.xe, make([][2]geom.Vec3, n-len(q.xe))...)
		q.xmark = append(q.xmark, make([]uint32, n-len(q.xmark))...)
	}
	q.xgen++
	if q.xgen == 0 {
		clear(q.xmark)
		q.xgen = 1
	}
	q.pairs = append(q.pairs[:0], [2]int32{0, 0})
	for len(q.pairs) > 0 {
		pr := q.pairs[len(q.pairs)-1]
		q.pairs = q.pairs[:len(q.pairs)-1]
		en, tn := &es.nodes[pr[0]], &ts.nodes[pr[1]]
		var b box
		b.place(&f, &abs, f.Pos(en.c), en.h, pad) // the edge-tree node in oth's frame
		if !b.overlapsNode(tn) {
			continue
		}
		switch {
		case en.left >= 0 && (tn.left < 0 || en.max.Sub(en.min).Norm() >= tn.max.Sub(tn.min).Norm()):
			q.pairs = append(q.pairs, [2]int32{en.left, pr[1]}, [2]int32{en.left + 1, pr[1]})
			continue
		case tn.left >= 0:
			q.pairs = append(q.pairs, [2]int32{pr[0], tn.left}, [2]int32{pr[0], tn.left + 1})
			continue
		}
		for i := en.start; i < en.start+en.count; i++ {
			et := &es.tris[i]
			if q.xmark[i] != q.xgen {
				q.xmark[i] = q.xgen
				q.xe[i] = [2]geom.Vec3{f.Pos(et.a), f.Pos(et.b)}
			}
			p, r := q.xe[i][0], q.xe[i][1]
			for k := tn.start; k < tn.start+tn.count; k++ {
				t := &ts.tris[k]
				// The ends on opposite sides of the plane, the crossing
				// point inside the sides grown by the tolerance; deep when
				// both ends are beyond the tolerance and the point inside
				// the sides by as much.
				dp, dr := t.n.Dot(p.Sub(t.a)), t.n.Dot(r.Sub(t.a))
				if !(dp > 0 && dr < 0) && !(dp < 0 && dr > 0) {
					continue
				}
				x := p.Lerp(r, dp/(dp-dr))
				deep := (dp > o.eps || dp < -o.eps) && (dr > o.eps || dr < -o.eps) && inside(t, x, o.eps)
				if !deep && (shallow.Status != contact.Unknown || !inside(t, x, -o.eps)) {
					continue
				}
				pose := rel.s.At(0) // oth's pose: its frame to world
				c := Contact{Status: contact.Penetrating, Point: pose.Apply(x), Separation: -min(math.Abs(dp), math.Abs(dr))}
				if !deep {
					c.Status, c.Separation = contact.Touching, 0
				}
				n := pose.ApplyDir(t.n)
				fe, ff := contact.E(et.id), contact.F(ts.faces[t.id])
				if ownIsA {
					c.Normal, c.FeatureA, c.FeatureB = n.Neg(), fe, ff
				} else {
					c.Normal, c.FeatureA, c.FeatureB = n, ff, fe
				}
				if !deep {
					*shallow = c
					continue
				}
				return c, true
			}
		}
	}
	return Contact{}, false
}

// edgeBox returns an oriented box that contains the convex hull of the
// points a0, a1 (an edge at the start of a piece) and b0, b1 (at its end),
// grown by r: its first axis is along the edge, its second across the
// edge in the plane of the edge and its motion.
func edgeBox(a0, a1, b0, b1 geom.Vec3, r float64) box {
	e := a1.Sub(a0).Add(b1.Sub(b0))
	x, ok := e.Normalize()
	if !ok {
		x = geom.Vec3{X: 1}
	}
	m := b0.Add(b1).Sub(a0.Add(a1))
	m = m.AddScaled(-m.Dot(x), x)
	y, ok := m.Normalize()
	if !ok {
		y, _ = x.Orthonormal()
	}
	z := x.Cross(y)
	var b box
	b.ax = [3]geom.Vec3{x, y, z}
	var lo, hi [3]float64
	for k, ax := range b.ax {
		p0, p1, p2, p3 := ax.Dot(a0), ax.Dot(a1), ax.Dot(b0), ax.Dot(b1)
		l, h := p0, p0
		for _, p := range [3]float64{p1, p2, p3} {
			if p < l {
				l = p
			}
			if p > h {
				h = p
			}
		}
		lo[k], hi[k] = l, h
	}
	b.c = x.Scale((lo[0]+hi[0])/2).AddScaled((lo[1]+hi[1])/2, y).AddScaled((lo[2]+hi[2])/2, z)
	for k := range b.h {
		b.h[k] = (hi[k]-lo[k])/2 + r
	}
	b.bound()
	return b
}
