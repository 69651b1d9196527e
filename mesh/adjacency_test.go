package mesh_test

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

var long = flag.Bool("long", false, "run the exhaustive variants of the property tests")

// cases returns n in normal runs and 20 n with -long.
func cases(n int) int {
	if *long {
		return 20 * n
	}
	return n
}

// oracle holds brute-force facts about a soup, computed from the face
// loops alone.
type oracle struct {
	s soup
	// dir[a][b] lists the faces whose loop goes a -> b.
	dir map[[2]int][]int
	// count[{min,max}] is the number of faces using the undirected edge.
	count map[[2]int]int
}

func newOracle(s soup) *oracle {
	o := &oracle{s: s, dir: map[[2]int][]int{}, count: map[[2]int]int{}}
	for f, l := range s.faces {
		for k, a := range l {
			b := l[(k+1)%len(l)]
			o.dir[[2]int{a, b}] = append(o.dir[[2]int{a, b}], f)
			o.count[ukey(a, b)]++
		}
	}
	return o
}

func ukey(a, b int) [2]int {
	if a > b {
		a, b = b, a
	}
	return [2]int{a, b}
}

func (o *oracle) closed() bool {
	if len(o.count) == 0 {
		return false
	}
	for _, c := range o.count {
		if c != 2 {
			return false
		}
	}
	return true
}

// oriented: every edge with exactly two faces is used once in each
// direction.
func (o *oracle) oriented() bool {
	for e, c := range o.count {
		if c == 2 && (len(o.dir[e]) != 1 || len(o.dir[[2]int{e[1], e[0]}]) != 1) {
			return false
		}
	}
	return true
}

// manifold: no edge has more than two faces, and around every vertex the
// faces using it are connected through edges at that vertex (one fan).
func (o *oracle) manifold() bool {
	for _, c := range o.count {
		if c > 2 {
			return false
		}
	}
	for v := range o.s.verts {
		if !o.singleFan(v) {
			return false
		}
	}
	return true
}

func (o *oracle) singleFan(v int) bool {
	var fs []int
	for f, l := range o.s.faces {
		if slices.Contains(l, v) {
			fs = append(fs, f)
		}
	}
	if len(fs) <= 1 {
		return true
	}
	// Flood fill over faces sharing an edge at v.
	seen := map[int]bool{fs[0]: true}
	stack := []int{fs[0]}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range o.s.faces[f] {
			if w == v || !o.adjacent(f, v, w) {
				continue
			}
			for _, g := range fs {
				if !seen[g] && o.adjacent(g, v, w) {
					seen[g] = true
					stack = append(stack, g)
				}
			}
		}
	}
	return len(seen) == len(fs)
}

// adjacent reports whether face f's loop has the edge v-w (either way).
func (o *oracle) adjacent(f, v, w int) bool {
	l := o.s.faces[f]
	for k, a := range l {
		b := l[(k+1)%len(l)]
		if (a == v && b == w) || (a == w && b == v) {
			return true
		}
	}
	return false
}

// newell is the area vector of face f (twice the area along the normal).
func (o *oracle) newell(f int) geom.Vec3 {
	l := o.s.faces[f]
	var n geom.Vec3
	c := o.s.verts[l[0]]
	for k := range l {
		a, b := o.s.verts[l[k]].Sub(c), o.s.verts[l[(k+1)%len(l)]].Sub(c)
		n = n.Add(a.Cross(b))
	}
	return n
}

func (o *oracle) convex(tol float64) bool {
	if !o.closed() || !o.manifold() || !o.oriented() {
		return false
	}
	for f, l := range o.s.faces {
		n, _ := o.newell(f).Normalize()
		p := o.s.verts[l[0]]
		for _, v := range o.s.verts {
			if n.Dot(v.Sub(p)) > tol {
				return false
			}
		}
	}
	return true
}

