package meshquery

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// ErrInput marks bad input to a constructor or query (a coordinate that
// is not finite or too large, an index out of range, a nil tree); errors
// returned for it wrap ErrInput and name the index or field.
var ErrInput = errors.New("meshquery: bad input")

// LeafSize is the largest number of triangles in a leaf of a Tree.
const LeafSize = 4

// Tree is a bounding-volume hierarchy of boxes (axis-aligned and oriented,
// in the mesh's local frame, see node) over the triangles of a surface: a mesh's
// triangulation or a triangle soup, open or closed, manifold or not. Build
// it once per mesh with New or NewSoup; it is read-only afterwards and safe
// for concurrent queries (each goroutine with its own Scratch).
type Tree struct {
	nodes []node    // nodes[0] is the root
	boxes []obox    // boxes[i] is the oriented box of nodes[i]
	tris  []tri     // in BVH order
	info  []triInfo // by triangle id
	pos   []int32   // pos[id] is the BVH position of triangle id
	verts []geom.Vec3
	// vertTris lists, per vertex, the ids of the triangles using it
	// (vertTris[vertStart[v]:vertStart[v+1]]), for the flood fill of
	// penetrating vertices.
	vertStart []int32
	vertTris  []int32

	closed bool
	bounds geom.AABB
	center geom.Vec3 // centre of bounds
	radius float64   // largest distance of a vertex from center
	maxAbs float64   // largest |coordinate| of a vertex
	faces  int       // number of mesh faces (or triangles of a soup)
}

// tri is a triangle in BVH order with its id.
type tri struct {
	a, b, c geom.Vec3
	n       geom.Vec3 // unit normal (zero for a degenerate triangle)
	d       float64   // n . a
	lo, hi  geom.Vec3 // box
	id      int32
}

// triInfo is what a triangle refers to in the mesh: its vertex indices,
// the mesh edges of its sides (side k joins v[k] and v[k+1]; noEdge in a
// soup, which has no edge numbering, diagonal for a side inside a polygon
// face) and its face.
type triInfo struct {
	v    [3]int32
	e    [3]int32
	face int32
}

// Side markers of triInfo.e.
const (
	noEdge   = -1
	diagonal = -2
)

// node is a bounding volume with either two children (left, left+1) or a
// leaf range of triangles, with what the box-overlap traversal reads: the
// axis-aligned box in the local frame (centre c, half extents h) and a
// slab, the range [nlo, nhi] of n . x over the node's vertices along the
// thinnest axis n of its oriented box (tested where thin: under half the
// axis-aligned box's thickness along n). The node fills 128 bytes, the
// pair of cache lines a processor fetches together; the distance search
// reads the oriented box beside it in Tree.boxes.
type node struct {
	c, h         geom.Vec3
	n            geom.Vec3
	nlo, nhi     float64
	left         int32 // first child, or -1 for a leaf
	start, count int32
	thin         bool
	_            [24]byte
}

// obox is a node's oriented box: rows of ax its unit axes, centre oc,
// half extents oh along them; the principal axes of the node's vertices
// (Gottschalk, Lin and Manocha, "OBBTree: A Hierarchical Structure for
// Rapid Interference Detection", SIGGRAPH 1996, Sec. 4), or the coordinate
// axes where that box is smaller. A nearly flat patch gets a thin box
// whatever its orientation. The sphere of radius r about oc holds the
// node's vertices too: a cheaper first test.
type obox struct {
	ax     geom.Mat3
	oc, oh geom.Vec3
	r      float64
}

// New builds the tree of a mesh's triangulation (mesh.Mesh.Triangles):
// triangle ids are indices into that triangulation, and contact features
// are the mesh's vertices, edges and faces. A mesh that is closed (every
// edge with exactly two faces) bounds a solid, which Contacts and Locate
// use.
func New(m *mesh.Mesh) (*Tree, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil mesh", ErrInput)
	}
	ts := m.Triangles(nil)
	info := make([]triInfo, len(ts))
	for i, t := range ts {
		info[i] = triInfo{v: t.V, face: t.Face, e: [3]int32{diagonal, diagonal, diagonal}}
		loop, edges := m.Face(int(t.Face)), m.FaceEdgeLoop(int(t.Face))
		for k := 0; k < 3; k++ {
			u, w := t.V[k], t.V[(k+1)%3]
			for j := range loop {
				x, y := loop[j], loop[(j+1)%len(loop)]
				if x == u && y == w || x == w && y == u {
					info[i].e[k] = edges[j]
					break
				}
			}
		}
	}
	tr, err := build(m.Verts, info)
	if err != nil {
		return nil, err
	}
	tr.closed = m.Closed()
	tr.faces = m.NumFaces()
	return tr, nil
}

