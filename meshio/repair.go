package meshio

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/earclip"
	"github.com/collide-go/collide/mesh"
)

// DefaultWeldTol is the default welding tolerance of Repair, as a fraction
// of the diagonal of the soup's bounding box. It is above the rounding of
// coordinates stored as float32 (STL) or printed with 7 significant digits,
// and at the scale below which mesh.New already calls a triangle degenerate
// (DefaultAreaTol 1e-14 of the squared diagonal is a triangle whose sides
// are about 1e-7 of the diagonal).
const DefaultWeldTol = 1e-7

// Weld merges vertices that lie within distance tol (absolute, in the
// soup's length unit) of an earlier kept vertex: vertices are visited in
// file order, and each is merged into the lowest-numbered kept vertex
// within tol, or kept. With tol = 0 only vertices with identical
// coordinates (-0 equal to +0) merge. Merging is not transitive: two
// vertices 1.5 tol apart both stay when neither is within tol of the
// other's representative. Distances are compared in floating point, and a
// tol below 2^-40 of the soup's extent acts as 0 (the grid that finds
// neighbours in expected linear time cannot be that fine).
//
// Faces are renumbered; a face that loses corners to the merge keeps its
// remaining distinct corners in order (consecutive repeats removed) and is
// dropped when fewer than three remain or a corner still repeats. Vertices
// no face uses afterwards are kept (use DropUnused). VertPos of a kept
// vertex stays its own position. It returns the number of vertices merged
// away and the number of faces dropped. A negative or NaN tol merges
// nothing.
func (s *Soup) Weld(tol float64) (merged, dropped int) {
	if !(tol >= 0) || len(s.Verts) == 0 {
		return 0, 0
	}
	box := geom.AABBOf(s.Verts...)
	if ext := box.Size().MaxAbs(); tol > 0 && !(ext/tol < 1<<40) {
		// So fine a grid would be dominated by rounding in the cell
		// coordinates (and need more cells than keys can hold); distinct
		// coordinates are then almost all further apart than tol, and
		// only identical ones merge.
		tol = 0
	}
	remap := make([]int32, len(s.Verts))
	var kept []geom.Vec3
	var keptPos []int64
	keep := func(i int, p geom.Vec3) int32 {
		k := int32(len(kept))
		kept = append(kept, p)
		if i < len(s.VertPos) {
			keptPos = append(keptPos, s.VertPos[i])
		}
		return k
	}
	if tol == 0 {
		idx := make(map[geom.Vec3]int32, len(s.Verts))
		for i, p := range s.Verts {
			p = p.Add(geom.Vec3{}) // -0 + 0 = +0: one key for both zeros
			k, ok := idx[p]
			if !ok {
				k = keep(i, s.Verts[i])
				idx[p] = k
			}
			remap[i] = k
		}
	} else {
		// A grid of cells of side 2 tol: a vertex within tol of p lies in
		// p's cell or, along each axis, in the neighbour on the side of
		// the cell that p is nearer to: 8 cells. Cells are hashed to 64
		// bits (distinct cells sharing a hash only cost distance tests).
		side := 2 * tol
		hash := func(x, y, z int64) uint64 {
			h := uint64(x)*0x9E3779B97F4A7C15 ^ uint64(y)*0xC2B2AE3D27D4EB4F ^ uint64(z)*0x165667B19E3779F9
			h ^= h >> 29
			h *= 0xBF58476D1CE4E5B9
			return h ^ h>>32
		}
		grid := make(map[uint64][]int32)
		tol2 := tol * tol
		// A point seen before gets the answer it got then: the kept
		// vertices added since have higher numbers. Files that repeat
		// each corner (FCL's, STL-like soups) mostly take this path.
		seen := make(map[geom.Vec3]int32)
		for i, p := range s.Verts {
			key := p.Add(geom.Vec3{})
			if k, ok := seen[key]; ok {
				remap[i] = k
				continue
			}
			var c, n [3]int64
			d := p.Sub(box.Min)
			for a, x := range [3]float64{d.X, d.Y, d.Z} {
				q := x / side
				f := math.Floor(q)
				c[a], n[a] = int64(f), 1
				if q-f < 0.5 {
					n[a] = -1
				}
			}
			best := int32(-1)
			for k := range 8 {
				x, y, z := c[0], c[1], c[2]
				if k&1 != 0 {
					x += n[0]
				}
				if k&2 != 0 {
					y += n[1]
				}
				if k&4 != 0 {
					z += n[2]
				}
				for _, r := range grid[hash(x, y, z)] {
					if (best < 0 || r < best) && kept[r].Dist2(p) <= tol2 {
						best = r
					}
				}
			}
			if best < 0 {
				best = keep(i, p)
				h := hash(c[0], c[1], c[2])
				grid[h] = append(grid[h], best)
			}
			remap[i] = best
			seen[key] = best
		}
	}
	merged = len(s.Verts) - len(kept)
	s.Verts = kept
	if len(s.VertPos) > 0 {
		s.VertPos = keptPos
	}
	dropped = s.remapFaces(func(v int) int { return int(remap[v]) })
	return merged, dropped
}

