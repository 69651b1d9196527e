package world

import (
	"errors"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/toc"
)

// test runs the narrow phase of one pair, appending its contacts to the
// worker's buffer.
func (w *World) test(wi int32, wk *worker, t *task) result {
	a, b := &w.bodies[t.a], &w.bodies[t.b]
	lo := int32(len(wk.out))
	base := Contact{A: BodyID(t.a), B: BodyID(t.b), Method: t.m}
	var err error
	switch t.m {
	case SeparatingVector, GJK:
		err = w.convexPair(wk, t, a, b, base)
	case ScrewCCD:
		err = w.screwPair(wk, a, b, base)
	case TimeOfContact:
		err = w.tocPair(wk, a, b, base)
	}
	if err != nil {
		wk.out = wk.out[:lo]
		return result{err: err}
	}
	return result{wk: wi, lo: lo, hi: int32(len(wk.out))}
}

// convexPair tests two convex bodies at their end poses.
func (w *World) convexPair(wk *worker, t *task, a, b *body, c Contact) error {
	var hit bool
	if t.m == SeparatingVector {
		wk.sv.Options = w.opt.Convex
		r := wk.sv.Intersect(a.sh.poly, &a.t1, b.sh.poly, &b.t1, &w.caches.list[t.cache].sv)
		if r.Status == convex.Invalid {
			return errors.New("separating vector: invalid input")
		}
		hit = r.Intersecting()
	} else {
		r := convex.GJKIntersect(a.sh.poly, &a.t1, b.sh.poly, &b.t1, &w.caches.list[t.cache].gjk, &w.opt.Convex)
		if r.Status == convex.Invalid {
			return errors.New("GJK: invalid input")
		}
		hit = r.Status == convex.Intersecting
	}
	if !hit {
		return nil
	}
	c.Status, c.Time = contact.Penetrating, 1
	ca, cb := a.box.Center(), b.box.Center()
	c.Point = ca.Add(cb).Scale(0.5)
	if n, ok := cb.Sub(ca).Normalize(); ok {
		c.Normal = n
	} else {
		c.Normal = geom.Vec3{Z: 1}
	}
	wk.out = append(wk.out, c)
	return nil
}

// screwPair runs continuous detection under the pair's relative screw
// motion and keeps every collision of the step.
func (w *World) screwPair(wk *worker, a, b *body, c Contact) error {
	var err error
	wk.cols, err = wk.det.Detect(a.sh.mesh, b.sh.mesh, a.p0, a.p1, b.p0, b.p1, w.opt.Screw, wk.cols[:0])
	if err != nil {
		return err
	}
	for _, col := range wk.cols {
		c.Contact = screwRecord(col)
		wk.out = append(wk.out, c)
	}
	return nil
}

func screwRecord(col screw.Collision) contact.Contact {
	r := contact.Contact{Status: contact.Hit, Time: col.Time, Point: col.Point, Normal: col.Normal,
		Properness: col.Properness, HasProperness: true}
	if col.Near {
		r.Status = contact.Near
	}
	switch col.Kind {
	case screw.VF:
		r.FeatureA, r.FeatureB = contact.V(col.FeatureA), contact.F(col.FeatureB)
	case screw.FV:
		r.FeatureA, r.FeatureB = contact.F(col.FeatureA), contact.V(col.FeatureB)
	default:
		r.FeatureA, r.FeatureB = contact.E(col.FeatureA), contact.E(col.FeatureB)
	}
	return r
}

// tocPair runs the time of contact of two bodies over the step.
func (w *World) tocPair(wk *worker, a, b *body, c Contact) error {
	var err error
	wk.tcs, err = wk.tq.Contacts(a.sh.toc, linearState(a), b.sh.toc, linearState(b), 1, w.tocOpt, wk.tcs[:0])
	if err != nil {
		return err
	}
	for _, tc := range wk.tcs {
		c.Contact = contact.Contact{Status: contact.Hit, Time: tc.T, Point: tc.Point, Normal: tc.Normal.Neg()}
		wk.out = append(wk.out, c)
	}
	return nil
}

// linearState is the constant-velocity motion from p0 to p1 over a unit
// step: V = p1 - p0, W the rotation vector of q1 q0* (shorter arc).
func linearState(b *body) toc.State {
	return toc.State{Pose: b.p0, V: b.p1.P.Sub(b.p0.P), W: b.p1.Q.Mul(b.p0.Q.Conj()).RotationVector()}
}