// checkAdjacency compares every adjacency field of m with the oracle and
// returns the first discrepancy, or "".
func checkAdjacency(m *mesh.Mesh, o *oracle) string {
	s := o.s
	if m.NumVerts() != len(s.verts) || m.NumFaces() != len(s.faces) {
		return fmt.Sprintf("sizes: %d verts %d faces, want %d %d", m.NumVerts(), m.NumFaces(), len(s.verts), len(s.faces))
	}
	// Faces may be off their plane by up to the planarity tolerance.
	ptol := mesh.DefaultPlanarTol * geom.AABBOf(s.verts...).Diagonal() * (1 + 1e-9)
	for f, l := range s.faces {
		got := m.Face(f)
		if len(got) != len(l) {
			return fmt.Sprintf("face %d: loop %v, want %v", f, got, l)
		}
		for k := range l {
			if int(got[k]) != l[k] {
				return fmt.Sprintf("face %d: loop %v, want %v", f, got, l)
			}
		}
		// FaceEdges: edge k joins corners k and k+1.
		for k, e := range m.FaceEdgeLoop(f) {
			ed := m.Edges[e]
			if ukey(int(ed.V[0]), int(ed.V[1])) != ukey(l[k], l[(k+1)%len(l)]) {
				return fmt.Sprintf("face %d: FaceEdges[%d] = edge %d %v, want %d-%d", f, k, e, ed.V, l[k], l[(k+1)%len(l)])
			}
		}
		// Plane: outward unit normal through the face.
		pl := m.Planes[f]
		want, _ := o.newell(f).Normalize()
		if pl.N.Dist(want) > 1e-9 {
			return fmt.Sprintf("face %d: normal %v, want %v", f, pl.N, want)
		}
		for _, v := range l {
			if d := math.Abs(pl.SignedDist(s.verts[v])); d > max(ptol, 1e-9*(1+s.verts[v].Norm())) {
				return fmt.Sprintf("face %d: vertex %d is %g from the plane", f, v, d)
			}
		}
	}
	// Edges: exactly the undirected pairs, each once.
	if m.NumEdges() != len(o.count) {
		return fmt.Sprintf("%d edges, want %d", m.NumEdges(), len(o.count))
	}
	seen := map[[2]int]bool{}
	for i, e := range m.Edges {
		a, b := int(e.V[0]), int(e.V[1])
		k := ukey(a, b)
		if seen[k] {
			return fmt.Sprintf("edge %d-%d listed twice", a, b)
		}
		seen[k] = true
		c, ok := o.count[k]
		if !ok {
			return fmt.Sprintf("edge %d: %d-%d is not an edge of any face", i, a, b)
		}
		if int(e.NumFaces) != c {
			return fmt.Sprintf("edge %d (%d-%d): NumFaces %d, want %d", i, a, b, e.NumFaces, c)
		}
		fwd, back := o.dir[[2]int{a, b}], o.dir[[2]int{b, a}]
		if !slices.Contains(fwd, int(e.Left)) {
			return fmt.Sprintf("edge %d (%d-%d): Left face %d does not traverse %d->%d (faces that do: %v)", i, a, b, e.Left, a, b, fwd)
		}
		switch {
		case c == 1:
			if e.Right != mesh.None {
				return fmt.Sprintf("boundary edge %d: Right %d, want None", i, e.Right)
			}
		case c == 2 && len(back) == 1:
			if int(e.Right) != back[0] {
				return fmt.Sprintf("edge %d (%d-%d): Right %d, want %d", i, a, b, e.Right, back[0])
			}
		case c == 2: // both faces the same way
			if int(e.Right) == int(e.Left) || !slices.Contains(fwd, int(e.Right)) {
				return fmt.Sprintf("edge %d (%d-%d): Right %d, want the other of %v", i, a, b, e.Right, fwd)
			}
		default:
			all := append(slices.Clone(fwd), back...)
			if !slices.Contains(all, int(e.Right)) || e.Right == e.Left {
				return fmt.Sprintf("non-manifold edge %d: Right %d not another of its faces %v", i, e.Right, all)
			}
		}
		if e.Other(e.V[0]) != e.V[1] || e.Other(e.V[1]) != e.V[0] {
			return fmt.Sprintf("edge %d: Other is wrong", i)
		}
	}
	// Vertex edges: exactly the incident edges.
	for v := range s.verts {
		es := m.VertexEdges(v)
		var want []int
		for i, e := range m.Edges {
			if int(e.V[0]) == v || int(e.V[1]) == v {
				want = append(want, i)
			}
		}
		got := make([]int, len(es))
		for k, e := range es {
			got[k] = int(e)
		}
		sg := slices.Sorted(slices.Values(got))
		if !slices.Equal(sg, want) {
			return fmt.Sprintf("vertex %d: edges %v, want %v", v, got, want)
		}
		nb := m.Neighbors(v, nil)
		for k, e := range es {
			if nb[k] != m.Edges[e].Other(int32(v)) {
				return fmt.Sprintf("vertex %d: Neighbors %v disagree with edges %v", v, nb, es)
			}
		}
	}
	// Flags.
	switch {
	case m.Closed() != o.closed():
		return fmt.Sprintf("Closed %v, want %v", m.Closed(), o.closed())
	case m.Oriented() != o.oriented():
		return fmt.Sprintf("Oriented %v, want %v", m.Oriented(), o.oriented())
	case m.Manifold() != o.manifold():
		return fmt.Sprintf("Manifold %v, want %v", m.Manifold(), o.manifold())
	case m.Euler() != len(s.verts)-len(o.count)+len(s.faces):
		return fmt.Sprintf("Euler %d, want %d", m.Euler(), len(s.verts)-len(o.count)+len(s.faces))
	}
	if m.Manifold() && m.Oriented() {
		if msg := checkOrder(m, o); msg != "" {
			return msg
		}
	}
	return ""
}

