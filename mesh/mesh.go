package mesh

import (
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
)

// None marks a missing face or edge index (a boundary edge has Right == None).
const None = -1

// Default tolerances, relative to the diagonal of the mesh's bounding box.
const (
	// DefaultPlanarTol bounds the distance of a face's vertices from the
	// face plane, as a fraction of the bounding-box diagonal.
	DefaultPlanarTol = 1e-6
	// DefaultConvexTol bounds how far a vertex may lie outside a face plane
	// of a mesh still called convex, as a fraction of the diagonal.
	DefaultConvexTol = 1e-9
	// DefaultAreaTol: a face whose area is below AreaTol * diagonal^2 is
	// degenerate.
	DefaultAreaTol = 1e-14
)

// Options tune mesh construction. The zero value means the documented
// defaults.
type Options struct {
	// PlanarTol: relative planarity tolerance (default DefaultPlanarTol).
	PlanarTol float64
	// ConvexTol: relative convexity tolerance (default DefaultConvexTol).
	ConvexTol float64
	// AreaTol: relative zero-area tolerance (default DefaultAreaTol).
	AreaTol float64
}

func (o *Options) withDefaults() Options {
	r := Options{DefaultPlanarTol, DefaultConvexTol, DefaultAreaTol}
	if o != nil {
		if o.PlanarTol > 0 {
			r.PlanarTol = o.PlanarTol
		}
		if o.ConvexTol > 0 {
			r.ConvexTol = o.ConvexTol
		}
		if o.AreaTol > 0 {
			r.AreaTol = o.AreaTol
		}
	}
	return r
}

// Edge is an undirected edge with its winged-edge neighbourhood.
//
// Walking from V[0] to V[1] seen from outside, Left is the face on the left
// (the face whose counter-clockwise loop traverses V[0] -> V[1]) and Right
// the face on the right (its loop traverses V[1] -> V[0]). A boundary edge
// has Right == None. On a non-manifold edge (more than two faces) Left and
// Right are the first two faces and NumFaces counts all of them; on an
// inconsistently oriented edge both faces traverse V[0] -> V[1] and the
// mesh is not Oriented.
type Edge struct {
	V           [2]int32
	Left, Right int32
	NumFaces    int32
}

// Other returns the end of e that is not v.
func (e Edge) Other(v int32) int32 {
	if e.V[0] == v {
		return e.V[1]
	}
	return e.V[0]
}

// Mesh is a polyhedral surface with adjacency. Build it with New; treat
// its fields as read-only.
type Mesh struct {
	// Verts are the vertex positions in the mesh's local frame.
	Verts []geom.Vec3
	// Face f's boundary loop is FaceVerts[FaceStart[f]:FaceStart[f+1]],
	// counter-clockwise seen from outside. len(FaceStart) == NumFaces()+1.
	FaceStart []int32
	FaceVerts []int32
	// FaceEdges is parallel to FaceVerts: FaceEdges[k] is the edge from
	// FaceVerts[k] to the next vertex of the loop.
	FaceEdges []int32
	// Planes[f] is face f's plane with outward unit normal (Newell's
	// method through the loop's centroid).
	Planes []geom.Plane
	// Edges lists the undirected edges.
	Edges []Edge
	// Vertex v's incident edges are VertEdges[VertStart[v]:VertStart[v+1]],
	// counter-clockwise seen from outside around v where the neighbourhood
	// is a manifold disk or fan; otherwise in an unspecified order.
	VertStart []int32
	VertEdges []int32

	closed, manifold, oriented, convex bool
	bounds                             geom.AABB
	convexTol                          float64
	opt                                Options
}

// NumVerts returns the number of vertices.
func (m *Mesh) NumVerts() int { return len(m.Verts) }

// NumFaces returns the number of faces.
func (m *Mesh) NumFaces() int { return len(m.FaceStart) - 1 }

// NumEdges returns the number of undirected edges.
func (m *Mesh) NumEdges() int { return len(m.Edges) }

