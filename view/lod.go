package view

import (
	"container/heap"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Levels of detail: a body small on screen is drawn with a simplified
// version of its mesh, built here by edge collapse under the quadric error
// metric (Garland and Heckbert, "Surface simplification using quadric error
// metrics", SIGGRAPH 1997, sections 3-5): each vertex carries the sum of the
// squared-distance quadrics of the planes of its faces; the edge whose
// contraction costs least is contracted next, to the best of its two ends
// and its midpoint. A contraction is refused when it would turn a face over
// (by more than about 70 degrees), pinch the surface (the two ends share
// other neighbours than the two faces of the edge), or move a vertex on the
// rim of an open surface. The page picks, per body and frame, the coarsest
// level whose error is under two pixels on screen.

// lodLevel is one simplified version of a mesh.
type lodLevel struct {
	verts []float32 // x y z per vertex, in the mesh's frame
	idx   []uint32  // triangles, counter-clockwise from outside
	// err bounds the distance between the two surfaces at their vertices:
	// every vertex of the mesh is within err of the level's triangles and
	// every vertex of the level within err of the mesh's triangles.
	err float64
}

const (
	lodMaxLevels = 3  // coarser levels per mesh
	lodMinTris   = 16 // no level is made with fewer triangles
)

// triangles fan-triangulates the faces of m.
func triangles(m *mesh.Mesh) []uint32 {
	var idx []uint32
	for f := 0; f+1 < len(m.FaceStart); f++ {
		loop := m.FaceVerts[m.FaceStart[f]:m.FaceStart[f+1]]
		for k := 1; k+1 < len(loop); k++ {
			idx = append(idx, uint32(loop[0]), uint32(loop[k]), uint32(loop[k+1]))
		}
	}
	return idx
}

// quadric is a symmetric 4x4 matrix: a00 a01 a02 a03 a11 a12 a13 a22 a23 a33.
type quadric [10]float64

func planeQuadric(n geom.Vec3, d, w float64) quadric {
	return quadric{w * n.X * n.X, w * n.X * n.Y, w * n.X * n.Z, w * n.X * d, w * n.Y * n.Y, w * n.Y * n.Z, w * n.Y * d,
		w * n.Z * n.Z, w * n.Z * d, w * d * d}
}

func (q *quadric) add(r *quadric) {
	for i := range q {
		q[i] += r[i]
	}
}

// cost is [p 1] q [p 1]ᵀ.
func (q *quadric) cost(p geom.Vec3) float64 {
	x, y, z := p.X, p.Y, p.Z
	return q[0]*x*x + 2*q[1]*x*y + 2*q[2]*x*z + 2*q[3]*x + q[4]*y*y + 2*q[5]*y*z + 2*q[6]*y + q[7]*z*z + 2*q[8]*z + q[9]
}

// collapse is a candidate edge contraction, valid while both ends have the
// stamps they had when it was made.
type collapse struct {
	cost           float64
	u, v           int32
	stampU, stampV int32
	to             geom.Vec3
}

type collapses []collapse

func (h collapses) Len() int           { return len(h) }
func (h collapses) Less(i, j int) bool { return h[i].cost < h[j].cost }
func (h collapses) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *collapses) Push(x any)        { *h = append(*h, x.(collapse)) }
func (h *collapses) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// simplifier holds the surface being simplified.
type simplifier struct {
	pos    []geom.Vec3
	q      []quadric
	stamp  []int32
	dead   []bool
	locked []bool     // on the rim of an open surface (or a non-manifold edge)
	tri    [][3]int32 // corners; tri[f][0] < 0 once gone
	faces  [][]int32  // faces of each vertex (some may be gone)
	live   int
	heap   collapses
}

func newSimplifier(verts []geom.Vec3, tris []uint32) *simplifier {
	s := &simplifier{pos: append([]geom.Vec3(nil), verts...), q: make([]quadric, len(verts)), stamp: make([]int32, len(verts)),
		dead: make([]bool, len(verts)), locked: make([]bool, len(verts)), faces: make([][]int32, len(verts))}
	edges := map[[2]int32]int{}
	var order [][2]int32 // the edges in the order met, so the result is the same every run
	for k := 0; k+2 < len(tris); k += 3 {
		t := [3]int32{int32(tris[k]), int32(tris[k+1]), int32(tris[k+2])}
		f := int32(len(s.tri))
		s.tri = append(s.tri, t)
		s.live++
		n := s.pos[t[1]].Sub(s.pos[t[0]]).Cross(s.pos[t[2]].Sub(s.pos[t[0]]))
		area := n.Norm() / 2
		if un, ok := n.Normalize(); ok {
			pq := planeQuadric(un, -un.Dot(s.pos[t[0]]), area)
			for _, c := range t {
				s.q[c].add(&pq)
			}
		}
		for j, c := range t {
			s.faces[c] = append(s.faces[c], f)
			a, b := c, t[(j+1)%3]
			e := [2]int32{min(a, b), max(a, b)}
			if edges[e] == 0 {
				order = append(order, e)
			}
			edges[e]++
		}
	}
	for _, e := range order {
		if edges[e] != 2 {
			s.locked[e[0]], s.locked[e[1]] = true, true
		}
	}
	for _, e := range order {
		s.consider(e[0], e[1])
	}
	return s
}

