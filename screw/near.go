package screw

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// Near misses of conservative mode (Options.Conservative, beyond the
// paper as its Sec. 10 asks): feature pairs that come within d.near (one
// pixel) of each other during the step without touching.

// nearEE looks for the earliest time in the window of edge-edge candidate
// c at which the two edges come within d.near of each other, and records
// it as a near miss. Contacts found at coplanarity times (solveEE) miss
// edges that pass close without becoming coplanar inside the step, or
// that are already close at its start: here the distance of the two
// segments is searched directly, by branch and bound on time. The
// distance changes at most at the speed of B's edge relative to A (at
// most sqrt(theta^2 r^2 + g^2) for the larger distance r of its ends from
// the screw axis), so an interval whose midpoint distance exceeds d.near
// by that speed times half its length holds no near time. Intervals are
// searched earliest first; the first near time found is refined down to
// the time resolution. An interval that cannot be excluded when the bound
// is within a quarter of d.near (or when the search has run out of its
// budget) counts as near, which keeps the mode conservative: a near miss
// reported here is within 1.25 d.near. In a translation (theta = 0) the
// same formulas hold with B gliding by g along the screen's y axis.
func (d *Detector) nearEE(c *cand) {
	ea, eb := d.a.m.Edges[c.a], d.b.m.Edges[c.b]
	p0, p1 := d.a.pos[ea.V[0]], d.a.pos[ea.V[1]]
	q0, q1 := d.b.pos[eb.V[0]], d.b.pos[eb.V[1]]
	lo, hi := max(0, c.tlo-timePad), min(1, c.thi+timePad)
	if !(hi >= lo) {
		return
	}
	w0, w1 := q0.Sub(d.u), q1.Sub(d.u) // from the axis (u = 0 unless small)
	r2 := max(w0.X*w0.X+w0.Z*w0.Z, w1.X*w1.X+w1.Z*w1.Z)
	speed := math.Sqrt(d.theta*d.theta*r2+d.g*d.g) * (1 + relPad)
	dist := func(t float64) float64 {
		r := d.hrootAt(t)
		_, _, pa, pb := geom.ClosestSegmentPoints(p0, p1, d.vertexAtSC(contact.FaceVertex, q0, r), d.vertexAtSC(contact.FaceVertex, q1, r))
		return math.Sqrt(pa.Dist2(pb))
	}
	const budget = 4096
	const nearSlack = 0.25
	st := append(d.nearStack[:0], [2]float64{lo, hi})
	best, evals := -1.0, 0
	for len(st) > 0 {
		x := st[len(st)-1]
		st = st[:len(st)-1]
		m := x[0] + (x[1]-x[0])/2
		dm := dist(m)
		evals++
		half := speed * (x[1] - x[0]) / 2
		if dm > d.near+half {
			continue
		}
		switch {
		case dm <= d.near:
			// Near at m. Every interval left on the stack is later:
			// look only for an earlier time, to the time resolution.
			best = m
			st = st[:0]
			if x[1]-x[0] > d.tres {
				st = append(st, [2]float64{x[0], m})
			}
		case half <= nearSlack*d.near || evals >= budget:
			// Not excluded, and within (1 + nearSlack) d.near at most:
			// near, conservatively.
			best = m
			st = st[:0]
		default:
			st = append(st, [2]float64{m, x[1]}, [2]float64{x[0], m})
		}
	}
	d.nearStack = st
	if best < 0 {
		return
	}
	r := d.hrootAt(best)
	s, u, pa, pb := geom.ClosestSegmentPoints(p0, p1, d.vertexAtSC(contact.FaceVertex, q0, r), d.vertexAtSC(contact.FaceVertex, q1, r))
	d.addEEHit(c, r, s, u, pa, pb, true)
}