// remapFaces renames every face corner by f, removes consecutive repeats
// and drops faces left with fewer than three corners or a repeated one,
// keeping FacePos and the parts in step. It returns the faces dropped.
func (s *Soup) remapFaces(f func(int) int) int {
	var out [][]int
	var pos []int64
	newIndex := make([]int, len(s.Faces)+1)
	flat := make([]int, 0, len(s.Faces)*3)
	for i, l := range s.Faces {
		newIndex[i] = len(out)
		start := len(flat)
		for _, v := range l {
			w := f(v)
			if len(flat) > start && flat[len(flat)-1] == w {
				continue
			}
			flat = append(flat, w)
		}
		loop := flat[start:]
		for len(loop) > 1 && loop[0] == loop[len(loop)-1] {
			loop = loop[:len(loop)-1]
		}
		if len(loop) < 3 || repeats(loop) {
			flat = flat[:start]
			continue
		}
		flat = flat[:start+len(loop)]
		out = append(out, flat[start:len(flat):len(flat)])
		if i < len(s.FacePos) {
			pos = append(pos, s.FacePos[i])
		}
	}
	newIndex[len(s.Faces)] = len(out)
	dropped := len(s.Faces) - len(out)
	s.Faces = out
	if len(s.FacePos) > 0 {
		s.FacePos = pos
	}
	s.renumberParts(newIndex)
	return dropped
}

// renumberParts maps every part's Start through newIndex (old face index
// to new, with one entry past the last face).
func (s *Soup) renumberParts(newIndex []int) {
	for _, ps := range [2][]Part{s.Objects, s.Groups} {
		for i := range ps {
			ps[i].Start = newIndex[min(ps[i].Start, len(newIndex)-1)]
		}
	}
}

func repeats(l []int) bool {
	for i, v := range l {
		if slices.Contains(l[i+1:], v) {
			return true
		}
	}
	return false
}

// DropUnused removes the vertices no face uses, renumbering the faces, and
// returns how many it removed.
func (s *Soup) DropUnused() int {
	used := make([]int32, len(s.Verts))
	for _, l := range s.Faces {
		for _, v := range l {
			used[v] = 1
		}
	}
	n := int32(0)
	for i := range used {
		if used[i] != 0 {
			s.Verts[n] = s.Verts[i]
			if i < len(s.VertPos) {
				s.VertPos[n] = s.VertPos[i]
			}
			used[i] = n
			n++
		} else {
			used[i] = -1
		}
	}
	removed := len(s.Verts) - int(n)
	s.Verts = s.Verts[:n]
	if len(s.VertPos) > int(n) {
		s.VertPos = s.VertPos[:n]
	}
	for _, l := range s.Faces {
		for k, v := range l {
			l[k] = int(used[v])
		}
	}
	return removed
}

// DropDuplicates removes every face whose set of corners equals that of an
// earlier face, whichever its orientation (two copies of a triangle, or a
// triangle and its reverse, as two-sided exports hold), and returns the
// number removed. The first copy stays.
func (s *Soup) DropDuplicates() int {
	small := make(map[[4]int32]struct{}, len(s.Faces)) // faces of up to 4 corners
	large := make(map[string]struct{})
	var key []byte
	var sorted []int
	return s.keepFaces(func(l []int) bool {
		sorted = append(sorted[:0], l...)
		slices.Sort(sorted)
		dup := false
		if len(sorted) <= 4 {
			k := [4]int32{-1, -1, -1, -1}
			for j, v := range sorted {
				k[j] = int32(v)
			}
			_, dup = small[k]
			small[k] = struct{}{}
		} else {
			key = key[:0]
			for _, v := range sorted {
				key = binary.LittleEndian.AppendUint32(key, uint32(v))
			}
			_, dup = large[string(key)]
			large[string(key)] = struct{}{}
		}
		return !dup
	})
}