// Face returns face f's vertex loop (counter-clockwise from outside). The
// slice aliases the mesh; do not modify it.
func (m *Mesh) Face(f int) []int32 { return m.FaceVerts[m.FaceStart[f]:m.FaceStart[f+1]] }

// Loops returns a copy of every face's vertex loop as int slices, the form
// New takes, for building a changed mesh from this one.
func (m *Mesh) Loops() [][]int {
	all := make([]int, len(m.FaceVerts))
	for k, v := range m.FaceVerts {
		all[k] = int(v)
	}
	fs := make([][]int, m.NumFaces())
	for f := range fs {
		fs[f] = all[m.FaceStart[f]:m.FaceStart[f+1]:m.FaceStart[f+1]]
	}
	return fs
}

// FaceEdgeLoop returns face f's edges in loop order: element k joins Face(f)[k]
// and Face(f)[k+1].
func (m *Mesh) FaceEdgeLoop(f int) []int32 { return m.FaceEdges[m.FaceStart[f]:m.FaceStart[f+1]] }

// VertexEdges returns vertex v's incident edges (see Mesh.VertEdges).
func (m *Mesh) VertexEdges(v int) []int32 { return m.VertEdges[m.VertStart[v]:m.VertStart[v+1]] }

// Neighbors appends to dst the vertices joined to v by an edge, in the
// order of VertexEdges, and returns the extended slice.
func (m *Mesh) Neighbors(v int, dst []int32) []int32 {
	for _, e := range m.VertexEdges(v) {
		dst = append(dst, m.Edges[e].Other(int32(v)))
	}
	return dst
}

// Closed reports whether every edge has exactly two faces.
func (m *Mesh) Closed() bool { return m.closed }

// Manifold reports whether no edge has more than two faces and every
// vertex's faces form a single fan (no bow-tie vertices).
func (m *Mesh) Manifold() bool { return m.manifold }

// Oriented reports whether every edge with two faces is traversed once in
// each direction (consistent orientation).
func (m *Mesh) Oriented() bool { return m.oriented }

// Convex reports whether the mesh is closed, manifold, oriented and every
// vertex lies on or below every face plane within ConvexTol().
func (m *Mesh) Convex() bool { return m.convex }

// ConvexTol returns the absolute tolerance used for Convex.
func (m *Mesh) ConvexTol() float64 { return m.convexTol }

// Euler returns the Euler characteristic V - E + F.
func (m *Mesh) Euler() int { return m.NumVerts() - m.NumEdges() + m.NumFaces() }

// Bounds returns the axis-aligned bounding box of the vertices.
func (m *Mesh) Bounds() geom.AABB { return m.bounds }

// Radius returns the largest distance of a vertex from the local origin.
func (m *Mesh) Radius() float64 {
	r := 0.0
	for _, v := range m.Verts {
		r = math.Max(r, v.Norm2())
	}
	return math.Sqrt(r)
}

// Volume returns the signed volume enclosed by the faces (divergence
// theorem); it is positive for a closed outward-oriented mesh. The cones
// are taken from the centre of the bounding box, so the result stays
// accurate for meshes far from the origin.
func (m *Mesh) Volume() float64 {
	s := 0.0
	o := m.bounds.Center()
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		a := m.Verts[l[0]].Sub(o)
		for k := 1; k+1 < len(l); k++ {
			s += a.Dot(m.Verts[l[k]].Sub(o).Cross(m.Verts[l[k+1]].Sub(o)))
		}
	}
	return s / 6
}

// Error is a data or topology problem of a mesh. Fields not relevant to the
// problem are None.
type Error struct {
	Face, Vertex, Edge int // indices, or None
	Msg                string
}

// Error formats the error with the face, edge or vertex it names.
func (e *Error) Error() string {
	where := ""
	switch {
	case e.Face != None:
		where = fmt.Sprintf("face %d: ", e.Face)
	case e.Edge != None:
		where = fmt.Sprintf("edge %d: ", e.Edge)
	case e.Vertex != None:
		where = fmt.Sprintf("vertex %d: ", e.Vertex)
	}
	return where + e.Msg
}

func faceErr(f int, format string, a ...any) *Error {
	return &Error{Face: f, Vertex: None, Edge: None, Msg: fmt.Sprintf(format, a...)}
}

