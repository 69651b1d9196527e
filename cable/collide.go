package cable

import (
	"math"

	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// pairMode tells pass what to do with a ccd hit.
type pairMode uint8

const (
	// modeRespond: apply impulses to hits (contact rounds).
	modeRespond pairMode = iota
	// modeFreeze: freeze the particles of pairs that touch (fail-safe).
	modeFreeze
)

// round holds the state of one pass over the candidate pairs.
type round struct {
	k          int32 // round number: pairs with a particle changed in round >= k-1 are tested
	all        bool  // test every pair
	mode       pairMode
	applied    int // impulses applied
	unresolved int // hits that impulses could not resolve
}

// collide runs the contact rounds and the fail-safe of one step; it
// changes velocities and end positions only.
func (s *System) collide(st *StepStats) {
	for i := range s.changed {
		s.changed[i] = -2
	}
	k := int32(0)
	// An unresolved pair of an earlier round is not tested again unless
	// one of its particles changes, so any unresolved pair sends the
	// step to the fail-safe, which tests every pair.
	settled, unresolved := false, false
	for ; int(k) < s.opt.MaxIterations; k++ {
		r := round{k: k, all: k == 0, mode: modeRespond}
		s.pass(&r, st)
		st.Rounds++
		unresolved = unresolved || r.unresolved > 0
		if r.applied == 0 {
			settled = !unresolved
			k++
			break
		}
	}
	if settled {
		return
	}
	// Fail-safe: freeze every pair that still touches in the step, until
	// none is left. The first pass tests all pairs.
	all := true
	for ; ; k++ {
		r := round{k: k, all: all, mode: modeFreeze}
		all = false
		before := st.Frozen
		s.pass(&r, st)
		st.Rounds++
		if st.Frozen == before {
			return
		}
	}
}

// dirty reports whether particle p changed velocity in round k-1 or later.
func (s *System) dirty(p int32, r *round) bool { return r.all || s.changed[p] >= r.k-1 }

func (s *System) edgeDirty(e [2]int32, r *round) bool { return s.dirty(e[0], r) || s.dirty(e[1], r) }

// moving reports whether particle p moves in this step.
func (s *System) moving(p int32) bool { return s.end[p] != s.x[p] }

// pass runs the broad phase on the current swept boxes and tests the
// candidate pairs with a particle changed since the previous round.
func (s *System) pass(r *round, st *StepStats) {
	d := s.opt.Thickness
	for i, ei := range s.dynEdges {
		e := s.edges[ei]
		s.edgeBoxes[i] = sweptBox(s.x[e[0]], s.end[e[0]], s.x[e[1]], s.end[e[1]], d)
		s.stampE[i] = -1
	}
	for i, p := range s.dynVerts {
		s.vertBoxes[i] = sweptBox(s.x[p], s.end[p], s.x[p], s.end[p], d)
	}
	for i := range s.stampS {
		s.stampS[i] = -1
	}
	s.dyn.build(s.edgeBoxes, s.cell, 128)
	nse := int32(len(s.statEdges))
	for i, ei := range s.dynEdges {
		e := s.edges[ei]
		di := s.edgeDirty(e, r)
		box := s.edgeBoxes[i]
		// Moving edges against moving edges.
		lo, hi := s.dyn.cellRange(box)
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				base := (z*s.dyn.n[1] + y) * s.dyn.n[0]
				for _, j := range s.dyn.items[s.dyn.start[base+lo[0]]:s.dyn.start[base+hi[0]+1]] {
					if int(j) == i || s.stampE[j] == int32(i) {
						continue
					}
					s.stampE[j] = int32(i)
					f := s.edges[s.dynEdges[j]]
					dj := s.edgeDirty(f, r)
					// Each pair once: from the lower index when both are
					// dirty, else from the dirty side.
					if !di || (dj && int(j) < i) {
						continue
					}
					if f[0] == e[0] || f[0] == e[1] || f[1] == e[0] || f[1] == e[1] {
						continue
					}
					if !box.Overlaps(s.edgeBoxes[j]) {
						continue
					}
					s.edgeEdge(e, f, r, st)
				}
			}
		}
		if !di || s.static.empty() {
			continue
		}
		// Moving edges against static edges.
		lo, hi = s.static.cellRange(box)
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				base := (z*s.static.n[1] + y) * s.static.n[0]
				for _, j := range s.static.items[s.static.start[base+lo[0]]:s.static.start[base+hi[0]+1]] {
					if j >= nse || s.stampS[j] == int32(i) {
						continue
					}
					s.stampS[j] = int32(i)
					if !box.Overlaps(s.staticBoxes[j]) {
						continue
					}
					f := s.edges[s.statEdges[j]]
					s.edgeEdge(e, f, r, st)
				}
			}
		}
	}
	if s.static.empty() || len(s.tris) == 0 {
		return
	}
	// Moving vertices against static triangles. Stamps of static items
	// are offset so they do not clash with the edge pass.
	off := int32(len(s.dynEdges))
	for i, p := range s.dynVerts {
		if !s.dirty(p, r) {
			continue
		}
		box := s.vertBoxes[i]
		lo, hi := s.static.cellRange(box)
		for z := lo[2]; z <= hi[2]; z++ {
			for y := lo[1]; y <= hi[1]; y++ {
				base := (z*s.static.n[1] + y) * s.static.n[0]
				for _, j := range s.static.items[s.static.start[base+lo[0]]:s.static.start[base+hi[0]+1]] {
					if j < nse || s.stampS[j] == off+int32(i) {
						continue
					}
					s.stampS[j] = off + int32(i)
					if !box.Overlaps(s.staticBoxes[j]) {
						continue
					}
					t := s.tris[j-nse]
					s.vertexFace(p, t, r, st)
				}
			}
		}
	}
}

