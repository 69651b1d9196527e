package meshio

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// bruteWeld is the welding rule written plainly: each vertex joins the
// first kept vertex within tol, else is kept; faces are renamed, consecutive
// repeats removed (cyclically), and faces with fewer than three corners or
// a repeated one dropped.
func bruteWeld(vs []geom.Vec3, fs [][]int, tol float64) ([]geom.Vec3, [][]int) {
	var kept []geom.Vec3
	remap := make([]int, len(vs))
	for i, p := range vs {
		remap[i] = -1
		for k, q := range kept {
			if p.Sub(q).Norm() <= tol || (tol == 0 && p == q) {
				remap[i] = k
				break
			}
		}
		if remap[i] < 0 {
			remap[i] = len(kept)
			kept = append(kept, p)
		}
	}
	var out [][]int
	for _, l := range fs {
		var r []int
		for _, v := range l {
			w := remap[v]
			if len(r) == 0 || r[len(r)-1] != w {
				r = append(r, w)
			}
		}
		for len(r) > 1 && r[0] == r[len(r)-1] {
			r = r[:len(r)-1]
		}
		ok := len(r) >= 3
		for i := range r {
			for j := i + 1; j < len(r); j++ {
				ok = ok && r[i] != r[j]
			}
		}
		if ok {
			out = append(out, r)
		}
	}
	return kept, out
}

// TestWeldBruteForce compares Weld with the plain rule on clustered random
// points and random faces, at tolerances from 0 to a tenth of the spread.
func TestWeldBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 1))
	for i := range 400 {
		nc := 1 + rng.IntN(15)
		var centres []geom.Vec3
		for range nc {
			centres = append(centres, geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		}
		tol := []float64{0, 1e-9, 1e-3, 0.05, 0.3}[i%5]
		var vs []geom.Vec3
		for range 2 + rng.IntN(60) {
			c := centres[rng.IntN(nc)]
			// Copies at exactly c, within tol, near 1.5 tol and further.
			d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			d, _ = d.Normalize()
			r := []float64{0, 0.5 * tol * rng.Float64(), 1.5 * tol, 0.9 * tol, 3 * tol}[rng.IntN(5)]
			vs = append(vs, c.AddScaled(r, d))
		}
		if i%7 == 0 {
			vs = append(vs, geom.Vec3{X: math.Copysign(0, -1)}, geom.Vec3{}) // -0 and +0
		}
		var fs [][]int
		for range rng.IntN(30) {
			var l []int
			for range 3 + rng.IntN(3) {
				l = append(l, rng.IntN(len(vs)))
			}
			fs = append(fs, l)
		}
		s := &Soup{Verts: slices.Clone(vs), Faces: slices.Clone(fs)}
		for k := range s.Faces {
			s.Faces[k] = slices.Clone(fs[k])
		}
		merged, dropped := s.Weld(tol)
		wantV, wantF := bruteWeld(vs, fs, tol)
		if !slices.Equal(s.Verts, wantV) {
			t.Fatalf("case %d (tol %g): vertices\n%v\nwant\n%v", i, tol, s.Verts, wantV)
		}
		if !slices.EqualFunc(s.Faces, wantF, slices.Equal[[]int]) {
			t.Fatalf("case %d (tol %g): faces\n%v\nwant\n%v", i, tol, s.Faces, wantF)
		}
		if merged != len(vs)-len(wantV) || dropped != len(fs)-len(wantF) {
			t.Fatalf("case %d: merged %d dropped %d, want %d %d", i, merged, dropped, len(vs)-len(wantV), len(fs)-len(wantF))
		}
	}
}

// explode returns m as a triangle soup in which every face has its own
// copies of its corners, moved by up to jitter, the faces shuffled and
// each flipped with probability pFlip.
func explode(rng *rand.Rand, m *mesh.Mesh, jitter, pFlip float64) *Soup {
	s := &Soup{Name: "exploded"}
	perm := rng.Perm(m.NumFaces())
	for _, f := range perm {
		var l []int
		for _, v := range m.Face(f) {
			d := geom.Vec3{X: rng.Float64() - 0.5, Y: rng.Float64() - 0.5, Z: rng.Float64() - 0.5}.Scale(jitter)
			l = append(l, len(s.Verts))
			s.Verts = append(s.Verts, m.Verts[v].Add(d))
		}
		if rng.Float64() < pFlip {
			slices.Reverse(l)
		}
		s.Faces = append(s.Faces, l)
	}
	return s
}

