package toc

import (
	"fmt"
	"math"
	"sort"
	"sync"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshquery"
)

// Soup is a polygon soup: triangles with no required connectivity (open,
// non-manifold, inconsistently oriented surfaces are all fine), indexed by
// a bounding-volume hierarchy of axis-aligned boxes for the oriented-box and
// segment queries of Algorithms 2 and 3. Build it with NewSoup or SoupOf;
// it is read-only afterwards and safe for concurrent queries.
type Soup struct {
	tris  []tri   // in BVH order
	nodes []node  // nodes[0] is the root
	pos   []int32 // pos[id] is the BVH position of triangle id
	verts []geom.Vec3
	// faces[id] is the face of triangle id (the mesh face for SoupOf,
	// id itself for NewSoup).
	faces []int32
	// edges are the surface's edges (vertex index pairs) in the soup's edge
	// numbering (see Edges).
	edges [][2]int32
	// wings[wstart[e]:wstart[e+1]] are the vertices opposite edge e in the
	// triangles that have it as a side (one for an open boundary, two for
	// a manifold surface, more where it is not manifold): with the edge's
	// ends they span its local geometry, which a contact normal at the
	// edge must keep on one side.
	wstart []int32
	wings  []int32
	// around[astart[v]:astart[v+1]] are the vertices joined to vertex v by
	// an edge or a triangle: with v they span its local geometry.
	astart []int32
	around []int32
	// etree is a BVH over the edges: its items are the edges as degenerate
	// triangles (a, b, b) whose id is the edge number.
	etree *Soup
	// bounding sphere of the vertices
	center geom.Vec3
	radius float64
	bounds geom.AABB
	scale  float64 // radius + |centre|_1, the coordinate scale for rounding guards
	// tidx are the triangles as vertex index triples (input order), from
	// which mq, meshquery's tree of the soup for the discrete distance
	// tests of certify, is built on first use.
	tidx   [][3]int32
	mqOnce sync.Once
	mq     *meshquery.Tree
	mqErr  error
}

// tri is a triangle with its unit normal (counter-clockwise a, b, c), its
// index in the caller's list and the edge numbers of its sides a-b, b-c and
// c-a (-1 for a diagonal of a polygon face, which is no edge of the
// surface).
type tri struct {
	a, b, c, n geom.Vec3
	id         int32
	e          [3]int32
}

// node of the BVH: a box and either two children (left, left+1) or a leaf
// range of triangles.
type node struct {
	min, max     geom.Vec3
	c, h         geom.Vec3 // centre and half extents of the box
	left         int32     // index of the first child, or -1 for a leaf
	start, count int32
}

const leafSize = 4

// NewSoup builds a soup from vertex positions and triangles (vertex index
// triples). Triangle i keeps id i in query results. It returns an error
// naming the vertex or triangle when a coordinate is not finite or above
// geom.MaxCoord in magnitude, an index
// is out of range, or a triangle has zero area. Vertices not used by any
// triangle are kept: they are sample points of the body (Algorithm 1).
func NewSoup(verts []geom.Vec3, tris [][3]int32) (*Soup, error) {
	return newSoup(verts, tris, nil, nil)
}

