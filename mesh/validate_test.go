package mesh_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
	"github.com/collide-go/collide/mesh"
)

// baseMesh returns a random valid closed mesh (torus, grid box or hull,
// relabelled).
func baseMesh(rng *rand.Rand) soup {
	switch rng.IntN(3) {
	case 0:
		return relabel(rng, genTorus(rng))
	case 1:
		return relabel(rng, genGridBox(rng))
	}
	return relabel(rng, genHull(rng))
}

// TestValidationErrors injects one defect of each kind into random valid
// meshes at a random place and checks that New reports it as an *Error
// naming that face or vertex.
func TestValidationErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	kinds := []string{"nan", "inf", "range", "negative", "short", "repeat", "collinear", "coincident", "nonplanar"}
	for i := 0; i < cases(2000); i++ {
		s := baseMesh(rng).clone()
		kind := kinds[i%len(kinds)]
		f := rng.IntN(len(s.faces))
		v := rng.IntN(len(s.verts))
		wantFace, wantVert := f, mesh.None
		wantMsg := ""
		switch kind {
		case "nan":
			s.verts[v] = s.verts[v].Set(rng.IntN(3), math.NaN())
			wantFace, wantVert, wantMsg = mesh.None, v, "not finite"
		case "inf":
			s.verts[v] = s.verts[v].Set(rng.IntN(3), math.Inf(1-2*rng.IntN(2)))
			wantFace, wantVert, wantMsg = mesh.None, v, "not finite"
		case "range":
			s.faces[f][rng.IntN(len(s.faces[f]))] = len(s.verts) + rng.IntN(3)
			wantMsg = "out of range"
		case "negative":
			s.faces[f][rng.IntN(len(s.faces[f]))] = -1 - rng.IntN(3)
			wantMsg = "out of range"
		case "short":
			s.faces[f] = s.faces[f][:rng.IntN(3)]
			wantMsg = "need at least 3"
		case "repeat":
			l := s.faces[f]
			a := rng.IntN(len(l))
			b := (a + 1 + rng.IntN(len(l)-1)) % len(l)
			l[b] = l[a]
			wantMsg = "repeats vertex"
		case "collinear":
			// A new triangle on three collinear new vertices.
			p := s.verts[rng.IntN(len(s.verts))]
			d := randUnit(rng)
			n := len(s.verts)
			s.verts = append(s.verts, p, p.Add(d), p.Add(d.Scale(1+rng.Float64())))
			s.faces = slices.Insert(s.faces, f, []int{n, n + 1, n + 2})
			wantMsg = "zero area"
		case "coincident":
			// A triangle with two distinct vertices at the same point.
			p := s.verts[rng.IntN(len(s.verts))]
			n := len(s.verts)
			s.verts = append(s.verts, p, p, p.Add(randUnit(rng)))
			s.faces = slices.Insert(s.faces, f, []int{n, n + 1, n + 2})
			wantMsg = "zero area"
		case "nonplanar":
			// A new quadrilateral with one corner lifted off its plane by a
			// tenth of the mesh's size (far beyond the 1e-6 tolerance).
			b := geom.AABBOf(s.verts...)
			size := b.Diagonal()
			c := b.Center()
			u, w := randUnit(rng).Orthonormal()
			nrm := u.Cross(w)
			n := len(s.verts)
			s.verts = append(s.verts, c, c.Add(u.Scale(size/4)), c.Add(u.Add(w).Scale(size/4)).Add(nrm.Scale(size/10)), c.Add(w.Scale(size/4)))
			s.faces = slices.Insert(s.faces, f, []int{n, n + 1, n + 2, n + 3})
			wantMsg = "not planar"
		}
		m, err := mesh.New(s.verts, s.faces, nil)
		if err == nil {
			t.Fatalf("case %d (%s in %s at face %d / vertex %d): no error", i, kind, s.name, f, v)
		}
		if m != nil {
			t.Fatalf("case %d: mesh returned with error", i)
		}
		var me *mesh.Error
		if !errors.As(err, &me) {
			t.Fatalf("case %d (%s): error %T is not a *mesh.Error: %v", i, kind, err, err)
		}
		if me.Face != wantFace || me.Vertex != wantVert || me.Edge != mesh.None || !strings.Contains(me.Msg, wantMsg) {
			t.Fatalf("case %d (%s in %s): got face %d vertex %d edge %d %q, want face %d vertex %d containing %q",
				i, kind, s.name, me.Face, me.Vertex, me.Edge, err, wantFace, wantVert, wantMsg)
		}
		prefix := fmt.Sprintf("face %d: ", wantFace)
		if wantFace == mesh.None {
			prefix = fmt.Sprintf("vertex %d: ", wantVert)
		}
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("case %d (%s): message %q does not start with %q", i, kind, err, prefix)
		}
	}
}

