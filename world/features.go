package world

import (
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshquery"
)

// features is a closed mesh prepared for FeatureContacts: its faces'
// triangles, its sharp edges with their two face normals, a box tree over
// its faces and the face each vertex and sharp edge belongs to, all in the
// mesh's own frame.
type features struct {
	m      *mesh.Mesh
	radius float64 // largest distance of a vertex from the origin
	box    geom.AABB
	// poly is the mesh's polytope when the mesh is convex: a pair of
	// convex bodies overlapping deeper than the feature passes see gets its
	// exact penetration from it (deepPair); tree is the mesh's
	// bounding-volume hierarchy, which gives any other pair the depths of
	// its penetrating vertices (nil for a mesh that is not closed).
	poly *convex.Polytope
	tree *meshquery.Tree
	// tris holds the triangles face by face: face f's are
	// tris[faceTri[f]:faceTri[f+1]].
	tris      []mesh.Tri
	faceTri   []int32
	faces     bvh
	faceBoxes []geom.AABB
	// The faces in the face tree's item order: the centroid of each
	// face's vertices, its unit normal, the largest distance of a vertex
	// from the centroid (rad) and from the face's plane (flat), rounded up
	// (facesApart).
	itemCen, itemN  []geom.Vec3
	itemRad, itemFl []float64
	edges           []sharpEdge
	edgeBoxes       []geom.AABB // box of edges[k]
	// vnorm[v] is the mean of the normals of the faces around vertex v: a
	// vertex only touches faces whose outward normal opposes it.
	vnorm []geom.Vec3
	// Each vertex (of a face) and each sharp edge belongs to one face, the
	// first face around the vertex and the edge's left face: the vertices
	// of face f are ownV[ownVAt[f]:ownVAt[f+1]], its edges (indices into
	// edges) ownE[ownEAt[f]:ownEAt[f+1]].
	ownVAt, ownV []int32
	ownEAt, ownE []int32
	// The reflex (concave) sharp edges around face f, indices into edges:
	// reflex[reflexAt[f]:reflexAt[f+1]]; each is listed under both its
	// faces.
	reflexAt, reflex []int32
	// The convex sharp edges around face f, the same way:
	// convex[convexAt[f]:convexAt[f+1]].
	convexAt, convex []int32
}

// sharpEdge is an edge whose two faces are not coplanar: only those can
// touch another body's edge.
type sharpEdge struct {
	index  int32 // edge index in the mesh
	a, b   int32 // vertices
	n1, n2 geom.Vec3
	len    float64 // length
	w      float64 // sign of (n1 x n2) . (b - a): which way the wedge turns
}

// flatCos is the cosine above which two faces are treated as coplanar.
const flatCos = 1 - 1e-9

func newFeatures(m *mesh.Mesh) *features {
	s := &features{m: m, box: m.Bounds()}
	if m.Convex() {
		if p, err := convex.New(m); err == nil {
			s.poly = p
		}
	}
	if t, err := meshquery.New(m); err == nil && t.Closed() {
		s.tree = t
	}
	for _, v := range m.Verts {
		s.radius = math.Max(s.radius, v.Norm())
	}
	tris := m.Triangles(nil)
	nf := m.NumFaces()
	keys := make([]int32, len(tris))
	for i, t := range tris {
		keys[i] = int32(t.Face)
	}
	var order []int32
	s.faceTri, order = byKey(keys, nf)
	s.tris = make([]mesh.Tri, len(tris))
	for j, i := range order {
		s.tris[j] = tris[i]
	}
	s.faceBoxes = make([]geom.AABB, nf)
	s.vnorm = make([]geom.Vec3, len(m.Verts))
	for f := 0; f < nf; f++ {
		b := geom.EmptyAABB()
		for _, v := range m.Face(f) {
			b = b.AddPoint(m.Verts[v])
			s.vnorm[v] = s.vnorm[v].Add(m.Planes[f].N)
		}
		s.faceBoxes[f] = b
	}
	s.faces = buildBVH(s.faceBoxes)
	s.itemCen, s.itemN = make([]geom.Vec3, nf), make([]geom.Vec3, nf)
	s.itemRad, s.itemFl = make([]float64, nf), make([]float64, nf)
	for k, f := range s.faces.items {
		fv := m.Face(int(f))
		var c geom.Vec3
		for _, v := range fv {
			c = c.Add(m.Verts[v])
		}
		c = c.Scale(1 / float64(len(fv)))
		pl := m.Planes[f]
		r, fl := 0.0, 0.0
		for _, v := range fv {
			r = math.Max(r, m.Verts[v].Sub(c).Norm())
			fl = math.Max(fl, math.Abs(pl.SignedDist(m.Verts[v])))
		}
		tol := 1e-9 * (r + c.MaxAbs())
		s.itemCen[k], s.itemN[k], s.itemRad[k], s.itemFl[k] = c, pl.N, r+tol, fl+math.Abs(pl.SignedDist(c))+tol
	}
	for v := range s.vnorm {
		if n, ok := s.vnorm[v].Normalize(); ok {
			s.vnorm[v] = n
		}
	}
	for i, e := range m.Edges {
		if e.Right < 0 || e.Left < 0 {
			continue
		}
		n1, n2 := m.Planes[e.Left].N, m.Planes[e.Right].N
		if n1.Dot(n2) > flatCos {
			continue
		}
		d := m.Verts[e.V[1]].Sub(m.Verts[e.V[0]])
		w := 1.0
		if n1.Cross(n2).Dot(d) < 0 {
			w = -1
		}
		s.edges = append(s.edges, sharpEdge{index: int32(i), a: e.V[0], b: e.V[1], n1: n1, n2: n2, len: d.Norm(), w: w})
		s.edgeBoxes = append(s.edgeBoxes, geom.AABBOf(m.Verts[e.V[0]], m.Verts[e.V[1]]))
	}
	owner := make([]int32, len(m.Verts))
	for i := range owner {
		owner[i] = -1
	}
	for f := 0; f < nf; f++ {
		for _, v := range m.Face(f) {
			if owner[v] < 0 {
				owner[v] = int32(f)
			}
		}
	}
	// Vertices of no face are not on the surface: they own no place.
	var vs []int32
	keys = keys[:0]
	for v, f := range owner {
		if f >= 0 {
			vs, keys = append(vs, int32(v)), append(keys, f)
		}
	}
	s.ownVAt, s.ownV = byFace(vs, keys, nf)
	keys = keys[:0]
	for _, e := range s.edges {
		keys = append(keys, m.Edges[e.index].Left)
	}
	s.ownEAt, s.ownE = byKey(keys, nf)
	// A sharp edge is reflex when its right face rises in front of its
	// left face's plane (its centroid, beyond rounding), else convex.
	var rk, rkeys, ck, ckeys []int32
	for k, e := range s.edges {
		me := m.Edges[e.index]
		var c geom.Vec3
		fv := m.Face(int(me.Right))
		for _, v := range fv {
			c = c.Add(m.Verts[v])
		}
		c = c.Scale(1 / float64(len(fv)))
		if m.Planes[me.Left].SignedDist(c) > 1e-9*e.len {
			rk, rkeys = append(rk, int32(k), int32(k)), append(rkeys, me.Left, me.Right)
		} else {
			ck, ckeys = append(ck, int32(k), int32(k)), append(ckeys, me.Left, me.Right)
		}
	}
	s.reflexAt, s.reflex = byFace(rk, rkeys, nf)
	s.convexAt, s.convex = byFace(ck, ckeys, nf)
	return s
}