// TestRepairExploded explodes closed and open meshes into per-face copies
// with jitter below the welding tolerance, flips a minority of faces at
// random, and checks that Repair gives back the mesh: the same numbers of
// vertices, edges and faces, every face with its original orientation
// (matched by position), closed meshes outward.
func TestRepairExploded(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 2))
	warped := shapes.WarpedPlane(shapes.DefaultPlaneSize, shapes.DefaultPlaneHole, shapes.DefaultPlaneWarp)
	for _, c := range []struct {
		name string
		m    *mesh.Mesh
	}{
		{"cube", shapes.Cube(2)},
		{"car", shapes.Car()},
		{"torus", shapes.Torus(1, 0.35, 20, 15)},
		{"bullet", shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength)},
		{"coil", shapes.Coil(1, 0.1, 0.5, 2, 16, 6)},
		{"warped", warped},
	} {
		diag := c.m.Bounds().Diagonal()
		for trial := range 4 {
			pFlip := []float64{0, 0.2, 0.45, 1}[trial]
			if !c.m.Closed() && pFlip > 0.5 {
				continue // an open surface has no outside: the majority decides
			}
			s := explode(rng, c.m, 0.2*DefaultWeldTol*diag, pFlip)
			rep := s.Repair(nil)
			m, err := s.Mesh(nil)
			if err != nil {
				t.Fatalf("%s flip %g: %v (report %+v)", c.name, pFlip, err, rep)
			}
			if m.NumVerts() != c.m.NumVerts() || m.NumEdges() != c.m.NumEdges() || m.NumFaces() != c.m.NumFaces() {
				t.Fatalf("%s flip %g: V E F %d %d %d, want %d %d %d", c.name, pFlip, m.NumVerts(), m.NumEdges(), m.NumFaces(), c.m.NumVerts(), c.m.NumEdges(), c.m.NumFaces())
			}
			if rep.Welded != len(c.m.FaceVerts)-c.m.NumVerts() {
				t.Fatalf("%s: welded %d, want %d", c.name, rep.Welded, len(c.m.FaceVerts)-c.m.NumVerts())
			}
			if m.Closed() != c.m.Closed() || !m.Oriented() {
				t.Fatalf("%s flip %g: closed %v oriented %v", c.name, pFlip, m.Closed(), m.Oriented())
			}
			// Every face in its original orientation: each vertex is
			// matched to the nearest original vertex, and the loop must be
			// a rotation of an original loop.
			near := make([]int, m.NumVerts())
			for v, p := range m.Verts {
				best := math.Inf(1)
				for w, q := range c.m.Verts {
					if d := p.Dist(q); d < best {
						best, near[v] = d, w
					}
				}
			}
			orig := map[string]bool{}
			for _, l := range c.m.Loops() {
				for r := range l {
					orig[fmt.Sprint(append(slices.Clone(l[r:]), l[:r]...))] = true
				}
			}
			for f := range m.NumFaces() {
				var l []int
				for _, v := range m.Face(f) {
					l = append(l, near[v])
				}
				if !orig[fmt.Sprint(l)] {
					t.Fatalf("%s flip %g: face %d (%v) is not an original face in its original orientation", c.name, pFlip, f, l)
				}
			}
			if c.m.Closed() && (rep.Orient.Closed != 1 || !(m.Volume() > 0)) {
				t.Fatalf("%s: closed components %d, volume %g", c.name, rep.Orient.Closed, m.Volume())
			}
		}
	}
}