// OrientReport says what Orient found and changed.
type OrientReport struct {
	// Components counts the groups of faces joined across edges with
	// exactly two faces; Closed counts those in which every edge has
	// exactly two faces.
	Components int `json:"components"`
	Closed     int `json:"closed"`
	// Flipped counts the faces whose loop Orient reversed.
	Flipped int `json:"flipped"`
	// NonOrientable counts components that admit no consistent
	// orientation (a Moebius strip or Klein bottle); their faces are left
	// as they were.
	NonOrientable int `json:"non_orientable"`
	// BoundaryEdges and NonManifoldEdges count edges with one face and
	// with more than two faces; such edges do not constrain orientation.
	BoundaryEdges    int `json:"boundary_edges"`
	NonManifoldEdges int `json:"non_manifold_edges"`
	// InwardClosed counts the closed components whose signed volume was
	// negative after making them consistent, and which were then turned
	// outward (they are counted in Flipped).
	InwardClosed int `json:"inward_closed"`
}

// Orient makes the faces' orientation consistent and outward, per
// connected component. Two faces sharing an edge that only they use must
// traverse it in opposite directions; Orient reverses loops (a
// breadth-first walk from each component's first face) until every such
// pair does. A closed component (every edge of it has exactly two faces)
// is then turned outward: its signed volume, summed over its faces about
// the centre of its bounding box, must be positive, else all its faces are
// reversed. An open component has no inside: of its two consistent
// orientations Orient keeps the one that reverses fewer faces. Edges with
// one face or more than two faces constrain nothing. Nested closed
// components (the wall of a cavity) are each turned outward on their own,
// so a hollow solid comes out as two overlapping solids; reverse the
// cavity's faces afterwards if that is not what is wanted.
func (s *Soup) Orient() OrientReport {
	var rep OrientReport
	nf := len(s.Faces)
	if nf == 0 {
		return rep
	}
	// Half-edges sorted by undirected edge.
	type half struct {
		key  uint64
		face int32
		fwd  bool // traverses the edge from its lower to its higher vertex
	}
	var hs []half
	for f, l := range s.Faces {
		for k, a := range l {
			b := l[(k+1)%len(l)]
			lo, hi := min(a, b), max(a, b)
			hs = append(hs, half{uint64(lo)<<32 | uint64(hi), int32(f), a < b})
		}
	}
	slices.SortFunc(hs, func(x, y half) int {
		if c := cmp.Compare(x.key, y.key); c != 0 {
			return c
		}
		return cmp.Compare(x.face, y.face)
	})
	// Constraints: neighbours across two-face edges, with whether the two
	// faces must have opposite flip states (same traversal direction).
	type link struct {
		other int32
		diff  bool
	}
	adj := make([][]link, nf)
	open := make([]bool, nf) // face has an edge that is not two-faced
	for i := 0; i < len(hs); {
		j := i
		for j < len(hs) && hs[j].key == hs[i].key {
			j++
		}
		switch n := j - i; {
		case n == 2 && hs[i].face != hs[i+1].face:
			a, b := hs[i], hs[i+1]
			d := a.fwd == b.fwd
			adj[a.face] = append(adj[a.face], link{b.face, d})
			adj[b.face] = append(adj[b.face], link{a.face, d})
		default:
			if n == 1 {
				rep.BoundaryEdges++
			} else {
				rep.NonManifoldEdges++
			}
			for k := i; k < j; k++ {
				open[hs[k].face] = true
			}
		}
		i = j
	}
	flip := make([]int8, nf) // -1 unvisited, 0 keep, 1 reverse
	for i := range flip {
		flip[i] = -1
	}
	var comp, queue []int32
	for f0 := range nf {
		if flip[f0] >= 0 {
			continue
		}
		rep.Components++
		comp = append(comp[:0], int32(f0))
		queue = append(queue[:0], int32(f0))
		flip[f0] = 0
		ok, closed := true, true
		for len(queue) > 0 {
			f := queue[0]
			queue = queue[1:]
			closed = closed && !open[f]
			for _, l := range adj[f] {
				want := flip[f]
				if l.diff {
					want = 1 - want
				}
				switch {
				case flip[l.other] < 0:
					flip[l.other] = want
					comp = append(comp, l.other)
					queue = append(queue, l.other)
				case flip[l.other] != want:
					ok = false
				}
			}
		}
		if !ok {
			rep.NonOrientable++
			for _, f := range comp {
				flip[f] = 0
			}
			continue
		}
		n := 0
		for _, f := range comp {
			n += int(flip[f])
		}
		if closed {
			rep.Closed++
			if s.componentVolume(comp, flip) < 0 {
				rep.InwardClosed++
				for _, f := range comp {
					flip[f] = 1 - flip[f]
				}
			}
		} else if 2*n > len(comp) {
			for _, f := range comp {
				flip[f] = 1 - flip[f]
			}
		}
	}
	for f, fl := range flip {
		if fl == 1 {
			slices.Reverse(s.Faces[f])
			rep.Flipped++
		}
	}
	return rep
}

