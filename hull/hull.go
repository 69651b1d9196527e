// Package hull computes the 3D convex hull of a point set as a closed convex
// mesh.Mesh with merged coplanar faces (issue 2, item 6): the convex
// polytopes of Chung and Wang (Sec. 6) and the convex pieces of the other
// papers' experiments are built through it.
//
// The algorithm is Quickhull (Barber, Dobkin and Huhdanpaa, 1996) with
// exact visibility decisions: a point is outside a triangle exactly when
// robust.Orient3D says so, so the triangulated hull is always a valid
// closed convex surface, whatever the duplicates, coplanar or nearly
// coplanar points. A second pass then makes the result usable with
// floating-point planes: adjacent triangles whose vertices lie within a
// tolerance of a common plane are merged into one polygonal face, vertices
// inside a merged face or on the straight boundary between two faces are
// dropped. Every hull vertex is an input point (coordinates copied bit for
// bit), and every input point lies below every face plane up to the
// tolerance.
//
// Limits, plainly: a face's floating-point plane is accurate only to about
// the rounding error times diameter over the face's width, so hulls with
// needle-shaped faces narrower than about 1e-7 of the diameter can fail
// mesh.Convex's 1e-9 check, and in such adversarial inputs a point that
// sticks out by less than about 1e-8 of the diameter may be merged away.
// Coordinates beyond about 1e150 in magnitude overflow mesh.New's area
// computation and are reported as an error.
package hull

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/robust"
)

// DefaultTol is the default merge tolerance, relative to the diagonal of
// the points' bounding box.
const DefaultTol = 1e-10

// Options tune New. The zero value means the documented defaults.
type Options struct {
	// Tol is the merge tolerance as a fraction of the diagonal of the
	// points' bounding box (default DefaultTol). Points within Tol of a
	// face's plane count as on it: adjacent faces whose vertices all lie
	// within Tol of a common plane are merged, and a point set thinner
	// than Tol is rejected as coplanar.
	Tol float64
	// Triangles makes every face of the result a triangle (each merged
	// face is triangulated by ear clipping that avoids slivers) instead of
	// a polygon.
	Triangles bool
}

// Error is a problem with the input points. Index is the offending point's
// index, or -1 when the problem concerns the whole set.
type Error struct {
	Index int
	Msg   string
}

func (e *Error) Error() string {
	if e.Index >= 0 {
		return fmt.Sprintf("hull: point %d: %s", e.Index, e.Msg)
	}
	return "hull: " + e.Msg
}

// New returns the convex hull of pts as a closed, manifold, consistently
// oriented convex mesh (faces counter-clockwise seen from outside, Euler
// characteristic 2). Its vertices are the extreme input points, copied
// exactly; duplicates and points on (or within the tolerance of) the hull's
// faces or edges are not vertices. Expected time O(n log n) for points in
// general position; the mesh.New validation of the result costs O(V*F)
// more.
//
// It returns an *Error naming the point when a coordinate is NaN or
// infinite, and an *Error when there are fewer than 4 points or the points
// are coplanar (or within the tolerance of a common plane), collinear or
// all equal.
func New(pts []geom.Vec3, opt *Options) (*mesh.Mesh, error) {
	m, _, err := NewIndexed(pts, opt)
	return m, err
}

// NewIndexed is New that also returns, for every vertex of the mesh, the
// index of the input point it is.
func NewIndexed(pts []geom.Vec3, opt *Options) (*mesh.Mesh, []int, error) {
	tol := DefaultTol
	tri := false
	if opt != nil {
		if opt.Tol != 0 {
			tol = opt.Tol
		}
		tri = opt.Triangles
	}
	if !(tol > 0) || math.IsInf(tol, 0) {
		return nil, nil, &Error{Index: -1, Msg: fmt.Sprintf("tolerance %v is not a positive finite number", tol)}
	}
	for i, p := range pts {
		if !p.IsFinite() {
			return nil, nil, &Error{Index: i, Msg: fmt.Sprintf("coordinate is not finite: %v", p)}
		}
	}
	if len(pts) < 4 {
		return nil, nil, &Error{Index: -1, Msg: fmt.Sprintf("need at least 4 points, got %d", len(pts))}
	}
	if len(pts) > math.MaxInt32 {
		return nil, nil, &Error{Index: -1, Msg: "too many points"}
	}
	b := &builder{}
	b.scale(pts)
	b.eps = tol * b.diag
	if err := b.simplex(); err != nil {
		return nil, nil, err
	}
	b.run()
	if b.thick < 1e3*b.eps && b.flat() {
		return nil, nil, &Error{Index: -1, Msg: "points are coplanar (within tolerance)"}
	}
	loops := b.merge()
	return b.output(pts, loops, tri)
}