// New builds a mesh from vertex positions and faces (each a loop of vertex
// indices, counter-clockwise seen from outside). The slices are copied.
//
// It returns an *Error naming the vertex or face when a coordinate is NaN
// or infinite, an index is out of range, a face has fewer than 3 distinct
// vertices or repeats a vertex, a face has (near) zero area, or a face is
// not planar within the tolerance. Open, non-manifold and inconsistently
// oriented meshes are accepted and reported by Closed, Manifold and
// Oriented; RequireSolid turns those into errors.
func New(verts []geom.Vec3, faces [][]int, opt *Options) (*Mesh, error) {
	o := opt.withDefaults()
	m := &Mesh{opt: o, bounds: geom.EmptyAABB()}
	m.Verts = slices.Clone(verts)
	for i, v := range verts {
		if !v.IsFinite() {
			return nil, &Error{Face: None, Vertex: i, Edge: None, Msg: fmt.Sprintf("coordinate is not finite: %v", v)}
		}
		m.bounds = m.bounds.AddPoint(v)
	}
	diag := m.bounds.Diagonal()
	if math.IsInf(diag, 0) {
		far, mag := 0, 0.0
		for i, v := range verts {
			if a := max(math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z)); a > mag {
				far, mag = i, a
			}
		}
		return nil, &Error{Face: None, Vertex: far, Edge: None, Msg: fmt.Sprintf("coordinates out of range: %v, the bounding box overflows; keep coordinates within ±geom.MaxCoord = %g (scale the model to larger units)", verts[far], geom.MaxCoord)}
	}
	n := 0
	for f, l := range faces {
		if len(l) < 3 {
			return nil, faceErr(f, "has %d vertices, need at least 3", len(l))
		}
		n += len(l)
	}
	if n > math.MaxInt32 || len(verts) > math.MaxInt32 {
		return nil, &Error{Face: None, Vertex: None, Edge: None, Msg: "mesh too large"}
	}
	m.FaceStart = make([]int32, 0, len(faces)+1)
	m.FaceVerts = make([]int32, 0, n)
	m.Planes = make([]geom.Plane, 0, len(faces))
	m.FaceStart = append(m.FaceStart, 0)
	for f, l := range faces {
		start := len(m.FaceVerts)
		for _, v := range l {
			if v < 0 || v >= len(verts) {
				return nil, faceErr(f, "vertex index %d out of range [0, %d)", v, len(verts))
			}
			m.FaceVerts = append(m.FaceVerts, int32(v))
		}
		loop := m.FaceVerts[start:]
		for i, v := range loop {
			for _, w := range loop[i+1:] {
				if v == w {
					return nil, faceErr(f, "repeats vertex %d (fewer than %d distinct vertices)", v, len(loop))
				}
			}
		}
		pl, err := facePlane(m.Verts, loop, diag, o)
		if err != "" {
			return nil, faceErr(f, "%s", err)
		}
		m.Planes = append(m.Planes, pl)
		m.FaceStart = append(m.FaceStart, int32(len(m.FaceVerts)))
	}
	m.buildAdjacency()
	m.convexTol = o.ConvexTol * diag
	m.convex = m.closed && m.manifold && m.oriented && m.checkConvex()
	return m, nil
}

