package sim

import (
	"fmt"

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
// velocities would reach in a step of dt (kept in pred), their margins and
// which are asleep, runs its step and keeps its contacts in s.raw, in pair
// order.
func (s *Sim) findContacts(dt float64) error {
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.static {
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
			// Where the body's velocities and gravity would take it.
			b.pred = geom.Pose{P: b.pose.P.AddScaled(dt, b.v.AddScaled(dt, s.opt.Gravity)), Q: geom.QuatRotationVector(b.w.Scale(dt)).Mul(b.pose.Q)}
			if err := s.world.Move(id, b.pred); err != nil {
				return fmt.Errorf("sim: body %d: %w", i, err)
			}
		}
		if err := s.world.SetMargin(id, s.bodyMargin(b.radius)); err != nil {
			return fmt.Errorf("sim: body %d: %w", i, err)
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
	s.raw = s.raw[:0]
	s.stats = Stats{Pairs: s.world.Stats().Tests}
	for _, c := range s.wraw {
		s.raw = append(s.raw, Contact{A: BodyID(c.A), B: BodyID(c.B), Contact: c.Contact})
		if d := -c.Separation; d > s.stats.MaxDepth {
			s.stats.MaxDepth = d
		}
	}
	s.stats.Contacts = len(s.raw)
	return nil
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