// sweptBox returns the box of points a0, a1, b0, b1 widened by d.
func sweptBox(a0, a1, b0, b1 geom.Vec3, d float64) geom.AABB {
	lo := geom.V(min(a0.X, a1.X, b0.X, b1.X)-d, min(a0.Y, a1.Y, b0.Y, b1.Y)-d, min(a0.Z, a1.Z, b0.Z, b1.Z)-d)
	hi := geom.V(max(a0.X, a1.X, b0.X, b1.X)+d, max(a0.Y, a1.Y, b0.Y, b1.Y)+d, max(a0.Z, a1.Z, b0.Z, b1.Z)+d)
	return geom.AABB{Min: lo, Max: hi}
}

// ccdOptions returns the ccd options of a query at the given minimum
// distance. The contact band (ccd Tolerance) is the thickness d for the
// proximity queries (distance d), so that contacts coming within d are
// confirmed within a few parameter boxes instead of a search down to the
// tightest band (hundreds of boxes against a large floor triangle); it is
// a tenth of d for the zero-distance queries. A band can only add
// contacts, never miss one.
func (s *System) ccdOptions(minDist float64) ccd.Options {
	tol := 0.1 * s.opt.Thickness
	if minDist > 0 {
		tol = s.opt.Thickness
	}
	return ccd.Options{Method: s.opt.Method, MinDistance: minDist, Tolerance: tol}
}

// edgeEdge tests moving edge e against edge f and responds.
func (s *System) edgeEdge(e, f [2]int32, r *round, st *StepStats) {
	ids := [4]int32{e[0], e[1], f[0], f[1]}
	if !s.moving(ids[0]) && !s.moving(ids[1]) && !s.moving(ids[2]) && !s.moving(ids[3]) {
		return
	}
	var start, end [4]geom.Vec3
	for k, p := range ids {
		start[k], end[k] = s.x[p], s.end[p]
	}
	st.Candidates++
	s.resolve(contact.EdgeEdge, ids, &start, &end, r, st)
}

// vertexFace tests moving vertex p against static triangle t and responds.
func (s *System) vertexFace(p int32, t [3]int32, r *round, st *StepStats) {
	if !s.moving(p) {
		return
	}
	ids := [4]int32{p, t[0], t[1], t[2]}
	var start, end [4]geom.Vec3
	for k, q := range ids {
		start[k], end[k] = s.x[q], s.end[q]
	}
	st.Candidates++
	s.resolve(contact.VertexFace, ids, &start, &end, r, st)
}

