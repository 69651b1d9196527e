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
// middle of an interval of length h, they do not touch during it. The
// test is a padded one (near): the mover's BVH boxes, placed at the
// middle instant and grown by that distance, against the other's
// triangles. The continuous search then runs only on the intervals left
// uncertified, short and next to the contact, instead of proving the
// whole step free.

// Steps of the certification walk, as fractions of the step: intervals
// start at certMinStep and double while certified (after a failed test,
// from the second certified interval on), up to certMaxStep; an
// interval of certMinStep that is not certified is left to the continuous
// search.
const (
	certMinStep = 1.0 / 100
	certMaxStep = 1.0 / 25
)

// certMinWindow is the length, in certMinStep, below which a window is
// searched without certification.
const certMinWindow = 2

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

// near reports whether a triangle of ms placed by the frame f (ms's local
// coordinates to os's) may come within pad of a triangle of os: a dual
// descent of both BVHs, ms's boxes placed by f and grown by pad against
// os's boxes, and at the leaves ms's grown leaf box against os's
// triangles (separating axes). It says yes for some surfaces that are
// apart, never no for surfaces that are not.
func (q *Scratch) near(ms, os *Soup, f *Frame, pad float64) bool {
	var abs geom.Mat3
	for i := range 3 {
		for j := range 3 {
			abs[i][j] = math.Abs(f.A[i][j])
		}
	}
	ax := [3]geom.Vec3{f.A.Col(0), f.A.Col(1), f.A.Col(2)}
	axAbs := [3]geom.Vec3{abs.Col(0), abs.Col(1), abs.Col(2)}
	// ms's boxes, placed and grown, are made once per call: a node meets
	// several of os's.
	q.ngen++
	if q.ngen == 0 {
		clear(q.nmark)
		q.ngen = 1
	}
	if len(q.nmark) < len(ms.nodes) {
		q.nmark = append(q.nmark, make([]uint32, len(ms.nodes)-len(q.nmark))...)
		q.nbox = append(q.nbox, make([]box, len(ms.nodes)-len(q.nbox))...)
	}
	stack := append(q.npairs[:0], [2]int32{0, 0})
	found := false
	for len(stack) > 0 && !found {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m, o := &ms.nodes[p[0]], &os.nodes[p[1]]
		b := &q.nbox[p[0]]
		if q.nmark[p[0]] != q.ngen {
			q.nmark[p[0]] = q.ngen
			b.c = f.Pos(m.c)
			b.ax, b.abs = ax, axAbs
			b.h = [3]float64{m.h.X + pad, m.h.Y + pad, m.h.Z + pad}
			b.boundAbs()
		}
		if !b.overlapsNode(o) {
			continue
		}
		switch {
		case m.left < 0 && o.left < 0:
			for i := o.start; i < o.start+o.count && !found; i++ {
				found = b.overlapsTri(&os.tris[i])
			}
		case m.left < 0 || o.left >= 0 && o.h.Norm2() > m.h.Norm2():
			stack = append(stack, [2]int32{p[0], o.left + 1}, [2]int32{p[0], o.left})
		default:
			stack = append(stack, [2]int32{m.left + 1, p[1]}, [2]int32{m.left, p[1]})
		}
	}
	q.npairs = stack
	return found
}

// certify replaces q.wins, the windows of the mover's sphere (in order),
// with the parts of them the padded tests leave uncertified, each with its
// window's box. An uncertified interval whose end finds the surfaces
// intersecting (meshquery's exact test) ends the walk: the first contact
// is no later, and the rest of the step follows unchanged, searched only
// when the contact is not found before.
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
	hmin, hmax := certMinStep*dt, certMaxStep*dt
	if !(hmin > 0) {
		return
	}
	id := geom.TransformIdentity()
	q.cwins = append(q.cwins[:0], q.wins...)
	q.wins = q.wins[:0]
	for wi, w := range q.cwins {
		if w.tb-w.ta < certMinWindow*hmin {
			// Too short to certify a part of it and still search
			// less (a fast body's windows near the other body).
			q.wins = append(q.wins, w)
			continue
		}
		L := rel.SpeedBoundGlobal(rb, w.ta, w.tb)
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
			f := rel.Frame(t + h/2)
			if !q.near(mover.soup, other.soup, &f, L*h/2+margin) {
				if !math.IsNaN(u) {
					q.wins = append(q.wins, window{ta: u, tb: t, b: w.b})
					u = math.NaN()
				}
				t += h
				if streak > 0 {
					rho = math.Min(2*rho, hmax)
				}
				streak++
				continue
			}
			streak = 0
			if rho > hmin {
				rho = math.Max(rho/4, hmin)
				continue
			}
			// An interval of hmin near the other body is left to the
			// continuous search: testing its halves or quarters costs
			// more padded tests than the search saves on them.
			if math.IsNaN(u) {
				u = t
			}
			t += h
			f = rel.Frame(t)
			tf := geom.Transform{R: f.A, T: f.B}
			hit, err := q.mq.Intersect(to, &id, tm, &tf)
			if err == nil && hit {
				// The surfaces cross at t: when they already cross at
				// the middle of the last interval, the contact is no
				// later than that, and the search's window ends there.
				end := t - h/2
				f = rel.Frame(end)
				tf = geom.Transform{R: f.A, T: f.B}
				if hit, err = q.mq.Intersect(to, &id, tm, &tf); err != nil || !hit {
					end = t
				}
				q.wins = append(q.wins, window{ta: u, tb: end, b: w.b})
				if end < t {
					q.wins = append(q.wins, window{ta: end, tb: t, b: w.b})
				}
				if t < w.tb {
					q.wins = append(q.wins, window{ta: t, tb: w.tb, b: w.b})
				}
				q.wins = append(q.wins, q.cwins[wi+1:]...)
				return
			}
		}
		if !math.IsNaN(u) {
			q.wins = append(q.wins, window{ta: u, tb: w.tb, b: w.b})
		}
	}
}