// TestValidationTolerances checks that Options change the thresholds: a
// slightly bent quad fails the default planarity tolerance and passes a
// looser one; a tiny triangle fails only a stricter area tolerance.
func TestValidationTolerances(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for i := 0; i < cases(200); i++ {
		bend := math.Pow(10, -8+6*rng.Float64()) // 1e-8 .. 1e-2 of the size
		verts := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 1, Y: 1, Z: bend}, {X: 0, Y: 1, Z: 0}}
		faces := [][]int{{0, 1, 2, 3}}
		// The diagonal is sqrt(2+bend^2); the distance of each corner from
		// the Newell plane is bend/4 (exact for this symmetric quad).
		diag := math.Sqrt(2 + bend*bend)
		dist := bend / 4 / math.Sqrt(1+bend*bend/4)
		_, err := mesh.New(verts, faces, nil)
		if wantErr := dist > mesh.DefaultPlanarTol*diag; (err != nil) != wantErr {
			t.Fatalf("bend %g: error %v, want error %v", bend, err, wantErr)
		}
		if _, err := mesh.New(verts, faces, &mesh.Options{PlanarTol: 2 * dist / diag}); err != nil {
			t.Fatalf("bend %g with PlanarTol %g: %v", bend, 2*dist/diag, err)
		}
		if _, err := mesh.New(verts, faces, &mesh.Options{PlanarTol: dist / diag / 2}); err == nil {
			t.Fatalf("bend %g with PlanarTol %g: no error", bend, dist/diag/2)
		}
	}
	// Area tolerance: a sliver triangle in a unit-size mesh.
	verts := []geom.Vec3{{X: 0, Y: 0, Z: 0}, {X: 1, Y: 0, Z: 0}, {X: 0, Y: 1e-9, Z: 0}}
	if _, err := mesh.New(verts, [][]int{{0, 1, 2}}, nil); err != nil {
		t.Fatalf("sliver of area 5e-10 rejected by default: %v", err)
	}
	if _, err := mesh.New(verts, [][]int{{0, 1, 2}}, &mesh.Options{AreaTol: 1e-6}); err == nil {
		t.Fatal("sliver accepted with AreaTol 1e-6")
	}
}

