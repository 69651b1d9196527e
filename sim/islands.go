package sim

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/world"
)

// Islands. Bodies that touch form islands (the pairs of dynamic bodies
// with a contact in a piece of the step: links, which sleeping also uses).
// The end-of-step recheck searches contacts afresh only for the bodies that
// touched anything in the step and those whose paths came near a body
// whose contacts may have gone stale; the others, which had no contact all
// step, are where their contact search left them clear of everything, and
// are held still meanwhile (fixed for the position pass, asleep in the
// world so that their pairs with static and held bodies are not tested).

// Marks of a body within a step.
const (
	markUnsure  uint8 = 1 << iota // its contacts may have gone stale: search again at the step's end
	markTouched                   // had a contact in a piece of the step
	markActive                    // in the recheck
)

// link is a pair of dynamic bodies that had a contact in a piece of the
// step; pushed says whether a contact of the pair took an impulse.
type link struct {
	a, b   int32
	pushed bool
}

// addLinks records the pairs of dynamic bodies among the solver's
// contacts (sorted by pair) as links of the step.
func (s *Sim) addLinks() {
	for i := 0; i < len(s.cons); {
		k := &s.cons[i]
		l := link{a: k.a, b: k.b}
		for ; i < len(s.cons) && s.cons[i].a == l.a && s.cons[i].b == l.b; i++ {
			l.pushed = l.pushed || s.cons[i].imp.n > 0
		}
		s.bodies[l.a].mark |= markTouched
		s.bodies[l.b].mark |= markTouched
		if !s.bodies[l.a].fixed && !s.bodies[l.b].fixed {
			s.links = append(s.links, l)
		}
	}
}

// unite sets s.uf to the islands of the step's links (only those with an
// impulse when pushedOnly); find gives a body's island.
func (s *Sim) unite(pushedOnly bool) {
	n := len(s.bodies)
	if cap(s.uf) < n {
		s.uf = make([]int32, n)
		s.islandRest = make([]float64, n)
	}
	s.uf, s.islandRest = s.uf[:n], s.islandRest[:n]
	for i := range s.uf {
		s.uf[i] = int32(i)
	}
	for _, l := range s.links {
		if l.pushed || !pushedOnly {
			s.union(l.a, l.b)
		}
	}
}

func (s *Sim) union(a, b int32) {
	ra, rb := s.find(a), s.find(b)
	if ra == rb {
		return
	}
	if ra > rb {
		ra, rb = rb, ra
	}
	s.uf[rb] = ra
}

func (s *Sim) find(i int32) int32 {
	for s.uf[i] != i {
		s.uf[i] = s.uf[s.uf[i]]
		i = s.uf[i]
	}
	return i
}

// linkNear joins to the island of every dynamic body with mark m every
// dynamic body that may have come near it in the piece: their centres'
// paths (the segments b.sc to b.se) pass within the sum of their reaches
// (b.sr: bounding radius plus margins). A body that outran its margin may
// have reached a neighbour it had no contact with.
func (s *Sim) linkNear(m uint8) {
	for i := range s.bodies {
		a := &s.bodies[i]
		if a.fixed || a.mark&m == 0 {
			continue
		}
		for j := range s.bodies {
			b := &s.bodies[j]
			if j == i || b.fixed {
				continue
			}
			_, _, pa, pb := geom.ClosestSegmentPoints(a.sc, a.se, b.sc, b.se)
			if r := a.sr + b.sr; pa.Sub(pb).Norm2() <= r*r {
				s.union(int32(i), int32(j))
			}
		}
	}
}

// activate marks active the dynamic bodies (not fixed) in the islands of
// s.uf that hold a body with mark m, and reports how many bodies it left
// out.
func (s *Sim) activate(m uint8) (out int) {
	for i := range s.islandRest {
		s.islandRest[i] = 0
	}
	for i := range s.bodies {
		if b := &s.bodies[i]; !b.fixed && b.mark&m != 0 {
			s.islandRest[s.find(int32(i))] = 1
		}
	}
	for i := range s.bodies {
		b := &s.bodies[i]
		b.mark &^= markActive
		if b.fixed {
			continue
		}
		if s.islandRest[s.find(int32(i))] != 0 {
			b.mark |= markActive
		} else {
			out++
		}
	}
	return out
}

// freeze holds still every dynamic body not marked active: fixed for the
// solver, and asleep at its current pose in the world. It returns the
// mark to give thaw.
func (s *Sim) freeze() (int, error) {
	mark := len(s.frozen)
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed || b.mark&markActive != 0 {
			continue
		}
		id := world.BodyID(i)
		if err := s.world.SetPose(id, b.pose); err != nil {
			return mark, fmt.Errorf("sim: body %d: %w", i, err)
		}
		if err := s.world.SetAsleep(id, true); err != nil {
			return mark, fmt.Errorf("sim: body %d: %w", i, err)
		}
		b.fixed, b.frozen = true, true
		s.frozen = append(s.frozen, int32(i))
	}
	return mark, nil
}

// thaw releases the bodies frozen since mark.
func (s *Sim) thaw(mark int) error {
	for _, i := range s.frozen[mark:] {
		b := &s.bodies[i]
		b.fixed, b.frozen = false, false
		if err := s.world.SetAsleep(world.BodyID(i), false); err != nil {
			return fmt.Errorf("sim: body %d: %w", i, err)
		}
	}
	s.frozen = s.frozen[:mark]
	return nil
}