// checkOrder checks that the edges around every vertex of a manifold,
// oriented mesh are counter-clockwise seen from outside: consecutive edges
// v-w[i], v-w[i+1] bound a face whose loop runs w[i+1] -> v -> w[i], and
// only the step across a boundary gap has no such face.
func checkOrder(m *mesh.Mesh, o *oracle) string {
	for v := range o.s.verts {
		nb := m.Neighbors(v, nil)
		k := len(nb)
		if k == 0 {
			continue
		}
		nfaces := 0
		for _, l := range o.s.faces {
			if slices.Contains(l, v) {
				nfaces++
			}
		}
		matched := 0
		for i := range nb {
			w0, w1 := int(nb[i]), int(nb[(i+1)%k])
			if o.hasCorner(w1, v, w0) {
				matched++
			} else if i != k-1 {
				return fmt.Sprintf("vertex %d: edges to %d then %d (of %v) are not a face corner %d->%d->%d", v, w0, w1, nb, w1, v, w0)
			}
		}
		if matched != nfaces {
			return fmt.Sprintf("vertex %d: order %v covers %d of its %d faces", v, nb, matched, nfaces)
		}
	}
	return ""
}

// hasCorner reports whether some face loop has the consecutive corners
// a -> b -> c.
func (o *oracle) hasCorner(a, b, c int) bool {
	for _, f := range o.dir[[2]int{a, b}] {
		l := o.s.faces[f]
		for k, x := range l {
			if x == b && l[(k+1)%len(l)] == c {
				return true
			}
		}
	}
	return false
}

// checkAngles checks the counter-clockwise order geometrically on a closed
// mesh: seen along the axis a = -(sum of the unit edge directions at the
// vertex), which points out of the vertex's cone when the vertex is convex,
// the projected neighbours turn exactly once counter-clockwise.
//
// On a saddle vertex of a fine mesh the edge directions can cancel; with
// faceAxis set the axis is the vertex's area-weighted face normal instead.
func checkAngles(m *mesh.Mesh, o *oracle, faceAxis bool) string {
	for v := range o.s.verts {
		p := o.s.verts[v]
		nb := m.Neighbors(v, nil)
		var a geom.Vec3
		for _, w := range nb {
			d, _ := o.s.verts[w].Sub(p).Normalize()
			a = a.Sub(d)
		}
		if faceAxis || a.Norm() < 1e-6 {
			// A flat vertex: its edges cancel; use the face normals.
			a = geom.Vec3{}
			for f, l := range o.s.faces {
				if slices.Contains(l, v) {
					a = a.Add(o.newell(f))
				}
			}
		}
		n, ok := a.Normalize()
		if !ok {
			return fmt.Sprintf("vertex %d: no axis", v)
		}
		turn := 0.0
		for i := range nb {
			a := o.s.verts[nb[i]].Sub(p)
			b := o.s.verts[nb[(i+1)%len(nb)]].Sub(p)
			a, b = a.Sub(n.Scale(a.Dot(n))), b.Sub(n.Scale(b.Dot(n)))
			ang := math.Atan2(a.Cross(b).Dot(n), a.Dot(b))
			if ang <= 0 {
				ang += 2 * math.Pi
			}
			turn += ang
		}
		if math.Abs(turn-2*math.Pi) > 1e-6 {
			return fmt.Sprintf("vertex %d: neighbours %v turn %g radians about %v, want 2 pi", v, nb, turn, n)
		}
	}
	return ""
}

