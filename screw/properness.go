package screw

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// propFV is the properness (Sec. 5) of B's vertex v against a plane with
// outward unit normal n (A's face) at the time whose rotation angle has sine
// sn and cosine cs: the minimum over v's edges of e_i . n, with e_i the unit
// edge directions leaving v (turned by the motion; equivalently n turned
// back).
func (d *Detector) propFV(v int32, n geom.Vec3, sn, cs float64) float64 {
	return vertexProperness(&d.b, v, geom.Vec3{X: n.X*cs - n.Z*sn, Y: n.Y, Z: n.X*sn + n.Z*cs})
}

// propVF is the properness of A's vertex v against B's face whose outward
// normal at the time of contact is nb.
func (d *Detector) propVF(v int32, nb geom.Vec3) float64 {
	return vertexProperness(&d.a, v, nb)
}

// vertexProperness is the minimum over the edges of vertex v of body bd of
// e_i . n, with e_i the unit edge directions leaving v (0 for a vertex
// without edges).
func vertexProperness(bd *body, v int32, n geom.Vec3) float64 {
	m := bd.m
	p := bd.pos[v]
	best := math.Inf(1)
	for _, e := range m.VertexEdges(int(v)) {
		w := m.Edges[e].Other(v)
		u, ok := unit(bd.pos[w].Sub(p))
		if ok {
			best = min(best, u.Dot(n))
		}
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return best
}

// propEE is formula (7) of Sec. 5 for edges ea (of A) and eb (of B) at the
// time whose rotation angle has sine sn and cosine cs, with the sign of the
// normal chosen to maximize it. It returns the properness and the normal
// (from A to B). The normal is that of both edges; for parallel edges
// (which only meet in near misses, or end to end) it is dir, the
// direction from A's closest point to B's, or else the normal of a face
// of A's edge.
func (d *Detector) propEE(ia, ib int32, sn, cs float64, dir geom.Vec3) (float64, geom.Vec3) {
	rot := func(v geom.Vec3) geom.Vec3 { // d.rotate(v, t)
		return geom.Vec3{X: v.X*cs + v.Z*sn, Y: v.Y, Z: -v.X*sn + v.Z*cs}
	}
	ea, eb := d.a.m.Edges[ia], d.b.m.Edges[ib]
	ua, _ := unit(d.a.pos[ea.V[1]].Sub(d.a.pos[ea.V[0]]))
	ub, _ := unit(rot(d.b.pos[eb.V[1]].Sub(d.b.pos[eb.V[0]])))
	n, ok := unit(ua.Cross(ub))
	if !ok {
		if n, ok = unit(dir); !ok {
			f := ea.Left
			if f < 0 {
				f = ea.Right
			}
			n = d.a.nrm[f]
		}
	}
	faceN := func(bd *body, f int32, rotate bool) (geom.Vec3, bool) {
		if f < 0 {
			return geom.Vec3{}, false
		}
		v := bd.nrm[f]
		if rotate {
			v = rot(v)
		}
		return v, true
	}
	a1, okA1 := faceN(&d.a, ea.Left, false)
	a2, okA2 := faceN(&d.a, ea.Right, false)
	b1, okB1 := faceN(&d.b, eb.Left, true)
	b2, okB2 := faceN(&d.b, eb.Right, true)
	return eeSides(n, ua, ub, [2]geom.Vec3{a1, a2}, [2]bool{okA1, okA2}, [2]geom.Vec3{b1, b2}, [2]bool{okB1, okB2})
}

// eeSides is formula (7) of Sec. 5 for edges with unit directions ua and
// ub, maximized over the sign of the unit normal n: the least of
// (n x ua).a1, -(n x ua).a2, -(n x ub).b1 and (n x ub).b2 over the
// adjacent faces' normals that are present (ok), 0 when none is; it
// returns the larger value and the normal's sign giving it (n on a tie).
func eeSides(n, ua, ub geom.Vec3, a [2]geom.Vec3, okA [2]bool, b [2]geom.Vec3, okB [2]bool) (float64, geom.Vec3) {
	val := func(n geom.Vec3) float64 {
		m := math.Inf(1)
		na, nb := n.Cross(ua), n.Cross(ub)
		if okA[0] {
			m = min(m, na.Dot(a[0]))
		}
		if okA[1] {
			m = min(m, -na.Dot(a[1]))
		}
		if okB[0] {
			m = min(m, -nb.Dot(b[0]))
		}
		if okB[1] {
			m = min(m, nb.Dot(b[1]))
		}
		if math.IsInf(m, 1) {
			return 0
		}
		return m
	}
	p1, p2 := val(n), val(n.Neg())
	if p2 > p1 {
		return p2, n.Neg()
	}
	return p1, n
}

// rotSC turns direction v by the motion's rotation with sine sn and cosine
// cs (d.rotate without the sine and cosine).
func rotSC(v geom.Vec3, sn, cs float64) geom.Vec3 {
	return geom.Vec3{X: v.X*cs + v.Z*sn, Y: v.Y, Z: -v.X*sn + v.Z*cs}
}

// addVertexHit records a VF or FV collision at the time of root r (screen
// frame); back: through the back of a two-sided face.
func (d *Detector) addVertexHit(c *cand, r hroot, near, back bool) {
	h := Collision{Kind: c.kind, Time: r.t, FeatureA: c.a, FeatureB: c.b, Near: near}
	if c.kind == contact.FaceVertex {
		n := d.a.nrm[c.a]
		if back {
			n = n.Neg()
		}
		h.Point = d.vertexAtSC(contact.FaceVertex, d.b.pos[c.b], r)
		h.Normal = n
		h.Properness = d.propFV(c.b, n, r.sn, r.cs)
		if near {
			// The root of the plane offset by d.near: the vertex is
			// that far in front of the face.
			h.Separation = d.near
		}
	} else {
		nb := rotSC(d.b.nrm[c.b], r.sn, r.cs)
		if back {
			nb = nb.Neg()
		}
		h.Point = d.a.pos[c.a]
		h.Normal = nb.Neg()
		h.Properness = d.propVF(c.a, nb)
		if near {
			h.Separation = d.near
		}
	}
	d.hits = append(d.hits, h)
}

// addEEHit records an edge-edge collision at the time of root r, where the
// closest points of the edges' lines are pa = A's edge at s and pb = B's
// edge at u, resolving contacts at edge ends into vertex-face collisions of
// maximal properness.
func (d *Detector) addEEHit(c *cand, r hroot, s, u float64, pa, pb geom.Vec3, near bool) {
	t := r.t
	ea, eb := d.a.m.Edges[c.a], d.b.m.Edges[c.b]
	va, vb := int32(-1), int32(-1)
	if s < endEps {
		va = ea.V[0]
	} else if s > 1-endEps {
		va = ea.V[1]
	}
	if u < endEps {
		vb = eb.V[0]
	} else if u > 1-endEps {
		vb = eb.V[1]
	}
	pt := pa.Add(pb).Scale(0.5)
	sep := 0.0
	if near {
		// The distance between the edges (segments, not lines) at t.
		sep = d.edgeGap(c, r)
	}
	if va < 0 && vb < 0 {
		p, n := d.propEE(c.a, c.b, r.sn, r.cs, pb.Sub(pa))
		d.hits = append(d.hits, Collision{Kind: contact.EdgeEdge, Time: t, Point: pt, Normal: n, Properness: p, FeatureA: c.a, FeatureB: c.b, Near: near, Separation: sep})
		return
	}
	best := Collision{Properness: math.Inf(-1)}
	tryVF := func(v, f int32) { // A vertex v against B face f
		if f < 0 {
			return
		}
		nb := rotSC(d.b.nrm[f], r.sn, r.cs)
		for side := 0; side < 2; side++ {
			if side == 1 {
				if !d.b.two {
					break
				}
				nb = nb.Neg() // the back of a two-sided face
			}
			if p := d.propVF(v, nb); p > best.Properness {
				best = Collision{Kind: contact.VertexFace, Time: t, Point: pt, Normal: nb.Neg(), Properness: p, FeatureA: v, FeatureB: f, Near: near, Separation: sep}
			}
		}
	}
	tryFV := func(f, v int32) { // A face f against B vertex v
		if f < 0 {
			return
		}
		n := d.a.nrm[f]
		for side := 0; side < 2; side++ {
			if side == 1 {
				if !d.a.two {
					break
				}
				n = n.Neg() // the back of a two-sided face
			}
			if p := d.propFV(v, n, r.sn, r.cs); p > best.Properness {
				best = Collision{Kind: contact.FaceVertex, Time: t, Point: pt, Normal: n, Properness: p, FeatureA: f, FeatureB: v, Near: near, Separation: sep}
			}
		}
	}
	switch {
	case va >= 0 && vb >= 0: // VV
		for _, e := range d.b.m.VertexEdges(int(vb)) {
			tryVF(va, d.b.m.Edges[e].Left)
			tryVF(va, d.b.m.Edges[e].Right)
		}
		for _, e := range d.a.m.VertexEdges(int(va)) {
			tryFV(d.a.m.Edges[e].Left, vb)
			tryFV(d.a.m.Edges[e].Right, vb)
		}
	case va >= 0: // VE
		tryVF(va, eb.Left)
		tryVF(va, eb.Right)
	default: // EV
		tryFV(ea.Left, vb)
		tryFV(ea.Right, vb)
	}
	if !math.IsInf(best.Properness, -1) {
		d.hits = append(d.hits, best)
	}
}

// edgeGap returns the distance between the edges of EE candidate c at the
// time of r.
func (d *Detector) edgeGap(c *cand, r hroot) float64 {
	ea, eb := d.a.m.Edges[c.a], d.b.m.Edges[c.b]
	q0 := d.vertexAtSC(contact.FaceVertex, d.b.pos[eb.V[0]], r)
	q1 := d.vertexAtSC(contact.FaceVertex, d.b.pos[eb.V[1]], r)
	_, _, pa, pb := geom.ClosestSegmentPoints(d.a.pos[ea.V[0]], d.a.pos[ea.V[1]], q0, q1)
	return pa.Dist(pb)
}

// toWorld converts a collision from the screen frame to world coordinates.
func (d *Detector) toWorld(c Collision) Collision {
	local := d.o.AddScaled(c.Point.X, d.ax).AddScaled(c.Point.Y, d.ay).AddScaled(c.Point.Z, d.az)
	ln := d.ax.Scale(c.Normal.X).AddScaled(c.Normal.Y, d.ay).AddScaled(c.Normal.Z, d.az)
	pa := d.a0
	if d.aMoves {
		pa = geom.ScrewPose(d.a0, d.a1, c.Time)
	}
	c.Point = pa.Apply(local)
	c.Normal = pa.ApplyDir(ln)
	return c
}

// unit is v.Normalize, without its rescaling for vectors of extreme length
// unless needed.
func unit(v geom.Vec3) (geom.Vec3, bool) {
	n2 := v.Dot(v)
	if n2 > unitMin2 && n2 < 1/unitMin2 {
		return v.Scale(1 / math.Sqrt(n2)), true
	}
	return v.Normalize()
}