// facePlane returns the plane of a loop by Newell's method, or a message
// when the loop is degenerate or not planar.
func facePlane(vs []geom.Vec3, loop []int32, diag float64, o Options) (geom.Plane, string) {
	var nrm, c geom.Vec3
	for i, vi := range loop {
		a, b := vs[vi], vs[loop[(i+1)%len(loop)]]
		nrm = nrm.Add(a.Cross(b))
		c = c.Add(a)
	}
	c = c.Scale(1 / float64(len(loop)))
	// Recompute relative to the centroid for accuracy far from the origin.
	nrm = geom.Vec3{}
	for i, vi := range loop {
		a, b := vs[vi].Sub(c), vs[loop[(i+1)%len(loop)]].Sub(c)
		nrm = nrm.Add(a.Cross(b))
	}
	area := nrm.Norm() / 2
	if math.IsInf(area, 0) || math.IsNaN(area) {
		// The products overflow: the coordinates are far beyond what any
		// algorithm here accepts.
		far, mag := loop[0], 0.0
		for _, vi := range loop {
			v := vs[vi]
			if m := max(math.Abs(v.X), math.Abs(v.Y), math.Abs(v.Z)); m > mag {
				far, mag = vi, m
			}
		}
		return geom.Plane{}, fmt.Sprintf("coordinates out of range: vertex %d is %v, its area overflows; keep coordinates within ±geom.MaxCoord = %g (scale the model to larger units)", far, vs[far], geom.MaxCoord)
	}
	if !(area > o.AreaTol*diag*diag) || area == 0 {
		return geom.Plane{}, fmt.Sprintf("has zero area (%g); drop such faces (meshio's Soup.DropDegenerate, collide mesh repair)", area)
	}
	pl, _ := geom.PlaneFromNormal(nrm, c)
	for _, vi := range loop {
		if d := math.Abs(pl.SignedDist(vs[vi])); d > o.PlanarTol*diag {
			return geom.Plane{}, fmt.Sprintf("is not planar: vertex %d is %g from the face plane (tolerance %g); split such faces into triangles (meshio's Soup.Triangulate, collide mesh repair) or raise Options.PlanarTol", vi, d, o.PlanarTol*diag)
		}
	}
	return pl, ""
}

// buildAdjacency fills Edges, FaceEdges, VertStart, VertEdges and the
// topology flags.
func (m *Mesh) buildAdjacency() {
	nv := len(m.Verts)
	key := func(a, b int32) uint64 {
		if a > b {
			a, b = b, a
		}
		return uint64(a)<<32 | uint64(uint32(b))
	}
	idx := make(map[uint64]int32, len(m.FaceVerts)/2+1)
	m.FaceEdges = make([]int32, len(m.FaceVerts))
	m.Edges = make([]Edge, 0, len(m.FaceVerts)/2+1)
	m.manifold, m.oriented = true, true
	for f := 0; f < m.NumFaces(); f++ {
		s, e := m.FaceStart[f], m.FaceStart[f+1]
		for k := s; k < e; k++ {
			a := m.FaceVerts[k]
			b := m.FaceVerts[s]
			if k+1 < e {
				b = m.FaceVerts[k+1]
			}
			kk := key(a, b)
			ei, ok := idx[kk]
			if !ok {
				ei = int32(len(m.Edges))
				idx[kk] = ei
				m.Edges = append(m.Edges, Edge{V: [2]int32{a, b}, Left: int32(f), Right: None, NumFaces: 1})
			} else {
				ed := &m.Edges[ei]
				ed.NumFaces++
				if ed.NumFaces > 2 {
					m.manifold = false
				} else {
					ed.Right = int32(f)
				}
			}
			m.FaceEdges[k] = ei
		}
	}
	m.closed = len(m.Edges) > 0
	for i, e := range m.Edges {
		if e.NumFaces != 2 {
			m.closed = false
		}
		// Only edges with exactly two faces decide orientation, whatever
		// the order of the faces (an edge with more is non-manifold).
		if e.NumFaces == 2 && m.sameDirection(i) {
			m.oriented = false
		}
	}
	// Incident edges per vertex (counting sort), then order them.
	m.VertStart = make([]int32, nv+1)
	for _, e := range m.Edges {
		m.VertStart[e.V[0]+1]++
		m.VertStart[e.V[1]+1]++
	}
	for v := 0; v < nv; v++ {
		m.VertStart[v+1] += m.VertStart[v]
	}
	m.VertEdges = make([]int32, 2*len(m.Edges))
	fill := slices.Clone(m.VertStart[:nv])
	for i, e := range m.Edges {
		for _, v := range e.V {
			m.VertEdges[fill[v]] = int32(i)
			fill[v]++
		}
	}
	switch {
	case m.manifold && m.oriented:
		var buf []int32
		for v := 0; v < nv; v++ {
			var ok bool
			buf, ok = m.orderAround(int32(v), buf[:0])
			if !ok {
				m.manifold = false
			}
		}
	case m.manifold:
		// Not oriented, so no order; bow-tie vertices still make the
		// mesh non-manifold.
		for v := 0; v < nv && m.manifold; v++ {
			m.manifold = m.fanConnected(int32(v))
		}
	}
}