// A spinning body needs no split when it stayed within its predicted
// motion, no other dynamic body's path came near it, and every contact of
// it in the piece is one of its vertices on a face of a fixed body, far
// enough inside that face for the vertex to stay over it whatever the body
// did in the piece (it moved its centre at most far and turned at most by
// its actual turn). Such contacts do not go stale when the body spins: the
// face's plane is the constraint wherever the vertex goes over it, and the
// speculative margin, which covers the predicted turn, already holds every
// vertex the turn can bring down. A spinning body skidding on a floor or a
// plate then needs no split.
//
// faceReach returns how far inside its faces the contacts of body i must
// lie for that (at least 0), or -1 when the body strayed from its
// prediction or came near another.
func (s *Sim) faceReach(i int) float64 {
	b := &s.bodies[i]
	if !s.withinPredicted(b) || !s.alone(i) {
		return -1
	}
	_, turn := b.pose.Q.Mul(b.q0.Conj()).AxisAngle()
	return b.far() + turn*b.radius + s.bodyMargin(b.radius)
}

// offFaces reports whether a spinning body (s.spin[i] >= 0, its
// faceReach) has a contact in the piece that is not one of its vertices at
// least that far inside a face of a fixed body: one pass over the
// contacts, kept and set aside.
//
// A body whose whole bounding sphere (at the piece's start, where the
// contacts were found) projects at least that far plus its radius inside
// a face has every vertex's projection that far inside it, so its other
// contacts on that face need no test.
func (s *Sim) offFaces() bool {
	last, inv := BodyID(-1), geom.Transform{} // the last fixed body and its world-to-body transform
	type onFace struct {
		body, other BodyID
		f           int32
	}
	deep := onFace{-1, -1, -1} // a body, fixed body and face whose contacts all pass
	for _, set := range [2][]Contact{s.raw, s.dropped} {
		for j := range set {
			c := &set[j]
			for _, side := range [2]struct {
				body, other BodyID
				v, f        contact.Feature
			}{{c.A, c.B, c.FeatureA, c.FeatureB}, {c.B, c.A, c.FeatureB, c.FeatureA}} {
				reach := s.spin[side.body]
				if reach < 0 {
					continue
				}
				o := &s.bodies[side.other]
				if !o.fixed || side.v.Kind != contact.Vertex || side.f.Kind != contact.Face {
					return true
				}
				key := onFace{side.body, side.other, side.f.Index}
				if key == deep {
					continue
				}
				if side.other != last {
					last, inv = side.other, o.pose.Transform().Inverse()
				}
				if b := &s.bodies[side.body]; insideFace(o, &inv, side.f.Index, b.p0, reach+b.radius) {
					deep = key
					continue
				}
				if !insideFace(o, &inv, side.f.Index, c.Point, reach) {
					return true
				}
			}
		}
	}
	return false
}

// insideFace reports whether the world point p, projected on face f of
// body o (whose world-to-body transform is inv), lies at least d from
// every edge of the face: at once when the projection is within the
// face's inner radius less d of the face's centre (faceInner), else edge
// by edge.
func insideFace(o *body, inv *geom.Transform, f int32, p geom.Vec3, d float64) bool {
	m := o.mesh
	q := inv.Apply(p)
	pl := m.Planes[f]
	q = q.AddScaled(-pl.SignedDist(q), pl.N)
	in := &o.inner[f]
	if r := in.r - d; r > 0 && q.Sub(in.c).Norm2() <= r*r {
		return true
	}
	loop := m.Face(int(f))
	for k, vi := range loop {
		if segmentDist2(m.Verts[vi], m.Verts[loop[(k+1)%len(loop)]], q) < d*d {
			return false
		}
	}
	return true
}

// segmentDist2 is the squared distance from q to the segment from a to e.
func segmentDist2(a, e, q geom.Vec3) float64 {
	ae, r := e.Sub(a), a.Sub(q)
	t := 0.0
	if l := ae.Dot(ae); l != 0 {
		t = min(1, max(0, -ae.Dot(r)/l))
	}
	return a.AddScaled(t, ae).Sub(q).Norm2()
}

// faceInner is a point of a face's plane (the mean of its vertices) and
// its distance to the nearest edge of the face: a point of the plane
// within r - d of c is at least d from every edge (triangle inequality).
type faceInner struct {
	c geom.Vec3
	r float64
}

// innerOf returns the faceInner of every face of m.
func innerOf(m *mesh.Mesh) []faceInner {
	out := make([]faceInner, m.NumFaces())
	for f := range out {
		loop := m.Face(f)
		var c geom.Vec3
		for _, v := range loop {
			c = c.Add(m.Verts[v])
		}
		c = c.Scale(1 / float64(len(loop)))
		pl := m.Planes[f]
		c = c.AddScaled(-pl.SignedDist(c), pl.N)
		r := math.Inf(1)
		for k, v := range loop {
			r = math.Min(r, segmentDist2(m.Verts[v], m.Verts[loop[(k+1)%len(loop)]], c))
		}
		out[f] = faceInner{c, math.Sqrt(r)}
	}
	return out
}
