package cable

import (
	"fmt"
	"math"
	"sort"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/enumname"
	"github.com/collide-go/collide/robust"
)

// CrossingKind names what the independent check found.
type CrossingKind uint8

const (
	// EdgeThroughEdge: two edges intersected during the step.
	EdgeThroughEdge CrossingKind = iota
	// VertexThroughTriangle: a moving particle passed through (or ended
	// on) a static triangle.
	VertexThroughTriangle
	// EdgeInTriangle: at the end of the step an edge intersects a static
	// triangle.
	EdgeInTriangle
	numCrossingKinds
)

var crossingKindNames = [numCrossingKinds]string{"edge-edge", "vertex-triangle", "edge-in-triangle"}

// String returns "edge-edge", "vertex-triangle" or "edge-in-triangle".
func (k CrossingKind) String() string {
	return enumname.Of(crossingKindNames[:], k, "CrossingKind")
}

// Crossing is one penetration found by the independent check.
type Crossing struct {
	Kind CrossingKind
	// A and B are edge indices (EdgeThroughEdge), a particle and a
	// triangle index (VertexThroughTriangle) or an edge and a triangle
	// index (EdgeInTriangle).
	A, B int
	// T is the time in the step, in [0, 1], at which it happened (1 for
	// EdgeInTriangle).
	T float64
	// Dist is the distance of the two primitives at T (zero for the
	// exact EdgeInTriangle test).
	Dist float64
}

// CrossTolerance is the relative distance under which two edges at a
// coplanarity time count as crossing, and the barycentric slack of the
// vertex-triangle test: 1e-9 times the largest coordinate magnitude (at
// least 1 length unit).
const CrossTolerance = 1e-9

// checker holds the scratch space of the independent check.
type checker struct {
	items  []checkItem
	dynAct []int32
	stAct  []int32
}

type checkItem struct {
	box    geom.AABB
	kind   uint8 // 0 edge, 1 particle, 2 triangle
	id     int32
	static bool
}

// Verify checks the motion of the last step -- every particle moving
// linearly from prev to its current position -- without package ccd, and
// returns the number of crossings found. See Crossings.
func (s *System) Verify(prev []geom.Vec3) int {
	n := 0
	s.crossings(prev, func(Crossing) { n++ })
	return n
}

// Crossings returns the crossings of the motion from prev to the current
// positions: edges that intersected (found from sign changes of the exact
// orientation of their four endpoints at t = 0, 1/4, 1/2, 3/4 and 1 and
// at the extrema of the orientation cubic, the coplanarity time bracketed
// by bisection, and the segments' distance
// there below CrossTolerance), moving particles that passed through a static
// triangle (exact orientation signs at t=0 and t=1), and edges that at the
// end intersect a static triangle (exact, robust.Orient3D; an edge in a
// triangle's plane counts as intersecting). Two crossings in one step
// between the same pair that cancel between the sample times, and
// tangential touching without a sign change, are not seen. Pairs of edges
// sharing a particle are not tested.
func (s *System) Crossings(prev []geom.Vec3) []Crossing {
	var out []Crossing
	s.crossings(prev, func(c Crossing) { out = append(out, c) })
	return out
}

func (s *System) crossings(prev []geom.Vec3, emit func(Crossing)) {
	if len(prev) != len(s.x) {
		panic(fmt.Sprintf("cable: Verify: %d previous positions for %d particles", len(prev), len(s.x)))
	}
	c := &s.checker
	c.items = c.items[:0]
	for i, e := range s.edges {
		st := s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0
		b := geom.AABBOf(prev[e[0]], prev[e[1]], s.x[e[0]], s.x[e[1]])
		c.items = append(c.items, checkItem{box: b, kind: 0, id: int32(i), static: st})
	}
	for i, im := range s.invMass {
		if im > 0 {
			c.items = append(c.items, checkItem{box: geom.AABBOf(prev[i], s.x[i]), kind: 1, id: int32(i)})
		}
	}
	for i, t := range s.tris {
		c.items = append(c.items, checkItem{box: geom.AABBOf(s.x[t[0]], s.x[t[1]], s.x[t[2]]), kind: 2, id: int32(i), static: true})
	}
	sort.Slice(c.items, func(i, j int) bool { return c.items[i].box.Min.X < c.items[j].box.Min.X })
	c.dynAct, c.stAct = c.dynAct[:0], c.stAct[:0]
	prune := func(act []int32, x float64) []int32 {
		k := 0
		for _, j := range act {
			if c.items[j].box.Max.X >= x {
				act[k] = j
				k++
			}
		}
		return act[:k]
	}
	for i := range c.items {
		it := &c.items[i]
		c.dynAct = prune(c.dynAct, it.box.Min.X)
		c.stAct = prune(c.stAct, it.box.Min.X)
		for _, j := range c.dynAct {
			s.checkPair(prev, it, &c.items[j], emit)
		}
		if !it.static {
			for _, j := range c.stAct {
				s.checkPair(prev, it, &c.items[j], emit)
			}
			c.dynAct = append(c.dynAct, int32(i))
		} else {
			c.stAct = append(c.stAct, int32(i))
		}
	}
}

