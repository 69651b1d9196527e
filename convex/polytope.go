package convex

import (
	"fmt"
	"math"
	"sync"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
	"github.com/collide-go/collide/mesh"
)

// Size of the direction table of Sec. 2.4: TableRows bands of equal area
// (uniform in the z component of the direction) times TableCols sectors of
// azimuth, 8 x 16 as in the paper.
const (
	TableRows = 8
	TableCols = 16
)

// Polytope is a convex polytope prepared for supporting-vertex queries: its
// vertices in the local frame, neighbour lists and the 8 x 16 direction
// table (and the Dobkin-Kirkpatrick hierarchy, built at the first
// SupportDK). It is immutable after New and may be shared by any number of
// goroutines.
type Polytope struct {
	// The fields used by every query first (one cache line).
	verts    []geom.Vec3
	soa      *soa      // the vertices in soa layout when there are at most soaLen
	loc      []float64 // the vertices in blocks of four points when at most locMax
	centroid geom.Vec3 // average of the vertices (Sec. 2.4)
	radius   float64   // largest |v| over the vertices
	// The separating-axis test's data next to the above (the same cache
	// lines): the mesh's face planes and the edges (at most satMax
	// vertices).
	planes     []geom.Plane
	satEdges   []hullEdge
	faceGroups []float64 // the face normals in groups of four (satvec.go)
	// Neighbours of vertex v: adj[adjStart[v]:adjStart[v+1]], and for
	// each the mesh edge and the face leaving v along it (inc, the same
	// slots), so that feature lookups read the polytope's own compact
	// arrays instead of the mesh's edge records.
	adjStart []int32
	adj      []int32
	inc      []incidence
	// For a polytope above locMax vertices (hill climbing), the same
	// slots with the neighbour's coordinates inline: a climbing step
	// reads one run of memory instead of one cache line per neighbour.
	nbr  []neighbor
	mesh *mesh.Mesh // its face loops (before the table: the same lines as the above)
	// The direction table (512 bytes) and the rarely used fields last.
	table  [TableRows * TableCols]int32
	dkOnce sync.Once
	dk     hierarchy // built by hierarchy()
}

// incidence is an adjacency slot's mesh edge, the face whose loop leaves
// the slot's vertex along that edge and that face's unit normal (the
// faces around a vertex and their normals in one run of memory).
type incidence struct {
	edge, face int32
	n          geom.Vec3
}

// neighbor is an adjacency slot's vertex with its coordinates.
type neighbor struct {
	v geom.Vec3
	i int32
}

// slots returns the adjacency slots of vertex v: adj[k] and inc[k] for k
// in [lo, hi).
func (p *Polytope) slots(v int32) (lo, hi int32) { return p.adjStart[v], p.adjStart[v+1] }