// byFace groups items by their keys (faces, in [0, n)): the items of face
// f are list[start[f]:start[f+1]], in their order in items.
func byFace(items, keys []int32, n int) (start, list []int32) {
	start, order := byKey(keys, n)
	list = make([]int32, len(order))
	for j, i := range order {
		list[j] = items[i]
	}
	return start, list
}

// byKey groups the items 0, 1, ... by their keys (in [0, n)): the items of
// key k are order[start[k]:start[k+1]], in increasing order.
func byKey(keys []int32, n int) (start, order []int32) {
	start = make([]int32, n+1)
	for _, k := range keys {
		start[k+1]++
	}
	for k := 0; k < n; k++ {
		start[k+1] += start[k]
	}
	order = make([]int32, len(keys))
	next := append([]int32(nil), start[:n]...)
	for i, k := range keys {
		order[next[k]] = int32(i)
		next[k]++
	}
	return start, order
}

// inFace reports whether q, a point on face f's plane, lies in the face
// (closed, within a relative tolerance).
func (s *features) inFace(f int32, q geom.Vec3, n geom.Vec3) bool {
	for _, t := range s.tris[s.faceTri[f]:s.faceTri[f+1]] {
		a, b, c := s.m.Verts[t.V[0]], s.m.Verts[t.V[1]], s.m.Verts[t.V[2]]
		// Signed areas of the sub-triangles, along the face normal.
		ab, bc, ca := b.Sub(a), c.Sub(b), a.Sub(c)
		w0 := ab.Cross(q.Sub(a)).Dot(n)
		w1 := bc.Cross(q.Sub(b)).Dot(n)
		w2 := ca.Cross(q.Sub(c)).Dot(n)
		tol := -1e-9 * (ab.Norm2() + bc.Norm2() + ca.Norm2())
		if w0 >= tol && w1 >= tol && w2 >= tol {
			return true
		}
	}
	return false
}

// stepMotion is the step's motion of a pair of bodies, each at constant
// linear and angular velocity (the geom.LinearAngular model about its
// origin) from its start pose to its end pose, as FeatureContacts bounds it.
type stepMotion struct {
	pa, pb geom.Vec3 // origins at the start, world frame
	da, db geom.Vec3 // displacements of the origins over the step
	wa, wb geom.Vec3 // rotation vectors of the turns, world frame
	// whole bounds how far the step brings any point of one body towards
	// the other: the relative displacement of the origins plus each turn
	// times its body's radius.
	whole float64
}

func newStepMotion(a0, a1, b0, b1 geom.Pose, ra, rb float64) stepMotion {
	m := stepMotion{pa: a0.P, pb: b0.P}
	if a0 == a1 && b0 == b1 {
		return m
	}
	m.da, m.db = a1.P.Sub(a0.P), b1.P.Sub(b0.P)
	m.wa = a1.Q.Mul(a0.Q.Conj()).RotationVector()
	m.wb = b1.Q.Mul(b0.Q.Conj()).RotationVector()
	m.whole = m.db.Sub(m.da).Norm() + m.wa.Norm()*ra + m.wb.Norm()*rb
	return m
}

// reachBound is how far apart, at the start of the step, two features of a
// pair may be and still meet within the step (plus the pair's base margin),
// as a function of where they are. Take a point c fixed in both bodies at
// the start. Under the step's motion a point x of A, seen in B's frame,
// moves by
//
//	[exp(-t wB) exp(t wA) - I](x - c) + exp(-t wB)(cA(t) - cB(t))
//
// where cA(t) and cB(t) are where A's and B's motions take c. The first
// term is at most t |wA - wB| |x - c|: the angle between exp(t wA) and
// exp(t wB) is at most t |wA - wB| (SO(3) has non-negative curvature, so
// geodesics from the identity diverge no faster than in flat space; the
// hinge form of Toponogov's comparison theorem). The second is at most
// |uA(c) - uB(c)| + (|wA|² |c - pA| + |wB|² |c - pB|)/2, uA(c) = dA + wA x
// (c - pA) being the velocity of A's point at c (times the step); the
// squares bound how far the turns bend the points' paths. The same holds
// for B's points in A's frame. With c in the middle of the region where the
// bodies are near, the lever |x - c| is small and, for bodies moving
// together (linked tori swinging as a chain), so are |wA - wB| and
// uA(c) - uB(c), where the whole-body bound adds both turns times the radii.
type reachBound struct {
	base  float64   // the pair's margin without motion
	k     float64   // base plus the closing at c
	turn  float64   // |wA - wB|
	whole float64   // base plus stepMotion.whole: a bound for every point
	max   float64   // the bound for every feature near the other body
	c     geom.Vec3 // c in the frame of the body whose faces are tested
}

// at returns the bound for a feature at distance lever from c.
func (r *reachBound) at(lever float64) float64 {
	return math.Min(r.k+r.turn*lever, r.whole)
}