// TestAdjacencyRandom is the main property test: seeded random meshes of
// every kind against the brute-force oracle.
func TestAdjacencyRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	kinds := map[string]int{}
	n := cases(3000)
	for i := 0; i < n; i++ {
		s := genMixed(rng, i, genHull)
		closed := s
		switch rng.IntN(9) { // 8: unchanged
		case 0:
			s = relabel(rng, s)
		case 1:
			s = deleteFaces(rng, relabel(rng, s))
		case 2:
			s, _ = flipFace(rng, s)
		case 3:
			s, _ = addFin(rng, s)
		case 4:
			if closed.name == "hull" || closed.name == "gridbox" {
				s, _ = bowtie(rng, s)
			}
		case 5:
			s = randomSoup(rng)
		case 6:
			s = deleteFaces(rng, s)
		case 7:
			// Face order matters to a careless implementation: shuffle
			// faces of non-manifold and non-oriented meshes.
			if rng.IntN(2) == 0 {
				s, _ = addFin(rng, s)
			} else if closed.name == "hull" || closed.name == "gridbox" {
				s, _ = bowtie(rng, s)
				s, _ = flipFace(rng, s)
			} else {
				s, _ = flipFace(rng, s)
			}
			s = relabel(rng, s)
		}
		kinds[s.name]++
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			t.Fatalf("case %d (%s): New: %v\nverts %v\nfaces %v", i, s.name, err, s.verts, s.faces)
		}
		o := newOracle(s)
		if msg := checkAdjacency(m, o); msg != "" {
			t.Fatalf("case %d (%s): %s\nverts %v\nfaces %v", i, s.name, msg, s.verts, s.faces)
		}
		if m.Convex() {
			if msg := checkAngles(m, o, false); msg != "" {
				t.Fatalf("case %d (%s): %s\nverts %v\nfaces %v", i, s.name, msg, s.verts, s.faces)
			}
		}
		if want := o.convex(m.ConvexTol()); m.Convex() != want {
			t.Fatalf("case %d (%s): Convex %v, want %v", i, s.name, m.Convex(), want)
		}
	}
	// Each kind must actually occur, or the test means less than it says.
	for _, k := range []string{"torus", "gridbox", "hull", "hull+relabel", "torus+relabel+open", "gridbox+flip", "hull+fin", "hull+bowtie", "gridbox+bowtie", "soup", "torus+open", "hull+fin+relabel", "gridbox+bowtie+flip+relabel", "torus+flip+relabel"} {
		if kinds[k] < n/200 {
			t.Errorf("only %d cases of kind %s", kinds[k], k)
		}
	}
}

// TestOrderFineTori checks the counter-clockwise order geometrically on
// tori fine enough that every vertex star projects without folding.
func TestOrderFineTori(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 4))
	for i := 0; i < cases(30); i++ {
		R := 0.5 + rng.Float64()
		s := relabel(rng, torusSoup(rng, 12+rng.IntN(30), 12+rng.IntN(30), R, R*(0.1+0.4*rng.Float64()), false))
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			t.Fatal(err)
		}
		if msg := checkAngles(m, newOracle(s), true); msg != "" {
			t.Fatalf("case %d: %s\nverts %v\nfaces %v", i, msg, s.verts, s.faces)
		}
	}
}

