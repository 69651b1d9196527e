package toc

import (
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/meshquery"
)

// Certification of time intervals by discrete tests (the conservative
// advancement of B. Mirtich, "Impulse-based Dynamic Simulation of Rigid
// Body Systems", PhD thesis, 1996, with a floor on the step): no point of
// the mover moves faster than L relative to the other body, so when the
// surfaces are more than L h / 2 apart (plus a rounding guard) at the
// middle of an interval of length h, they do not touch during it, and
// when a lower bound d of their distance there is known, not for d / L
// either side of it. One descent of both BVHs per interval
// (meshquery.Scratch.Separation) answers: apart by more than the pad,
// with the bound that proved it (the walk goes on from the middle plus
// d / L); crossing (the surfaces intersect at the middle: the first
// contact is no later, and the walk ends); or within the pad. The
// continuous search then runs only on the intervals left uncertified,
// short and next to the contact, instead of proving the whole step free.

// Steps of the certification walk, as fractions of the step: intervals
// start at certMinStep and double while certified (after a failed test,
// from the second certified interval on), up to certMaxStep; a longer
// interval that fails is retried at a quarter of its length, and an
// interval of certMinStep that is not certified is left to the continuous
// search. Only intervals of certMinStep seek a crossing: a longer one
// that fails is retried shorter anyway, and the search for a crossing
// costs a full descent where the surfaces are near without crossing.
// In windows of dense meshes (see certify) the floor is certMinStep / 2.
const (
	certMinStep = 1.0 / 100
	certMaxStep = 1.0 / 25
)

// certMinWindow is the length, in certMinStep, below which a window is
// searched without certification.
const certMinWindow = 2

// certBackSteps is the number of crossing tests that move the end of the
// search's window back from the middle of the interval where the
// surfaces were found crossing: at h/2, then h/4 from the new end. They
// are run when the distance L h a point may travel in that interval
// spans more than certBackStepReach typical triangles (triSize) of the
// finer body: the search's cost per length of window grows with the
// features it sweeps, a test's much less. Callgrind per hit query,
// never / always / this rule: rob in env (median ratio 0.4) 1.06, 1.10,
// 1.06M; bunny/duck (5.2) 3.27, 3.39, 3.29M; cow/fandisk (7.0) 3.17,
// 2.91, 2.91M; 69 000-triangle bunnies (13) 12.4, 10.3, 10.3M.
const (
	certBackSteps     = 2
	certBackStepReach = 6
)

// triSize is a typical size of the tree's triangles: its radius over the
// square root of their number.
func triSize(t *meshquery.Tree) float64 {
	return t.Scale() / math.Sqrt(float64(max(1, t.NumTriangles())))
}

// mqTree returns meshquery's tree of the soup, built on first use.
func (s *Soup) mqTree() (*meshquery.Tree, error) {
	s.mqOnce.Do(func() {
		s.mq, s.mqErr = meshquery.NewSoup(s.verts, s.tidx, false)
	})
	return s.mq, s.mqErr
}

// certifiable reports whether certify may replace the continuous search
// of a query: both bodies' samples are their soups' vertices (other
// samples need not lie on the surfaces the tests measure), and the edge
// phase is on (without it the point passes alone cost about as much as
// the certification walk: 0.37 against 0.6 ms a query on rob in env).
func certifiable(a, b *Shape, o *opts) bool {
	return a.verts && b.verts && o.edges
}