func (s *System) checkPair(prev []geom.Vec3, a, b *checkItem, emit func(Crossing)) {
	if !a.box.Overlaps(b.box) {
		return
	}
	if a.kind > b.kind {
		a, b = b, a
	}
	switch {
	case a.kind == 0 && b.kind == 0:
		e, f := s.edges[a.id], s.edges[b.id]
		if e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1] {
			return
		}
		p0 := [4]geom.Vec3{prev[e[0]], prev[e[1]], prev[f[0]], prev[f[1]]}
		p1 := [4]geom.Vec3{s.x[e[0]], s.x[e[1]], s.x[f[0]], s.x[f[1]]}
		if t, d, ok := edgesCross(&p0, &p1); ok {
			emit(Crossing{Kind: EdgeThroughEdge, A: int(a.id), B: int(b.id), T: t, Dist: d})
		}
	case a.kind == 0 && b.kind == 2:
		if a.static {
			return
		}
		e, t := s.edges[a.id], s.tris[b.id]
		if segmentHitsTriangle(s.x[e[0]], s.x[e[1]], s.x[t[0]], s.x[t[1]], s.x[t[2]]) {
			emit(Crossing{Kind: EdgeInTriangle, A: int(a.id), B: int(b.id), T: 1})
		}
	case a.kind == 1 && b.kind == 2:
		p, t := a.id, s.tris[b.id]
		if tt, ok := vertexCrosses(prev[p], s.x[p], s.x[t[0]], s.x[t[1]], s.x[t[2]]); ok {
			emit(Crossing{Kind: VertexThroughTriangle, A: int(p), B: int(b.id), T: tt})
		}
	}
}

// scale4 returns the largest coordinate magnitude of the points, at
// least 1.
func scale4(p *[4]geom.Vec3) float64 {
	m := 1.0
	for _, q := range p {
		m = math.Max(m, q.MaxAbs())
	}
	return m
}

// edgesCross reports whether segments (0,1) and (2,3) moving linearly from
// p0 to p1 intersect at some time in (0, 1], and when.
func edgesCross(p0, p1 *[4]geom.Vec3) (t, dist float64, ok bool) {
	at := func(t float64) (q [4]geom.Vec3) {
		switch t {
		case 0:
			return *p0
		case 1:
			return *p1
		}
		for k := range q {
			q[k] = p0[k].Lerp(p1[k], t)
		}
		return q
	}
	sign := func(t float64) int {
		q := at(t)
		return robust.Orient3D(q[0], q[1], q[2], q[3])
	}
	tol := CrossTolerance * math.Max(scale4(p0), scale4(p1))
	distAt := func(t float64) float64 {
		q := at(t)
		_, _, c1, c2 := geom.ClosestSegmentPoints(q[0], q[1], q[2], q[3])
		return c1.Dist(c2)
	}
	// Sample times: quarters, plus the extrema of the cubic (fitted in
	// floating point from four values), so that between two samples the
	// orientation is monotone up to the fit's error and has at most one
	// root.
	var ts [8]float64
	nt := 0
	for k := 0; k <= 4; k++ {
		ts[nt] = float64(k) / 4
		nt++
	}
	var f [4]float64
	for k := range f {
		q := at(float64(k) / 3)
		f[k] = robust.Orient3DFloat(q[0], q[1], q[2], q[3])
	}
	// f(t) = c3 t^3 + c2 t^2 + c1 t + c0 through (k/3, f[k]).
	c0 := f[0]
	c3 := 4.5 * (f[3] - 3*f[2] + 3*f[1] - f[0])
	c2 := 4.5 * (2*f[0] - 5*f[1] + 4*f[2] - f[3])
	c1 := f[3] - c0 - c2 - c3
	roots, nr := quadRoots(3*c3, 2*c2, c1)
	for _, r := range roots[:nr] {
		if r > 0 && r < 1 {
			ts[nt] = r
			nt++
		}
	}
	sort.Float64s(ts[:nt])
	s0 := sign(0)
	for k := 1; k < nt; k++ {
		lo, hi := ts[k-1], ts[k]
		if hi <= lo {
			continue
		}
		s1 := sign(hi)
		switch {
		case s1 == 0:
			if d := distAt(hi); d <= tol {
				return hi, d, true
			}
		case s0 != 0 && s0 != s1:
			// Bisect on the sign to the coplanarity time.
			a, b := lo, hi
			for it := 0; it < 64 && b-a > 0; it++ {
				m := 0.5 * (a + b)
				if m <= a || m >= b {
					break
				}
				sm := sign(m)
				if sm == 0 {
					a, b = m, m
					break
				}
				if sm == s0 {
					a = m
				} else {
					b = m
				}
			}
			tm := 0.5 * (a + b)
			if d := math.Min(distAt(a), math.Min(distAt(tm), distAt(b))); d <= tol {
				return tm, d, true
			}
		}
		if s1 != 0 {
			s0 = s1
		}
	}
	return 0, 0, false
}