// bound sets r for the pair: region is the box, in B's frame, of A's
// vertices (in B's frame) and B's own box, meeting; cw is its centre in
// the world frame.
func (r *reachBound) bound(m *stepMotion, base float64, region geom.AABB, cw geom.Vec3) {
	r.base, r.whole = base, base+m.whole
	r.turn = m.wa.Sub(m.wb).Norm()
	ua := m.da.Add(m.wa.Cross(cw.Sub(m.pa)))
	ub := m.db.Add(m.wb.Cross(cw.Sub(m.pb)))
	bend := 0.5 * (m.wa.Norm2()*cw.Sub(m.pa).Norm() + m.wb.Norm2()*cw.Sub(m.pb).Norm())
	r.k = base + ua.Sub(ub).Norm() + bend
	r.max = r.whole
	// A feature at distance s from the other body at the start lies in
	// its own body's box and within s of the other's: within s of the
	// region (per axis, the overlap of the two boxes' ranges, or the gap
	// between them), so its lever is at most h + s for h the region's
	// half diagonal, and it can meet the other body only if s <= k +
	// turn (h + s).
	if h := region.HalfExtent().Norm(); r.turn < 1 {
		r.max = math.Min(r.max, (r.k+r.turn*h)/(1-r.turn))
	}
}

// meeting returns the box, per axis, of the overlap of a and b's ranges,
// or of the gap between them when they do not overlap.
func meeting(a, b geom.AABB) geom.AABB {
	lo, hi := a.Min.Max(b.Min), a.Max.Min(b.Max)
	return geom.AABB{Min: lo.Min(hi), Max: lo.Max(hi)}
}

// probe finds the contacts of one pair of bodies at their current poses:
// every vertex of one body within the margin in front of a face of the
// other (or slightly behind it), and every pair of sharp edges whose closest
// points are interior to both edges, whose common normal lies in both
// edges' normal wedges (the Gauss-map test of Gottschalk's separating-axis
// argument) and whose separation along that normal is within the margin.
// Together these give the corners of the contact region of two polyhedra,
// convex or not, resting on each other, and speculative contacts (positive
// separation) for bodies that may meet within the step. The margin of a
// feature pair is what the step's motion can close between them
// (reachBound) plus the pair's base margin.
type probe struct {
	moved []geom.Vec3    // the first body's vertices in the second's frame
	rel   geom.Transform // the first body's frame to the second's
	abox  geom.AABB      // their box
	// gap is, after pair, a distance the two surfaces are known to be
	// apart (no two faces' boxes came within it), or 0.
	gap float64
	rb  reachBound
	// The first body's face tree refitted in the second's frame: boxes of
	// its nodes and of its faces (in the tree's item order).
	fit, fitItem []geom.AABB
	// Its faces' centroids and normals in the second's frame, item order,
	// made when first needed in a search (fitAt[k] == stamp).
	fitCen, fitN []geom.Vec3
	fitAt        []uint32
	stamp        uint32
	edgeBox      []geom.AABB // the first body's sharp edges' boxes, made when first needed (edgeAt[k] == stamp)
	edgeAt       []uint32
	stack        [][2]int32
	// Candidates: vertices of the first body and faces of the second
	// (vf), vertices of the second and faces of the first (fv, vertex
	// first), edges of both (ee, indices into their edges), whose boxes
	// come within the pad of each other.
	vf, fv, ee [][2]int32
	// A list of candidates grouped by vertex: vertex v's are
	// byVert[start[v]:start[v+1]].
	start  []int32
	byVert [][2]int32
	// The faces of a slab that slabVertices tests.
	slabFaces []slabFace
	// slabCand: a vertex's candidate faces in slabVertices.
	slabCand [][2]int32
	// skipped is set by the vertex pass when the vertex is behind a face
	// it skipped as looking away from it.
	skipped bool
	// beyond: the faces the vertex pass found the vertex within reach in
	// front of, projecting outside them; a vertex in a sharp edge's
	// Voronoi region is so in front of one of the edge's faces at least
	// (nearEdge).
	beyond []int32
}

// pair appends the contacts between bodies a and b (normal from a to b)
// at poses ta and tb, whose step's motion is m.
//
// With a pair cache fc (nil for none), the candidates of a pair at rest
// are searched with a pad larger by cacheSlack and kept with the relative
// pose they were found at; while the first body's vertices have moved,
// relative to the second, by less than the pad to spare, the kept
// candidates are a superset of a fresh search's, in the same order, and
// the contacts from them are the same; reused reports that they served.
func (p *probe) pair(dst []contact.Contact, sa, sb *features, ta, tb geom.Transform, m *stepMotion, base, depthTol float64, fc *featCache) (out []contact.Contact, reused bool) {
	relA := tb.Inverse().Mul(ta) // a's frame to b's frame
	relB := ta.Inverse().Mul(tb)
	p.moved = place(p.moved[:0], sa.m.Verts, relA)
	p.rel = relA
	p.gap = 0
	if len(p.moved) == 0 || len(sb.m.Verts) == 0 {
		return dst, false
	}
	abox := geom.AABB{Min: p.moved[0], Max: p.moved[0]}
	for _, q := range p.moved {
		grow(&abox, q)
	}
	p.abox = abox
	region := meeting(abox, sb.box)
	cb := region.Center()
	p.rb.bound(m, base, region, tb.Apply(cb))
	// Every feature that may touch lies in both bodies' boxes grown by
	// the margin or the depth tolerance.
	pad := math.Max(p.rb.max, depthTol)
	if p.gap = pad; !near(&abox, &sb.box, pad) {
		return dst, false
	}
	if out, ok := p.slabPair(dst, sa, sb, relA, relB, ta, tb, cb, pad, depthTol); ok {
		return out, false
	}
	vf, fv, ee, reused := p.cachedCandidates(sa, sb, relA, pad, fc)
	p.rb.c = cb
	dst = p.vertices(dst, sa, sb, vf, relA, tb, depthTol, false)
	p.rb.c = relB.Apply(cb)
	dst = p.vertices(dst, sb, sa, fv, relB, ta, depthTol, true)
	p.rb.c = cb
	for _, ab := range ee {
		dst = p.edgePair(dst, sb, &sa.edges[ab[0]], &sb.edges[ab[1]], relA, tb, depthTol)
	}
	return dst, reused
}

// featCache is a pair's FeatureContacts state kept from step to step:
// the relative pose rel (the first body's frame to the second's) of its
// last search, and when kept is set, the candidates found then with pad.
type featCache struct {
	seen, kept bool
	still      int // searches in a row that found the pair within the slack of the last
	rel        geom.Transform
	pad        float64
	vf, fv, ee [][2]int32
}

// cacheSlack is the part of the pad by which a pair's kept candidates are
// searched wider than the step needs, so that they serve while the bodies
// move relative to each other by less than that.
const cacheSlack = 0.1