// New prepares the closed convex mesh m. It returns an error when m is not
// closed, not convex (mesh.Mesh.Convex) or has a vertex on no edge.
func New(m *mesh.Mesh) (*Polytope, error) {
	if m == nil || m.NumVerts() < 4 {
		return nil, fmt.Errorf("convex: need a closed mesh with at least 4 vertices")
	}
	if err := m.RequireSolid(); err != nil {
		return nil, fmt.Errorf("convex: mesh is not a solid: %w", err)
	}
	if !m.Convex() {
		return nil, fmt.Errorf("convex: mesh is not convex (a vertex lies more than %g outside a face plane)", m.ConvexTol())
	}
	n := m.NumVerts()
	p := &Polytope{mesh: m, verts: make([]geom.Vec3, n), adjStart: make([]int32, n+1), planes: m.Planes}
	copy(p.verts, m.Verts)
	for v := 0; v < n; v++ {
		es := m.VertexEdges(v)
		if len(es) == 0 {
			return nil, fmt.Errorf("convex: vertex %d is on no edge", v)
		}
		for _, ei := range es {
			e := &m.Edges[ei]
			p.adj = append(p.adj, e.Other(int32(v)))
			fc := faceLeaving(e.V, e.Left, e.Right, int32(v))
			p.inc = append(p.inc, incidence{edge: ei, face: fc, n: m.Planes[fc].N})
		}
		p.adjStart[v+1] = int32(len(p.adj))
	}
	var c geom.Vec3
	for _, v := range p.verts {
		c = c.Add(v)
		p.radius = math.Max(p.radius, math.Sqrt(v.Dot(v)))
	}
	p.centroid = c.Scale(1 / float64(n))
	for i := range p.table {
		p.table[i], _ = p.SupportBrute(tableDir(i))
	}
	if n <= soaLen {
		p.soa = newSoa(p.verts)
	}
	if n <= locMax {
		p.loc = newLoc(p.verts)
	} else {
		p.nbr = make([]neighbor, len(p.adj))
		for k, u := range p.adj {
			p.nbr[k] = neighbor{v: p.verts[u], i: u}
		}
	}
	if n <= satMax && m.NumFaces() <= 2*satMax-4 {
		p.satEdges = newHullEdges(p)
		p.faceGroups = newFaceGroups(m.Planes)
	}
	return p, nil
}

// at returns vertex i (local frame): from the vector scan's blocks when p
// has them (a query reads the vertices it found from the cache lines the
// scan brought in; the same numbers as verts), else from verts.
func (p *Polytope) at(i int32) geom.Vec3 {
	if p.loc != nil {
		return locAt(p.loc, i)
	}
	return p.verts[i]
}

// Mesh returns the mesh p was built from.
func (p *Polytope) Mesh() *mesh.Mesh { return p.mesh }

// NumVerts returns the number of vertices.
func (p *Polytope) NumVerts() int { return len(p.verts) }

// Vertex returns vertex i in the local frame.
func (p *Polytope) Vertex(i int) geom.Vec3 { return p.verts[i] }

// Neighbors returns the vertices joined to v by an edge. The slice aliases
// p; do not modify it.
func (p *Polytope) Neighbors(v int) []int32 { return p.adj[p.adjStart[v]:p.adjStart[v+1]] }

// Centroid returns the average of the vertices (local frame).
func (p *Polytope) Centroid() geom.Vec3 { return p.centroid }

// Radius returns the largest distance of a vertex from the local origin
// (the bounding radius of the benchmark format's judge).
func (p *Polytope) Radius() float64 { return p.radius }

// HierarchyLevels returns the number of levels of the Dobkin-Kirkpatrick
// hierarchy including the polytope itself, and the number of vertices of
// the coarsest level.
func (p *Polytope) HierarchyLevels() (levels, top int) {
	h := p.hierarchy()
	top = len(h.topIDs())
	if top == 0 {
		top = len(p.verts)
	}
	return len(h.levels) + 1, top
}

// hierarchy returns the Dobkin-Kirkpatrick hierarchy, building it at the
// first call: no query of the package needs it (the direction table and
// hill climbing find supporting vertices from scratch faster on the
// benchmark polytopes, BenchmarkSupport), so New does not spend the time.
func (p *Polytope) hierarchy() *hierarchy {
	p.dkOnce.Do(func() { p.dk = buildHierarchy(p) })
	return &p.dk
}

// SupportBrute returns a vertex maximising d . v (local direction d) and
// the maximum, by scanning all vertices. It is the reference for the
// faster searches.
func (p *Polytope) SupportBrute(d geom.Vec3) (int32, float64) {
	best, h := int32(0), math.Inf(-1)
	for i, v := range p.verts {
		if s := d.Dot(v); s > h {
			best, h = int32(i), s
		}
	}
	return best, h
}