// TestOrientSpecial checks a Moebius strip (no consistent orientation: left
// as read and counted), two closed boxes sharing a vertex (a non-manifold
// vertex; both turned outward), and a soup of two disjoint components, one
// inward.
func TestOrientSpecial(t *testing.T) {
	// Moebius strip: a band of 8 quads whose ends join with a half twist.
	n := 8
	s := &Soup{}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		for _, w := range []float64{-0.3, 0.3} {
			h := a / 2
			r := 1 + w*math.Cos(h)
			s.Verts = append(s.Verts, geom.Vec3{X: r * math.Cos(a), Y: r * math.Sin(a), Z: w * math.Sin(h)})
		}
	}
	for i := range n {
		a0, a1 := 2*i, 2*i+1
		b0, b1 := 2*((i+1)%n), 2*((i+1)%n)+1
		if i == n-1 { // the half twist swaps the sides
			b0, b1 = b1, b0
		}
		s.Faces = append(s.Faces, []int{a0, b0, b1, a1})
	}
	before := slices.Clone(s.Faces)
	for k := range before {
		before[k] = slices.Clone(s.Faces[k])
	}
	r := s.Orient()
	if r.NonOrientable != 1 || r.Flipped != 0 || r.Components != 1 || !slices.EqualFunc(s.Faces, before, slices.Equal[[]int]) {
		t.Fatalf("Moebius strip: %+v, faces changed %v", r, !slices.EqualFunc(s.Faces, before, slices.Equal[[]int]))
	}
	// Two unit cubes sharing the corner (1,1,1), the second inward.
	cube := shapes.Cube(1) // centred at the origin
	s = &Soup{}
	for _, off := range []geom.Vec3{{X: 0.5, Y: 0.5, Z: 0.5}, {X: 1.5, Y: 1.5, Z: 1.5}} {
		for _, v := range cube.Verts {
			s.Verts = append(s.Verts, v.Add(off))
		}
	}
	for k, l := range cube.Loops() {
		s.Faces = append(s.Faces, l)
		m := make([]int, len(l))
		for i, v := range l {
			m[i] = v + 8
		}
		if k%2 == 0 {
			slices.Reverse(m) // inconsistent inside the second cube too
		}
		s.Faces = append(s.Faces, m)
	}
	rep := s.Repair(nil)
	if rep.Welded != 1 || rep.Orient.Components != 2 || rep.Orient.Closed != 2 {
		t.Fatalf("two cubes: %+v", rep)
	}
	m, err := s.Mesh(nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.RequireSolid(); err != nil || m.Manifold() || math.Abs(m.Volume()-2) > 1e-12 {
		t.Fatalf("two cubes: RequireSolid %v, manifold %v, volume %g", err, m.Manifold(), m.Volume())
	}
}