// fanConnected reports whether the faces around v form a single fan,
// ignoring orientation: walking from face to face across the edges at v
// (each with at most two faces) reaches every edge at v.
func (m *Mesh) fanConnected(v int32) bool {
	es := m.VertEdges[m.VertStart[v]:m.VertStart[v+1]]
	if len(es) == 0 {
		return true
	}
	e0 := es[0]
	visited := 1
	for _, f := range [2]int32{m.Edges[e0].Left, m.Edges[e0].Right} {
		e := e0
		for f != None {
			e = m.otherEdgeAt(f, v, e)
			if e == e0 {
				return visited == len(es) // went all the way round
			}
			if visited++; visited > len(es) {
				return false
			}
			ed := m.Edges[e]
			if ed.Left == f {
				f = ed.Right
			} else {
				f = ed.Left
			}
		}
	}
	return visited == len(es)
}

// otherEdgeAt returns the edge of face f at vertex v that is not e.
func (m *Mesh) otherEdgeAt(f, v, e int32) int32 {
	in, out := m.edgesAt(f, v)
	if out == e {
		return in
	}
	return out
}

// edgesAt returns the edges of face f's loop into and out of vertex v, or
// None twice when v is not on the loop.
func (m *Mesh) edgesAt(f, v int32) (in, out int32) {
	s, end := m.FaceStart[f], m.FaceStart[f+1]
	for k := s; k < end; k++ {
		if m.FaceVerts[k] == v {
			p := k - 1
			if k == s {
				p = end - 1
			}
			return m.FaceEdges[p], m.FaceEdges[k]
		}
	}
	return None, None
}

// nextAround returns, for the outgoing edge e of v, the face on its left
// seen from v (the face whose loop leaves v along e) and the next edge
// counter-clockwise around v in that face, or None at a boundary.
func (m *Mesh) nextAround(v, e int32) int32 {
	ed := m.Edges[e]
	f := ed.Left
	if ed.V[0] != v {
		f = ed.Right
	}
	if f == None {
		return None
	}
	// In face f the loop goes v -> w along e; the edge before v in the
	// loop joins u -> v; around v counter-clockwise, v->w is followed by v->u.
	in, _ := m.edgesAt(f, v)
	return in
}

// orderAround sorts vertex v's edges counter-clockwise (seen from outside)
// in place and reports whether they form a single fan.
func (m *Mesh) orderAround(v int32, buf []int32) ([]int32, bool) {
	es := m.VertEdges[m.VertStart[v]:m.VertStart[v+1]]
	if len(es) == 0 {
		return buf, true
	}
	// Start at a boundary edge whose left face (leaving v) is present and
	// which has no predecessor, if any: that is the edge e such that no
	// edge maps to it under nextAround.
	start := es[0]
	for _, e := range es {
		ed := m.Edges[e]
		if ed.Right == None && ed.V[0] == v { // boundary, face on left leaving v
			start = e
			break
		}
	}
	buf = append(buf, start)
	for e := m.nextAround(v, start); e != None && e != start; e = m.nextAround(v, e) {
		buf = append(buf, e)
		if len(buf) > len(es) {
			return buf, false
		}
	}
	if len(buf) != len(es) {
		return buf, false
	}
	copy(es, buf)
	return buf, true
}

// exactConvexLimit: meshes with NumFaces*NumVerts up to this use the
// quadratic all-vertices-below-all-planes test; larger ones use the linear
// certificate of checkConvexLinear.
const exactConvexLimit = 4 << 20