// cachedCandidates returns the candidates of the pair for pad at relative
// pose rel: fc's when they cover them, else a fresh search's. A point of
// the first body at x in its frame is at rel x in the second's; since the
// last search it has moved by |(R - Rc) x + t - tc| <= |R - Rc|_F |x| +
// |t - tc|, and every box test of the search (boxes of the first body's
// moved features against fixed ones of the second's, per axis) that passes
// at rel with pad passes at the kept pose with pad plus that. A pair whose
// bodies moved relative to each other by less than the slack between its
// last three searches (a pair at rest, or nearly) is searched with the
// slack and its candidates kept; the others, which would not reuse them,
// are searched with the pad alone.
func (p *probe) cachedCandidates(sa, sb *features, rel geom.Transform, pad float64, fc *featCache) (vf, fv, ee [][2]int32, reused bool) {
	slow := false
	if fc != nil && fc.seen {
		var f float64
		for i := range 3 {
			for j := range 3 {
				d := rel.R[i][j] - fc.rel.R[i][j]
				f += d * d
			}
		}
		moved := math.Sqrt(f)*sa.radius + rel.T.Sub(fc.rel.T).Norm()
		// Rounding of the moved vertices and of the bound itself.
		moved += 1e-12 * (sa.radius + rel.T.MaxAbs() + fc.rel.T.MaxAbs())
		if fc.kept && pad+moved <= fc.pad {
			return fc.vf, fc.fv, fc.ee, true
		}
		// Two searches in a row with little motion: a search at the end
		// of a step and the next step's at the same poses are not enough.
		if moved <= cacheSlack*pad {
			fc.still++
		} else {
			fc.still = 0
		}
		slow = fc.still >= 2
	}
	if !slow {
		p.search(sa, sb, pad)
		if fc != nil {
			fc.seen, fc.kept, fc.rel = true, false, rel
		}
		return p.vf, p.fv, p.ee, false
	}
	fc.kept, fc.rel, fc.pad = true, rel, pad*(1+cacheSlack)
	p.search(sa, sb, fc.pad)
	fc.vf = append(fc.vf[:0], p.vf...)
	fc.fv = append(fc.fv[:0], p.fv...)
	fc.ee = append(fc.ee[:0], p.ee...)
	return fc.vf, fc.fv, fc.ee, false
}

// search finds the candidates within pad of each other (p.vf, p.fv,
// p.ee) by the loop over a few faces where it applies (slabCandidates),
// else by the traversal of the face trees.
func (p *probe) search(sa, sb *features, pad float64) {
	if !p.slabCandidates(sa, sb, &p.abox, pad) {
		p.candidates(sa, sb, pad)
	}
}

// place appends the points vs moved by t to dst.
func place(dst, vs []geom.Vec3, t geom.Transform) []geom.Vec3 {
	for _, v := range vs {
		dst = append(dst, t.Apply(v))
	}
	return dst
}

// vertices adds the vertex-face contacts of sa's vertices on sb's faces,
// of the candidate pairs cand (vertex, face); rel takes sa's frame to sb's.
// With flip the contact is reported from sb to sa's point of view swapped:
// the caller's A is sb.
func (p *probe) vertices(dst []contact.Contact, sa, sb *features, cand [][2]int32, rel, tb geom.Transform, depthTol float64, flip bool) []contact.Contact {
	if len(cand) == 0 {
		return dst
	}
	p.group(cand, len(sa.m.Verts))
	for vi, v := range sa.m.Verts {
		faces := p.byVert[p.start[vi]:p.start[vi+1]]
		if len(faces) == 0 {
			continue
		}
		// had is the count of records before the vertex's.
		had := len(dst)
		p.beyond = p.beyond[:0]
		q := rel.Apply(v)
		vn := rel.ApplyDir(sa.vnorm[vi])
		lim := math.NaN() // the vertex's margin, when needed
		// Keep every face the vertex is in front of, and of the faces it is
		// behind only the nearest (the way out), so a thin plate's far face
		// never pushes a vertex through it; and none of those when the
		// vertex is nearer a face it is in front of (it is outside, just
		// over a plate thinner than the depth tolerance).
		bestNeg, bestSep := int32(-1), math.Inf(-1)
		front := math.Inf(1)
		var bestProj geom.Vec3
		p.skipped = false
		for _, vf := range faces {
			f := vf[1]
			pl := sb.m.Planes[f]
			sep := pl.SignedDist(q)
			if sep < depthTol && sep > -rimFrac*depthTol && sa.looksAway(int32(vi), pl.N, sep, vn, rel) {
				p.skipped = p.skipped || sep < 0
				continue // the face looks away from the vertex
			}
			if p.outOfReach(q, sep, depthTol, &lim) {
				continue
			}
			proj := q.AddScaled(-sep, pl.N)
			if !sb.inFace(f, proj, pl.N) {
				if sep >= 0 {
					p.beyond = append(p.beyond, f)
					if lim != lim {
						lim = p.rb.at(q.Sub(p.rb.c).Norm())
					}
					if sb.nearReflex(f, q, lim) {
						dst = appendVF(dst, tb, int32(vi), f, q, proj, pl.N, sep, flip)
					}
				}
				continue
			}
			if sep < 0 {
				if sep > bestSep {
					bestNeg, bestSep, bestProj = f, sep, proj
				}
				continue
			}
			front = math.Min(front, sep)
			dst = appendVF(dst, tb, int32(vi), f, q, proj, pl.N, sep, flip)
		}
		switch {
		case bestNeg >= 0 && -bestSep <= front && !sb.entered(faces, bestNeg, q, bestProj):
			dst = appendVF(dst, tb, int32(vi), bestNeg, q, bestProj, sb.m.Planes[bestNeg].N, bestSep, flip)
		case front < math.Inf(1):
			// Held by the faces it is in front of.
		case bestNeg < 0 && p.skipped:
			// Inside, behind only faces that look away (a corner poking
			// over the other body's rim from beside it): nothing else
			// holds it, and the nearest of those is its way out.
			var held bool
			if dst, held = sa.sideRecord(dst, sb, faces, int32(vi), q, vn, rel, tb, depthTol, flip); held {
				break
			}
			fallthrough
		default:
			dst = p.underReflex(dst, sb, faces, int32(vi), q, tb, depthTol, flip)
		}
		if len(p.beyond) > 0 && len(dst) == had {
			dst = p.nearEdge(dst, sa, sb, int32(vi), q, &lim, rel, tb, flip)
		}
	}
	return dst
}