// TestTriangulate checks the triangulation of polygons: random planar
// star-shaped polygons split entirely (n-2 triangles from the loop's
// corners, same orientation, total area the shoelace area), warped
// quadrilaterals cut along the shorter diagonal, and a torus with warped
// quads that mesh.New refuses until they are split.
func TestTriangulate(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 3))
	for i := range 300 {
		k := 3 + rng.IntN(12)
		// A star-shaped polygon in the plane z = 0, then rotated.
		q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		var p2 [][2]float64
		var vs []geom.Vec3
		for j := range k {
			a := 2 * math.Pi * (float64(j) + 0.9*rng.Float64()) / float64(k)
			r := 0.2 + rng.Float64()
			p2 = append(p2, [2]float64{r * math.Cos(a), r * math.Sin(a)})
			vs = append(vs, q.Rotate(geom.Vec3{X: p2[j][0], Y: p2[j][1]}))
		}
		shoelace := 0.0
		for j := range k {
			a, b := p2[j], p2[(j+1)%k]
			shoelace += (a[0]*b[1] - a[1]*b[0]) / 2
		}
		loop := make([]int, k)
		for j := range loop {
			loop[j] = j
		}
		s := &Soup{Verts: vs, Faces: [][]int{loop}, FacePos: []int64{7}}
		split := s.Triangulate(true, nil)
		if (k > 3) != (split == 1) || len(s.Faces) != k-2 {
			t.Fatalf("polygon %d (%d corners): split %d, %d triangles", i, k, split, len(s.Faces))
		}
		normal := q.Rotate(geom.Vec3{Z: 1})
		area := 0.0
		for _, tr := range s.Faces {
			if len(tr) != 3 || s.FacePos[0] != 7 {
				t.Fatalf("polygon %d: face %v", i, tr)
			}
			a := vs[tr[1]].Sub(vs[tr[0]]).Cross(vs[tr[2]].Sub(vs[tr[0]])).Dot(normal) / 2
			if a < -1e-12 {
				t.Fatalf("polygon %d: triangle %v turned over (area %g)", i, tr, a)
			}
			area += a
		}
		if math.Abs(area-shoelace) > 1e-12*max(1, shoelace) {
			t.Fatalf("polygon %d: triangles cover %g, polygon %g", i, area, shoelace)
		}
	}
	// Warped quads: a square with one corner lifted; the cut follows the
	// shorter diagonal.
	for i := range 100 {
		vs := []geom.Vec3{{}, {X: 1 + rng.Float64()}, {X: 1 + rng.Float64(), Y: 1 + rng.Float64(), Z: 0.3}, {Y: 1 + rng.Float64()}}
		s := &Soup{Verts: vs, Faces: [][]int{{0, 1, 2, 3}}}
		if s.Triangulate(false, nil) != 1 {
			t.Fatalf("quad %d not split", i)
		}
		d02 := vs[0].Dist(vs[2]) <= vs[1].Dist(vs[3])
		got02 := slices.Contains(s.Faces[0], 0) && slices.Contains(s.Faces[0], 2) && slices.Contains(s.Faces[1], 0) && slices.Contains(s.Faces[1], 2)
		if d02 != got02 {
			t.Fatalf("quad %d: cut %v, want the diagonal 0-2: %v", i, s.Faces, d02)
		}
	}
	// A torus whose quads are warped: refused as read, built once split.
	torus := shapes.Torus(1, 0.35, 16, 12)
	vs := slices.Clone(torus.Verts)
	for k := range vs {
		vs[k] = vs[k].Scale(1 + 0.03*(rng.Float64()-0.5))
	}
	s := &Soup{Name: "warped-torus.obj", Verts: vs, Faces: torus.Loops()}
	if _, err := s.Mesh(nil); err == nil || !strings.Contains(err.Error(), "not planar") {
		t.Fatalf("warped torus accepted before splitting: %v", err)
	}
	n := s.Triangulate(false, nil)
	m, err := s.Mesh(nil)
	if err != nil || n == 0 || m.NumFaces() != torus.NumFaces()+n || !m.Closed() || !m.Oriented() || !(m.Volume() > 0) {
		t.Fatalf("split %d: err %v, faces %d", n, err, m.NumFaces())
	}
}

// objParts is an OBJ file with two objects, one with two groups, and a
// face before any statement.
const objParts = `v 0 0 0
v 1 0 0
v 0 1 0
v 0 0 1
v 5 0 0
v 6 0 0
v 5 1 0
v 5 0 1
f 1 2 3
o first
g a
f 1 3 2
f 1 2 4
g b
f 1 4 3
f 2 3 4
o second
f 5 7 6
f 5 6 8
f 5 8 7
f 6 7 8
`