// TestRequireSolid checks that RequireSolid accepts closed outward meshes
// and names the offending edge otherwise; RequireManifoldSolid also names
// a non-manifold vertex.
func TestRequireSolid(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	for i := 0; i < cases(1500); i++ {
		s := baseMesh(rng)
		kind := []string{"valid", "open", "fin", "flip", "bowtie", "inward"}[i%6]
		var edgeOK func(m *mesh.Mesh, e mesh.Edge) bool
		wantVert := mesh.None
		switch kind {
		case "open":
			s = deleteFaces(rng, s)
			edgeOK = func(m *mesh.Mesh, e mesh.Edge) bool { return e.NumFaces == 1 }
		case "fin":
			var ab [2]int
			s, ab = addFin(rng, s)
			edgeOK = func(m *mesh.Mesh, e mesh.Edge) bool {
				// The fin's edge has three faces; its other edges are
				// boundary edges, and either may be reported first.
				return e.NumFaces == 1 || (e.NumFaces == 3 && ukey(int(e.V[0]), int(e.V[1])) == ukey(ab[0], ab[1]))
			}
		case "flip":
			var f int
			s, f = flipFace(rng, s)
			fl := s.faces[f]
			edgeOK = func(m *mesh.Mesh, e mesh.Edge) bool {
				return (int(e.Left) == f || int(e.Right) == f) && slices.Contains(fl, int(e.V[0])) && slices.Contains(fl, int(e.V[1]))
			}
		case "bowtie":
			if s.name != "hull+relabel" && s.name != "gridbox+relabel" {
				kind = "valid"
				break
			}
			s, wantVert = bowtie(rng, s)
		case "inward":
			s = s.clone()
			for _, l := range s.faces {
				slices.Reverse(l)
			}
		}
		m, err := mesh.New(s.verts, s.faces, nil)
		if err != nil {
			t.Fatalf("case %d (%s): New: %v", i, kind, err)
		}
		err = m.RequireSolid()
		if kind == "bowtie" {
			// Two solids sharing a vertex bound a solid: RequireSolid
			// accepts them, RequireManifoldSolid names the vertex.
			if err != nil {
				t.Fatalf("case %d (bowtie at %d): RequireSolid: %v", i, wantVert, err)
			}
			if m.Manifold() {
				t.Fatalf("case %d (bowtie at %d): Manifold() is true", i, wantVert)
			}
			err = m.RequireManifoldSolid()
		}
		if kind == "valid" {
			if err != nil {
				t.Fatalf("case %d (%s): %v", i, s.name, err)
			}
			continue
		}
		var me *mesh.Error
		if !errors.As(err, &me) {
			t.Fatalf("case %d (%s, %s): error %v is not a *mesh.Error", i, kind, s.name, err)
		}
		switch {
		case edgeOK != nil:
			if me.Edge == mesh.None || !edgeOK(m, m.Edges[me.Edge]) {
				t.Fatalf("case %d (%s, %s): %q names edge %d, not a %s edge", i, kind, s.name, err, me.Edge, kind)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("edge %d: ", me.Edge)) {
				t.Fatalf("case %d: message %q does not name the edge", i, err)
			}
		case kind == "bowtie":
			if me.Vertex != wantVert || me.Edge != mesh.None {
				t.Fatalf("case %d (bowtie at %d): %q names vertex %d edge %d", i, wantVert, err, me.Vertex, me.Edge)
			}
		case kind == "inward":
			if me.Edge != mesh.None || me.Vertex != mesh.None || me.Face != mesh.None || !strings.Contains(err.Error(), "volume") {
				t.Fatalf("case %d (inward): %q", i, err)
			}
		}
	}
}

// TestOutOfRangeMessage checks that coordinates whose products overflow
// are reported as out of range, naming geom.MaxCoord, instead of as a
// face of zero or infinite area.
func TestOutOfRangeMessage(t *testing.T) {
	for _, c := range []struct {
		name  string
		s     float64
		faces [][]int
	}{
		{"1e308 tetrahedron", 1e308, [][]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}},
		{"1e200 triangle", 1e200, [][]int{{0, 1, 2}}},
	} {
		verts := []geom.Vec3{{X: -c.s, Y: -c.s, Z: -c.s}, {X: c.s, Y: c.s, Z: -c.s}, {X: c.s, Y: -c.s, Z: c.s}, {X: -c.s, Y: c.s, Z: c.s}}
		_, err := mesh.New(verts, c.faces, nil)
		if err == nil {
			t.Fatalf("%s: accepted", c.name)
		}
		msg := err.Error()
		if !strings.Contains(msg, "out of range") || !strings.Contains(msg, "MaxCoord") || strings.Contains(msg, "zero area") {
			t.Fatalf("%s: message %q does not say the coordinates are out of range", c.name, msg)
		}
		var me *mesh.Error
		if !errors.As(err, &me) || (me.Vertex == mesh.None && me.Face == mesh.None) {
			t.Fatalf("%s: %v names no vertex or face", c.name, err)
		}
	}
	// Large but representable coordinates are still accepted by New (the
	// algorithms check their own limits).
	if _, err := mesh.New([]geom.Vec3{{}, {X: 1e17}, {Y: 1e17}}, [][]int{{0, 1, 2}}, nil); err != nil {
		t.Fatalf("1e17 triangle: %v", err)
	}
}