// outOfReach reports whether a vertex at q, sep in front of a face (in
// the face's body's frame), is farther in front than the pair's margin for
// it or deeper behind than depthTol; lim holds the vertex's margin, NaN
// until it is needed.
func (p *probe) outOfReach(q geom.Vec3, sep, depthTol float64, lim *float64) bool {
	if sep > p.rb.k {
		if *lim != *lim {
			*lim = p.rb.at(q.Sub(p.rb.c).Norm())
		}
		if sep > *lim {
			return true
		}
	}
	return sep < -depthTol
}

// looksAway reports whether a face of normal n (in the other body's
// frame), sep from vertex v of s (mean normal vn there), looks away from
// the vertex: the normals more than the facing angle apart and, with the
// vertex behind the face, an edge from it going behind the face (the rim
// case the rule is for). The caller checks that sep is within the rim band.
func (s *features) looksAway(v int32, n geom.Vec3, sep float64, vn geom.Vec3, rel geom.Transform) bool {
	return n.Dot(vn) > facingCos && (sep >= 0 || s.reachesBehind(v, rel.ApplyDirInv(n)))
}

// sideRecord appends the record of vertex v of s at q (sb's frame), inside
// sb behind only faces the vertex pass skipped as looking away from it:
// the nearest of those is its way out, when the vertex projects into it
// and is not outside sb by another face (entered). It reports whether it
// appended one.
func (s *features) sideRecord(dst []contact.Contact, sb *features, faces [][2]int32, v int32, q, vn geom.Vec3, rel, tb geom.Transform, depthTol float64, flip bool) ([]contact.Contact, bool) {
	side, sep := s.sideFace(sb, faces, v, q, vn, rel, depthTol)
	n := sb.m.Planes[side].N
	if proj := q.AddScaled(-sep, n); sb.inFace(side, proj, n) && !sb.entered(faces, side, q, proj) {
		return appendVF(dst, tb, v, side, q, proj, n, sep, flip), true
	}
	return dst, false
}

// sideFace returns the nearest of faces (candidates (vertex, face) of
// vertex v of s, at q in sb's frame, vn its mean normal there) that the
// vertex pass skipped as looking away from the vertex with the vertex
// behind it, and the vertex's separation from it; the pass saw one.
func (s *features) sideFace(sb *features, faces [][2]int32, v int32, q, vn geom.Vec3, rel geom.Transform, depthTol float64) (int32, float64) {
	side, sideSep := int32(-1), math.Inf(-1)
	for _, vf := range faces {
		pl := sb.m.Planes[vf[1]]
		sep := pl.SignedDist(q)
		if sep < 0 && sep > sideSep && sep > -rimFrac*depthTol && s.looksAway(v, pl.N, sep, vn, rel) {
			side, sideSep = vf[1], sep
		}
	}
	return side, sideSep
}

// entered reports whether the segment from q, behind face f, to its
// projection proj on f crosses another face of faces (candidates of q,
// (vertex, face)) from its front: q is then outside the body, which the
// segment enters through that face, and f is not its way out. A vertex
// just past a sharp edge (the faces' normals more than 90 degrees apart)
// is in front of one face and behind the plane of the other, onto which
// it can project; when its margin is too small for the face it is in
// front of to count, nothing else tells it from a vertex inside. A vertex
// inside at depth d, nearest to f's interior, has no face within d of it,
// so its segment crosses none. Every face the segment meets is within d
// of q, inside the depth tolerance: among the vertex's candidates.
func (s *features) entered(faces [][2]int32, f int32, q, proj geom.Vec3) bool {
	dir := proj.Sub(q)
	for _, vf := range faces {
		g := vf[1]
		if g == f {
			continue
		}
		pl := s.m.Planes[g]
		sg := pl.SignedDist(q)
		if sg <= 0 {
			continue
		}
		// Along q + t dir, t in [0, 1], the distance to g's plane is
		// sg + t dir·n: it crosses g's plane before proj when negative at
		// proj.
		dn := dir.Dot(pl.N)
		if sg+dn >= 0 {
			continue
		}
		x := q.AddScaled(sg/-dn, dir)
		if s.inFace(g, x.AddScaled(-pl.SignedDist(x), pl.N), pl.N) {
			return true
		}
	}
	return false
}

// nearReflex reports whether q (in front of face f's plane, projecting
// outside f) lies within lim of a reflex edge of f. Outside the body near
// a reflex (concave) edge is in front of both its faces' planes, and the
// other face rises in front of f's plane: f's plane holds a vertex over
// the other face near the edge. A vertex sliding over that face towards
// the edge (one torus's tube over the inside of another's hole) reaches
// f's plane as it crosses the edge; the contact with f, speculative until
// then, is what stops it there, where the contact with the face under it
// (whose plane goes on into f's side of the body) does not.
func (s *features) nearReflex(f int32, q geom.Vec3, lim float64) bool {
	for _, k := range s.reflex[s.reflexAt[f]:s.reflexAt[f+1]] {
		e := &s.edges[k]
		a, b := s.m.Verts[e.a], s.m.Verts[e.b]
		ab := b.Sub(a)
		t := math.Max(0, math.Min(1, q.Sub(a).Dot(ab)/ab.Norm2()))
		if q.Sub(a.AddScaled(t, ab)).Norm2() <= lim*lim {
			return true
		}
	}
	return false
}

// underReflex appends the contact of vertex v at q (sb's frame), which no
// face near it holds, with the nearest reflex edge of those faces it lies
// under: behind both faces of the edge, within depthTol of an interior
// point of it. Such a vertex (a corner pushed into the groove where a
// car's bonnet meets its windscreen) projects onto neither face and is no
// sharp edge's end, so neither the vertex-face nor the edge-edge pass sees
// it; its way out is straight to the edge. The normal is from the vertex's
// body to sb's (flipped with flip, as appendVF).
func (p *probe) underReflex(dst []contact.Contact, sb *features, faces [][2]int32, v int32, q geom.Vec3, tb geom.Transform, depthTol float64, flip bool) []contact.Contact {
	best, bestD := int32(-1), depthTol
	var bestC geom.Vec3
	for _, vf := range faces {
		f := vf[1]
		for _, k := range sb.reflex[sb.reflexAt[f]:sb.reflexAt[f+1]] {
			e := &sb.edges[k]
			a, b := sb.m.Verts[e.a], sb.m.Verts[e.b]
			ab := b.Sub(a)
			t := q.Sub(a).Dot(ab) / ab.Norm2()
			if !(t > 0 && t < 1) {
				continue
			}
			c := a.AddScaled(t, ab)
			d := q.Sub(c).Norm()
			if d >= bestD || d == 0 {
				continue
			}
			me := &sb.m.Edges[e.index]
			if sb.m.Planes[me.Left].SignedDist(q) >= 0 || sb.m.Planes[me.Right].SignedDist(q) >= 0 {
				continue
			}
			best, bestD, bestC = sb.edges[k].index, d, c
		}
	}
	if best < 0 {
		return dst
	}
	return appendVE(dst, tb, v, best, q, bestC, bestC.Sub(q).Scale(1/bestD), -bestD, flip)
}