// newSoup builds a soup; faces (per triangle) and edges (a mesh's edge
// list) are optional: without them triangle i is face i and the edges are
// numbered in order of first appearance.
func newSoup(verts []geom.Vec3, tris [][3]int32, faces []int32, edges [][2]int32) (*Soup, error) {
	if len(tris) == 0 {
		return nil, fmt.Errorf("toc: soup has no triangles")
	}
	if len(tris) > math.MaxInt32/2 {
		return nil, fmt.Errorf("toc: soup has too many triangles (%d)", len(tris))
	}
	s := &Soup{verts: append([]geom.Vec3(nil), verts...), bounds: geom.EmptyAABB()}
	for i, v := range verts {
		if !v.IsFinite() || v.MaxAbs() > geom.MaxCoord {
			return nil, fmt.Errorf("toc: vertex %d: coordinate is not finite or above geom.MaxCoord (%g) in magnitude: %v", i, geom.MaxCoord, v)
		}
		s.bounds = s.bounds.AddPoint(v)
	}
	s.tris = make([]tri, len(tris))
	s.tidx = append([][3]int32(nil), tris...)
	for i, t := range tris {
		for k, vi := range t {
			if vi < 0 || int(vi) >= len(verts) {
				return nil, fmt.Errorf("toc: triangle %d: vertex %d is index %d, out of range [0, %d)", i, k, vi, len(verts))
			}
		}
		a, b, c := verts[t[0]], verts[t[1]], verts[t[2]]
		n, ok := b.Sub(a).Cross(c.Sub(a)).Normalize()
		if !ok {
			return nil, fmt.Errorf("toc: triangle %d (vertices %d, %d, %d) has zero area", i, t[0], t[1], t[2])
		}
		s.tris[i] = tri{a: a, b: b, c: c, n: n, id: int32(i)}
	}
	if err := s.numberEdges(tris, faces, edges); err != nil {
		return nil, err
	}
	s.center = s.bounds.Center()
	for _, v := range verts {
		s.radius = math.Max(s.radius, v.Dist(s.center))
	}
	s.scale = s.radius + math.Abs(s.center.X) + math.Abs(s.center.Y) + math.Abs(s.center.Z)
	s.build()
	s.etree = &Soup{tris: make([]tri, len(s.edges))}
	for i, e := range s.edges {
		a, b := s.verts[e[0]], s.verts[e[1]]
		s.etree.tris[i] = tri{a: a, b: b, c: b, id: int32(i)}
	}
	if len(s.edges) > 0 {
		s.etree.build()
	}
	s.pos = make([]int32, len(s.tris))
	for i := range s.tris {
		s.pos[s.tris[i].id] = int32(i)
	}
	return s, nil
}

// SoupOf returns the soup of a mesh's triangulation (mesh.Triangles);
// triangle ids are indices into that triangulation.
//
// Features of contacts (Contact.FeatureA, FeatureB) are in the mesh's own
// numbering: faces are mesh faces, edges are m.Edges, vertices m.Verts.
func SoupOf(m *mesh.Mesh) (*Soup, error) {
	ts := m.Triangles(nil)
	idx := make([][3]int32, len(ts))
	faces := make([]int32, len(ts))
	for i, t := range ts {
		idx[i], faces[i] = t.V, t.Face
	}
	edges := make([][2]int32, len(m.Edges))
	for i, e := range m.Edges {
		edges[i] = e.V
	}
	return newSoup(m.Verts, idx, faces, edges)
}

// numberEdges fills in s.faces, s.edges and the triangles' edge numbers
// (triangles still in input order).
func (s *Soup) numberEdges(tris [][3]int32, faces []int32, edges [][2]int32) error {
	// Without a mesh's edge list, sides are identified by their end
	// positions, so that a soup storing every triangle with its own
	// vertices has each edge once.
	key := func(u, v int32) [2]geom.Vec3 {
		a, b := s.verts[u], s.verts[v]
		if b.LexLess(a) {
			a, b = b, a
		}
		return [2]geom.Vec3{a, b}
	}
	num := make(map[[2]geom.Vec3]int32, len(tris)*3/2+1)
	if edges != nil {
		for i, e := range edges {
			num[key(e[0], e[1])] = int32(i)
		}
		s.edges = append([][2]int32(nil), edges...)
	}
	s.faces = make([]int32, len(tris))
	for i, t := range tris {
		s.faces[i] = int32(i)
		if faces != nil {
			s.faces[i] = faces[i]
		}
		for k := 0; k < 3; k++ {
			u, v := t[k], t[(k+1)%3]
			n, ok := num[key(u, v)]
			switch {
			case ok:
			case edges != nil:
				n = -1 // a diagonal of a polygon face
			default:
				n = int32(len(s.edges))
				num[key(u, v)] = n
				s.edges = append(s.edges, [2]int32{u, v})
			}
			s.tris[i].e[k] = n
		}
	}
	if len(s.edges) > math.MaxInt32/2 {
		return fmt.Errorf("toc: soup has too many edges (%d)", len(s.edges))
	}
	s.wstart = make([]int32, len(s.edges)+1)
	for i := range tris {
		for _, e := range s.tris[i].e {
			if e >= 0 {
				s.wstart[e+1]++
			}
		}
	}
	for e := range s.edges {
		s.wstart[e+1] += s.wstart[e]
	}
	s.wings = make([]int32, s.wstart[len(s.edges)])
	fill := append([]int32(nil), s.wstart[:len(s.edges)]...)
	for i, t := range tris {
		for k, e := range s.tris[i].e {
			if e >= 0 {
				s.wings[fill[e]] = t[(k+2)%3]
				fill[e]++
			}
		}
	}
	s.astart = make([]int32, len(s.verts)+1)
	for _, t := range tris {
		for _, v := range t {
			s.astart[v+1] += 2
		}
	}
	for v := range s.verts {
		s.astart[v+1] += s.astart[v]
	}
	s.around = make([]int32, s.astart[len(s.verts)])
	fill = append(fill[:0], s.astart[:len(s.verts)]...)
	for _, t := range tris {
		for k, v := range t {
			s.around[fill[v]], s.around[fill[v]+1] = t[(k+1)%3], t[(k+2)%3]
			fill[v] += 2
		}
	}
	return nil
}

