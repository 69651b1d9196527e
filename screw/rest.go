package screw

import (
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Contacts of the start poses (beyond the paper, which assumes the bodies
// disjoint at t = 0). Before following the motion, Detect and FirstContact
// look for the feature pairs that already touch, overlap or lie within
// Options.RestMargin of each other at t = 0 (two bodies resting on each
// other, or not moving at all): a vertex within the margin of a face's plane
// and over the face (VF, FV), two edges whose closest points, inside both
// edges, are within the margin (EE), and a vertex deeper behind a face than
// the margin from which an edge pierces that face (VF, FV, with the negative
// separation of the vertex from the face's plane). The search runs in A's
// frame at t = 0 over the pairs of faces whose bounding spheres (and those
// of their clusters, cull.go) come within the margin.

// restContacts fills d.rest with the contacts of the start poses (world
// coordinates, Time 0, Resting set), for A's mesh a at pose a0 and B's mesh
// b at b0, within margin margin (length units) and of properness at least
// thresh; touch is the distance within which a pair counts as touching
// (its separation is then 0).
func (d *Detector) restContacts(a, b *mesh.Mesh, a0, b0 geom.Pose, margin, touch, thresh float64, twoA, twoB bool) {
	d.rest = d.rest[:0]
	ia, ib := d.info(a), d.info(b)
	tba := a0.Inverse().Mul(b0).Transform()
	cB := tba.Apply(ib.center)
	if cB.Dist(ia.center) > ia.radius+ib.radius+margin {
		return
	}
	// The bounding boxes (axis-aligned in each body's frame), by the
	// separating-axis test of boxcull.go.
	ha := [3]float64{ia.half.X, ia.half.Y, ia.half.Z}
	hb := [3]float64{ib.half.X, ib.half.Y, ib.half.Z}
	if boxesApart(&tba.R, cB.Sub(ia.center), &ha, &hb, margin*(1+relPad)+lenTol*max(ia.radius, ib.radius)) {
		return
	}
	// B's vertices and planes in A's frame.
	d.rpos = grow(d.rpos, len(b.Verts))
	for i, v := range b.Verts {
		d.rpos[i] = tba.Apply(v)
	}
	nf := b.NumFaces()
	d.rnrm = grow(d.rnrm, nf)
	d.roff = grow(d.roff, nf)
	for f, pl := range b.Planes[:nf] {
		n := tba.ApplyDir(pl.N)
		d.rnrm[f] = n
		d.roff[f] = pl.D + n.Dot(tba.T)
	}
	d.restSet.reset()
	rs := &restState{d: d, a: a, b: b, margin: margin, touch: touch, twoA: twoA, twoB: twoB, thresh: thresh, pose: a0}
	// Clusters of each body near the other body, then pairs of them.
	d.rca = d.rca[:0]
	for c := range ia.cc {
		if r := ia.cr[c] + ib.radius + margin; ia.cc[c].Dist2(cB) <= r*r {
			d.rca = append(d.rca, int32(c))
		}
	}
	d.rcb = d.rcb[:0]
	d.rfc = grow(d.rfc, len(ib.fc))
	d.rcc = grow(d.rcc, len(ib.cc))
	for c := range ib.cc {
		cc := tba.Apply(ib.cc[c])
		if r := ib.cr[c] + ia.radius + margin; cc.Dist2(ia.center) <= r*r {
			d.rcb = append(d.rcb, int32(c))
			d.rcc[c] = cc
			// B's face spheres of the cluster, in A's frame.
			for _, f := range ib.cfaces[ib.cstart[c]:ib.cstart[c+1]] {
				d.rfc[f] = tba.Apply(ib.fc[f])
			}
		}
	}
	defer rs.finish()
	for _, ca := range d.rca {
		for _, cb := range d.rcb {
			if r := ia.cr[ca] + ib.cr[cb] + margin; ia.cc[ca].Dist2(d.rcc[cb]) > r*r {
				continue
			}
			for _, fa := range ia.cfaces[ia.cstart[ca]:ia.cstart[ca+1]] {
				if r := ia.fr[fa] + ib.cr[cb] + margin; ia.fc[fa].Dist2(d.rcc[cb]) > r*r {
					continue
				}
				for _, fb := range ib.cfaces[ib.cstart[cb]:ib.cstart[cb+1]] {
					if r := ia.fr[fa] + ib.fr[fb] + margin; ia.fc[fa].Dist2(d.rfc[fb]) > r*r {
						continue
					}
					rs.facePair(fa, fb)
				}
			}
		}
	}
}

// restState is the context of one restContacts search.
type restState struct {
	d          *Detector
	a, b       *mesh.Mesh
	margin     float64
	touch      float64
	twoA, twoB bool
	thresh     float64   // properness threshold
	pose       geom.Pose // A's pose at t = 0
}

// finish keeps, of the overlapping pairs of each vertex, the one of least
// depth (a vertex inside the other body pierces several of its faces; the
// nearest one says how deep it is), drops pairs below the properness
// threshold, and orders the contacts by features.
func (rs *restState) finish() {
	r := rs.d.rest
	w := 0
	for _, c := range r {
		if c.Properness >= rs.thresh {
			r[w] = c
			w++
		}
	}
	r = r[:w]
	vert := func(c *Collision) int32 {
		if c.Kind == contact.FaceVertex {
			return c.FeatureB
		}
		return c.FeatureA
	}
	slices.SortFunc(r, func(x, y Collision) int {
		switch {
		case x.Kind != y.Kind:
			return int(x.Kind) - int(y.Kind)
		case x.Kind != contact.EdgeEdge && vert(&x) != vert(&y):
			return int(vert(&x)) - int(vert(&y))
		case x.Separation != y.Separation:
			if x.Separation > y.Separation {
				return -1
			}
			return 1
		}
		return featureOrder(&x, &y)
	})
	w = 0
	for i := range r {
		c := &r[i]
		if c.Kind != contact.EdgeEdge && c.Separation < 0 && w > 0 && r[w-1].Kind == c.Kind && vert(&r[w-1]) == vert(c) {
			continue // a deeper pair of a vertex already kept
		}
		r[w] = *c
		w++
	}
	r = r[:w]
	slices.SortFunc(r, func(x, y Collision) int { return featureOrder(&x, &y) })
	rs.d.rest = r
}

// facePair tests the features of face fa of A against those of face fb of
// B (each pair once: restSet). The distances of each face's vertices from
// the other's plane settle most pairs first: a face entirely farther than
// the margin from the other's plane has no feature within the margin of it
// (and an edge piercing fb from a vertex of A is tested with a face of A
// containing that edge, which meets fb's plane); a vertex in front of a
// solid's face by more than the margin, and an edge wholly on one side of
// the other face's plane beyond the margin, are skipped.
func (rs *restState) facePair(fa, fb int32) {
	d := rs.d
	la, lb := rs.a.Face(int(fa)), rs.b.Face(int(fb))
	m := rs.margin
	dist := func(dst []float64, n geom.Vec3, off float64, loop []int32, pos []geom.Vec3) ([]float64, bool) {
		dst = dst[:0]
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range loop {
			s := n.Dot(pos[v]) - off
			dst = append(dst, s)
			lo, hi = min(lo, s), max(hi, s)
		}
		return dst, lo > m || hi < -m
	}
	pa := rs.a.Planes[fa]
	var away bool
	if d.rsb, away = dist(d.rsb, pa.N, pa.D, lb, d.rpos); away {
		return
	}
	if d.rsa, away = dist(d.rsa, d.rnrm[fb], d.roff[fb], la, rs.a.Verts); away {
		return
	}
	sa, sb := d.rsa, d.rsb
	for k, v := range lb {
		if rs.twoA || sb[k] <= m {
			rs.vertexFace(contact.FaceVertex, fa, v)
		}
	}
	for k, v := range la {
		if rs.twoB || sa[k] <= m {
			rs.vertexFace(contact.VertexFace, v, fb)
		}
	}
	off := func(x, y float64) bool { return x > m && y > m || x < -m && y < -m }
	ela, elb := rs.a.FaceEdgeLoop(int(fa)), rs.b.FaceEdgeLoop(int(fb))
	for i, ea := range ela {
		if off(sa[i], sa[(i+1)%len(sa)]) {
			continue
		}
		for j, eb := range elb {
			if off(sb[j], sb[(j+1)%len(sb)]) {
				continue
			}
			rs.edgeEdge(ea, eb)
		}
	}
}

// seen reports whether the pair was tested before, and marks it.
func (rs *restState) seen(k contact.PairKind, a, b int32) bool {
	set := &rs.d.restSet
	if set.find(k, a, b) != nil {
		return true
	}
	set.add(k, a, b, 0, 0)
	return false
}

// vertexFace tests a vertex of one body against a face of the other: FV is
// face fa of A and vertex v of B, VF vertex v of A and face fa of B.
func (rs *restState) vertexFace(k contact.PairKind, x, y int32) {
	if rs.seen(k, x, y) {
		return
	}
	d := rs.d
	var p, n geom.Vec3
	var off float64
	var loop []int32
	var fpos, vpos []geom.Vec3
	var vm *mesh.Mesh
	var v int32
	two := false
	if k == contact.FaceVertex {
		pl := rs.a.Planes[x]
		n, off, loop, fpos = pl.N, pl.D, rs.a.Face(int(x)), rs.a.Verts
		v, vm, vpos, p, two = y, rs.b, d.rpos, d.rpos[y], rs.twoA
	} else {
		n, off, loop, fpos = d.rnrm[y], d.roff[y], rs.b.Face(int(y)), d.rpos
		v, vm, vpos, p, two = x, rs.a, rs.a.Verts, rs.a.Verts[x], rs.twoB
	}
	s := n.Dot(p) - off
	if two && s < 0 {
		// A two-sided face: its side towards the vertex.
		n, off, s = n.Neg(), -off, -s
	}
	sep := s
	switch {
	case math.Abs(s) <= rs.margin:
		if !insidePoly(loop, fpos, n, p.AddScaled(-s, n), rs.margin) {
			return
		}
	case s > 0 && !two:
		return
	default:
		// Farther from the plane than the margin, behind a solid's face
		// or on either side of a two-sided one: a contact only where an
		// edge from the vertex pierces the face (to the face's front,
		// or to the other side of a two-sided face).
		pierced := false
		for _, e := range vm.VertexEdges(int(v)) {
			w := vpos[vm.Edges[e].Other(v)]
			sw := n.Dot(w) - off
			if two {
				sw = -sw
			}
			if sw <= 0 {
				continue
			}
			q := p.Lerp(w, s/(s-(n.Dot(w)-off)))
			if insidePoly(loop, fpos, n, q, rs.touch) {
				pierced = true
				break
			}
		}
		if !pierced {
			return
		}
		sep = -math.Abs(s)
	}
	if math.Abs(sep) <= rs.touch {
		sep = 0
	}
	// The normal from A to B: B's side of the face.
	nrm := n
	if k == contact.VertexFace {
		nrm = n.Neg()
	}
	c := Collision{Kind: k, Time: 0, Point: p, Normal: nrm, FeatureA: x, FeatureB: y, Separation: sep, Resting: true}
	c.Properness = vertexPropLocal(vm, vpos, v, n)
	rs.add(c)
}

// edgeEdge tests edge ea of A against edge eb of B: their closest points,
// inside both edges (contacts at an edge's end are vertex-face ones),
// within the margin.
func (rs *restState) edgeEdge(ea, eb int32) {
	if rs.seen(contact.EdgeEdge, ea, eb) {
		return
	}
	d := rs.d
	ga, gb := rs.a.Edges[ea], rs.b.Edges[eb]
	p0, p1 := rs.a.Verts[ga.V[0]], rs.a.Verts[ga.V[1]]
	q0, q1 := d.rpos[gb.V[0]], d.rpos[gb.V[1]]
	s, u, pa, pb := geom.ClosestSegmentPoints(p0, p1, q0, q1)
	if s <= endEps || s >= 1-endEps || u <= endEps || u >= 1-endEps {
		return
	}
	dist := pa.Dist(pb)
	if dist > rs.margin {
		return
	}
	da, db := p1.Sub(p0), q1.Sub(q0)
	n, ok := unit(da.Cross(db))
	if !ok {
		return // parallel edges: their contacts are vertex-face ones
	}
	// The sign of the normal: the one of larger properness (formula (7)).
	prop, n := eePropLocal(rs.a, rs.b, ga, gb, da, db, n, rs.a.Planes, d.rnrm)
	sep := pb.Sub(pa).Dot(n)
	if dist <= rs.touch {
		sep = 0
	}
	rs.add(Collision{Kind: contact.EdgeEdge, Time: 0, Point: pa.Add(pb).Scale(0.5), Normal: n, Properness: prop,
		FeatureA: ea, FeatureB: eb, Separation: sep, Resting: true})
}

// add converts a contact from A's frame to the world and records it.
func (rs *restState) add(c Collision) {
	c.Point = rs.pose.Apply(c.Point)
	c.Normal = rs.pose.ApplyDir(c.Normal)
	rs.d.rest = append(rs.d.rest, c)
}

// vertexPropLocal is vertexProperness for vertex v of mesh m at positions
// pos against a face with unit normal n.
func vertexPropLocal(m *mesh.Mesh, pos []geom.Vec3, v int32, n geom.Vec3) float64 {
	best := math.Inf(1)
	for _, e := range m.VertexEdges(int(v)) {
		if u, ok := unit(pos[m.Edges[e].Other(v)].Sub(pos[v])); ok {
			best = min(best, u.Dot(n))
		}
	}
	if math.IsInf(best, 1) {
		return 0
	}
	return best
}

// eePropLocal is propEE in A's frame at t = 0: formula (7) of Sec. 5 for
// the edges with directions da, db and unit normal n, maximized over the
// normal's sign; face normals na (A's planes) and nb (B's, in A's frame).
func eePropLocal(a, b *mesh.Mesh, ga, gb mesh.Edge, da, db, n geom.Vec3, pa []geom.Plane, nb []geom.Vec3) (float64, geom.Vec3) {
	ua, _ := unit(da)
	ub, _ := unit(db)
	var fa, fb [2]geom.Vec3
	var okA, okB [2]bool
	for k, f := range [2]int32{ga.Left, ga.Right} {
		if okA[k] = f >= 0; okA[k] {
			fa[k] = pa[f].N
		}
	}
	for k, f := range [2]int32{gb.Left, gb.Right} {
		if okB[k] = f >= 0; okB[k] {
			fb[k] = nb[f]
		}
	}
	return eeSides(n, ua, ub, fa, okA, fb, okB)
}