// TestTopologyKnown checks the flags and Euler characteristic of the
// generated families against what they are by construction.
func TestTopologyKnown(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dented, dentedConcave := 0, 0
	defer func() {
		if dentedConcave < dented*8/10 {
			t.Errorf("only %d of %d dented hulls are non-convex", dentedConcave, dented)
		}
	}()
	for i := 0; i < cases(600); i++ {
		type want struct {
			closed, manifold, oriented, convex bool
			euler                              int
		}
		var s soup
		var w want
		switch i % 6 {
		case 0:
			s, w = genTorus(rng), want{true, true, true, false, 0}
		case 1:
			s, w = genGridBox(rng), want{true, true, true, true, 2}
		case 2:
			s, w = relabel(rng, genHull(rng)), want{true, true, true, true, 2}
		case 3:
			h := genHull(rng)
			s, _ = bowtie(rng, h)
			w = want{true, false, true, false, 3}
		case 4:
			s, _ = flipFace(rng, genHull(rng))
			w = want{true, true, false, false, 2}
		case 5:
			// A hull with one vertex pushed inside the hull of the others
			// (near their centroid): closed and oriented, not convex.
			for s = genHull(rng); len(s.verts) < 6; s = genHull(rng) {
			}
			var c geom.Vec3
			for _, v := range s.verts[1:] {
				c = c.Add(v)
			}
			c = c.Scale(1 / float64(len(s.verts)-1))
			s.verts[0] = s.verts[0].Lerp(c, 0.9)
			m, err := mesh.New(s.verts, s.faces, nil)
			if err != nil {
				t.Fatalf("case %d (dented hull): %v", i, err)
			}
			// Usually not convex; the oracle decides the rare exception.
			w = want{true, true, true, newOracle(s).convex(m.ConvexTol()), 2}
			dented++
			if !w.convex {
				dentedConcave++
			}
		}
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			t.Fatalf("case %d (%s): %v", i, s.name, err)
		}
		got := want{m.Closed(), m.Manifold(), m.Oriented(), m.Convex(), m.Euler()}
		if got != w {
			t.Fatalf("case %d (%s): got %+v, want %+v\nverts %v\nfaces %v", i, s.name, got, w, s.verts, s.faces)
		}
		if w.closed && w.oriented && w.manifold && !(m.Volume() > 0) {
			t.Fatalf("case %d (%s): volume %g", i, s.name, m.Volume())
		}
	}
}

// TestTriangles checks the triangulation of random meshes: n-2 triangles
// per face, corners from the face, oriented like the face, areas summing
// to the face's area.
func TestTriangles(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := 0; i < cases(500); i++ {
		s := genMixed(rng, i, starSoup)
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			t.Fatalf("case %d (%s): %v", i, s.name, err)
		}
		o := newOracle(s)
		tris := m.Triangles(nil)
		byFace := make([]float64, len(s.faces))
		count := make([]int, len(s.faces))
		for _, tr := range tris {
			f := int(tr.Face)
			a, b, c := m.TriangleVerts(tr)
			for _, v := range tr.V {
				if !slices.Contains(s.faces[f], int(v)) {
					t.Fatalf("case %d: triangle %v not from face %d %v", i, tr.V, f, s.faces[f])
				}
			}
			area := b.Sub(a).Cross(c.Sub(a))
			if area.Dot(o.newell(f)) < -1e-12 {
				t.Fatalf("case %d: triangle %v of face %d is flipped", i, tr.V, f)
			}
			byFace[f] += area.Norm() / 2
			count[f]++
		}
		for f, l := range s.faces {
			want := o.newell(f).Norm() / 2
			if count[f] != len(l)-2 || math.Abs(byFace[f]-want) > 1e-9*want {
				t.Fatalf("case %d (%s): face %d (%d corners): %d triangles of area %g, want %d of %g\nverts %v\nface %v",
					i, s.name, f, len(l), count[f], byFace[f], len(l)-2, want, s.verts, l)
			}
		}
	}
}

// starSoup is random non-convex planar star polygons (ear clipping cases).
func starSoup(rng *rand.Rand) soup {
	return polygonSoup(rng, "stars", 5, 5, 4, 12, func(j, k int) (ang, r float64) {
		return 2 * math.Pi * float64(j) / float64(k), 0.3 + rng.Float64()
	})
}