// checkConvex reports whether every vertex lies below every face plane
// within the tolerance. The mesh is closed, manifold and oriented.
func (m *Mesh) checkConvex() bool {
	tol := m.convexTol
	// Local test first: every edge's far-face vertices below the near plane.
	for _, e := range m.Edges {
		pl := m.Planes[e.Left]
		for _, v := range m.Face(int(e.Right)) {
			if pl.SignedDist(m.Verts[v]) > tol {
				return false
			}
		}
	}
	if m.NumFaces()*m.NumVerts() > exactConvexLimit {
		return m.checkConvexLinear()
	}
	for f := range m.Planes {
		pl := m.Planes[f]
		for _, v := range m.Verts {
			if pl.SignedDist(v) > tol {
				return false
			}
		}
	}
	return true
}

// checkConvexLinear completes the local (per-edge) convexity test in
// linear time, after Mehlhorn et al., "Checking geometric programs or
// verification of geometric structures" (1999): a closed oriented surface
// that is locally convex at every edge and vertex, has a point o strictly
// below every face plane, and has a ray from o that crosses exactly one
// face, bounds a convex body. Local convexity at a vertex is checked as a
// face-angle sum of at most 2 pi (a fan that wraps twice exceeds it).
func (m *Mesh) checkConvexLinear() bool {
	tol := m.convexTol
	var o geom.Vec3
	for _, v := range m.Verts {
		o = o.Add(v)
	}
	o = o.Scale(1 / float64(len(m.Verts)))
	for _, pl := range m.Planes {
		if pl.SignedDist(o) >= -tol {
			return false
		}
	}
	angle := make([]float64, len(m.Verts))
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		for k, v := range l {
			a := m.Verts[l[(k+len(l)-1)%len(l)]].Sub(m.Verts[v])
			b := m.Verts[l[(k+1)%len(l)]].Sub(m.Verts[v])
			angle[v] += math.Atan2(a.Cross(b).Norm(), a.Dot(b))
		}
	}
	for _, s := range angle {
		if s > 2*math.Pi+1e-9 {
			return false
		}
	}
	// Ray from o through the centroid of face 0: count the faces it
	// crosses (a point of the ray in the face's plane inside the polygon).
	var c geom.Vec3
	for _, v := range m.Face(0) {
		c = c.Add(m.Verts[v])
	}
	dir := c.Scale(1 / float64(len(m.Face(0)))).Sub(o)
	hits := 0
	for f, pl := range m.Planes {
		den := pl.N.Dot(dir)
		if den <= 0 {
			continue // o is below every plane: the ray leaves only through faces facing it
		}
		p := o.AddScaled(-pl.SignedDist(o)/den, dir)
		l := m.Face(f)
		inside := true
		for k, v := range l {
			a, b := m.Verts[v], m.Verts[l[(k+1)%len(l)]]
			if b.Sub(a).Cross(p.Sub(a)).Dot(pl.N) < -tol*b.Sub(a).Norm() {
				inside = false
				break
			}
		}
		if inside {
			hits++
		}
	}
	return hits == 1
}

// RequireSolid returns an *Error naming the first edge that keeps the mesh
// from bounding a solid: a boundary edge, an edge with more than two faces,
// or an inconsistently oriented edge; or an error when the enclosed volume is
// not positive (faces oriented inwards).
//
// Non-manifold vertices are accepted: a closed surface where two sheets
// touch at a single vertex (the cow of the common test models; two cubes
// sharing a corner) still bounds a solid, every edge has exactly two faces
// traversed once in each direction, and the volume, inside/outside and
// face normals are all well defined. What does not hold at such a vertex is
// the counter-clockwise order of VertexEdges (it is unspecified there, and
// Manifold reports false); RequireManifoldSolid also refuses them, for
// algorithms that walk the fan around a vertex.
func (m *Mesh) RequireSolid() error {
	// Closed and Oriented, computed by New, are exactly the edge tests
	// below; only a mesh failing them needs the search for the culprit.
	for i, e := range m.Edges {
		if m.closed && m.oriented {
			break
		}
		switch {
		case e.NumFaces == 1:
			return &Error{Face: None, Vertex: None, Edge: i, Msg: fmt.Sprintf("boundary edge %d-%d has only face %d (mesh is not closed; use it as a soup, or close the hole)", e.V[0], e.V[1], e.Left)}
		case e.NumFaces > 2:
			return &Error{Face: None, Vertex: None, Edge: i, Msg: fmt.Sprintf("edge %d-%d is shared by %d faces (non-manifold), among them %d and %d", e.V[0], e.V[1], e.NumFaces, e.Left, e.Right)}
		}
	}
	for i, e := range m.Edges {
		if m.oriented {
			break
		}
		if e.Right != None && m.sameDirection(i) {
			return &Error{Face: None, Vertex: None, Edge: i, Msg: fmt.Sprintf("faces %d and %d traverse edge %d-%d in the same direction (inconsistent orientation; meshio's Soup.Orient repairs it)", e.Left, e.Right, e.V[0], e.V[1])}
		}
	}
	if vol, abs := m.volumeAbs(); !(vol > solidVolumeRel*abs) {
		return &Error{Face: None, Vertex: None, Edge: None, Msg: fmt.Sprintf("enclosed volume is %g, not positive beyond rounding (%g of the faces' cone volumes %g: faces oriented inwards, or a two-sided surface enclosing nothing? meshio's Soup.Orient turns closed parts outward)", vol, solidVolumeRel, abs)}
	}
	return nil
}