// face is a triangle of the hull under construction. Edge i joins v[i] to
// v[(i+1)%3]; nb[i] is the face across it.
type face struct {
	v     [3]int32
	nb    [3]int32
	out   []int32 // outside points, strictly above the face
	alive bool
}

type builder struct {
	p     []geom.Vec3 // input scaled by a power of two (exact)
	diag  float64     // bounding-box diagonal of p
	eps   float64     // absolute merge tolerance
	thick float64     // height of the initial simplex
	faces []face

	// scratch for run
	visStamp, hidStamp []int32 // per face: visible / not visible at stamp
	stamp              int32
	horizon            [][2]int32 // (face, edge) pairs
	visible            []int32    // faces visible from the current point
	edges              [][3]int32 // horizon edges: u, w, face beyond
	newFaces           []int32    // faces added for the current point
	free               []int32    // slots of deleted faces
	byStart            []int32    // per point: new face starting there
	stack              []int32
}

// scale copies the points multiplied by a power of two so that the largest
// coordinate is in [0.5, 1): exact, and keeps every float computation of
// the heuristics far from overflow and underflow.
func (b *builder) scale(pts []geom.Vec3) {
	m := 0.0
	for _, p := range pts {
		m = math.Max(m, p.MaxAbs())
	}
	s := 1.0
	if m > 0 {
		_, e := math.Frexp(m)
		s = math.Ldexp(1, -e)
	}
	b.p = make([]geom.Vec3, len(pts))
	box := geom.EmptyAABB()
	for i, p := range pts {
		b.p[i] = p.Scale(s)
		box = box.AddPoint(b.p[i])
	}
	b.diag = box.Diagonal()
}

func (b *builder) orient(f *face, q int32) int {
	return robust.Orient3D(b.p[f.v[0]], b.p[f.v[1]], b.p[f.v[2]], b.p[q])
}

// addFace adds the triangle u, v, w, reusing the slot of a deleted face
// (and its outside-point buffer) when there is one.
func (b *builder) addFace(u, v, w int32) int32 {
	if n := len(b.free); n > 0 {
		f := b.free[n-1]
		b.free = b.free[:n-1]
		b.faces[f] = face{v: [3]int32{u, v, w}, nb: [3]int32{-1, -1, -1}, out: b.faces[f].out[:0], alive: true}
		return f
	}
	b.faces = append(b.faces, face{v: [3]int32{u, v, w}, nb: [3]int32{-1, -1, -1}, alive: true})
	b.visStamp = append(b.visStamp, 0)
	b.hidStamp = append(b.hidStamp, 0)
	return int32(len(b.faces) - 1)
}

// simplex finds four affinely independent points far apart, builds the
// tetrahedron and distributes the other points to the faces they are
// outside of.
func (b *builder) simplex() error {
	p := b.p
	// The farthest pair among the six axis-extreme points.
	var ext [6]int
	for i, q := range p {
		for a := 0; a < 3; a++ {
			if q.Get(a) < p[ext[2*a]].Get(a) {
				ext[2*a] = i
			}
			if q.Get(a) > p[ext[2*a+1]].Get(a) {
				ext[2*a+1] = i
			}
		}
	}
	i0, i1, best := 0, 0, 0.0
	for _, a := range ext {
		for _, c := range ext {
			if d := p[a].Dist2(p[c]); d > best {
				i0, i1, best = a, c, d
			}
		}
	}
	if best == 0 {
		return &Error{Index: -1, Msg: "all points are equal"}
	}
	// The point farthest from the line i0 i1.
	i2, best := -1, 0.0
	u := p[i1].Sub(p[i0])
	for i, q := range p {
		if d := u.Cross(q.Sub(p[i0])).Norm2(); d > best {
			i2, best = i, d
		}
	}
	if i2 < 0 || math.Sqrt(best)/u.Norm() <= b.eps {
		return &Error{Index: -1, Msg: "points are collinear (within tolerance)"}
	}
	// The point farthest from the plane i0 i1 i2.
	n := u.Cross(p[i2].Sub(p[i0]))
	i3, best := -1, 0.0
	for i, q := range p {
		if d := math.Abs(n.Dot(q.Sub(p[i0]))); d > best {
			i3, best = i, d
		}
	}
	if i3 < 0 || best/n.Norm() <= b.eps || robust.Orient3D(p[i0], p[i1], p[i2], p[i3]) == 0 {
		return &Error{Index: -1, Msg: "points are coplanar (within tolerance)"}
	}
	b.thick = best / n.Norm()
	a, c, d, e := int32(i0), int32(i1), int32(i2), int32(i3)
	if robust.Orient3D(p[a], p[c], p[d], p[e]) < 0 {
		c, d = d, c
	}
	// e is above a, c, d (counter-clockwise from above).
	f0 := b.addFace(a, d, c)
	f1 := b.addFace(a, c, e)
	f2 := b.addFace(c, d, e)
	f3 := b.addFace(d, a, e)
	b.linkAll([]int32{f0, f1, f2, f3})
	b.byStart = make([]int32, len(p))
	for i := range p {
		q := int32(i)
		if q == a || q == c || q == d || q == e {
			continue
		}
		for _, f := range []int32{f0, f1, f2, f3} {
			if b.orient(&b.faces[f], q) > 0 {
				b.faces[f].out = append(b.faces[f].out, q)
				break
			}
		}
	}
	return nil
}