// TestRequireSolidTwoSided checks that a two-sided surface (a polygon and
// its reverse: closed, manifold and oriented, enclosing nothing) is refused
// whatever the rounding of its volume, at random places and sizes, while
// thin solids (a slab a millionth as thick as it is wide) are accepted.
func TestRequireSolidTwoSided(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	positive := 0
	for i := 0; i < 300; i++ {
		n := 3 + rng.IntN(6)
		size := math.Pow(10, 6*rng.Float64()-3)
		far := math.Pow(10, 4*rng.Float64()) * size
		c := geom.Vec3{X: far * rng.NormFloat64(), Y: far * rng.NormFloat64(), Z: far * rng.NormFloat64()}
		ax, _ := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		u, w := ax.Orthonormal()
		verts := make([]geom.Vec3, n)
		front := make([]int, n)
		back := make([]int, n)
		for k := range verts {
			a := 2 * math.Pi * (float64(k) + 0.3*rng.Float64()) / float64(n)
			verts[k] = c.AddScaled(size*math.Cos(a), u).AddScaled(size*math.Sin(a), w)
			front[k] = k
			back[n-1-k] = k
		}
		m, err := mesh.New(verts, [][]int{front, back}, &mesh.Options{PlanarTol: 1e-3})
		if err != nil {
			t.Fatalf("case %d: New: %v", i, err)
		}
		if !m.Closed() || !m.Manifold() || !m.Oriented() {
			t.Fatalf("case %d: the doubled polygon is not closed, manifold and oriented", i)
		}
		if m.Volume() > 0 {
			positive++
		}
		if err := m.RequireSolid(); err == nil {
			t.Errorf("case %d: a two-sided polygon (volume %g) accepted as a solid", i, m.Volume())
		}
		// The same polygon as a slab of thickness size*1e-6: a solid.
		h := ax.Scale(size * 1e-6)
		sv := make([]geom.Vec3, 0, 2*n)
		for _, v := range verts {
			sv = append(sv, v.Add(h))
		}
		sv = append(sv, verts...)
		top := make([]int, n)
		bot := make([]int, n)
		faces := [][]int{}
		for k := 0; k < n; k++ {
			top[k] = k
			bot[n-1-k] = n + k
			k1 := (k + 1) % n
			faces = append(faces, []int{k, n + k, n + k1, k1})
		}
		faces = append(faces, top, bot)
		s, err := mesh.New(sv, faces, &mesh.Options{PlanarTol: 1e-3})
		if err != nil {
			t.Fatalf("case %d: slab: %v", i, err)
		}
		if s.Volume() > 0 {
			if err := s.RequireSolid(); err != nil {
				t.Errorf("case %d: a thin slab refused: %v", i, err)
			}
		}
	}
	t.Logf("%d of 300 two-sided polygons have a positive computed volume", positive)
	if positive == 0 {
		t.Errorf("no two-sided polygon had a positive computed volume: the test does not exercise the rounding")
	}
}

// TestRequireConvex checks that RequireConvex accepts convex solids and
// names, for a dented one, the vertex furthest outside a face plane (found
// here by brute force over the faces' corners).
func TestRequireConvex(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 1))
	dented := 0
	for i := range 200 {
		n := 8 + rng.IntN(40)
		var pts []geom.Vec3
		for range n {
			p := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			p, _ = p.Normalize()
			pts = append(pts, p)
		}
		m, err := hull.New(pts, &hull.Options{Triangles: true})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.RequireConvex(); err != nil {
			t.Fatalf("hull %d: %v", i, err)
		}
		// Push one vertex towards the centre: the mesh is then (mostly)
		// not convex, and the error must give the largest distance of a
		// vertex above a face plane, found by brute force.
		vs := slices.Clone(m.Verts)
		k := rng.IntN(len(vs))
		vs[k] = vs[k].Scale(0.3)
		fs := m.Loops()
		d, err := mesh.New(vs, fs, nil)
		if err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for f := range d.NumFaces() {
			l := d.Face(f)
			a, b, c := vs[l[0]], vs[l[1]], vs[l[2]]
			nrm, _ := b.Sub(a).Cross(c.Sub(a)).Normalize()
			for _, p := range vs {
				worst = max(worst, p.Sub(a).Dot(nrm))
			}
		}
		err = d.RequireConvex()
		if worst <= d.ConvexTol() {
			if err != nil {
				t.Fatalf("dented hull %d is still convex (worst %g), but: %v", i, worst, err)
			}
			continue
		}
		dented++
		var me *mesh.Error
		if !errors.As(err, &me) || me.Vertex == mesh.None || !strings.Contains(err.Error(), "not convex") {
			t.Fatalf("dented hull %d: %v", i, err)
		}
		if got := fmt.Sprintf("%.3g", worst); !strings.Contains(err.Error(), "lies "+got+" outside") {
			t.Fatalf("dented hull %d: %v, brute force says %s", i, err, got)
		}
	}
	if dented < 150 {
		t.Fatalf("only %d of 200 dented hulls were not convex", dented)
	}
}