// certify replaces q.wins, the windows of the mover's sphere (in order),
// with the parts of them the padded tests leave uncertified, each with its
// window's box. An interval of certMinStep at whose middle the surfaces
// cross (meshquery's exact triangle test) ends the walk: the search's
// window ends at that middle, since the first contact is no later, and
// the rest of the step follows unchanged, searched only when the contact
// is not found before.
func (q *Scratch) certify(mover, other *Shape, rel *Relative, dt float64, o *opts) {
	tm, err := mover.soup.mqTree()
	if err != nil {
		return
	}
	to, err := other.soup.mqTree()
	if err != nil {
		return
	}
	// margin: a guard for the rounding of the coordinates and frames.
	// Moments at which the surfaces come within the tolerance without
	// touching may be certified: they are no contact.
	margin := 1e-9 * (mover.soup.scale + other.soup.scale)
	rb := rel.RotationBound(mover.center) + rel.dwn*mover.radius
	hmin0, hmax := certMinStep*dt, certMaxStep*dt
	if !(hmin0 > 0) {
		return
	}
	id := geom.TransformIdentity()
	// Intervals of hmin seek a crossing and measure the triangle pairs
	// the axis gaps leave within the pad exactly: a pair found within
	// there starts the search's window, and two thirds of those the gaps
	// find are farther apart (rob in env, bunny against duck). Longer
	// intervals that fail are retried shorter: the cheapest answer does.
	fine := meshquery.SeparationOptions{Cross: true, Exact: true}
	var coarse meshquery.SeparationOptions
	q.cwins = append(q.cwins[:0], q.wins...)
	q.wins = q.wins[:0]
	for wi, w := range q.cwins {
		if w.tb-w.ta < certMinWindow*hmin0 {
			// Too short to certify a part of it and still search
			// less (a fast body's windows near the other body).
			q.wins = append(q.wins, w)
			continue
		}
		L := rel.SpeedBoundGlobal(rb, w.ta, w.tb)
		// Where a point may sweep more than certBackStepReach typical
		// triangles in an interval of certMinStep, the walk's floor is
		// halved: the search's window shrinks with it, and its cost per
		// length of window there is above the tests' (callgrind per hit
		// query: bunny/duck 3.29 -> 3.23M, cow/fandisk 2.91 -> 2.78M,
		// the 69 000-triangle bunnies 10.3 -> 9.2M; halving it
		// everywhere: rob in env 1.06 -> 1.26M, bunny/duck 3.49M).
		hmin := hmin0
		if L*hmin > certBackStepReach*math.Min(triSize(tm), triSize(to)) {
			hmin /= 2
		}
		u := math.NaN() // start of the uncertified run, NaN for none
		// streak counts the intervals certified in a row: after a failed
		// test the step grows only from the second certified interval
		// on (near the other body a doubled step mostly fails again).
		streak := 1
		t, rho := w.ta, hmin
		if L == 0 {
			rho = w.tb - w.ta
		}
		for t < w.tb {
			h := math.Min(rho, w.tb-t)
			c := t + h/2
			f := rel.Frame(c)
			tf := geom.Transform{R: f.A, T: f.B}
			opt := &coarse
			if h <= hmin*(1+1e-9) {
				opt = &fine
			}
			pr, bound, err := q.mq.Separation(to, &id, tm, &tf, L*h/2+margin, opt)
			if err != nil {
				break
			}
			switch pr {
			case meshquery.Apart:
				if !math.IsNaN(u) {
					q.wins = append(q.wins, window{ta: u, tb: t, b: w.b})
					u = math.NaN()
				}
				// The surfaces are bound apart at c: no point comes
				// nearer for (bound - margin) / L either side.
				t = w.tb
				if L > 0 {
					t = math.Min(w.tb, math.Max(c+h/2, c+(bound-margin)/L))
				}
				if streak > 0 {
					rho = math.Min(2*rho, hmax)
				}
				streak++
				continue
			case meshquery.Crossing:
				// The surfaces cross at c: the first contact is no
				// later, and the rest of the step follows, searched
				// only when the contact is not found before.
				if math.IsNaN(u) {
					u = t
				}
				if L*h > certBackStepReach*math.Min(triSize(tm), triSize(to)) {
					u, c = q.backStep(tm, to, rel, L, margin, u, c, h)
				}
				q.wins = append(q.wins, window{ta: u, tb: c, b: w.b})
				if c < w.tb {
					q.wins = append(q.wins, window{ta: c, tb: w.tb, b: w.b})
				}
				q.wins = append(q.wins, q.cwins[wi+1:]...)
				return
			}
			streak = 0
			if rho > hmin {
				rho = math.Max(rho/4, hmin)
				continue
			}
			// An interval of hmin near the other body is left to the
			// continuous search: halving the window it ends (padded
			// tests of its first half, crossing tests of its middle)
			// costs more than the search saves on the shorter window.
			if math.IsNaN(u) {
				u = t
			}
			t += h
		}
		if t < w.tb && math.IsNaN(u) {
			u = t
		}
		if !math.IsNaN(u) {
			q.wins = append(q.wins, window{ta: u, tb: w.tb, b: w.b})
		}
	}
}

// backStep moves the end c of the search's window [u, c], where the
// surfaces cross, back by a binary search for the first crossing over
// the last interval of length h, certBackSteps tests (meshquery's exact
// triangle test at one instant each; see certBackStepReach for when). A
// test that finds the surfaces apart there, by a bound that reaches back
// to u, certifies the start of the window too.
func (q *Scratch) backStep(tm, to *meshquery.Tree, rel *Relative, L, margin, u, c, h float64) (float64, float64) {
	id := geom.TransformIdentity()
	opt := meshquery.SeparationOptions{Cross: true}
	step := h / 2
	for range certBackSteps {
		s := c - step
		step /= 2
		if s <= u {
			break
		}
		f := rel.Frame(s)
		tf := geom.Transform{R: f.A, T: f.B}
		pr, bound, err := q.mq.Separation(to, &id, tm, &tf, 0, &opt)
		switch {
		case err != nil:
			return u, c
		case pr == meshquery.Crossing:
			c = s
		case pr == meshquery.Apart && L > 0 && s-(bound-margin)/L <= u:
			u = math.Max(u, math.Min(s+(bound-margin)/L, c))
		}
	}
	return u, c
}