// flat reports whether the hull is within 2*eps of one of its face planes
// (a thin hull that the initial simplex did not reveal as flat). Only
// called for hulls whose simplex is already thin, as it costs O(F*V).
func (b *builder) flat() bool {
	var vs []int32
	seen := make(map[int32]bool)
	for _, f := range b.faces {
		if !f.alive {
			continue
		}
		for _, v := range f.v {
			if !seen[v] {
				seen[v] = true
				vs = append(vs, v)
			}
		}
	}
	for _, f := range b.faces {
		if !f.alive {
			continue
		}
		a := b.p[f.v[0]]
		n, ok := b.p[f.v[1]].Sub(a).Cross(b.p[f.v[2]].Sub(a)).Normalize()
		if !ok {
			continue
		}
		w := 0.0
		for _, v := range vs {
			w = math.Max(w, math.Abs(n.Dot(b.p[v].Sub(a))))
		}
		if w <= 2*b.eps {
			return true
		}
	}
	return false
}

// linkAll sets the neighbours of a closed set of faces from their edges.
func (b *builder) linkAll(fs []int32) {
	type key struct{ u, v int32 }
	m := make(map[key][2]int32)
	for _, f := range fs {
		for i := 0; i < 3; i++ {
			m[key{b.faces[f].v[i], b.faces[f].v[(i+1)%3]}] = [2]int32{f, int32(i)}
		}
	}
	for _, f := range fs {
		for i := 0; i < 3; i++ {
			g := m[key{b.faces[f].v[(i+1)%3], b.faces[f].v[i]}]
			b.faces[f].nb[i] = g[0]
		}
	}
}

