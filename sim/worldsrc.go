package sim

import (
	"fmt"

	"github.com/collide-go/collide/world"
)

// ContactSource chooses where a Sim's contacts come from.
type ContactSource uint8

const (
	// ProbeContacts is the simulator's own contact search (vertex-face and
	// edge-edge contacts with per-pair speculative margins); the default.
	ProbeContacts ContactSource = iota
	// WorldContacts takes the contacts of package world: every pair runs
	// world.MeshContacts (discrete contacts of package meshquery) at the
	// current poses with one speculative margin for the whole scene
	// (Options.Margin, or 5% of the median bounding radius). It does not
	// look at velocities, so a body faster than the margin per step can
	// pass through a thin wall.
	WorldContacts
)

// worldContacts fills s.raw from package world at the bodies' current poses.
func (s *Sim) worldContacts() error {
	if s.world == nil {
		margin := s.opt.Margin
		if margin == 0 {
			var radii []float64
			for i := range s.bodies {
				if !s.bodies[i].static {
					radii = append(radii, s.bodies[i].shape.radius)
				}
			}
			if len(radii) > 0 {
				margin = 0.05 * median(radii)
			}
		}
		var tbl world.Table
		for a := range tbl {
			for b := range tbl[a] {
				tbl[a][b] = world.MeshContacts
			}
		}
		w, err := world.New(&world.Options{Table: &tbl, Margin: margin, Workers: s.opt.Workers})
		if err != nil {
			return fmt.Errorf("sim: %w", err)
		}
		for i := range s.bodies {
			b := &s.bodies[i]
			kind := world.Polyhedron
			if b.shape.m.Convex() {
				kind = world.Convex
			}
			if _, err := w.Add(world.BodyDef{Mesh: b.shape.m, Kind: kind, Pose: b.pose, Static: b.static}); err != nil {
				return fmt.Errorf("sim: body %d: %w", i, err)
			}
		}
		s.world = w
	}
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.static {
			continue
		}
		if err := s.world.SetPose(world.BodyID(i), b.pose); err != nil {
			return fmt.Errorf("sim: body %d: %w", i, err)
		}
	}
	var err error
	s.wraw, err = s.world.Step(s.wraw[:0])
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	s.raw = s.raw[:0]
	for _, c := range s.wraw {
		if s.bodies[c.A].fixed && s.bodies[c.B].fixed {
			continue
		}
		s.raw = append(s.raw, Contact{A: BodyID(c.A), B: BodyID(c.B), Contact: c.Contact})
	}
	return nil
}

func median(x []float64) float64 {
	y := append([]float64(nil), x...)
	for i := 1; i < len(y); i++ {
		for j := i; j > 0 && y[j] < y[j-1]; j-- {
			y[j], y[j-1] = y[j-1], y[j]
		}
	}
	return y[len(y)/2]
}