// nearEdge appends the speculative contact of vertex v at q (sb's frame),
// which produced no record with its candidate faces, with the nearest
// convex sharp edge of the faces it is beyond (p.beyond) whose Voronoi
// region holds it: its closest point c is interior to the edge, the
// direction from c to q lies in the edge's normal wedge, between its two
// faces' normals, and |q - c| is within the vertex's margin (*lim, NaN
// until computed). A corner driven into the edge of another body head on
// (a spinning car's edge swept into another car's corner) projects onto
// neither face of the edge, and the edges from the corner all point away
// from the other body, so neither the vertex-face nor the edge-edge pass
// sees it until the corner is deep inside. A vertex with an edge heading
// for the edge (reachesBehind) is left to the edge-edge pass. The normal
// is from the vertex's body to sb's (flipped with flip, as appendVF).
func (p *probe) nearEdge(dst []contact.Contact, sa, sb *features, v int32, q geom.Vec3, lim *float64, rel, tb geom.Transform, flip bool) []contact.Contact {
	if *lim != *lim {
		*lim = p.rb.at(q.Sub(p.rb.c).Norm())
	}
	best, bestD := int32(-1), *lim
	var bestC geom.Vec3
	for _, f := range p.beyond {
		for _, k := range sb.convex[sb.convexAt[f]:sb.convexAt[f+1]] {
			e := &sb.edges[k]
			a, b := sb.m.Verts[e.a], sb.m.Verts[e.b]
			ab := b.Sub(a)
			t := q.Sub(a).Dot(ab) / (e.len * e.len)
			if !(t > 0 && t < 1) {
				continue
			}
			c := a.AddScaled(t, ab)
			d := q.Sub(c)
			dd := d.Norm2()
			if dd >= bestD*bestD || dd == 0 || !inWedge(d, e.n1, e.n2, ab, e.len*math.Sqrt(dd), e.w) {
				continue
			}
			best, bestD, bestC = e.index, math.Sqrt(dd), c
		}
	}
	if best < 0 {
		return dst
	}
	n := q.Sub(bestC).Scale(1 / bestD)
	if sa.reachesBehind(v, rel.ApplyDirInv(n)) {
		return dst // an edge from the vertex heads for the edge: the edge-edge pass sees it
	}
	return appendVE(dst, tb, v, best, q, bestC, n, bestD, flip)
}

// appendVE appends the contact of vertex v at q with edge e at its point
// c, n the edge's body's outward unit normal there (q, c and n in the
// edge's body's frame, which tb places in the world), at separation sep:
// the normal from the vertex's body to the edge's (with flip, the record
// seen from the edge's body).
func appendVE(dst []contact.Contact, tb geom.Transform, v, e int32, q, c, n geom.Vec3, sep float64, flip bool) []contact.Contact {
	r := contact.Contact{
		Status:     statusOf(sep),
		Point:      tb.Apply(q.Add(c).Scale(0.5)),
		Normal:     tb.ApplyDir(n).Neg(),
		Separation: sep,
		FeatureA:   contact.V(v),
		FeatureB:   contact.E(e),
	}
	if flip {
		r = r.Flip()
	}
	return append(dst, r)
}

func appendVF(dst []contact.Contact, tb geom.Transform, v, f int32, q, proj, n geom.Vec3, sep float64, flip bool) []contact.Contact {
	return appendVFAt(dst, &tb, v, f, q, proj, tb.ApplyDir(n), sep, flip)
}

func statusOf(sep float64) contact.Status {
	switch {
	case sep > 0:
		return contact.Near
	case sep < 0:
		return contact.Penetrating
	}
	return contact.Touching
}

// candidates sets p.vf, p.fv and p.ee to the candidate feature pairs of
// bodies sa (its vertices in sb's frame at p.moved) and sb: a traversal of
// both face trees, sa's refitted around its faces in sb's frame, visits
// only the places where the two bodies come within pad of each other; at
// each pair of near faces, the vertices and edges each face owns are
// matched with the other face and its edges.
func (p *probe) candidates(sa, sb *features, pad float64) {
	p.vf, p.fv, p.ee = p.vf[:0], p.fv[:0], p.ee[:0]
	ta, tb := &sa.faces, &sb.faces
	if len(ta.nodes) == 0 || len(tb.nodes) == 0 {
		return
	}
	for k, f := range ta.items {
		vs := sa.m.Face(int(f))
		b := geom.AABB{Min: p.moved[vs[0]], Max: p.moved[vs[0]]}
		for _, v := range vs[1:] {
			grow(&b, p.moved[v])
		}
		p.fitItem = append(p.fitItem[:k], b)
	}
	if n := len(ta.items); len(p.fitAt) < n {
		p.fitCen, p.fitN, p.fitAt = make([]geom.Vec3, n), make([]geom.Vec3, n), make([]uint32, n)
	}
	if n := len(sa.edges); len(p.edgeAt) < n {
		p.edgeBox, p.edgeAt = make([]geom.AABB, n), make([]uint32, n)
	}
	if p.stamp++; p.stamp == 0 {
		clear(p.fitAt)
		clear(p.edgeAt)
		p.stamp = 1
	}
	p.fit = slices.Grow(p.fit[:0], len(ta.nodes))[:len(ta.nodes)]
	// Children come after their parent.
	for i := len(ta.nodes) - 1; i >= 0; i-- {
		n := &ta.nodes[i]
		if n.left >= 0 {
			b := p.fit[n.left]
			grow(&b, p.fit[n.right].Min)
			grow(&b, p.fit[n.right].Max)
			p.fit[i] = b
			continue
		}
		b := p.fitItem[n.start]
		for k := n.start + 1; k < n.end; k++ {
			grow(&b, p.fitItem[k].Min)
			grow(&b, p.fitItem[k].Max)
		}
		p.fit[i] = b
	}
	stack := append(p.stack[:0], [2]int32{0, 0})
	for len(stack) > 0 {
		ij := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		i, j := ij[0], ij[1]
		ba, nb := &p.fit[i], &tb.nodes[j]
		if !near(ba, &nb.box, pad) {
			continue
		}
		na := &ta.nodes[i]
		switch {
		case na.left < 0 && nb.left < 0:
			for ka := na.start; ka < na.end; ka++ {
				for kb := nb.start; kb < nb.end; kb++ {
					if near(&p.fitItem[ka], &tb.boxes[kb], pad) && !p.facesApart(sa, sb, ka, kb, pad) {
						p.gap = 0
						p.facePair(sa, sb, ta.items[ka], tb.items[kb], &p.fitItem[ka], &tb.boxes[kb], pad)
					}
				}
			}
		case nb.left < 0:
			stack = append(stack, [2]int32{na.left, j}, [2]int32{na.right, j})
		case na.left < 0:
			stack = append(stack, [2]int32{i, nb.left}, [2]int32{i, nb.right})
		default:
			// Both split: the four pairs of children whose boxes come near.
			for _, ci := range [2]int32{na.left, na.right} {
				for _, cj := range [2]int32{nb.left, nb.right} {
					if near(&p.fit[ci], &tb.nodes[cj].box, pad) {
						stack = append(stack, [2]int32{ci, cj})
					}
				}
			}
		}
	}
	p.stack = stack
}