// aroundVertex returns the vertices that share a triangle with vertex v
// (with repeats).
func (s *Soup) aroundVertex(v int32) []int32 { return s.around[s.astart[v]:s.astart[v+1]] }

// edgeWings returns the vertices opposite edge e in its triangles.
func (s *Soup) edgeWings(e int32) []int32 { return s.wings[s.wstart[e]:s.wstart[e+1]] }

// Edges returns the soup's edges as vertex index pairs: for SoupOf the
// mesh's edges (m.Edges, same numbering), for NewSoup the sides of the
// triangles with distinct end positions in order of first appearance
// (triangle 0's sides v0-v1, v1-v2, v2-v0, then triangle 1's new sides,
// ...; a side whose ends are at the same positions as an earlier one's is
// that edge). Do not modify.
func (s *Soup) Edges() [][2]int32 { return s.edges }

// NumTriangles returns the number of triangles.
func (s *Soup) NumTriangles() int { return len(s.tris) }

// Verts returns the soup's vertices (its default sample points); do not
// modify them.
func (s *Soup) Verts() []geom.Vec3 { return s.verts }

// Bounds returns the axis-aligned box of the vertices (local frame).
func (s *Soup) Bounds() geom.AABB { return s.bounds }

// Sphere returns a bounding sphere of the vertices (local frame).
func (s *Soup) Sphere() (center geom.Vec3, radius float64) { return s.center, s.radius }

// Triangle returns the corners and unit normal of the triangle with id i.
func (s *Soup) Triangle(i int) (a, b, c, n geom.Vec3) {
	if i < 0 || i >= len(s.pos) {
		panic(fmt.Sprintf("toc: triangle id %d out of range [0, %d)", i, len(s.tris)))
	}
	t := &s.tris[s.pos[i]]
	return t.a, t.b, t.c, t.n
}

func (t *tri) bounds() (lo, hi geom.Vec3) {
	return t.a.Min(t.b).Min(t.c), t.a.Max(t.b).Max(t.c)
}

func (t *tri) centroid() geom.Vec3 { return t.a.Add(t.b).Add(t.c).Scale(1.0 / 3) }

// build constructs the BVH top-down, splitting at the middle of the longest
// axis of the centroids (the median when that fails).
func (s *Soup) build() {
	s.nodes = make([]node, 0, 2*len(s.tris)/leafSize+1)
	s.nodes = append(s.nodes, node{})
	type job struct{ n, start, count int32 }
	stack := []job{{0, 0, int32(len(s.tris))}}
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi := s.tris[j.start].bounds()
		clo, chi := s.tris[j.start].centroid(), s.tris[j.start].centroid()
		for i := j.start; i < j.start+j.count; i++ {
			l, h := s.tris[i].bounds()
			lo, hi = lo.Min(l), hi.Max(h)
			c := s.tris[i].centroid()
			clo, chi = clo.Min(c), chi.Max(c)
		}
		nd := &s.nodes[j.n]
		nd.min, nd.max, nd.start, nd.count, nd.left = lo, hi, j.start, j.count, -1
		nd.c, nd.h = lo.Add(hi).Scale(0.5), hi.Sub(lo).Scale(0.5)
		if j.count <= leafSize {
			continue
		}
		ext := chi.Sub(clo)
		axis := 0
		if ext.Y > ext.X {
			axis = 1
		}
		if ext.Z > ext.Get(axis) {
			axis = 2
		}
		part := s.tris[j.start : j.start+j.count]
		mid := (clo.Get(axis) + chi.Get(axis)) / 2
		k := 0
		for i := range part {
			if part[i].centroid().Get(axis) < mid {
				part[i], part[k] = part[k], part[i]
				k++
			}
		}
		if k == 0 || k == len(part) {
			sort.Slice(part, func(a, b int) bool { return part[a].centroid().Get(axis) < part[b].centroid().Get(axis) })
			k = len(part) / 2
		}
		left := int32(len(s.nodes))
		s.nodes[j.n].left = left
		s.nodes = append(s.nodes, node{}, node{})
		stack = append(stack, job{left, j.start, int32(k)}, job{left + 1, j.start + int32(k), j.count - int32(k)})
	}
}