// SupportFrom returns a supporting vertex of p in the local direction d
// and d . v, by hill climbing from vertex start (Sec. 2.3): move to the
// neighbour with the largest d . v while that increases. On a convex
// polytope a vertex no neighbour improves on is a supporting vertex.
func (p *Polytope) SupportFrom(d geom.Vec3, start int32) (int32, float64) {
	if p.nbr == nil {
		return supportClimb(p.verts, p.adj, p.adjStart, d, start)
	}
	// supportClimb's steps and arithmetic (the same vertex), on the
	// neighbours stored with their coordinates.
	dx, dy, dz := d.X, d.Y, d.Z
	v := start
	w := &p.verts[v]
	h := dx*w.X + dy*w.Y + dz*w.Z
	for {
		best := v
		nb := p.nbr[p.adjStart[v]:p.adjStart[v+1]]
		for k := range nb {
			u := &nb[k]
			if s := dx*u.v.X + dy*u.v.Y + dz*u.v.Z; s > h {
				h, best = s, u.i
			}
		}
		if best == v {
			return v, h
		}
		v = best
	}
}

// Support returns a supporting vertex in direction d from scratch: the
// table entry for d refined by hill climbing.
func (p *Polytope) Support(d geom.Vec3) (int32, float64) {
	return p.SupportFrom(d, p.table[tableIndex(d)])
}

// tan(22.5 degrees), the sector boundary inside an octant.
const tan225 = 0.41421356237309503

// tableIndex returns the cell of direction d: row by the z component of the
// unit direction (8 bands of equal area), column by azimuth (16 sectors of
// 22.5 degrees), computed without trigonometry.
func tableIndex(d geom.Vec3) int {
	n2 := d.X*d.X + d.Y*d.Y + d.Z*d.Z
	if !(n2 > 0) || math.IsInf(n2, 0) {
		return 0
	}
	return tableIndexUnit(geom.Vec3{X: d.X, Y: d.Y, Z: d.Z / math.Sqrt(n2)})
}

// tableIndexUnit is tableIndex for a unit direction (only d.Z's scale
// matters; rounding of the length only moves directions across a cell
// border, which changes the starting vertex, not the answer).
func tableIndexUnit(d geom.Vec3) int {
	z := d.Z
	row := int((z + 1) * (TableRows / 2))
	if row >= TableRows {
		row = TableRows - 1
	} else if !(row >= 0) {
		row = 0
	}
	// Azimuth sector: quadrant from signs, then 4 sectors of 22.5 degrees
	// inside the quadrant (angle measured from the quadrant's first axis).
	x, y := d.X, d.Y
	var q int
	switch {
	case x >= 0 && y >= 0:
		q = 0
	case x < 0 && y >= 0:
		q, x, y = 1, y, -x
	case x < 0:
		q, x, y = 2, -x, -y
	default:
		q, x, y = 3, -y, x
	}
	// Now x >= 0, y >= 0 (angle in [0, 90] degrees).
	var s int
	switch {
	case y <= x*tan225:
		s = 0
	case y <= x:
		s = 1
	case x > y*tan225:
		s = 2
	default:
		s = 3
	}
	return row*TableCols + q*4 + s
}

// tableDir returns the centre direction of table cell i.
func tableDir(i int) geom.Vec3 {
	row, col := i/TableCols, i%TableCols
	z := (float64(row)+0.5)/(TableRows/2) - 1
	phi := (float64(col) + 0.5) * 2 * math.Pi / TableCols
	r := math.Sqrt(1 - z*z)
	return geom.Vec3{X: r * math.Cos(phi), Y: r * math.Sin(phi), Z: z}
}

// FromPoints returns the polytope of the convex hull of pts (package hull,
// Quickhull with exact orientation tests). It returns the hull's error for
// fewer than 4 points, coplanar sets and non-finite coordinates.
func FromPoints(pts []geom.Vec3) (*Polytope, error) {
	m, err := hull.New(pts, nil)
	if err != nil {
		return nil, fmt.Errorf("convex: %w", err)
	}
	return New(m)
}
