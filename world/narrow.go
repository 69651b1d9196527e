package world

import (
	"errors"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
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
	case MeshContacts:
		err = w.meshPair(wk, a, b, base)
	case FeatureContacts:
		w.featurePair(wk, t, a, b, base)
	}
	if err != nil {
		wk.out = wk.out[:lo]
		return result{err: err}
	}
	return result{wk: wi, lo: lo, hi: int32(len(wk.out))}
}

// convexPair tests two convex bodies at their end poses (Time 1): the
// method's intersection test (with its per-pair cache) culls pairs farther
// apart than Options.Margin, then the contact manifold of the pair gives up
// to four points with their own separations and stable feature ids.
func (w *World) convexPair(wk *worker, t *task, a, b *body, c Contact) error {
	pc := &w.caches.list[t.cache]
	var hit bool
	var gap float64
	if t.m == SeparatingVector {
		wk.sv.Options = w.opt.Convex
		r := wk.sv.Intersect(a.sh.poly, &a.t1, b.sh.poly, &b.t1, &pc.sv)
		if r.Status == convex.Invalid {
			return errors.New("separating vector: invalid input")
		}
		hit, gap = r.Intersecting(), r.Gap
	} else {
		r := convex.GJKIntersect(a.sh.poly, &a.t1, b.sh.poly, &b.t1, &pc.gjk, &w.opt.Convex)
		if r.Status == convex.Invalid {
			return errors.New("GJK: invalid input")
		}
		hit, gap = r.Status == convex.Intersecting, r.Gap
	}
	margin := w.margin(a, b)
	if !hit && !(gap <= margin) {
		return nil
	}
	recs, err := wk.sv.Manifold(a.sh.poly, &a.t1, b.sh.poly, &b.t1, margin, &pc.dist, wk.recs[:0])
	return wk.keep(c, recs, err)
}

// screwPair runs continuous detection under the pair's relative screw
// motion and keeps every collision of the step, and the resting contacts
// of the start poses.
func (w *World) screwPair(wk *worker, a, b *body, c Contact) error {
	recs, err := wk.det.ContactsPrepared(a.sh.screw, b.sh.screw, a.p0, a.p1, b.p0, b.p1, w.screwOpt, wk.recs[:0])
	return wk.keep(c, recs, err)
}

// tocPair runs the time of contact of two bodies over the step, on the
// world's motion model: with geom.ScrewMotion, B's relative screw motion in
// A's frame (A placed by its own screw motion), the trajectory the screw
// detector answers on; with geom.LinearAngular, each body's own constant
// velocities.
func (w *World) tocPair(wk *worker, a, b *body, c Contact) error {
	var err error
	if w.opt.Motion == geom.LinearAngular {
		wk.tcs, err = wk.tq.Between(a.sh.toc, a.p0, a.p1, b.sh.toc, b.p0, b.p1, w.tocOpt, wk.tcs[:0])
	} else {
		id := geom.PoseIdentity()
		ia0, ia1 := a.p0.Inverse(), a.p1.Inverse()
		wk.tcs, err = wk.tq.Between(a.sh.toc, id, id, b.sh.toc, ia0.Mul(b.p0), ia1.Mul(b.p1), w.tocOpt, wk.tcs[:0])
	}
	if err != nil {
		return err
	}
	for i := range wk.tcs {
		c.Contact = wk.tcs[i].Record()
		if w.opt.Motion != geom.LinearAngular {
			pa := geom.ScrewPose(a.p0, a.p1, c.Time)
			c.Point, c.Normal = pa.Apply(c.Point), pa.ApplyDir(c.Normal)
		}
		wk.out = append(wk.out, c)
	}
	return nil
}

// meshPair runs the discrete contact query of two meshes at their end
// poses.
func (w *World) meshPair(wk *worker, a, b *body, c Contact) error {
	opt := w.mqOpt
	opt.Margin = w.margin(a, b)
	recs, err := wk.mq.Contacts(a.sh.tree, &a.t1, b.sh.tree, &b.t1, &opt, wk.recs[:0])
	return wk.keep(c, recs, err)
}

// margin returns a pair's speculative distance.
func (w *World) margin(a, b *body) float64 { return w.opt.Margin + a.margin + b.margin }