// box is an oriented box prepared for repeated tests: centre, unit axes,
// half extents and its axis-aligned bounds.
type box struct {
	c        geom.Vec3
	ax       [3]geom.Vec3
	h        [3]float64
	min, max geom.Vec3
	// abs are the axes with their components' magnitudes, for
	// overlapsNode (set with min and max by bound).
	abs [3]geom.Vec3
}

func makeBox(o geom.OBB) box {
	b := box{c: o.Center, h: [3]float64{o.Half.X, o.Half.Y, o.Half.Z}}
	for i := 0; i < 3; i++ {
		b.ax[i] = o.Axes.Col(i)
	}
	b.bound()
	return b
}

// bound sets b.abs and the axis-aligned bounds b.min, b.max from the
// centre, axes and half extents; every box is finished by it.
func (b *box) bound() {
	for i, a := range b.ax {
		b.abs[i] = geom.Vec3{X: math.Abs(a.X), Y: math.Abs(a.Y), Z: math.Abs(a.Z)}
	}
	b.boundAbs()
}

// boundAbs is bound for a box whose abs is already set.
func (b *box) boundAbs() {
	a := &b.abs
	e := geom.Vec3{
		X: a[0].X*b.h[0] + a[1].X*b.h[1] + a[2].X*b.h[2],
		Y: a[0].Y*b.h[0] + a[1].Y*b.h[1] + a[2].Y*b.h[2],
		Z: a[0].Z*b.h[0] + a[1].Z*b.h[1] + a[2].Z*b.h[2],
	}
	b.min, b.max = b.c.Sub(e), b.c.Add(e)
}

// overlapsNode is a conservative box-node test: the six face axes of the
// two boxes (the nine edge-edge axes are left out; a culling test may say
// yes for boxes that are apart).
func (b *box) overlapsNode(n *node) bool {
	if b.min.X > n.max.X || b.max.X < n.min.X || b.min.Y > n.max.Y || b.max.Y < n.min.Y ||
		b.min.Z > n.max.Z || b.max.Z < n.min.Z {
		return false
	}
	// The three axes written out (the compiler keeps a loop over them,
	// with its bounds checks, on the hottest test of the package).
	hx, hy, hz := n.h.X, n.h.Y, n.h.Z
	dx, dy, dz := n.c.X-b.c.X, n.c.Y-b.c.Y, n.c.Z-b.c.Z
	a, m := &b.ax[0], &b.abs[0]
	if math.Abs(a.X*dx+a.Y*dy+a.Z*dz) > b.h[0]+(m.X*hx+m.Y*hy+m.Z*hz) {
		return false
	}
	a, m = &b.ax[1], &b.abs[1]
	if math.Abs(a.X*dx+a.Y*dy+a.Z*dz) > b.h[1]+(m.X*hx+m.Y*hy+m.Z*hz) {
		return false
	}
	a, m = &b.ax[2], &b.abs[2]
	return !(math.Abs(a.X*dx+a.Y*dy+a.Z*dz) > b.h[2]+(m.X*hx+m.Y*hy+m.Z*hz))
}

// local returns p in the box's frame (relative to its centre).
func (b *box) local(p geom.Vec3) geom.Vec3 {
	d := p.Sub(b.c)
	return geom.Vec3{X: b.ax[0].Dot(d), Y: b.ax[1].Dot(d), Z: b.ax[2].Dot(d)}
}