// componentVolume returns six times the signed volume of the faces comp,
// each reversed where flip says so.
func (s *Soup) componentVolume(comp []int32, flip []int8) float64 {
	box := geom.EmptyAABB()
	for _, f := range comp {
		for _, v := range s.Faces[f] {
			box = box.AddPoint(s.Verts[v])
		}
	}
	o := box.Center()
	sum := 0.0
	for _, f := range comp {
		l := s.Faces[f]
		a := s.Verts[l[0]].Sub(o)
		t := 0.0
		for k := 1; k+1 < len(l); k++ {
			t += a.Dot(s.Verts[l[k]].Sub(o).Cross(s.Verts[l[k+1]].Sub(o)))
		}
		if flip[f] == 1 {
			t = -t
		}
		sum += t
	}
	return sum
}

// Triangulate splits faces of more than three corners into triangles and
// returns the number of faces it split. With all false only the faces that
// mesh.New would reject as not planar are split (their corners further
// than PlanarTol x diagonal from the plane through their centroid with
// Newell's normal; opt as for mesh.New, nil for the defaults), which is
// what a mesh with warped quadrilaterals (Blender's Suzanne) needs; with
// all true every polygon is split.
//
// The choice of triangles: a quadrilateral is cut along its shorter
// diagonal when both diagonals are inside it as seen along its Newell
// normal (the cut a renderer makes, and the one that bends a warped quad
// least), else along the one that is inside; a larger polygon is ear
// clipped in its projection on the plane of its Newell normal, taking the
// first ear in loop order, with a fan from its first corner when the
// projection folds over itself. Every triangle keeps the face's
// orientation and source position.
func (s *Soup) Triangulate(all bool, opt *mesh.Options) int {
	planarTol := mesh.DefaultPlanarTol
	if opt != nil && opt.PlanarTol > 0 {
		planarTol = opt.PlanarTol
	}
	tol := planarTol * geom.AABBOf(s.Verts...).Diagonal()
	var out [][]int
	var pos []int64
	newIndex := make([]int, len(s.Faces)+1)
	split := 0
	var tris [][3]int
	for i, l := range s.Faces {
		newIndex[i] = len(out)
		p := int64(0)
		if i < len(s.FacePos) {
			p = s.FacePos[i]
		}
		if len(l) == 3 || (!all && planar(s.Verts, l, tol)) {
			out = append(out, l)
			pos = append(pos, p)
			continue
		}
		split++
		tris = triangulateLoop(s.Verts, l, tris[:0])
		flat := make([]int, 0, 3*len(tris))
		for _, t := range tris {
			flat = append(flat, t[:]...)
			out = append(out, flat[len(flat)-3:len(flat):len(flat)])
			pos = append(pos, p)
		}
	}
	newIndex[len(s.Faces)] = len(out)
	s.Faces = out
	if len(s.FacePos) > 0 {
		s.FacePos = pos
	}
	s.renumberParts(newIndex)
	return split
}

// newell returns the Newell normal (twice the vector area) and the
// centroid of loop l.
func newell(vs []geom.Vec3, l []int) (n, c geom.Vec3) {
	for _, v := range l {
		c = c.Add(vs[v])
	}
	c = c.Scale(1 / float64(len(l)))
	for k, v := range l {
		n = n.Add(vs[v].Sub(c).Cross(vs[l[(k+1)%len(l)]].Sub(c)))
	}
	return n, c
}

// planar reports whether every corner of l lies within tol of the plane
// through its centroid with its Newell normal (a loop without a normal is
// left to mesh.New to report).
func planar(vs []geom.Vec3, l []int, tol float64) bool {
	n, c := newell(vs, l)
	u, ok := n.Normalize()
	if !ok {
		return true
	}
	for _, v := range l {
		if math.Abs(vs[v].Sub(c).Dot(u)) > tol {
			return false
		}
	}
	return true
}