// featurePair finds the vertex-face and edge-edge contacts of two closed
// polyhedra at their start poses, within the pair's margin plus what the
// step's motion can close between them, and the records of an overlap
// deeper than those passes see (deepPair).
func (w *World) featurePair(wk *worker, t *task, a, b *body, c Contact) {
	fa, fb := a.sh.feat, b.sh.feat
	depthTol := depthWindow(fa, fb)
	m := newStepMotion(a.p0, a.p1, b.p0, b.p1, fa.radius, fb.radius)
	margin := w.margin(a, b)
	if apart(a.p0.P, m.da, m.wa.Norm(), fa.radius, b.p0.P, m.db, m.wb.Norm(), fb.radius, margin) {
		return
	}
	ta, tb := a.p0.Transform(), b.p0.Transform()
	if a.p0 == a.p1 && slabApart(fa, &ta, b.p0.P, m.db, m.wb.Norm(), fb.radius, margin) ||
		b.p0 == b.p1 && slabApart(fb, &tb, a.p0.P, m.da, m.wa.Norm(), fa.radius, margin) {
		return
	}
	var fc *featCache
	if t.cache >= 0 {
		fc = &w.caches.list[t.cache].feat
	}
	var reused bool
	wk.recs, reused = wk.fp.pair(wk.recs[:0], fa, fb, ta, tb, &m, margin, depthTol, fc)
	if reused {
		wk.reused++
	}
	wk.recs = wk.deepPair(&w.caches.list[t.cache].deep, fa, fb, a.p0, b.p0, &ta, &tb, wk.fp.moved, &wk.fp.abox, wk.fp.gap, depthTol, wk.recs)
	wk.emit(c, wk.recs)
}

// apart reports whether two bodies whose origins move from pa and pb by da
// and db while turning by ta and tb stay farther apart than margin all
// through the step: the bounding spheres (radii ra and rb about the
// origins) never come within margin of each other. The origins' relative
// position runs along the segment from pb-pa to pb-pa+db-da, within the
// sagitta of a screw motion's arc, at most |d| t/4 for a turn t <= pi
// (|d|/2 tan(t/4)). Two fast bodies flying side by side, or past each other
// at a distance, then need no contact search, whose margin would otherwise
// hold many body sizes of features.
func apart(pa, da geom.Vec3, ta, ra float64, pb, db geom.Vec3, tb, rb, margin float64) bool {
	d0 := pb.Sub(pa)
	d1 := d0.Add(db).Sub(da)
	_, _, x, _ := geom.ClosestSegmentPoints(d0, d1, geom.Vec3{}, geom.Vec3{})
	reach := ra + rb + margin + (da.Norm()*ta+db.Norm()*tb)/4
	return x.Norm2() > reach*reach
}

// featureDepth is the depth, in bounding radii of the smaller body, to
// which FeatureContacts sees a vertex behind a face when one of the two
// bodies is convex; meshDepth when neither is. Deeper overlaps get exact
// records (deepPair): for two non-convex bodies a record for every vertex
// inside the other, which holds them as the feature passes do and lets
// the passes search a band half as wide around the surfaces (the
// candidates of two linked tori); a convex pair's one record holds a face
// driven flat into another less well than the feature passes' vertices (a
// heavy cube sunk 6% into a light one), so pairs with a convex body keep
// the wider window.
const (
	featureDepth = 0.1
	meshDepth    = 0.05
)

// depthWindow returns the depth to which FeatureContacts' passes see a
// vertex behind a face for bodies fa and fb.
func depthWindow(fa, fb *features) float64 {
	if fa.poly == nil && fb.poly == nil {
		return meshDepth * math.Min(fa.radius, fb.radius)
	}
	return featureDepth * math.Min(fa.radius, fb.radius)
}

// keep stores recs as the worker's record buffer and, when err is nil,
// emits them.
func (wk *worker) keep(c Contact, recs []contact.Contact, err error) error {
	wk.recs = recs
	if err != nil {
		return err
	}
	wk.emit(c, recs)
	return nil
}

// emit appends the records to the worker's contacts of the step, each with
// the pair and method of c.
func (wk *worker) emit(c Contact, recs []contact.Contact) {
	for _, r := range recs {
		c.Contact = r
		wk.out = append(wk.out, c)
	}
}