// TestSplit checks Split by objects and by groups, the parts' vertices and
// source lines, and that WriteOBJSoup keeps the statements.
func TestSplit(t *testing.T) {
	s, err := ReadOBJSoup(strings.NewReader(objParts), "parts.obj")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		name  string
		faces int
		verts int
		line  int64
	}
	check := func(label string, got []SoupPart, ws []want) {
		t.Helper()
		if len(got) != len(ws) {
			t.Fatalf("%s: %d parts, want %d", label, len(got), len(ws))
		}
		for i, w := range ws {
			p := got[i]
			if p.Name != w.name || len(p.Soup.Faces) != w.faces || len(p.Soup.Verts) != w.verts || p.Soup.FacePos[0] != w.line {
				t.Fatalf("%s part %d: %q %d faces %d verts first line %d, want %+v", label, i, p.Name, len(p.Soup.Faces), len(p.Soup.Verts), p.Soup.FacePos[0], w)
			}
		}
	}
	check("objects", s.Split(ByObject), []want{{"", 1, 3, 9}, {"first", 4, 4, 12}, {"second", 4, 4, 18}})
	check("groups", s.Split(ByGroup), []want{{"", 1, 3, 9}, {"a", 2, 4, 12}, {"b", 6, 8, 15}})
	// The second object's tetrahedron renumbered from 0 and closed.
	ms, names, err := s.MeshParts(ByObject, nil, nil)
	if err != nil || len(ms) != 3 || names[2] != "second" || !ms[2].Closed() || !ms[1].Closed() || ms[0].Closed() {
		t.Fatalf("MeshParts: %v %v", names, err)
	}
	// Round trip through WriteOBJSoup keeps the parts.
	var buf bytes.Buffer
	if err := WriteOBJSoup(&buf, s); err != nil {
		t.Fatal(err)
	}
	back, err := ReadOBJSoup(&buf, "back.obj")
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range []SplitBy{ByObject, ByGroup} {
		a, b := s.Split(by), back.Split(by)
		if len(a) != len(b) {
			t.Fatalf("%v: %d parts after the round trip, want %d", by, len(b), len(a))
		}
		for i := range a {
			if a[i].Name != b[i].Name || !slices.EqualFunc(a[i].Soup.Faces, b[i].Soup.Faces, slices.Equal[[]int]) {
				t.Fatalf("%v part %d differs after the round trip", by, i)
			}
		}
	}
	// Repair keeps parts in step when it drops and splits faces.
	s2, _ := ReadOBJSoup(strings.NewReader(objParts+"o third\nv 0 0 0\nf 1 1 2\n"), "p.obj")
	s2.Repair(nil)
	if ps := s2.Split(ByObject); len(ps) != 3 || ps[2].Name != "second" || len(ps[2].Soup.Faces) != 4 {
		t.Fatalf("after Repair: %d parts", len(ps))
	}
}

// TestWeldTinyTolerance checks that a tolerance far below the extent acts
// as exact welding, quickly, even for many vertices in one small region.
func TestWeldTinyTolerance(t *testing.T) {
	var vs []geom.Vec3
	for i := range 20000 {
		vs = append(vs, geom.Vec3{X: float64(i) * 1e-9, Y: 1})
	}
	vs = append(vs, geom.Vec3{X: 1e-9, Y: 1}) // a copy of vertex 1
	s := &Soup{Verts: vs}
	if merged, _ := s.Weld(1e-300); merged != 1 || len(s.Verts) != 20000 {
		t.Fatalf("merged %d, %d vertices left", merged, len(s.Verts))
	}
}

// TestDropDuplicates checks that copies of a face in any rotation or
// orientation are dropped, the first kept, for triangles, quads and larger
// polygons, and that faces sharing only some corners stay.
func TestDropDuplicates(t *testing.T) {
	s := &Soup{
		Verts: make([]geom.Vec3, 8),
		Faces: [][]int{
			{0, 1, 2}, {1, 2, 0}, {2, 1, 0}, {0, 1, 3}, // 2 copies of the first
			{0, 1, 2, 3}, {3, 2, 1, 0}, {1, 2, 3, 0}, {0, 1, 2, 4}, // 2 copies
			{0, 1, 2, 3, 4, 5}, {5, 4, 3, 2, 1, 0}, {0, 1, 2, 3, 4, 6}, // 1 copy
		},
		FacePos: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
		Groups:  []Part{{Name: "g", Start: 4}},
	}
	if n := s.DropDuplicates(); n != 5 {
		t.Fatalf("dropped %d, want 5", n)
	}
	if want := []int64{1, 4, 5, 8, 9, 11}; !slices.Equal(s.FacePos, want) {
		t.Fatalf("kept faces at %v, want %v", s.FacePos, want)
	}
	if s.Groups[0].Start != 2 {
		t.Fatalf("group starts at %d, want 2", s.Groups[0].Start)
	}
}