// triangulateLoop appends a triangulation of loop l to dst (see
// Soup.Triangulate for the rule).
func triangulateLoop(vs []geom.Vec3, l []int, dst [][3]int) [][3]int {
	n, _ := newell(vs, l)
	u, w := n.Orthonormal()
	pt := make([][2]float64, len(l))
	for k, v := range l {
		pt[k] = [2]float64{vs[v].Dot(u), vs[v].Dot(w)}
	}
	cross := func(a, b, c int) float64 {
		return (pt[b][0]-pt[a][0])*(pt[c][1]-pt[a][1]) - (pt[b][1]-pt[a][1])*(pt[c][0]-pt[a][0])
	}
	if len(l) == 4 {
		// Diagonal 0-2 is inside when corners 1 and 3 turn left; 1-3
		// when corners 0 and 2 do.
		d02 := cross(0, 1, 2) > 0 && cross(2, 3, 0) > 0
		d13 := cross(1, 2, 3) > 0 && cross(3, 0, 1) > 0
		if d02 && d13 {
			d02 = vs[l[0]].Dist2(vs[l[2]]) <= vs[l[1]].Dist2(vs[l[3]])
		}
		switch {
		case d02:
			return append(dst, [3]int{l[0], l[1], l[2]}, [3]int{l[0], l[2], l[3]})
		case d13:
			return append(dst, [3]int{l[1], l[2], l[3]}, [3]int{l[1], l[3], l[0]})
		}
	}
	tris, _ := earclip.Triangulate(pt, nil, nil)
	for _, t := range tris {
		dst = append(dst, [3]int{l[t[0]], l[t[1]], l[t[2]]})
	}
	return dst
}

// RepairOptions choose what Repair does. The zero value welds with
// DefaultWeldTol, drops degenerate and duplicate faces and unused vertices,
// splits non-planar polygons and orients.
type RepairOptions struct {
	// WeldTol is the welding tolerance as a fraction of the bounding-box
	// diagonal (0 means DefaultWeldTol); WeldAbs, when positive, is an
	// absolute tolerance instead. WeldExact merges only vertices with
	// identical coordinates; NoWeld skips welding.
	WeldTol, WeldAbs  float64
	WeldExact, NoWeld bool
	// TriangulateAll splits every polygon, not only non-planar ones.
	TriangulateAll bool
	// NoOrient keeps the faces' orientation as read.
	NoOrient bool
	// Mesh are the tolerances of the mesh to be built (planarity and zero
	// area); nil means mesh.New's defaults.
	Mesh *mesh.Options
}

// RepairReport says what Repair changed.
type RepairReport struct {
	// WeldTol is the absolute welding tolerance used (0 with WeldExact or
	// NoWeld).
	WeldTol float64 `json:"weld_tol"`
	// Welded counts vertices merged into others, Unused the vertices no
	// face used afterwards (removed).
	Welded int `json:"welded"`
	Unused int `json:"unused"`
	// Collapsed counts faces the weld left with fewer than three distinct
	// corners, Degenerate the faces of zero area dropped afterwards (see
	// DropDegenerate), Duplicates the copies of other faces dropped.
	Collapsed  int `json:"collapsed"`
	Degenerate int `json:"degenerate"`
	Duplicates int `json:"duplicates"`
	// Triangulated counts the polygons split into triangles.
	Triangulated int `json:"triangulated"`
	// Orient is the orientation report (zero when NoOrient).
	Orient OrientReport `json:"orient"`
}

// Repair cleans a soup read from a file so that it builds a mesh with
// adjacency, in this order: Weld (the tolerance relative to the bounding
// box diagonal, DefaultWeldTol unless set), DropDegenerate, DropDuplicates,
// Triangulate (non-planar polygons, or all), DropUnused, Orient. Each step
// is also available on its own. FacePos, VertPos and the OBJ parts stay in
// step, so errors from Mesh still name the source line of a face.
func (s *Soup) Repair(opt *RepairOptions) RepairReport {
	var o RepairOptions
	if opt != nil {
		o = *opt
	}
	var r RepairReport
	if !o.NoWeld {
		r.WeldTol = o.WeldAbs
		if o.WeldExact {
			r.WeldTol = 0
		} else if !(r.WeldTol > 0) {
			rel := o.WeldTol
			if !(rel > 0) {
				rel = DefaultWeldTol
			}
			r.WeldTol = rel * geom.AABBOf(s.Verts...).Diagonal()
		}
		r.Welded, r.Collapsed = s.Weld(r.WeldTol)
	}
	r.Degenerate = s.DropDegenerate(o.Mesh)
	r.Duplicates = s.DropDuplicates()
	r.Triangulated = s.Triangulate(o.TriangulateAll, o.Mesh)
	r.Unused = s.DropUnused()
	if !o.NoOrient {
		r.Orient = s.Orient()
	}
	return r
}