// facePair adds the candidates of faces fa of sa and fb of sb, whose boxes
// in sb's frame are ba and bb.
func (p *probe) facePair(sa, sb *features, fa, fb int32, ba, bb *geom.AABB, pad float64) {
	for _, v := range sa.ownV[sa.ownVAt[fa]:sa.ownVAt[fa+1]] {
		if q := p.moved[v]; near(&geom.AABB{Min: q, Max: q}, bb, pad) {
			p.vf = append(p.vf, [2]int32{v, fb})
		}
	}
	for _, v := range sb.ownV[sb.ownVAt[fb]:sb.ownVAt[fb+1]] {
		if q := sb.m.Verts[v]; near(&geom.AABB{Min: q, Max: q}, ba, pad) {
			p.fv = append(p.fv, [2]int32{v, fa})
		}
	}
	eb := sb.ownE[sb.ownEAt[fb]:sb.ownEAt[fb+1]]
	if len(eb) == 0 {
		return
	}
	for _, ea := range sa.ownE[sa.ownEAt[fa]:sa.ownEAt[fa+1]] {
		box := &p.edgeBox[ea]
		if p.edgeAt[ea] != p.stamp {
			e := &sa.edges[ea]
			*box = geom.AABB{Min: p.moved[e.a], Max: p.moved[e.a]}
			grow(box, p.moved[e.b])
			p.edgeAt[ea] = p.stamp
		}
		for _, k := range eb {
			if near(box, &sb.edgeBoxes[k], pad) {
				p.ee = append(p.ee, [2]int32{ea, k})
			}
		}
	}
}

// facesApart reports whether the faces of items ka of sa (placed in sb's
// frame) and kb of sb lie farther than pad apart by their planes: the
// points of a face lie within rad of its centroid in its plane (within
// flat), so their distances from another plane, whose normal makes an
// angle θ with the face's, lie within rad sin θ + flat of the centroid's;
// when that range is farther than pad from the other plane (beyond its own
// flatness) on one side, every point of one face is farther than pad from
// the other face. Then none of the pair's candidates gives a contact: a
// vertex-face, edge-edge or reflex-edge contact is never farther apart
// than the pad. Boxes of the curved faces of two linked tori meet in many
// places where the faces, nearly parallel there, do not.
func (p *probe) facesApart(sa, sb *features, ka, kb int32, pad float64) bool {
	if p.fitAt[ka] != p.stamp {
		p.fitCen[ka], p.fitN[ka], p.fitAt[ka] = p.rel.Apply(sa.itemCen[ka]), p.rel.ApplyDir(sa.itemN[ka]), p.stamp
	}
	na, nb := p.fitN[ka], sb.itemN[kb]
	cos := na.Dot(nb)
	sin2 := max(0, 1-cos*cos) * (1 + 1e-9)
	ca, cb := p.fitCen[ka], sb.itemCen[kb]
	d := cb.Sub(ca)
	t := pad + sa.itemFl[ka] + sb.itemFl[kb]
	// A's face from B's plane, then B's face from A's plane.
	if e := math.Abs(d.Dot(nb)) - t; e > 0 && e*e > sa.itemRad[ka]*sa.itemRad[ka]*sin2 {
		return true
	}
	e := math.Abs(d.Dot(na)) - t
	return e > 0 && e*e > sb.itemRad[kb]*sb.itemRad[kb]*sin2
}

// group sorts the candidates cand by vertex (of n) into p.byVert and
// p.start, keeping the order of each vertex's candidates.
func (p *probe) group(cand [][2]int32, n int) {
	p.start = slices.Grow(p.start[:0], n+1)[:n+1]
	clear(p.start)
	for _, vf := range cand {
		p.start[vf[0]+1]++
	}
	for i := 0; i < n; i++ {
		p.start[i+1] += p.start[i]
	}
	p.byVert = slices.Grow(p.byVert[:0], len(cand))[:len(cand)]
	for _, vf := range cand {
		k := &p.start[vf[0]]
		p.byVert[*k] = vf
		*k++
	}
	// Each start has moved to the next vertex's: shift back.
	copy(p.start[1:], p.start[:n])
	p.start[0] = 0
}

// grow adds point q to box b.
func grow(b *geom.AABB, q geom.Vec3) {
	if q.X < b.Min.X {
		b.Min.X = q.X
	} else if q.X > b.Max.X {
		b.Max.X = q.X
	}
	if q.Y < b.Min.Y {
		b.Min.Y = q.Y
	} else if q.Y > b.Max.Y {
		b.Max.Y = q.Y
	}
	if q.Z < b.Min.Z {
		b.Min.Z = q.Z
	} else if q.Z > b.Max.Z {
		b.Max.Z = q.Z
	}
}