// NewSoup builds the tree of a triangle soup: vertex positions and
// triangles as vertex index triples. Triangle i keeps id i; contact
// features are vertices and triangles (as faces; a soup has no edge
// numbering). closed declares that the triangles bound a solid (every
// edge shared by exactly two triangles), which Contacts and Locate rely on;
// it is not checked.
//
// It returns an error wrapping ErrInput naming the vertex or triangle when
// a coordinate is not finite or above geom.MaxCoord in magnitude, or an
// index is out of range.
func NewSoup(verts []geom.Vec3, tris [][3]int32, closed bool) (*Tree, error) {
	info := make([]triInfo, len(tris))
	for i, t := range tris {
		info[i] = triInfo{v: t, face: int32(i), e: [3]int32{noEdge, noEdge, noEdge}}
	}
	tr, err := build(verts, info)
	if err != nil {
		return nil, err
	}
	tr.closed = closed
	tr.faces = len(tris)
	return tr, nil
}

func build(verts []geom.Vec3, info []triInfo) (*Tree, error) {
	if len(info) == 0 {
		return nil, fmt.Errorf("%w: no triangles", ErrInput)
	}
	if len(info) > math.MaxInt32/4 || len(verts) > math.MaxInt32/4 {
		return nil, fmt.Errorf("%w: too many triangles (%d) or vertices (%d)", ErrInput, len(info), len(verts))
	}
	t := &Tree{verts: slices.Clone(verts), info: info, bounds: geom.EmptyAABB()}
	for i, v := range verts {
		if !v.IsFinite() || v.MaxAbs() > geom.MaxCoord {
			return nil, fmt.Errorf("%w: vertex %d: coordinate not finite or above %g in magnitude: %v", ErrInput, i, geom.MaxCoord, v)
		}
	}
	t.tris = make([]tri, len(info))
	used := make([]bool, len(verts))
	for i, ti := range info {
		for k, vi := range ti.v {
			if vi < 0 || int(vi) >= len(verts) {
				return nil, fmt.Errorf("%w: triangle %d: corner %d is vertex %d, out of range [0, %d)", ErrInput, i, k, vi, len(verts))
			}
			used[vi] = true
		}
		a, b, c := verts[ti.v[0]], verts[ti.v[1]], verts[ti.v[2]]
		n, _ := b.Sub(a).Cross(c.Sub(a)).Normalize()
		t.tris[i] = tri{a: a, b: b, c: c, n: n, d: n.Dot(a), lo: vmin(vmin(a, b), c), hi: vmax(vmax(a, b), c), id: int32(i)}
	}
	for i, v := range verts {
		if used[i] {
			t.bounds = t.bounds.AddPoint(v)
			t.maxAbs = max(t.maxAbs, v.MaxAbs())
		}
	}
	t.center = t.bounds.Center()
	for i, v := range verts {
		if used[i] {
			t.radius = max(t.radius, v.Dist(t.center))
		}
	}
	t.buildNodes()
	t.pos = make([]int32, len(t.tris))
	for i := range t.tris {
		t.pos[t.tris[i].id] = int32(i)
	}
	// Triangles around each vertex.
	t.vertStart = make([]int32, len(verts)+1)
	for _, ti := range info {
		for _, v := range ti.v {
			t.vertStart[v+1]++
		}
	}
	for v := range verts {
		t.vertStart[v+1] += t.vertStart[v]
	}
	t.vertTris = make([]int32, t.vertStart[len(verts)])
	fill := slices.Clone(t.vertStart[:len(verts)])
	for id, ti := range info {
		for _, v := range ti.v {
			t.vertTris[fill[v]] = int32(id)
			fill[v]++
		}
	}
	return t, nil
}

func (t *tri) lohi() (lo, hi geom.Vec3) { return t.lo, t.hi }

