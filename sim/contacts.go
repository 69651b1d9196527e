package sim

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/world"
)

// newWorld returns the world that finds a Sim's contacts: every pair of
// closed bodies runs world.FeatureContacts.
func newWorld(o *Options) (*world.World, error) {
	var tbl world.Table
	tbl[world.Convex][world.Convex] = world.FeatureContacts
	tbl[world.Convex][world.Polyhedron] = world.FeatureContacts
	tbl[world.Polyhedron][world.Convex] = world.FeatureContacts
	tbl[world.Polyhedron][world.Polyhedron] = world.FeatureContacts
	w, err := world.New(&world.Options{Table: &tbl, Margin: o.Margin, Workers: o.Workers})
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	return w, nil
}

// findContacts gives the world the bodies' current poses, the poses their
// velocities would reach in a step of dt (kept in pred) and which are
// asleep (their margins are set once, in Add), runs its step and keeps its contacts in s.raw, in pair
// order.
func (s *Sim) findContacts(dt float64) error {
	for i := range s.bodies {
		b := &s.bodies[i]
		b.invOK = false
		if b.static || b.frozen {
			continue
		}
		id := world.BodyID(i)
		if b.asleep && b.slept {
			continue // still where the world has it
		}
		if err := s.world.SetPose(id, b.pose); err != nil {
			return fmt.Errorf("sim: body %d: %w", i, err)
		}
		if !b.asleep {
			// Where the body's velocities and gravity take it over
			// the step's substeps, each of which adds gravity to the
			// velocity before moving by it: the centre falls by
			// g dt² (n+1)/(2n), not by the g dt² of one whole step,
			// so a body in free flight ends where its contacts were
			// searched for (the difference, 1.2 mm at 60 Hz, is the
			// whole base margin of a body of 5 cm radius).
			n := float64(s.opt.Substeps)
			fall := dt * dt * (n + 1) / (2 * n)
			b.pred = geom.Pose{P: b.pose.P.AddScaled(dt, b.v).AddScaled(fall, s.opt.Gravity), Q: geom.QuatRotationVector(b.w.Scale(dt)).Mul(b.pose.Q)}
			if err := s.world.Move(id, b.pred); err != nil {
				return fmt.Errorf("sim: body %d: %w", i, err)
			}
		}
		if b.slept != b.asleep {
			if err := s.world.SetAsleep(id, b.asleep); err != nil {
				return fmt.Errorf("sim: body %d: %w", i, err)
			}
			b.slept = b.asleep
		}
	}
	var err error
	s.wraw, err = s.world.Step(s.wraw[:0])
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	s.raw, s.dropped = s.raw[:0], s.dropped[:0]
	s.stats = Stats{Pairs: s.world.Stats().Tests}
	// Pair by pair (the world's contacts come sorted by pair), each
	// contact kept in s.raw or, by the contact reduction, set aside in
	// s.dropped.
	w := s.wraw
	for lo := 0; lo < len(w); {
		a, b := w[lo].A, w[lo].B
		hi := lo + 1
		for hi < len(w) && w[hi].A == a && w[hi].B == b {
			hi++
		}
		pair := w[lo:hi]
		for i := range pair {
			if d := -pair[i].Separation; d > s.stats.MaxDepth {
				s.stats.MaxDepth = d
			}
		}
		s.inertia(int(a))
		s.inertia(int(b))
		if len(pair) <= reduceFrom || !s.fast(int(a), int(b)) {
			for i := range pair {
				s.raw = append(s.raw, Contact{A: BodyID(a), B: BodyID(b), Contact: pair[i].Contact})
			}
		} else {
			s.reducePair(pair)
		}
		lo = hi
	}
	s.stats.Contacts = len(s.raw)
	return nil
}

// inertia makes body i's world inverse inertia at its current pose, once
// per contact search: only the solver's rows of its contacts use it, so a
// body flying free has none made.
func (s *Sim) inertia(i int) {
	b := &s.bodies[i]
	if b.invOK || b.fixed {
		return
	}
	R := b.pose.Q.Mat3()
	b.invI = R.Mul(b.invIb).Mul(R.Transpose())
	b.invOK = true
}