// resolve runs ccd on one pair and applies the response of the round.
func (s *System) resolve(kind contact.PairKind, ids [4]int32, start, end *[4]geom.Vec3, r *round, st *StepStats) {
	// The query lives in the System: ccd keeps a pointer to it in its
	// pooled state, so a query on the stack would escape (one allocation
	// per query).
	q := s.query
	*q = ccd.Query{Kind: kind, Start: *start, End: *end}
	test := func(d float64) ccd.Result { return q.Test(s.ccdOptions(d)) }
	if r.mode == modeFreeze {
		st.Queries++
		if test(0).Hit() {
			st.Hits++
			for _, p := range ids {
				if s.invMass[p] > 0 && s.moving(p) {
					s.v[p] = geom.Vec3{}
					s.end[p] = s.x[p]
					s.changed[p] = r.k
					st.Frozen++
				}
			}
		}
		return
	}
	if n, w, ok := proximity(q, s.opt.Thickness); ok {
		// Closer than d already at the start: the contact is at t=0,
		// with the frame of the closest points (ccd at distance d would
		// only confirm it, slowly: the box search has to shrink to the
		// contact band).
		st.Proximity++
		if s.respondFrame(n, w, ids, r, st) {
			return
		}
	} else {
		st.Queries++
		res := test(s.opt.Thickness)
		if !res.Hit() {
			return
		}
		st.Hits++
		if s.respond(q, res, ids, r, st) {
			return
		}
	}
	// Separating already at the contact within d: what matters is
	// whether the pair really touches in the step.
	st.Queries++
	res := test(0)
	if !res.Hit() {
		return
	}
	st.Hits++
	if !s.respond(q, res, ids, r, st) {
		r.unresolved++
	}
}

// respond applies the impulse of a hit unless the pair already separates
// at the separation speed; it reports whether velocities changed.
func (s *System) respond(q *ccd.Query, res ccd.Result, ids [4]int32, r *round, st *StepStats) bool {
	n, w, ok := contactFrame(q, res, s.opt.Thickness)
	if !ok {
		return false
	}
	return s.respondFrame(n, w, ids, r, st)
}

// respondFrame applies the impulse of a contact with normal n (from the
// second primitive toward the first) and particle weights w.
func (s *System) respondFrame(n geom.Vec3, w [4]float64, ids [4]int32, r *round, st *StepStats) bool {
	n = n.Neg() // ccd's weights are for a normal from the first primitive to the second
	var vel [4]geom.Vec3
	var im [4]float64
	for k, p := range ids {
		vel[k], im[k] = s.v[p], s.invMass[p]
	}
	dv, ok := impulse(n, w, vel, im, s.opt.Restitution, s.opt.SeparationSpeed)
	if !ok {
		return false
	}
	if s.opt.Friction > 0 {
		friction(n, w, vel, im, s.opt.Friction, &dv)
	}
	for k, p := range ids {
		if im[k] == 0 {
			continue
		}
		s.v[p] = s.v[p].Add(dv[k])
		s.end[p] = s.x[p].Add(s.v[p].Scale(s.h))
		s.changed[p] = r.k
	}
	r.applied++
	st.Contacts++
	return true
}

// impulse is the response of Jansen's eqs. 28-29: with the relative normal
// velocity v_rn = n . sum w[i] vel[i] (eq. 28), an approaching pair
// (v_rn < 0) receives ccd.Impulse with the restitution raised to make it
// leave at no less than sep; a pair that separates slower than sep gets
// the impulse j = (sep - v_rn) / sum w[i]^2 invMass[i] of the same form.
// ok is false when the pair already separates at sep or faster, or
// nothing can move.
func impulse(n geom.Vec3, w [4]float64, vel [4]geom.Vec3, im [4]float64, e, sep float64) (dv [4]geom.Vec3, ok bool) {
	rel, den := ccd.WeightedVelocity(w, vel, im)
	vrn := n.Dot(rel)
	if !(vrn < sep) || !(den > 0) {
		return dv, false
	}
	if vrn < 0 {
		if -e*vrn < sep {
			e = sep / -vrn
		}
		dv, _, ok = ccd.Impulse(n, w, vel, im, e)
		return dv, ok
	}
	return ccd.ImpulseChanges(n, (sep-vrn)/den, w, im), true
}