// buildNodes builds the hierarchy top-down, splitting each node's
// triangles by the surface-area heuristic over 12 bins of centroids per
// axis (Wald, "On fast Construction of SAH-based Bounding Volume
// Hierarchies", 2007, Sec. 3), at the median of the longest axis when no
// split is better.
func (t *Tree) buildNodes() {
	n := len(t.tris)
	t.nodes = make([]node, 1, 2*n/LeafSize+2)
	t.boxes = make([]obox, 1, cap(t.nodes))
	cen := make([]geom.Vec3, n)
	for i := range t.tris {
		lo, hi := t.tris[i].lohi()
		cen[i] = lo.Add(hi).Scale(0.5)
	}
	type job struct{ n, start, count int32 }
	stack := []job{{0, 0, int32(n)}}
	const bins = 12
	var bLo, bHi [bins]geom.Vec3
	var bCnt [bins]int
	for len(stack) > 0 {
		j := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		lo, hi := t.tris[j.start].lohi()
		clo, chi := cen[j.start], cen[j.start]
		for i := j.start; i < j.start+j.count; i++ {
			l, h := t.tris[i].lohi()
			lo, hi = vmin(lo, l), vmax(hi, h)
			clo, chi = vmin(clo, cen[i]), vmax(chi, cen[i])
		}
		nd := &t.nodes[j.n]
		nd.c, nd.h = lo.Add(hi).Scale(0.5), hi.Sub(lo).Scale(0.5)
		ob := &t.boxes[j.n]
		t.fitBox(nd, ob, j.start, j.count)
		t.fitSphere(ob, j.start, j.count)
		nd.setSlab(ob)
		nd.start, nd.count, nd.left = j.start, j.count, -1
		if j.count <= LeafSize {
			continue
		}
		bestAxis, bestK, bestCost := -1, 0, math.Inf(1)
		for axis := 0; axis < 3; axis++ {
			a0, a1 := clo.Get(axis), chi.Get(axis)
			if !(a1 > a0) {
				continue
			}
			for b := range bins {
				bCnt[b] = 0
				bLo[b] = geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
				bHi[b] = bLo[b].Neg()
			}
			scale := bins / (a1 - a0)
			for i := j.start; i < j.start+j.count; i++ {
				b := min(bins-1, int((cen[i].Get(axis)-a0)*scale))
				l, h := t.tris[i].lohi()
				bCnt[b]++
				bLo[b], bHi[b] = vmin(bLo[b], l), vmax(bHi[b], h)
			}
			// Sweep: cost of splitting after bin k.
			var rArea [bins]float64
			var rCnt [bins]int
			l, h, c := bLo[bins-1], bHi[bins-1], 0
			for b := bins - 1; b > 0; b-- {
				l, h, c = vmin(l, bLo[b]), vmax(h, bHi[b]), c+bCnt[b]
				rArea[b], rCnt[b] = area(l, h), c
			}
			l, h, c = bLo[0], bHi[0], 0
			for k := 0; k < bins-1; k++ {
				l, h, c = vmin(l, bLo[k]), vmax(h, bHi[k]), c+bCnt[k]
				if c == 0 || rCnt[k+1] == 0 {
					continue
				}
				cost := area(l, h)*float64(c) + rArea[k+1]*float64(rCnt[k+1])
				if cost < bestCost {
					bestAxis, bestK, bestCost = axis, k, cost
				}
			}
		}
		part := t.tris[j.start : j.start+j.count]
		pc := cen[j.start : j.start+j.count]
		k := 0
		if bestAxis >= 0 {
			a0, a1 := clo.Get(bestAxis), chi.Get(bestAxis)
			scale := bins / (a1 - a0)
			for i := range part {
				if min(bins-1, int((pc[i].Get(bestAxis)-a0)*scale)) <= bestK {
					part[i], part[k] = part[k], part[i]
					pc[i], pc[k] = pc[k], pc[i]
					k++
				}
			}
		}
		if k == 0 || k == len(part) {
			// All centroids in one place: split in the middle of the list.
			k = len(part) / 2
		}
		left := int32(len(t.nodes))
		t.nodes[j.n].left = left
		t.nodes = append(t.nodes, node{}, node{})
		t.boxes = append(t.boxes, obox{}, obox{})
		stack = append(stack, job{left, j.start, int32(k)}, job{left + 1, j.start + int32(k), j.count - int32(k)})
	}
}