// Contact reduction. A pair of bodies can have hundreds of contacts in one
// step: a torus over a plate within its speculative margin has all its
// vertices in front of the plate's face. The solver needs only the corners
// of each contact region, as the manifolds of Box2D and Bullet keep four
// points per face contact. Only the pairs of a fast body (its speed over
// the step carries it more than twice its bounding radius) and a static
// one are reduced: between bodies at pile speeds, the points set aside let
// overlaps of more than 1% of a radius through in a 200-body pile. The
// contacts of such a pair are grouped by normal
// (within reduceCos of the group's first normal); a group of more than
// reduceFrom contacts keeps reduceKeep of them: its nearest (the smallest
// separation) and then, one at a time, the contact farthest from those
// kept (farthest-point sampling, which takes the corners of a planar
// region first). A group that already touches (a fast body skidding on
// the plate, all its vertices within the margin its speed gives) keeps
// reduceKeep corners of its touching region (the contacts within the
// body's base margin of the nearest) and reduceKeep of the speculative
// rest, sampled the same way: a torus skidding flat on a plate goes to the
// solver with 16 of its 300 vertices. (A body at rest is never fast, so a
// resting group keeps all its points: dropping some made resting piles
// jitter and stay awake.) The others
// are set aside in s.dropped: after the solver has moved the bodies, any of
// them that ends deeper than the slop joins the position pass (promote), so
// a point the reduced set did not hold is still pushed out before the step
// ends.
const (
	reduceFrom = 16
	reduceKeep = 8
	reduceCos  = 0.95
)

// fast reports whether a pair is a fast body against a static one: the
// dynamic body's speed over the step carries it more than twice its
// bounding radius.
func (s *Sim) fast(i, j int) bool {
	a, b := &s.bodies[i], &s.bodies[j]
	if b.static {
		a, b = b, a
	}
	return a.static && !b.static && b.v.Norm()*s.opt.Dt > 2*b.radius
}

// reducePair appends to s.raw the contacts of one pair that the reduction
// keeps and to s.dropped the others, each in their order.
func (s *Sim) reducePair(pair []world.Contact) {
	n := len(pair)
	if cap(s.group) < n {
		s.group = make([]int32, n, 2*n)
		s.keep = make([]bool, n, 2*n)
		s.near = make([]bool, n, 2*n)
	}
	group, keep, near := s.group[:n], s.keep[:n], s.near[:n]
	dyn := &s.bodies[pair[0].A] // the dynamic body of the pair (fast)
	if dyn.static {
		dyn = &s.bodies[pair[0].B]
	}
	// Group by normal: each contact joins the first group whose first
	// normal is within reduceCos of its own.
	heads := s.heads[:0]
	for i := range pair {
		group[i] = -1
		for _, j := range heads {
			if pair[j].Normal.Dot(pair[i].Normal) >= reduceCos {
				group[i] = j
				break
			}
		}
		if group[i] < 0 {
			group[i] = int32(i)
			heads = append(heads, int32(i))
		}
		keep[i] = false
	}
	s.heads = heads
	for _, g32 := range heads {
		g := int(g32)
		size, first := 0, -1
		for i := g; i < n; i++ {
			if group[i] != int32(g) {
				continue
			}
			size++
			near[i] = true
			if first < 0 || pair[i].Separation < pair[first].Separation {
				first = i
			}
		}
		switch {
		case size <= reduceFrom:
			for i := g; i < n; i++ {
				keep[i] = keep[i] || group[i] == int32(g)
			}
		case pair[first].Separation > 0:
			s.sample(pair, int32(g), first)
		default:
			// Touching: the corners of the touching region (the
			// contacts within the base margin of the nearest), then
			// those of the speculative rest.
			band := pair[first].Separation + s.bodyMargin(dyn.radius)
			second := -1
			for i := g; i < n; i++ {
				if group[i] == int32(g) && pair[i].Separation > band {
					near[i] = false
					if second < 0 || pair[i].Separation < pair[second].Separation {
						second = i
					}
				}
			}
			s.sample(pair, int32(g), first)
			if second >= 0 {
				s.sample(pair, int32(g), second)
			}
		}
	}
	a, b := BodyID(pair[0].A), BodyID(pair[0].B)
	for i := range pair {
		c := Contact{A: a, B: b, Contact: pair[i].Contact}
		if keep[i] {
			s.raw = append(s.raw, c)
		} else {
			s.dropped = append(s.dropped, c)
		}
	}
}