// run adds outside points until no face has any (Quickhull).
func (b *builder) run() {
	for f := range b.faces {
		if len(b.faces[f].out) > 0 {
			b.stack = append(b.stack, int32(f))
		}
	}
	var pool []int32
	for len(b.stack) > 0 {
		f := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		fc := &b.faces[f]
		if !fc.alive || len(fc.out) == 0 {
			continue
		}
		// Farthest outside point (heuristic; any outside point is correct).
		v0 := b.p[fc.v[0]]
		n := b.p[fc.v[1]].Sub(v0).Cross(b.p[fc.v[2]].Sub(v0))
		q, best := fc.out[0], math.Inf(-1)
		for _, i := range fc.out {
			if d := n.Dot(b.p[i].Sub(v0)); d > best {
				q, best = i, d
			}
		}
		b.stamp++
		b.horizon = b.horizon[:0]
		b.visStamp[f] = b.stamp
		b.visible = append(b.visible[:0], f)
		b.findHorizon(q, f, -1)
		// The horizon edges (u, w) and the faces beyond them, read before
		// the visible faces' slots are reused.
		b.edges = b.edges[:0]
		for _, h := range b.horizon {
			g := &b.faces[h[0]]
			b.edges = append(b.edges, [3]int32{g.v[h[1]], g.v[(h[1]+1)%3], g.nb[h[1]]})
		}
		// Collect the outside points of the visible faces and free them.
		pool = pool[:0]
		for _, g := range b.visible {
			for _, i := range b.faces[g].out {
				if i != q {
					pool = append(pool, i)
				}
			}
			b.faces[g].out = b.faces[g].out[:0]
			b.faces[g].alive = false
			b.free = append(b.free, g)
		}
		// New faces fan from q around the horizon.
		b.newFaces = b.newFaces[:0]
		for _, e := range b.edges {
			u, w, outer := e[0], e[1], e[2]
			nf := b.addFace(u, w, q)
			b.newFaces = append(b.newFaces, nf)
			b.faces[nf].nb[0] = outer
			og := &b.faces[outer]
			for k := 0; k < 3; k++ {
				if og.v[k] == w && og.v[(k+1)%3] == u {
					og.nb[k] = nf
				}
			}
			b.byStart[u] = nf
		}
		for _, k := range b.newFaces {
			nf := &b.faces[k]
			w := nf.v[1]
			nx := b.byStart[w] // the new face whose edge 2 runs q -> w
			nf.nb[1] = nx
			b.faces[nx].nb[2] = k
		}
		// Reassign the orphaned points to the new faces.
		for _, i := range pool {
			for _, k := range b.newFaces {
				if b.orient(&b.faces[k], i) > 0 {
					b.faces[k].out = append(b.faces[k].out, i)
					break
				}
			}
		}
		for _, k := range b.newFaces {
			if len(b.faces[k].out) > 0 {
				b.stack = append(b.stack, k)
			}
		}
	}
}

// findHorizon walks the faces visible from point q, starting at the visible
// face f entered through its edge enter (-1 for the first face), marks them
// and appends the horizon edges in counter-clockwise order around the
// visible region.
func (b *builder) findHorizon(q, f int32, enter int) {
	for k := 0; k < 3; k++ {
		e := k
		if enter >= 0 {
			if k == 2 {
				break
			}
			e = (enter + 1 + k) % 3
		}
		g := b.faces[f].nb[e]
		if b.visStamp[g] == b.stamp {
			continue
		}
		visible := false
		if b.hidStamp[g] != b.stamp {
			if b.orient(&b.faces[g], q) > 0 {
				visible = true
			} else {
				b.hidStamp[g] = b.stamp
			}
		}
		if !visible {
			b.horizon = append(b.horizon, [2]int32{f, int32(e)})
			continue
		}
		b.visStamp[g] = b.stamp
		b.visible = append(b.visible, g)
		// The edge of g that leads back to f.
		back := 0
		for j := 0; j < 3; j++ {
			if b.faces[g].nb[j] == f {
				back = j
			}
		}
		b.findHorizon(q, g, back)
	}
}

// loop is a face of the output: a vertex loop (point indices).
type loop []int32