// fitBox sets nd's oriented box around the vertices of triangles
// [start, start+count): along the eigenvectors of their covariance, or
// along the coordinate axes (nd's axis-aligned box, already set) when
// that box has the smaller volume.
func (t *Tree) fitBox(nd *node, ob *obox, start, count int32) {
	ob.ax, ob.oc, ob.oh = geom.Identity(), nd.c, nd.h
	var m geom.Vec3
	for i := start; i < start+count; i++ {
		x := &t.tris[i]
		m = m.Add(x.a).Add(x.b).Add(x.c)
	}
	m = m.Scale(1 / float64(3*count))
	var cov geom.Mat3
	for i := start; i < start+count; i++ {
		x := &t.tris[i]
		for _, v := range [3]geom.Vec3{x.a, x.b, x.c} {
			d := v.Sub(m)
			cov[0][0] += d.X * d.X
			cov[0][1] += d.X * d.Y
			cov[0][2] += d.X * d.Z
			cov[1][1] += d.Y * d.Y
			cov[1][2] += d.Y * d.Z
			cov[2][2] += d.Z * d.Z
		}
	}
	_, v := mesh.SymEigen(cov)
	ax := v.Transpose()
	lo := geom.Vec3{X: math.Inf(1), Y: math.Inf(1), Z: math.Inf(1)}
	hi := lo.Neg()
	for i := start; i < start+count; i++ {
		x := &t.tris[i]
		for _, v := range [3]geom.Vec3{x.a, x.b, x.c} {
			p := ax.MulVec(v)
			lo, hi = vmin(lo, p), vmax(hi, p)
		}
	}
	h := hi.Sub(lo).Scale(0.5)
	vol, volAA := h.X*h.Y*h.Z, nd.h.X*nd.h.Y*nd.h.Z
	if !(vol < volAA || vol == volAA && area(geom.Vec3{}, h) < area(geom.Vec3{}, nd.h)) {
		return
	}
	ob.ax, ob.oc, ob.oh = ax, v.MulVec(lo.Add(hi).Scale(0.5)), h
}

// setSlab sets nd's slab from its oriented box's thinnest axis.
func (nd *node) setSlab(ob *obox) {
	k := 0
	if ob.oh.Y < ob.oh.Get(k) {
		k = 1
	}
	if ob.oh.Z < ob.oh.Get(k) {
		k = 2
	}
	nd.n = geom.Vec3{X: ob.ax[k][0], Y: ob.ax[k][1], Z: ob.ax[k][2]}
	p := nd.n.Dot(ob.oc)
	nd.nlo, nd.nhi = p-ob.oh.Get(k), p+ob.oh.Get(k)
	nd.thin = nd.nhi-nd.nlo < nd.h.X*abs(nd.n.X)+nd.h.Y*abs(nd.n.Y)+nd.h.Z*abs(nd.n.Z)
}

// fitSphere sets ob.r, the largest distance of a vertex of triangles
// [start, start+count) from the centre of the oriented box ob.
func (t *Tree) fitSphere(ob *obox, start, count int32) {
	r2 := 0.0
	for i := start; i < start+count; i++ {
		x := &t.tris[i]
		r2 = max(r2, x.a.Dist2(ob.oc), x.b.Dist2(ob.oc), x.c.Dist2(ob.oc))
	}
	ob.r = math.Sqrt(r2)
}

func area(lo, hi geom.Vec3) float64 {
	d := hi.Sub(lo)
	return d.X*d.Y + d.Y*d.Z + d.Z*d.X
}

// NumTriangles returns the number of triangles.
func (t *Tree) NumTriangles() int { return len(t.tris) }

// NumVerts returns the number of vertices.
func (t *Tree) NumVerts() int { return len(t.verts) }

// Closed reports whether the surface bounds a solid (a closed mesh, or a
// soup declared closed), so that Contacts can report penetration and
// Locate can answer.
func (t *Tree) Closed() bool { return t.closed }

// Bounds returns the box of the triangles' vertices (local frame).
func (t *Tree) Bounds() geom.AABB { return t.bounds }

// Scale returns the largest distance of a vertex from the centre of
// Bounds: the length scale of the surface.
func (t *Tree) Scale() float64 { return t.radius }

// Triangle returns the corners of the triangle with id i (local frame).
// It panics when i is out of range.
func (t *Tree) Triangle(i int) (a, b, c geom.Vec3) {
	x := &t.tris[t.pos[i]]
	return x.a, x.b, x.c
}

// TriangleVerts returns the vertex indices of the triangle with id i and
// the face it belongs to. It panics when i is out of range.
func (t *Tree) TriangleVerts(i int) (v [3]int32, face int32) {
	return t.info[i].v, t.info[i].face
}

// vmin and vmax are the componentwise minimum and maximum with plain
// comparisons (inputs are finite; math.Min and math.Max are calls).
func vmin(a, b geom.Vec3) geom.Vec3 {
	if b.X < a.X {
		a.X = b.X
	}
	if b.Y < a.Y {
		a.Y = b.Y
	}
	if b.Z < a.Z {
		a.Z = b.Z
	}
	return a
}

func vmax(a, b geom.Vec3) geom.Vec3 {
	if b.X > a.X {
		a.X = b.X
	}
	if b.Y > a.Y {
		a.Y = b.Y
	}
	if b.Z > a.Z {
		a.Z = b.Z
	}
	return a
}