// RequireManifoldSolid is RequireSolid that also refuses a vertex whose
// faces do not form a single fan (a non-manifold vertex), naming it.
func (m *Mesh) RequireManifoldSolid() error {
	if err := m.RequireSolid(); err != nil {
		return err
	}
	if !m.manifold {
		for v := range m.Verts {
			if !m.fanConnected(int32(v)) {
				return &Error{Face: None, Vertex: v, Edge: None, Msg: "faces around the vertex do not form a single fan (non-manifold vertex)"}
			}
		}
	}
	return nil
}

// solidVolumeRel is the fraction of the sum of the faces' unsigned cone
// volumes (volumeAbs) that the enclosed volume of a solid must exceed: a
// two-sided surface (every face twice, once each way) encloses nothing, but
// its computed volume is the rounding of cancelling terms, about 1e-16 of
// their sum, and may be positive; a solid's is a sizeable fraction of it
// (all of it for a convex body seen from its box centre).
const solidVolumeRel = 1e-9

// volumeAbs returns Volume and the sum of the absolute values of its cone
// terms, the scale of its rounding.
func (m *Mesh) volumeAbs() (vol, abs float64) {
	o := m.bounds.Center()
	for f := 0; f < m.NumFaces(); f++ {
		l := m.Face(f)
		a := m.Verts[l[0]].Sub(o)
		for k := 1; k+1 < len(l); k++ {
			x := a.Dot(m.Verts[l[k]].Sub(o).Cross(m.Verts[l[k+1]].Sub(o)))
			vol += x
			abs += math.Abs(x)
		}
	}
	return vol / 6, abs / 6
}

// RequireConvex returns nil when the mesh is a closed convex solid
// (Convex reports true), else an error that says why: RequireManifoldSolid's
// error, or an *Error naming the vertex furthest outside a face plane and
// that face, with the distance and the tolerance.
func (m *Mesh) RequireConvex() error {
	if err := m.RequireManifoldSolid(); err != nil {
		return err
	}
	if m.convex {
		return nil
	}
	worst, wf, wv := 0.0, 0, 0
	for f, pl := range m.Planes {
		for v, p := range m.Verts {
			if d := pl.SignedDist(p); d > worst {
				worst, wf, wv = d, f, v
			}
		}
	}
	return &Error{Face: None, Vertex: wv, Edge: None, Msg: fmt.Sprintf("lies %.3g outside the plane of face %d (convexity tolerance %.3g): the mesh is not convex; use its convex hull (package hull) or a larger Options.ConvexTol", worst, wf, m.convexTol)}
}

// sameDirection reports whether both faces of edge i traverse it V[0]->V[1].
func (m *Mesh) sameDirection(i int) bool {
	e := m.Edges[i]
	l := m.Face(int(e.Right))
	for k, v := range l {
		if v == e.V[0] && l[(k+1)%len(l)] == e.V[1] {
			return true
		}
	}
	return false
}