// near reports whether boxes a and b come within pad of each other along
// every axis.
func near(a, b *geom.AABB, pad float64) bool {
	return a.Min.X-pad <= b.Max.X && b.Min.X-pad <= a.Max.X &&
		a.Min.Y-pad <= b.Max.Y && b.Min.Y-pad <= a.Max.Y &&
		a.Min.Z-pad <= b.Max.Z && b.Min.Z-pad <= a.Max.Z
}

// lo and hi are min and max of finite numbers, without the handling of NaN
// and signed zeros that makes the built-in ones slower.
func lo(a, b float64) float64 {
	if b < a {
		return b
	}
	return a
}

func hi(a, b float64) float64 {
	if b > a {
		return b
	}
	return a
}

// edgePair adds the contact of edges ea of sa (its vertices at p.moved, in
// sb's frame) and eb of sb, if they have one.
func (p *probe) edgePair(dst []contact.Contact, sb *features, ea, eb *sharpEdge, rel, tb geom.Transform, depthTol float64) []contact.Contact {
	a0, a1 := p.moved[ea.a], p.moved[ea.b]
	b0, b1 := sb.m.Verts[eb.a], sb.m.Verts[eb.b]
	da, db, r := a1.Sub(a0), b1.Sub(b0), a0.Sub(b0)
	// The closest points of the two lines, a0 + s da and b0 + u db, with
	// s = sn/den and u = un/den, must be interior to both edges: most
	// candidates end here, before any square root.
	a, b, e := da.Norm2(), da.Dot(db), db.Norm2()
	c, f := da.Dot(r), db.Dot(r)
	den := a*e - b*b // |da x db|²
	if den <= 1e-18*a*e {
		return dst // parallel edges: the vertex-face contacts cover them
	}
	sn, un := b*f-c*e, a*f-b*c
	if sn <= 0 || sn >= den || un <= 0 || un >= den {
		return dst
	}
	n := da.Cross(db)
	// The lines farther apart than both bounds of the test below.
	if dn, pad := r.Dot(n), math.Max(p.rb.max, depthTol); dn*dn > 4*pad*pad*den {
		return dst
	}
	nn := math.Sqrt(den)
	n = n.Scale(1 / nn)
	if n.Dot(eb.n1.Add(eb.n2)) < 0 {
		n = n.Neg()
	}
	// The edge's margin: the distance between two segments changes by at
	// most the largest displacement of their points, at an end.
	lim := p.rb.at(math.Sqrt(math.Max(a0.Sub(p.rb.c).Norm2(), a1.Sub(p.rb.c).Norm2())))
	// The lines' distance along n: the separation when the closest points
	// are interior to both edges.
	if d := a0.Sub(b0).Dot(n); d > 2*lim || d < -2*depthTol {
		return dst
	}
	na1, na2 := rel.ApplyDir(ea.n1), rel.ApplyDir(ea.n2)
	// An edge lying on a face of the other body (the corner of a face-face
	// contact) has a common normal that wobbles about the face normal:
	// take the face normal itself.
	switch {
	case n.Dot(eb.n1) > cosSnap:
		n = eb.n1
	case n.Dot(eb.n2) > cosSnap:
		n = eb.n2
	case -n.Dot(na1) > cosSnap:
		n = na1.Neg()
	case -n.Dot(na2) > cosSnap:
		n = na2.Neg()
	}
	// n must be an outward normal of b at its edge and -n one of a at its
	// edge.
	if !inWedge(n, eb.n1, eb.n2, db, eb.len, eb.w) || !inWedge(n.Neg(), na1, na2, da, ea.len, ea.w) {
		return dst
	}
	pa, pb := a0.AddScaled(sn/den, da), b0.AddScaled(un/den, db)
	sep := pa.Sub(pb).Dot(n)
	if sep > lim || sep < -depthTol {
		return dst
	}
	return append(dst, contact.Contact{
		Status:     statusOf(sep),
		Point:      tb.Apply(pa.Add(pb).Scale(0.5)),
		Normal:     tb.ApplyDir(n).Neg(),
		Separation: sep,
		FeatureA:   contact.E(ea.index),
		FeatureB:   contact.E(eb.index),
	})
}

// reachesBehind reports whether an edge from vertex v goes behind a plane
// through v of normal n (s's frame) by more than besideSin of its length:
// the body reaches behind the plane from v, so v is not its point nearest
// a face of that normal. A vertex on a face's rim, its body beside the
// face (two boxes stacked flush, the upper one's corner on the lower one's
// side face), has such an edge; the sharp tip of a long polytope pressed
// into a face has none, though the mean of its faces' normals, most of
// them looking sideways, can be within 60 degrees of the face's normal.
func (s *features) reachesBehind(v int32, n geom.Vec3) bool {
	m := s.m
	p := m.Verts[v]
	for _, e := range m.VertEdges[m.VertStart[v]:m.VertStart[v+1]] {
		u := m.Edges[e].V[0]
		if u == v {
			u = m.Edges[e].V[1]
		}
		d := m.Verts[u].Sub(p)
		if t := d.Dot(n); t < 0 && t*t > besideSin*besideSin*d.Norm2() {
			return true
		}
	}
	return false
}

// besideSin is the sine of the angle by which an edge must go behind a
// plane for reachesBehind.
const besideSin = 0.1

// facingCos: a vertex is tested against a face unless the face's normal is
// within 60 degrees of the vertex's mean normal (then the vertex lies on the
// face's rim, seen from the side, as where two equal boxes are stacked
// flush, and the face beside it is not the one it rests on).
const facingCos = 0.5

// rimFrac: a vertex deeper behind a face than this fraction of the depth
// tolerance (1% of the smaller bounding radius) is matched with it even if
// the face looks away from the vertex: it has passed the rim and gone in
// through the side, and that face may be its only way out.
const rimFrac = 0.1

// cosSnap is the cosine of the angle within which an edge-edge normal is
// replaced by a face normal.
const cosSnap = 0.995

// inWedge reports whether n, projected on the plane perpendicular to the edge
// vector e (of length elen), lies between the edge's face normals n1 and n2
// (within the snapping angle); w is the sign of (n1 x n2) . e.
func inWedge(n, n1, n2, e geom.Vec3, elen, w float64) bool {
	// (n1 x n) . e is |e| |n projected| times the sine of the angle from n1
	// to n about e: the part of n along e drops out.
	a := n1.Cross(n).Dot(e)
	b := n.Cross(n2).Dot(e)
	const tol = 0.1 // sine of the snapping angle, rounded up
	t := tol * elen
	if w >= 0 {
		return a >= -t && b >= -t
	}
	return a <= t && b <= t
}