// merge groups the hull's triangles into faces whose vertices lie within
// eps of a common plane and returns the faces' boundary loops, with the
// vertices that end up inside a face or on a straight boundary between two
// faces removed.
func (b *builder) merge() []loop {
	// Live triangles, renumbered.
	id := make([]int32, len(b.faces))
	var tris []int32
	for f := range b.faces {
		id[f] = -1
		if b.faces[f].alive {
			id[f] = int32(len(tris))
			tris = append(tris, int32(f))
		}
	}
	nt := len(tris)
	type triInfo struct {
		v    [3]int32
		nb   [3]int32
		n    geom.Vec3 // unit normal (zero if degenerate)
		area float64
	}
	ti := make([]triInfo, nt)
	for k, f := range tris {
		fc := &b.faces[f]
		t := &ti[k]
		t.v = fc.v
		for i := 0; i < 3; i++ {
			t.nb[i] = id[fc.nb[i]]
		}
		// The normal from the two shorter edges (at the corner opposite
		// the longest one) is the most accurate for needle triangles.
		k := 0
		for i := 1; i < 3; i++ {
			if b.p[t.v[(i+1)%3]].Dist2(b.p[t.v[(i+2)%3]]) > b.p[t.v[(k+1)%3]].Dist2(b.p[t.v[(k+2)%3]]) {
				k = i
			}
		}
		a := b.p[t.v[k]]
		c := b.p[t.v[(k+1)%3]].Sub(a).Cross(b.p[t.v[(k+2)%3]].Sub(a))
		t.area = c.Norm() / 2
		t.n, _ = c.Normalize()
	}
	order := make([]int32, nt)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return cmp.Compare(ti[y].area, ti[x].area) })

	region := make([]int32, nt)
	for i := range region {
		region[i] = -1
	}
	// Region r's triangles are flat[start[r]:start[r+1]] (each region's
	// breadth-first queue, one after the other).
	flat := make([]int32, 0, nt)
	start := []int{0}
	for _, s := range order {
		if region[s] >= 0 {
			continue
		}
		r := int32(len(start) - 1)
		n := ti[s].n
		sv := ti[s].v
		c := b.p[sv[0]] // an exact input point, unlike a centroid
		region[s] = r
		q0 := len(flat)
		flat = append(flat, s)
		for qi := q0; qi < len(flat); qi++ {
			t := flat[qi]
			for e := 0; e < 3; e++ {
				u := ti[t].nb[e]
				if region[u] >= 0 {
					continue
				}
				// The apex of u opposite the shared edge.
				a0, a1 := ti[t].v[e], ti[t].v[(e+1)%3]
				var apex int32
				for _, w := range ti[u].v {
					if w != a0 && w != a1 {
						apex = w
					}
				}
				x := b.p[apex]
				exact := robust.Orient3D(b.p[sv[0]], b.p[sv[1]], b.p[sv[2]], x) == 0
				if !exact && math.Abs(n.Dot(x.Sub(c))) > b.eps {
					continue
				}
				// Beyond the distance, a mergeable triangle must face the
				// same way (its plane is accurate) or be a sliver whose apex
				// is within eps of the shared edge (its plane is not): this
				// keeps the inaccurate planes of needles from merging faces
				// of a thin but genuinely 3D hull.
				minDot := 0.9
				if exact {
					minDot = 0
				}
				if !(ti[u].n.Dot(n) > minDot) && lineDist(x, b.p[a0], b.p[a1]) > b.eps {
					continue
				}
				region[u] = r
				flat = append(flat, u)
			}
		}
		start = append(start, len(flat))
	}

	// Boundary loops of the regions; a region whose boundary is not a
	// single simple loop is split back into its triangles.
	next := make([]int32, len(b.p))
	mark := make([]int32, len(b.p))
	for i := range mark {
		mark[i] = -1
	}
	var loops []loop
	for r := 0; r+1 < len(start); r++ {
		ms := flat[start[r]:start[r+1]]
		if len(ms) == 1 {
			t := ti[ms[0]]
			loops = append(loops, loop{t.v[0], t.v[1], t.v[2]})
			continue
		}
		nb, ok := 0, true
		var v0 int32 = -1
		for _, t := range ms {
			for e := 0; e < 3; e++ {
				if region[ti[t].nb[e]] == int32(r) {
					continue
				}
				a, c := ti[t].v[e], ti[t].v[(e+1)%3]
				if mark[a] == int32(r) {
					ok = false
				}
				mark[a], next[a] = int32(r), c
				v0 = a
				nb++
			}
		}
		var l loop
		if ok && v0 >= 0 {
			v := v0
			for {
				l = append(l, v)
				if len(l) > nb || mark[v] != int32(r) {
					ok = false
					break
				}
				v = next[v]
				if v == v0 {
					break
				}
			}
			ok = ok && len(l) == nb && nb >= 3
		}
		// Invalidate the marks of this region for later regions.
		for _, t := range ms {
			for _, v := range ti[t].v {
				if mark[v] == int32(r) {
					mark[v] = -2
				}
			}
		}
		if ok {
			loops = append(loops, l)
			continue
		}
		for _, t := range ms {
			loops = append(loops, loop{ti[t].v[0], ti[t].v[1], ti[t].v[2]})
		}
	}

	// Vertices on exactly two faces lie on the (straight) common boundary
	// of the two: remove them from both loops when both keep >= 3 vertices.
	count := make([]int32, len(b.p))
	where := make([][2]int32, len(b.p)) // per vertex: the (up to) two loops containing it
	for li, l := range loops {
		for _, v := range l {
			if count[v] < 2 {
				where[v][count[v]] = int32(li)
			}
			count[v]++
		}
	}
	removed := make([]bool, len(b.p))
	size := make([]int, len(loops))
	for li, l := range loops {
		size[li] = len(l)
	}
	for v := range count {
		if count[v] != 2 {
			continue
		}
		l0, l1 := where[v][0], where[v][1]
		if size[l0] > 3 && size[l1] > 3 && b.straight(loops[l0], int32(v), removed) {
			removed[v] = true
			size[l0]--
			size[l1]--
		}
	}
	for li, l := range loops {
		loops[li] = slices.DeleteFunc(l, func(v int32) bool { return removed[v] })
	}
	return loops
}