// friction adds to the normal impulse dv a tangential impulse of the same
// weights that reduces the pair's relative tangential velocity by at most
// mu times the change of its normal velocity (Coulomb friction; a pair
// slower than that sticks).
func friction(n geom.Vec3, w [4]float64, vel [4]geom.Vec3, im [4]float64, mu float64, dv *[4]geom.Vec3) {
	var after [4]geom.Vec3
	for k := range vel {
		after[k] = vel[k].Add(dv[k])
	}
	rel, den := ccd.WeightedVelocity(w, after, im)
	drel, _ := ccd.WeightedVelocity(w, *dv, im)
	vt := rel.AddScaled(-n.Dot(rel), n)
	t, ok := vt.Normalize()
	if !ok || !(den > 0) {
		return
	}
	dt := math.Min(vt.Norm(), mu*n.Dot(drel))
	if !(dt > 0) {
		return
	}
	j := dt / den
	for k := range w {
		dv[k] = dv[k].Add(t.Scale(-j * w[k] * im[k]))
	}
}

// proximity returns the contact frame of a pair closer than d (but not
// touching) at the start of the step: the direction between the closest
// points and their weights.
func proximity(q *ccd.Query, d float64) (n geom.Vec3, w [4]float64, ok bool) {
	p := &q.Start
	var dist float64
	var g geom.Vec3
	if q.Kind == contact.EdgeEdge {
		s1, s2, c1, c2 := geom.ClosestSegmentPoints(p[0], p[1], p[2], p[3])
		g = c1.Sub(c2)
		w = ccd.EdgeEdgeWeights(s1, s2)
	} else {
		u, v, c := geom.ClosestTrianglePoint(p[0], p[1], p[2], p[3])
		g = p[0].Sub(c)
		w = ccd.VertexFaceWeights(u, v)
	}
	dist = g.Norm()
	if !(dist < d) || !(dist > 1e-6*d) {
		return n, w, false
	}
	return g.Scale(1 / dist), w, true
}

// contactFrame returns the contact normal (from the second primitive
// toward the first: triangle to vertex, edge B to edge A) and the particle
// weights of a hit. For edge-edge it uses the closest points of the
// segments at the time of impact when they are apart, which is the
// direction that separates them also for nearly parallel edges.
func contactFrame(q *ccd.Query, res ccd.Result, d float64) (n geom.Vec3, w [4]float64, ok bool) {
	t := res.Time
	if q.Kind == contact.EdgeEdge {
		a0, a1 := q.Start[0].Lerp(q.End[0], t), q.Start[1].Lerp(q.End[1], t)
		b0, b1 := q.Start[2].Lerp(q.End[2], t), q.Start[3].Lerp(q.End[3], t)
		s1, s2, c1, c2 := geom.ClosestSegmentPoints(a0, a1, b0, b1)
		if g := c1.Sub(c2); g.Norm() > 1e-6*d {
			n, _ = g.Normalize()
			return n, ccd.EdgeEdgeWeights(s1, s2), true
		}
		if res.Normal != (geom.Vec3{}) {
			return res.Normal.Neg(), ccd.EdgeEdgeWeights(clamp01(res.U), clamp01(res.V)), true
		}
		// Parallel and touching at the time of impact: the direction
		// between them at the start of the step.
		s1, s2, c1, c2 = geom.ClosestSegmentPoints(q.Start[0], q.Start[1], q.Start[2], q.Start[3])
		if n, ok = c1.Sub(c2).Normalize(); ok {
			return n, ccd.EdgeEdgeWeights(s1, s2), true
		}
		return n, w, false
	}
	if res.Normal == (geom.Vec3{}) {
		return n, w, false
	}
	u, v := clamp01(res.U), clamp01(res.V)
	if u+v > 1 {
		u, v = u/(u+v), v/(u+v)
	}
	return res.Normal.Neg(), ccd.VertexFaceWeights(u, v), true
}

func clamp01(x float64) float64 {
	if x < 0 {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}