// overlapsTri reports whether the closed box and the closed triangle
// intersect, by the separating-axis theorem over all 13 candidate axes
// (Akenine-Moller's triangle-box test, in the box's frame). The decision is
// exact up to rounding in the coordinates; callers pad their boxes.
func (b *box) overlapsTri(t *tri) bool {
	if t.a.X > b.max.X && t.b.X > b.max.X && t.c.X > b.max.X ||
		t.a.X < b.min.X && t.b.X < b.min.X && t.c.X < b.min.X ||
		t.a.Y > b.max.Y && t.b.Y > b.max.Y && t.c.Y > b.max.Y ||
		t.a.Y < b.min.Y && t.b.Y < b.min.Y && t.c.Y < b.min.Y ||
		t.a.Z > b.max.Z && t.b.Z > b.max.Z && t.c.Z > b.max.Z ||
		t.a.Z < b.min.Z && t.b.Z < b.min.Z && t.c.Z < b.min.Z {
		return false
	}
	v0, v1, v2 := b.local(t.a), b.local(t.b), b.local(t.c)
	return triBoxLocal(v0, v1, v2, b.h)
}

// overlapsSegTri reports whether the closed box and the segment t.a-t.b
// (an edge stored as a degenerate triangle) intersect: the separating-axis
// theorem over the box's three axes and their cross products with the
// segment.
func (b *box) overlapsSegTri(t *tri) bool {
	if t.a.X > b.max.X && t.b.X > b.max.X || t.a.X < b.min.X && t.b.X < b.min.X ||
		t.a.Y > b.max.Y && t.b.Y > b.max.Y || t.a.Y < b.min.Y && t.b.Y < b.min.Y ||
		t.a.Z > b.max.Z && t.b.Z > b.max.Z || t.a.Z < b.min.Z && t.b.Z < b.min.Z {
		return false
	}
	v0, v1 := b.local(t.a), b.local(t.b)
	h := b.h
	if v0.X > h[0] && v1.X > h[0] || v0.X < -h[0] && v1.X < -h[0] ||
		v0.Y > h[1] && v1.Y > h[1] || v0.Y < -h[1] && v1.Y < -h[1] ||
		v0.Z > h[2] && v1.Z > h[2] || v0.Z < -h[2] && v1.Z < -h[2] {
		return false
	}
	d := v1.Sub(v0)
	// Axes d x unit_k: both ends project alike.
	if math.Abs(d.Z*v0.Y-d.Y*v0.Z) > h[1]*math.Abs(d.Z)+h[2]*math.Abs(d.Y) ||
		math.Abs(d.X*v0.Z-d.Z*v0.X) > h[0]*math.Abs(d.Z)+h[2]*math.Abs(d.X) ||
		math.Abs(d.Y*v0.X-d.X*v0.Y) > h[0]*math.Abs(d.Y)+h[1]*math.Abs(d.X) {
		return false
	}
	return true
}

// triBoxLocal is the separating-axis test of a triangle against the box
// [-h, h] centred at the origin.
func triBoxLocal(v0, v1, v2 geom.Vec3, h [3]float64) bool {
	// Box face axes.
	if outside(v0.X, v1.X, v2.X, h[0]) || outside(v0.Y, v1.Y, v2.Y, h[1]) || outside(v0.Z, v1.Z, v2.Z, h[2]) {
		return false
	}
	e0, e1, e2 := v1.Sub(v0), v2.Sub(v1), v0.Sub(v2)
	// Triangle normal.
	n := e0.Cross(e1)
	r := h[0]*math.Abs(n.X) + h[1]*math.Abs(n.Y) + h[2]*math.Abs(n.Z)
	if math.Abs(n.Dot(v0)) > r {
		return false
	}
	// Edge cross box-axis axes: axis = e x unit_k, written out per edge
	// without the axes' zero components (the same sums as full dot
	// products: the dropped terms are zeros).
	return !edgeAxesApart(e0, v0, v1, v2, h) && !edgeAxesApart(e1, v0, v1, v2, h) && !edgeAxesApart(e2, v0, v1, v2, h)
}