// straight reports whether vertex v lies within eps of the segment between
// its nearest kept neighbours on loop l (it is then safe to drop: the
// check guards against inaccurate planes of needle-shaped faces).
func (b *builder) straight(l loop, v int32, removed []bool) bool {
	k := slices.Index(l, v)
	n := len(l)
	prev, next := -1, -1
	for i := 1; i < n; i++ {
		if w := l[(k-i+n)%n]; prev < 0 && !removed[w] {
			prev = int(w)
		}
		if w := l[(k+i)%n]; next < 0 && !removed[w] {
			next = int(w)
		}
	}
	if prev < 0 || next < 0 || prev == next {
		return false
	}
	return segDist(b.p[v], b.p[prev], b.p[next]) <= b.eps
}

// lineDist returns the distance of x from the line through a and c.
func lineDist(x, a, c geom.Vec3) float64 {
	u := c.Sub(a)
	l := u.Norm()
	if l == 0 {
		return x.Dist(a)
	}
	return u.Cross(x.Sub(a)).Norm() / l
}

// segDist returns the distance of x from the segment ac.
func segDist(x, a, c geom.Vec3) float64 {
	u := c.Sub(a)
	l2 := u.Norm2()
	if l2 == 0 {
		return x.Dist(a)
	}
	t := math.Max(0, math.Min(1, x.Sub(a).Dot(u)/l2))
	return x.Dist(a.AddScaled(t, u))
}

// output builds the mesh of the loops on the original coordinates.
func (b *builder) output(pts []geom.Vec3, loops []loop, tri bool) (*mesh.Mesh, []int, error) {
	newID := make([]int32, len(pts))
	for i := range newID {
		newID[i] = -1
	}
	var verts []geom.Vec3
	var index []int
	faces := make([][]int, 0, len(loops))
	for _, l := range loops {
		f := make([]int, len(l))
		for k, v := range l {
			if newID[v] < 0 {
				newID[v] = int32(len(verts))
				verts = append(verts, pts[v])
				index = append(index, int(v))
			}
			f[k] = int(newID[v])
		}
		if !tri || len(f) == 3 {
			faces = append(faces, f)
			continue
		}
		faces = triangulate(verts, f, faces)
	}
	m, err := mesh.New(verts, faces, &mesh.Options{AreaTol: math.SmallestNonzeroFloat64})
	if err != nil {
		return nil, nil, &Error{Index: -1, Msg: fmt.Sprintf("cannot build the hull mesh (numerically degenerate input?): %v", err)}
	}
	// A sliver at a tiny scale (points spanning 1e-76 whose digits differ
	// far below that) has exact orientations but a volume that underflows
	// float64: it bounds no solid the other packages can use.
	if err := m.RequireSolid(); err != nil {
		return nil, nil, &Error{Index: -1, Msg: fmt.Sprintf("the hull is too thin for float64 at this scale (scale the points up): %v", err)}
	}
	return m, index, nil
}

// triangulate appends a triangulation of the convex polygon f (indices into
// vs) to dst by greedy ear clipping: it always cuts the ear of best shape
// (largest height relative to its longest edge). Unlike a fan, this avoids
// sliver triangles along runs of nearly collinear boundary vertices, whose
// floating-point planes would be inaccurate.
func triangulate(vs []geom.Vec3, f []int, dst [][]int) [][]int {
	poly := slices.Clone(f)
	quality := func(a, b, c int) float64 {
		pa, pb, pc := vs[a], vs[b], vs[c]
		l := math.Max(pa.Dist2(pb), math.Max(pb.Dist2(pc), pc.Dist2(pa)))
		if l == 0 {
			return 0
		}
		return pb.Sub(pa).Cross(pc.Sub(pa)).Norm() / l
	}
	for len(poly) > 3 {
		k := len(poly)
		best, bi := -1.0, 0
		for i := 0; i < k; i++ {
			if q := quality(poly[(i+k-1)%k], poly[i], poly[(i+1)%k]); q > best {
				best, bi = q, i
			}
		}
		dst = append(dst, []int{poly[(bi+k-1)%k], poly[bi], poly[(bi+1)%k]})
		poly = slices.Delete(poly, bi, bi+1)
	}
	return append(dst, poly)
}