// neighbours appends the vertices sharing a live face with v.
func (s *simplifier) neighbours(v int32, out []int32) []int32 {
	for _, f := range s.faces[v] {
		t := s.tri[f]
		if t[0] < 0 {
			continue
		}
		for _, c := range t {
			if c != v && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// consider pushes the contraction of edge u-v at its best place.
func (s *simplifier) consider(u, v int32) {
	if s.locked[u] || s.locked[v] || s.dead[u] || s.dead[v] {
		return
	}
	q := s.q[u]
	q.add(&s.q[v])
	best := collapse{cost: math.Inf(1), u: u, v: v, stampU: s.stamp[u], stampV: s.stamp[v]}
	for _, p := range []geom.Vec3{s.pos[u], s.pos[v], s.pos[u].Add(s.pos[v]).Scale(0.5)} {
		if c := q.cost(p); c < best.cost {
			best.cost, best.to = c, p
		}
	}
	heap.Push(&s.heap, best)
}

// allowed reports whether moving u and v to p keeps every other face around
// them turned the same way and the surface manifold.
func (s *simplifier) allowed(u, v int32, p geom.Vec3) bool {
	nu := s.neighbours(u, nil)
	nv := s.neighbours(v, nil)
	shared := 0
	for _, w := range nu {
		if slices.Contains(nv, w) {
			shared++
		}
	}
	if shared != 2 {
		return false
	}
	for _, w := range [2]int32{u, v} {
		for _, f := range s.faces[w] {
			t := s.tri[f]
			if t[0] < 0 || (slices.Contains(t[:], u) && slices.Contains(t[:], v)) {
				continue
			}
			var a, b [3]geom.Vec3
			for j, c := range t {
				a[j] = s.pos[c]
				b[j] = a[j]
				if c == w {
					b[j] = p
				}
			}
			n0 := a[1].Sub(a[0]).Cross(a[2].Sub(a[0]))
			n1 := b[1].Sub(b[0]).Cross(b[2].Sub(b[0]))
			if n1.Dot(n0) <= 0.3*n0.Norm()*n1.Norm() {
				return false
			}
		}
	}
	return true
}

// step contracts the cheapest allowed edge; it reports false when none is
// left.
func (s *simplifier) step() bool {
	for s.heap.Len() > 0 {
		c := heap.Pop(&s.heap).(collapse)
		u, v := c.u, c.v
		if s.dead[u] || s.dead[v] || s.stamp[u] != c.stampU || s.stamp[v] != c.stampV {
			continue
		}
		if !s.allowed(u, v, c.to) {
			continue
		}
		for _, f := range s.faces[v] {
			t := &s.tri[f]
			if t[0] < 0 {
				continue
			}
			if slices.Contains(t[:], u) {
				t[0] = -1
				s.live--
				continue
			}
			for j := range t {
				if t[j] == v {
					t[j] = u
				}
			}
			s.faces[u] = append(s.faces[u], f)
		}
		s.dead[v] = true
		s.faces[v] = nil
		s.pos[u] = c.to
		s.q[u].add(&s.q[v])
		s.stamp[u]++
		// Drop the gone faces from u's list and offer u's edges again.
		kept := s.faces[u][:0]
		for _, f := range s.faces[u] {
			if s.tri[f][0] >= 0 && !slices.Contains(kept, f) {
				kept = append(kept, f)
			}
		}
		s.faces[u] = kept
		for _, w := range s.neighbours(u, nil) {
			s.consider(u, w)
		}
		return true
	}
	return false
}

// level returns the live surface with its vertices renumbered.
func (s *simplifier) level() lodLevel {
	var l lodLevel
	num := make([]int32, len(s.pos))
	for i := range num {
		num[i] = -1
	}
	for _, t := range s.tri {
		if t[0] < 0 {
			continue
		}
		for _, c := range t {
			if num[c] < 0 {
				num[c] = int32(len(l.verts) / 3)
				l.verts = append(l.verts, float32(s.pos[c].X), float32(s.pos[c].Y), float32(s.pos[c].Z))
			}
			l.idx = append(l.idx, uint32(num[c]))
		}
	}
	return l
}

// lodLevels returns coarser levels of the mesh of vertices verts and
// triangles tris, finest first, each with at most half the triangles of the
// one before (the mesh itself for the first).
func lodLevels(verts []geom.Vec3, tris []uint32) []lodLevel {
	var out []lodLevel
	s := newSimplifier(verts, tris)
	target := s.live / 2
	for len(out) < lodMaxLevels && target >= lodMinTris {
		for s.live > target && s.step() {
		}
		if s.live > target {
			break
		}
		l := s.level()
		l.err = surfaceGap(verts, tris, l)
		out = append(out, l)
		target = s.live / 2
	}
	return out
}

// surfaceGap is the largest distance from a vertex of either surface to the
// other surface's triangles.
func surfaceGap(verts []geom.Vec3, tris []uint32, l lodLevel) float64 {
	lv := make([]geom.Vec3, len(l.verts)/3)
	for i := range lv {
		lv[i] = geom.Vec3{X: float64(l.verts[3*i]), Y: float64(l.verts[3*i+1]), Z: float64(l.verts[3*i+2])}
	}
	return math.Max(newTriGrid(lv, l.idx).farthest(verts), newTriGrid(verts, tris).farthest(lv))
}

// triGrid buckets triangles by the cells of a uniform grid their bounding
// boxes overlap, for nearest-triangle queries.
type triGrid struct {
	vs    []geom.Vec3
	idx   []uint32
	lo    geom.Vec3
	cell  float64
	n     [3]int
	cells map[[3]int][]int32
}

func newTriGrid(vs []geom.Vec3, idx []uint32) *triGrid {
	g := &triGrid{vs: vs, idx: idx, cells: map[[3]int][]int32{}}
	box := geom.EmptyAABB()
	for _, k := range idx {
		box = box.AddPoint(vs[k])
	}
	ext := box.Max.Sub(box.Min)
	size := math.Max(ext.X, math.Max(ext.Y, ext.Z))
	per := math.Max(1, math.Ceil(math.Cbrt(float64(len(idx)/3))))
	g.lo, g.cell = box.Min, math.Max(size/per, 1e-12)
	for a, e := range [3]float64{ext.X, ext.Y, ext.Z} {
		g.n[a] = max(1, int(math.Ceil(e/g.cell)))
	}
	for t := 0; t+2 < len(idx); t += 3 {
		b := geom.EmptyAABB().AddPoint(vs[idx[t]]).AddPoint(vs[idx[t+1]]).AddPoint(vs[idx[t+2]])
		c0, c1 := g.at(b.Min), g.at(b.Max)
		for x := c0[0]; x <= c1[0]; x++ {
			for y := c0[1]; y <= c1[1]; y++ {
				for z := c0[2]; z <= c1[2]; z++ {
					g.cells[[3]int{x, y, z}] = append(g.cells[[3]int{x, y, z}], int32(t))
				}
			}
		}
	}
	return g
}

// at is the cell of p, clamped to the grid.
func (g *triGrid) at(p geom.Vec3) [3]int {
	var c [3]int
	for a, x := range [3]float64{p.X - g.lo.X, p.Y - g.lo.Y, p.Z - g.lo.Z} {
		c[a] = min(max(int(math.Floor(x/g.cell)), 0), g.n[a]-1)
	}
	return c
}

// dist is the distance from p to the nearest triangle: the cells in shells
// of growing radius around p's cell, until the shell is farther than the
// nearest triangle found.
func (g *triGrid) dist(p geom.Vec3) float64 {
	best := math.Inf(1)
	c := g.at(p)
	// p's distance to its (clamped) cell's box bounds how near any
	// triangle of shell r can be: (r - 1) cells plus that.
	cb := geom.AABB{Min: g.lo.Add(geom.Vec3{X: float64(c[0]), Y: float64(c[1]), Z: float64(c[2])}.Scale(g.cell))}
	cb.Max = cb.Min.Add(geom.Vec3{X: g.cell, Y: g.cell, Z: g.cell})
	out := geom.Vec3{X: math.Max(0, math.Max(cb.Min.X-p.X, p.X-cb.Max.X)), Y: math.Max(0, math.Max(cb.Min.Y-p.Y, p.Y-cb.Max.Y)),
		Z: math.Max(0, math.Max(cb.Min.Z-p.Z, p.Z-cb.Max.Z))}.Norm()
	for r := 0; r <= max(g.n[0], g.n[1], g.n[2]); r++ {
		if r > 0 && out+float64(r-1)*g.cell > best {
			break
		}
		for x := c[0] - r; x <= c[0]+r; x++ {
			for y := c[1] - r; y <= c[1]+r; y++ {
				for z := c[2] - r; z <= c[2]+r; z++ {
					if max(abs(x-c[0]), abs(y-c[1]), abs(z-c[2])) != r {
						continue
					}
					for _, t := range g.cells[[3]int{x, y, z}] {
						_, _, q := geom.ClosestTrianglePoint(p, g.vs[g.idx[t]], g.vs[g.idx[t+1]], g.vs[g.idx[t+2]])
						best = math.Min(best, q.Sub(p).Norm())
					}
				}
			}
		}
	}
	return best
}

// farthest is the largest distance from a point of ps to the triangles.
func (g *triGrid) farthest(ps []geom.Vec3) float64 {
	worst := 0.0
	for _, p := range ps {
		worst = math.Max(worst, g.dist(p))
	}
	return worst
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