// quadRoots returns the real roots of a t^2 + b t + c (none if all
// coefficients vanish).
func quadRoots(a, b, c float64) (r [2]float64, n int) {
	if a == 0 {
		if b == 0 {
			return r, 0
		}
		r[0] = -c / b
		return r, 1
	}
	d := b*b - 4*a*c
	if d < 0 {
		return r, 0
	}
	q := -0.5 * (b + math.Copysign(math.Sqrt(d), b))
	if q == 0 {
		return r, 1
	}
	r[0], r[1] = q/a, c/q
	return r, 2
}

// vertexCrosses reports whether point p moving from p0 to p1 meets the
// static triangle abc at some time in (0, 1].
func vertexCrosses(p0, p1, a, b, c geom.Vec3) (float64, bool) {
	o0 := robust.Orient3D(a, b, c, p0)
	o1 := robust.Orient3D(a, b, c, p1)
	if o1 != 0 && o0 == o1 {
		return 0, false
	}
	if o1 != 0 && o0 == 0 {
		return 0, false // left the plane: counted at the previous step's end
	}
	n := b.Sub(a).Cross(c.Sub(a))
	h0, h1 := n.Dot(p0.Sub(a)), n.Dot(p1.Sub(a))
	t := 1.0
	if o1 != 0 && h0 != h1 {
		t = h0 / (h0 - h1)
	}
	q := p0.Lerp(p1, t)
	if o1 == 0 {
		q = p1
	}
	// Barycentric coordinates of q projected onto the triangle's plane.
	nn := n.Norm2()
	u := q.Sub(a).Cross(c.Sub(a)).Dot(n) / nn // weight of b
	v := b.Sub(a).Cross(q.Sub(a)).Dot(n) / nn // weight of c
	tol := CrossTolerance
	if u >= -tol && v >= -tol && u+v <= 1+tol {
		return t, true
	}
	return 0, false
}

// segmentHitsTriangle reports exactly whether segment pq meets triangle
// abc (touching counts); a segment in the triangle's plane counts as
// meeting it.
func segmentHitsTriangle(p, q, a, b, c geom.Vec3) bool {
	sp, sq := robust.Orient3D(a, b, c, p), robust.Orient3D(a, b, c, q)
	if sp == 0 && sq == 0 {
		return true
	}
	if sp*sq > 0 {
		return false
	}
	o1 := robust.Orient3D(p, q, a, b)
	o2 := robust.Orient3D(p, q, b, c)
	o3 := robust.Orient3D(p, q, c, a)
	return (o1 >= 0 && o2 >= 0 && o3 >= 0) || (o1 <= 0 && o2 <= 0 && o3 <= 0)
}

// VerifyLastStep runs the independent check on the last substep's motion
// (the whole step when it took one substep) and returns the number of
// crossings found (see Crossings). Options.Verify checks every substep.
func (s *System) VerifyLastStep() int {
	if len(s.prev) != len(s.x) {
		return 0
	}
	return s.Verify(s.prev)
}

// LastStepCrossings returns the crossings of the last substep's motion
// (the whole step when it took one substep).
func (s *System) LastStepCrossings() []Crossing {
	if len(s.prev) != len(s.x) {
		return nil
	}
	return s.Crossings(s.prev)
}