// edgeAxesApart reports whether one of the axes e x unit_k (k = x, y, z)
// separates the triangle v0, v1, v2 from the box [-h, h].
func edgeAxesApart(e, v0, v1, v2 geom.Vec3, h [3]float64) bool {
	ax, ay, az := math.Abs(e.X), math.Abs(e.Y), math.Abs(e.Z)
	// x: (0, e.Z, -e.Y)
	if outside(e.Z*v0.Y-e.Y*v0.Z, e.Z*v1.Y-e.Y*v1.Z, e.Z*v2.Y-e.Y*v2.Z, h[1]*az+h[2]*ay) {
		return true
	}
	// y: (-e.Z, 0, e.X)
	if outside(-e.Z*v0.X+e.X*v0.Z, -e.Z*v1.X+e.X*v1.Z, -e.Z*v2.X+e.X*v2.Z, h[0]*az+h[2]*ax) {
		return true
	}
	// z: (e.Y, -e.X, 0)
	return outside(e.Y*v0.X-e.X*v0.Y, e.Y*v1.X-e.X*v1.Y, e.Y*v2.X-e.X*v2.Y, h[0]*ay+h[1]*ax)
}

// outside reports whether the interval spanned by p0, p1, p2 misses
// [-r, r] (plain comparisons: math.Min and math.Max are slow and NaN is
// impossible here for finite input).
func outside(p0, p1, p2, r float64) bool {
	lo, hi := p0, p0
	if p1 < lo {
		lo = p1
	} else if p1 > hi {
		hi = p1
	}
	if p2 < lo {
		lo = p2
	} else if p2 > hi {
		hi = p2
	}
	return lo > r || hi < -r
}

// anyOverlap reports whether some triangle of the soup overlaps b; stack
// is scratch space for the traversal.
func (s *Soup) anyOverlap(b *box, sp *[]int32) bool {
	_, found := s.traverse(b, false, true, 0, nil, sp)
	return found
}

// anySegOverlap is anyOverlap for a tree of edges (etree).
func (s *Soup) anySegOverlap(b *box, sp *[]int32) bool {
	_, found := s.traverse(b, true, true, 0, nil, sp)
	return found
}

// collectSegs is collect for a tree of edges (etree).
func (s *Soup) collectSegs(b *box, dst []int32, sp *[]int32) []int32 {
	dst, _ = s.traverse(b, true, false, 0, dst, sp)
	return dst
}

// collectSegsMax is collectMax for a tree of edges (etree).
func (s *Soup) collectSegsMax(b *box, max int, dst []int32, sp *[]int32) []int32 {
	dst, _ = s.traverse(b, true, false, max, dst, sp)
	return dst
}

// collect appends to dst the BVH positions of the triangles that overlap
// b.
func (s *Soup) collect(b *box, dst []int32, sp *[]int32) []int32 {
	dst, _ = s.traverse(b, false, false, 0, dst, sp)
	return dst
}

// collectMax is collect that stops once it has appended more than max
// positions: callers that scan short lists and search the tree for long
// ones need not gather a long one.
func (s *Soup) collectMax(b *box, max int, dst []int32, sp *[]int32) []int32 {
	dst, _ = s.traverse(b, false, false, max, dst, sp)
	return dst
}

// traverse walks the tree's nodes that overlap b and tests the leaves'
// entries against b, as triangles or, with seg, as the segments of an
// edge tree. With first it stops at the first overlapping entry and
// reports it; otherwise it appends every overlapping entry's position to
// dst, stopping once it has appended more than max when max > 0.
func (s *Soup) traverse(b *box, seg, first bool, max int, dst []int32, sp *[]int32) ([]int32, bool) {
	stack := append((*sp)[:0], 0)
	found := false
	limit := len(dst) + max
	for len(stack) > 0 && !found {
		ni := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := &s.nodes[ni]
		if !b.overlapsNode(n) {
			continue
		}
		if n.left < 0 {
			for i := n.start; i < n.start+n.count; i++ {
				t := &s.tris[i]
				var hit bool
				if seg {
					hit = b.overlapsSegTri(t)
				} else {
					hit = b.overlapsTri(t)
				}
				if !hit {
					continue
				}
				if first {
					found = true
					break
				}
				dst = append(dst, i)
				if max > 0 && len(dst) > limit {
					found = true // stop: the list is long
					break
				}
			}
			continue
		}
		stack = append(stack, n.left+1, n.left)
	}
	*sp = stack
	return dst, found
}
