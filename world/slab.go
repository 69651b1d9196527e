package world

import (
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// fewFaces is the most faces a body may have for slabCandidates to take
// its pair.
const fewFaces = 8

// slabCandidates sets p.vf, p.fv and p.ee to the candidates of the pair
// of sa (its vertices in sb's frame at p.moved, abox their box) and sb,
// as candidates does, without the traversal of the face trees, when one
// of the two bodies has at most fewFaces faces and none of its vertices
// or sharp edges comes within pad of the other body's box: a plate, a
// slab or a backstop under a body much smaller than its faces. Every
// candidate then pairs a vertex of the other body with a face of the few,
// and the candidates are exactly those pairs whose vertex comes within pad
// of the face's box (the traversal's leaf test; the box of the vertex's
// own face contains the vertex, so the traversal reaches that pair). It
// reports false, setting nothing, when neither body qualifies.
func (p *probe) slabCandidates(sa, sb *features, abox *geom.AABB, pad float64) bool {
	switch {
	case len(sb.faces.items) <= fewFaces && p.clearOf(sb, abox, pad):
		p.vf, p.fv, p.ee = p.vf[:0], p.fv[:0], p.ee[:0]
		for k, fb := range sb.faces.items {
			bb := &sb.faces.boxes[k]
			if !near(bb, abox, pad) {
				continue
			}
			for _, v := range sa.ownV {
				if q := p.moved[v]; near(&geom.AABB{Min: q, Max: q}, bb, pad) {
					p.vf = append(p.vf, [2]int32{v, fb})
				}
			}
		}
		return true
	case len(sa.faces.items) <= fewFaces && p.movedClearOf(sa, &sb.box, pad):
		p.vf, p.fv, p.ee = p.vf[:0], p.fv[:0], p.ee[:0]
		for _, fa := range sa.faces.items {
			vs := sa.m.Face(int(fa))
			ba := geom.AABB{Min: p.moved[vs[0]], Max: p.moved[vs[0]]}
			for _, v := range vs[1:] {
				grow(&ba, p.moved[v])
			}
			if !near(&ba, &sb.box, pad) {
				continue
			}
			for _, v := range sb.ownV {
				if q := sb.m.Verts[v]; near(&geom.AABB{Min: q, Max: q}, &ba, pad) {
					p.fv = append(p.fv, [2]int32{v, fa})
				}
			}
		}
		return true
	}
	return false
}

// clearOf reports whether no vertex and no sharp edge of s (in its own
// frame) comes within pad of box.
func (p *probe) clearOf(s *features, box *geom.AABB, pad float64) bool {
	for _, q := range s.m.Verts {
		if near(&geom.AABB{Min: q, Max: q}, box, pad) {
			return false
		}
	}
	for k := range s.edges {
		if near(&s.edgeBoxes[k], box, pad) {
			return false
		}
	}
	return true
}

// movedClearOf is clearOf for s placed at p.moved.
func (p *probe) movedClearOf(s *features, box *geom.AABB, pad float64) bool {
	for _, q := range p.moved {
		if near(&geom.AABB{Min: q, Max: q}, box, pad) {
			return false
		}
	}
	for k := range s.edges {
		e := &s.edges[k]
		b := geom.AABB{Min: p.moved[e.a], Max: p.moved[e.a]}
		grow(&b, p.moved[e.b])
		if near(&b, box, pad) {
			return false
		}
	}
	return true
}

// slabOff turns slabPair off, for the tests that compare it with the
// general passes.
var slabOff = false

// slabFace is a face of a slab (a convex body of few faces) prepared for
// slabVertices: its box in the frame of the other body's points that the
// candidates are chosen in, and what holds for every vertex of the other
// body at once.
type slabFace struct {
	f   int32
	box geom.AABB
	// every: every vertex is within the pad of box (a candidate of the
	// face); inside: every vertex projects into the face, deep enough
	// that the face's triangles need not be tested.
	every, inside bool
	nw            geom.Vec3 // the face's normal in the world frame
}

// slabPair appends the contacts of the pair when slabCandidates takes it
// and its few-faced body is convex (its faces are convex and it has no
// reflex edge), reporting whether it did: the candidates are then the
// other body's vertices against the slab's faces, and slabVertices tests
// them face by face without building the candidate lists. The contacts
// are those that vertices gives for slabCandidates' candidates, in the
// same order. relA and relB take sa's frame to sb's and back, ta and tb
// are the bodies' world transforms and cb the centre of the region where
// they meet, in sb's frame.
func (p *probe) slabPair(dst []contact.Contact, sa, sb *features, relA, relB, ta, tb geom.Transform, cb geom.Vec3, pad, depthTol float64) ([]contact.Contact, bool) {
	switch {
	case slabOff:
		return dst, false
	case len(sb.faces.items) <= fewFaces && p.clearOf(sb, &p.abox, pad):
		if !slabReady(sb, sa) {
			return dst, false
		}
		p.rb.c = cb
		p.slabFaces = p.slabFaces[:0]
		for k, f := range sb.faces.items {
			p.addSlabFace(f, sb.faces.boxes[k], &p.abox, pad)
		}
		return p.slabVertices(dst, sa, sb, p.moved, relA, tb, pad, depthTol, false), true
	case len(sa.faces.items) <= fewFaces && p.movedClearOf(sa, &sb.box, pad):
		if !slabReady(sa, sb) {
			return dst, false
		}
		p.rb.c = relB.Apply(cb)
		p.slabFaces = p.slabFaces[:0]
		for _, f := range sa.faces.items {
			vs := sa.m.Face(int(f))
			ba := geom.AABB{Min: p.moved[vs[0]], Max: p.moved[vs[0]]}
			for _, v := range vs[1:] {
				grow(&ba, p.moved[v])
			}
			p.addSlabFace(f, ba, &sb.box, pad)
		}
		return p.slabVertices(dst, sb, sa, sb.m.Verts, relB, ta, pad, depthTol, true), true
	}
	return dst, false
}

// slabReady reports whether slabVertices can take slab s against body o:
// s is convex, and every vertex of o lies on a face (so each is a
// candidate wherever it comes near a face of s).
func slabReady(s, o *features) bool {
	return s.poly != nil && len(s.reflex) == 0 && len(o.ownV) == len(o.m.Verts)
}

// addSlabFace keeps slab face f, whose box is box in the frame of the
// points whose box is pts, when the two boxes come within pad, noting
// whether every point does.
func (p *probe) addSlabFace(f int32, box geom.AABB, pts *geom.AABB, pad float64) {
	if !near(&box, pts, pad) {
		return
	}
	// near(q, box, pad) for q in pts holds for all q when it holds for
	// pts' extreme coordinates: q - pad <= pts.Max - pad <= box.Max and
	// box.Min - pad <= pts.Min <= q, rounding being monotonic.
	every := pts.Max.X-pad <= box.Max.X && pts.Max.Y-pad <= box.Max.Y && pts.Max.Z-pad <= box.Max.Z &&
		box.Min.X-pad <= pts.Min.X && box.Min.Y-pad <= pts.Min.Y && box.Min.Z-pad <= pts.Min.Z
	p.slabFaces = append(p.slabFaces, slabFace{f: f, box: box, every: every})
}

// slabVertices appends the vertex-face contacts of body sv's vertices on
// the faces p.slabFaces of slab sf, as vertices does for the candidates
// (vertex, face) whose vertex (its place in pts, the frame the faces'
// boxes are in) comes within pad of the face's box; rel takes sv's frame
// to sf's, tf is sf's world transform and flip is vertices'. The other
// body lies within its bounding sphere, so per face its vertices' signed
// distances lie within the sphere's radius of its centre's: a face that
// every vertex is too deep behind (the plate's far face under a body over
// it) or too far in front of for the margin is dropped, and a face whose
// edges are all farther from the centre's projection than the radius
// holds every vertex's projection (the face is convex), so its triangles
// are not tested. No slab edge comes within pad of the other body's box
// (slabCandidates), so vertices' contacts with edges (underReflex,
// nearEdge) do not arise.
func (p *probe) slabVertices(dst []contact.Contact, sv, sf *features, pts []geom.Vec3, rel, tf geom.Transform, pad, depthTol float64, flip bool) []contact.Contact {
	c := rel.T // sv's origin in sf's frame
	// The spread of the vertices about c, with room for the rounding of
	// their placing and of the distances.
	r := sv.radius + 1e-9*(sv.radius+c.MaxAbs()+sf.radius)
	faces := p.slabFaces[:0]
	for _, sl := range p.slabFaces {
		pl := sf.m.Planes[sl.f]
		d := pl.SignedDist(c)
		if d+r < -depthTol || d-r > math.Max(p.rb.k, p.rb.whole) {
			continue
		}
		sl.inside = insideEdges(sf.m, sl.f, c, r)
		sl.nw = tf.ApplyDir(pl.N)
		faces = append(faces, sl)
	}
	if len(faces) == 0 {
		return dst
	}
	for vi, v := range sv.m.Verts {
		q := apply(&rel, v)
		var vn geom.Vec3
		vnOK := false
		lim := math.NaN()  // the vertex's margin, when needed
		var best *slabFace // the face it is behind nearest to
		bestSep, front := math.Inf(-1), math.Inf(1)
		var bestProj geom.Vec3
		// The vertex's candidate faces, as the general pass lists them,
		// and whether it skipped one it is behind (vertices' rules).
		cand, skipped := p.slabCand[:0], false
		for i := range faces {
			sl := &faces[i]
			if !sl.every && !near(&geom.AABB{Min: pts[vi], Max: pts[vi]}, &sl.box, pad) {
				continue
			}
			cand = append(cand, [2]int32{int32(vi), sl.f})
			pl := &sf.m.Planes[sl.f]
			sep := pl.SignedDist(q)
			if sep < depthTol && sep > -rimFrac*depthTol {
				if !vnOK {
					vn, vnOK = rel.ApplyDir(sv.vnorm[vi]), true
				}
				if sv.looksAway(int32(vi), pl.N, sep, vn, rel) {
					skipped = skipped || sep < 0
					continue
				}
			}
			if p.outOfReach(q, sep, depthTol, &lim) {
				continue
			}
			proj := q.AddScaled(-sep, pl.N)
			if !sl.inside && !sf.inFace(sl.f, proj, pl.N) {
				continue
			}
			if sep >= 0 {
				front = math.Min(front, sep)
				dst = appendVFAt(dst, &tf, int32(vi), sl.f, q, proj, sl.nw, sep, flip)
			} else if sep > bestSep {
				best, bestSep, bestProj = sl, sep, proj
			}
		}
		p.slabCand = cand
		switch {
		case best != nil && -bestSep <= front && !sf.entered(cand, best.f, q, bestProj):
			dst = appendVFAt(dst, &tf, int32(vi), best.f, q, bestProj, best.nw, bestSep, flip)
		case best == nil && front == math.Inf(1) && skipped:
			dst, _ = sv.sideRecord(dst, sf, cand, int32(vi), q, vn, rel, tf, depthTol, flip)
		}
	}
	return dst
}

// insideEdges reports whether every point within r of c projects onto
// face f of m farther than nothing inside each of its edges: the distance
// of c from each edge's line, in the face's plane, is at least r on the
// face's side (the face counter-clockwise about its outward normal).
func insideEdges(m *mesh.Mesh, f int32, c geom.Vec3, r float64) bool {
	vs := m.Face(int(f))
	n := m.Planes[f].N
	a := m.Verts[vs[len(vs)-1]]
	for _, v := range vs {
		b := m.Verts[v]
		out := b.Sub(a).Cross(n) // in the plane, away from the face
		if c.Sub(a).Dot(out) > -r*out.Norm() {
			return false
		}
		a = b
	}
	return true
}

// appendVFAt appends the contact of vertex v at q with face f, whose
// normal is nw in the world frame, at proj, q's projection on it (q and
// proj in the face's body's frame, which tb places in the world): the
// point halfway between them, the normal from the vertex's body to the
// face's (with flip, the record seen from the face's body).
func appendVFAt(dst []contact.Contact, tb *geom.Transform, v, f int32, q, proj, nw geom.Vec3, sep float64, flip bool) []contact.Contact {
	fa, fb, n := contact.V(v), contact.F(f), nw.Neg()
	if flip {
		fa, fb, n = fb, fa, nw
	}
	return append(dst, contact.Contact{Status: statusOf(sep), Point: apply(tb, q.Add(proj).Scale(0.5)), Normal: n, Separation: sep, FeatureA: fa, FeatureB: fb})
}

// apply returns t.Apply(x), the same arithmetic with t passed by
// reference, which the per-vertex loops need (Transform.Apply copies t).
func apply(t *geom.Transform, x geom.Vec3) geom.Vec3 {
	m := &t.R
	return geom.Vec3{
		X: m[0][0]*x.X + m[0][1]*x.Y + m[0][2]*x.Z + t.T.X,
		Y: m[1][0]*x.X + m[1][1]*x.Y + m[1][2]*x.Z + t.T.Y,
		Z: m[2][0]*x.X + m[2][1]*x.Y + m[2][2]*x.Z + t.T.Z,
	}
}

// slabApart reports whether a body of bounding radius r whose origin moves
// from c by d while it turns by the angle turn stays farther than margin
// from the convex body s, which does not move (placed by ts), all through
// the step: at both ends of its path the origin lies in front of one of
// s's face planes by more than r, margin and the sagitta of the path (as
// apart bounds it). The half-space in front of that plane is convex, so
// it holds the whole path, and s lies behind the plane. apart's bounding
// spheres cannot tell this for a slab far wider than the body (a plate of
// 400 m under a 5 cm torus flying off it after its bounce, whose spin
// takes every vertex within the margin the motion gives).
func slabApart(s *features, ts *geom.Transform, c, d geom.Vec3, turn, r, margin float64) bool {
	if s.poly == nil {
		return false
	}
	q0, q1 := ts.ApplyInv(c), ts.ApplyInv(c.Add(d))
	lim := r + margin + d.Norm()*turn/4
	lim += 1e-9 * (lim + q0.MaxAbs() + q1.MaxAbs() + s.radius) // rounding
	for _, pl := range s.m.Planes {
		if pl.SignedDist(q0) > lim && pl.SignedDist(q1) > lim {
			return true
		}
	}
	return false
}