// sample marks kept, by farthest-point sampling from contact first,
// reduceKeep contacts of group g of a pair with the same near flag as
// first (s.group, s.near and s.keep are the pair's). The candidates' points
// are copied to s.pts beside their squared distances to the nearest kept
// (s.gap), and a kept candidate's distance becomes -1 so that it is never
// taken again.
func (s *Sim) sample(pair []world.Contact, g int32, first int) {
	group, near, keep := s.group[:len(pair)], s.near[:len(pair)], s.keep[:len(pair)]
	tier := near[first]
	cand, pts, gap := s.cand[:0], s.pts[:0], s.gap[:0]
	for i := int(g); i < len(pair); i++ {
		if group[i] == g && near[i] == tier && i != first {
			cand = append(cand, int32(i))
			pts = append(pts, pair[i].Point)
			gap = append(gap, math.Inf(1))
		}
	}
	s.cand, s.pts, s.gap = cand, pts, gap
	keep[first] = true
	p := pair[first].Point
	gap = gap[:len(pts)]
	for k := 1; k < reduceKeep; k++ {
		best, bestGap := -1, -1.0
		for j := range pts {
			q := &pts[j]
			dx, dy, dz := q.X-p.X, q.Y-p.Y, q.Z-p.Z
			g := gap[j]
			if d := dx*dx + dy*dy + dz*dz; d < g {
				g = d
				gap[j] = d
			}
			if g > bestGap {
				best, bestGap = j, g
			}
		}
		if best < 0 {
			return
		}
		keep[cand[best]] = true
		gap[best] = -1
		p = pts[best]
	}
}

// promote adds to the solver's contacts (for the position pass only: no
// impulse) every contact set aside by the reduction that the bodies' motion
// since the step's start has taken deeper than its slop, and reports
// whether there was any.
func (s *Sim) promote() bool {
	any := false
	kept := s.dropped[:0]
	for i := range s.dropped {
		c := &s.dropped[i]
		a, b := &s.bodies[c.A], &s.bodies[c.B]
		ra, rb, base := anchors(c, a, b)
		pa, pb := ra, rb // a fixed body has not moved (dp 0, dR the identity)
		if !a.fixed {
			pa = a.dp.Add(turned(&a.dR, ra))
		}
		if !b.fixed {
			pb = b.dp.Add(turned(&b.dR, rb))
		}
		if pb.Sub(pa).Dot(c.Normal)+base >= -slopFrac*math.Min(a.radius, b.radius) {
			kept = append(kept, *c)
			continue
		}
		k := s.newConstraint(c, a, b, ra, rb, base)
		s.cons = append(s.cons, k)
		s.raw = append(s.raw, *c)
		any = true
	}
	s.dropped = kept
	return any
}

// bodyMargin is the base speculative distance of a dynamic body of bounding
// radius r: baseFrac of r, or none when Options.Margin (the world's margin
// for every pair) is set.
func (s *Sim) bodyMargin(r float64) float64 {
	if s.opt.Margin > 0 {
		return 0
	}
	return baseFrac / 2 * r
}

// baseFrac is the base speculative distance of a dynamic body, in its
// bounding radii, when Options.Margin is zero.
const baseFrac = 0.05

// reserve gives the contact buffers room for two contacts per vertex of the
// dynamic bodies (at least 256, at most 4096), and the world's, and writes
// them once, so that a run neither grows them step by step nor touches
// their memory for the first time in its steps (a page fault each); Run
// calls it before its timed loop.
func (s *Sim) reserve() {
	n := 0
	for i := range s.bodies {
		if b := &s.bodies[i]; !b.static {
			n += 2 * len(b.mesh.Verts)
		}
	}
	n = min(max(n, 256), 4096)
	s.raw, s.dropped, s.rawKeep = touch(s.raw, n), touch(s.dropped, n), touch(s.rawKeep, n)
	s.cons, s.consKeep = touch(s.cons, n), touch(s.consKeep, n)
	s.wraw, s.rows = touch(s.wraw, n), touch(s.rows, n)
	s.group, s.cand, s.gap, s.pts = touch(s.group, n), touch(s.cand, n), touch(s.gap, n), touch(s.pts, n)
	s.keep, s.near = touch(s.keep, n), touch(s.near, n)
	if len(s.warm) == 0 && len(s.nextWarm) == 0 {
		s.warm, s.nextWarm = make(map[warmKey]impulses, n/8), make(map[warmKey]impulses, n/8)
	}
	s.world.Reserve(n)
}

// touch returns buf, empty, with room for n elements, every one written.
func touch[T any](buf []T, n int) []T {
	if cap(buf) < n {
		buf = make([]T, n)
	}
	clear(buf[:cap(buf)])
	return buf[:0]
}
