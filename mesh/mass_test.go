package mesh_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshio"
	"github.com/collide-go/collide/shapes"
)

// relErr is |got - want| / scale.
func relErr(got, want, scale float64) float64 { return math.Abs(got-want) / scale }

// matClose reports the largest entry difference of a and b over scale.
func matDiff(a, b geom.Mat3, scale float64) float64 {
	d := 0.0
	for i := range 3 {
		for j := range 3 {
			d = max(d, math.Abs(a[i][j]-b[i][j])/scale)
		}
	}
	return d
}

// checkProps checks mp against the expected volume, centre and inertia,
// and checks that the principal decomposition reproduces the tensor.
func checkProps(t *testing.T, name string, mp mesh.MassProps, density, vol float64, c geom.Vec3, inertia geom.Mat3, tol float64) {
	t.Helper()
	size := math.Cbrt(vol)
	if e := relErr(mp.Volume, vol, vol); e > tol {
		t.Errorf("%s: volume %v, want %v (rel %.2g)", name, mp.Volume, vol, e)
	}
	if e := relErr(mp.Mass, density*vol, density*vol); e > tol {
		t.Errorf("%s: mass %v, want %v", name, mp.Mass, density*vol)
	}
	if d := mp.Center.Dist(c); d > tol*size {
		t.Errorf("%s: centre %v, want %v (off by %.2g)", name, mp.Center, c, d)
	}
	scale := max(math.Abs(inertia[0][0]), math.Abs(inertia[1][1]), math.Abs(inertia[2][2]))
	if d := matDiff(mp.Inertia, inertia, scale); d > tol {
		t.Errorf("%s: inertia\n%v\nwant\n%v\n(rel %.2g)", name, mp.Inertia, inertia, d)
	}
	checkEigen(t, name, mp)
}

// checkEigen checks Inertia = Axes diag(Principal) Axes^T, Axes a rotation,
// Principal ascending.
func checkEigen(t *testing.T, name string, mp mesh.MassProps) {
	t.Helper()
	if !mp.Axes.IsRotation(1e-12) {
		t.Errorf("%s: axes %v are not a rotation", name, mp.Axes)
	}
	if !(mp.Principal.X <= mp.Principal.Y && mp.Principal.Y <= mp.Principal.Z) {
		t.Errorf("%s: principal moments %v not ascending", name, mp.Principal)
	}
	back := mp.Axes.Mul(geom.Diag(mp.Principal)).Mul(mp.Axes.Transpose())
	sc := max(math.Abs(mp.Principal.X), math.Abs(mp.Principal.Z))
	if d := matDiff(back, mp.Inertia, sc); d > 1e-12 {
		t.Errorf("%s: Axes diag(Principal) Axes^T differs from Inertia by %.2g", name, d)
	}
}

// boxInertia is the closed form of a solid box of mass m and full extents
// (a, b, c) about its centre: m/12 (b^2 + c^2), ...
func boxInertia(m float64, s geom.Vec3) geom.Mat3 {
	return geom.Diag(geom.Vec3{X: s.Y*s.Y + s.Z*s.Z, Y: s.X*s.X + s.Z*s.Z, Z: s.X*s.X + s.Y*s.Y}.Scale(m / 12))
}

// transformed returns m moved by pose p (vertices only; faces kept).
func transformed(t *testing.T, m *mesh.Mesh, p geom.Pose) *mesh.Mesh {
	vs := make([]geom.Vec3, m.NumVerts())
	for i, v := range m.Verts {
		vs[i] = p.Apply(v)
	}
	fs := m.Loops()
	out, err := mesh.New(vs, fs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestMassPropertiesClosedForms compares boxes, cubes and tetrahedra, moved
// by random poses, with closed forms: the box formula rotated as R I R^T,
// and the integrals of the unit right tetrahedron (x^2: 1/60, xy: 1/120)
// mapped by an affine map.
func TestMassPropertiesClosedForms(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 1))
	for i := range 200 {
		q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		p := geom.Pose{P: geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(math.Pow(10, float64(rng.IntN(6)))), Q: q}
		density := math.Pow(10, 4*rng.Float64()-1)
		R := q.Mat3()
		var half geom.Vec3
		var base *mesh.Mesh
		if i%2 == 0 {
			s := 0.1 + 3*rng.Float64()
			half = geom.Vec3{X: s, Y: s, Z: s}.Scale(0.5)
			base = shapes.Cube(s)
		} else {
			half = geom.Vec3{X: 0.1 + rng.Float64(), Y: 0.1 + rng.Float64(), Z: 0.1 + rng.Float64()}
			base = shapes.Box(half)
		}
		full := half.Scale(2)
		vol := full.X * full.Y * full.Z
		want := R.Mul(boxInertia(density*vol, full)).Mul(R.Transpose())
		mp, err := mesh.MassProperties(transformed(t, base, p), density)
		if err != nil {
			t.Fatal(err)
		}
		checkProps(t, fmt.Sprintf("box %d", i), mp, density, vol, p.P, want, 1e-9)
		// Principal moments of a box are the closed-form diagonal, sorted.
		d := boxInertia(density*vol, full)
		pm := []float64{d[0][0], d[1][1], d[2][2]}
		slices.Sort(pm)
		for k := range 3 {
			if e := relErr(mp.Principal.Get(k), pm[k], pm[2]); e > 1e-9 {
				t.Errorf("box %d: principal %v, want %v", i, mp.Principal, pm)
			}
		}
	}
	// Tetrahedra: x = A u + b maps the unit right tetrahedron T0; with
	// M0 = integral over T0 of u u^T (1/60 diagonal, 1/120 off) and volume
	// 1/6, the image has volume |det A|/6, centre A (1/4,1/4,1/4) + b and
	// second moment about its centre |det A| A (M0 - (1/6) g g^T) A^T.
	for i := range 200 {
		var A geom.Mat3
		for r := range 3 {
			for c := range 3 {
				A[r][c] = rng.NormFloat64()
			}
		}
		det := A.Det()
		if math.Abs(det) < 0.05 {
			continue
		}
		b := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Scale(10)
		u := []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}}
		vs := make([]geom.Vec3, 4)
		for k, p := range u {
			vs[k] = A.MulVec(p).Add(b)
		}
		faces := [][]int{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}
		if det < 0 {
			for _, f := range faces {
				slices.Reverse(f)
			}
		}
		m, err := mesh.New(vs, faces, nil)
		if err != nil {
			t.Fatal(err)
		}
		var M0 geom.Mat3
		g := geom.Vec3{X: 0.25, Y: 0.25, Z: 0.25}
		for r := range 3 {
			for c := range 3 {
				M0[r][c] = 1.0/120 - g.Get(r)*g.Get(c)/6
				if r == c {
					M0[r][c] = 1.0/60 - g.Get(r)*g.Get(c)/6
				}
			}
		}
		density := 2.5
		C := A.Mul(M0).Mul(A.Transpose()).Scale(math.Abs(det) * density)
		tr := C[0][0] + C[1][1] + C[2][2]
		var I geom.Mat3
		for r := range 3 {
			for c := range 3 {
				I[r][c] = -C[r][c]
			}
			I[r][r] += tr
		}
		mp, err := mesh.MassProperties(m, density)
		if err != nil {
			t.Fatal(err)
		}
		checkProps(t, fmt.Sprintf("tetrahedron %d", i), mp, density, math.Abs(det)/6, A.MulVec(g).Add(b), I, 1e-9)
	}
}

// lineIntegrals integrates 1, x, x^2 exactly along the line {(x, y, z)}
// through the solid bounded by the triangles tris (winding number rule):
// the crossings of the line with the triangles, each signed by the
// direction of the triangle's normal, bound the inside intervals.
func lineIntegrals(tris [][3]geom.Vec3, y, z float64) (l0, l1, l2 float64) {
	type cross struct {
		x float64
		s int
	}
	var cs []cross
	for _, tr := range tris {
		// 2-D point-in-triangle of (y, z) in the triangle's yz shadow.
		a, b, c := tr[0], tr[1], tr[2]
		d := (b.Y-a.Y)*(c.Z-a.Z) - (b.Z-a.Z)*(c.Y-a.Y) // normal's x times 2
		if d == 0 {
			continue
		}
		w0 := ((b.Y-y)*(c.Z-z) - (b.Z-z)*(c.Y-y)) / d
		w1 := ((c.Y-y)*(a.Z-z) - (c.Z-z)*(a.Y-y)) / d
		w2 := 1 - w0 - w1
		if w0 < 0 || w1 < 0 || w2 < 0 {
			continue
		}
		s := 1
		if d < 0 {
			s = -1
		}
		cs = append(cs, cross{w0*a.X + w1*b.X + w2*c.X, s})
	}
	slices.SortFunc(cs, func(p, q cross) int { return cmp.Compare(p.x, q.x) })
	// Walking in +x, leaving the solid crosses an outward face whose
	// normal has positive x: winding decreases... count from the far end.
	wind := 0
	for k := len(cs) - 1; k > 0; k-- {
		wind += cs[k].s
		if wind != 0 {
			x0, x1 := cs[k-1].x, cs[k].x
			l0 += x1 - x0
			l1 += (x1*x1 - x0*x0) / 2
			l2 += (x1*x1*x1 - x0*x0*x0) / 3
		}
	}
	return
}

// gridProps integrates the solid bounded by m on an n x n grid of lines
// along x (exact along each line, midpoint rule across), from m's face
// loops alone (each fanned, which the winding rule tolerates).
func gridProps(m *mesh.Mesh, density float64, n int) (vol float64, c geom.Vec3, I geom.Mat3) {
	var tris [][3]geom.Vec3
	for f := range m.NumFaces() {
		l := m.Face(f)
		for k := 1; k+1 < len(l); k++ {
			tris = append(tris, [3]geom.Vec3{m.Verts[l[0]], m.Verts[l[k]], m.Verts[l[k+1]]})
		}
	}
	b := m.Bounds()
	// Integrals of 1, x, y, z, xx, yy, zz, xy, xz, yz.
	var s [10]float64
	dy, dz := (b.Max.Y-b.Min.Y)/float64(n), (b.Max.Z-b.Min.Z)/float64(n)
	for i := range n {
		// An irrational shift keeps the lines off edges and vertices.
		y := b.Min.Y + (float64(i)+0.5+1e-7*math.Sqrt2)*dy
		for j := range n {
			z := b.Min.Z + (float64(j)+0.5+1e-7*math.Sqrt(3))*dz
			l0, l1, l2 := lineIntegrals(tris, y, z)
			a := dy * dz
			s[0] += a * l0
			s[1] += a * l1
			s[2] += a * y * l0
			s[3] += a * z * l0
			s[4] += a * l2
			s[5] += a * y * y * l0
			s[6] += a * z * z * l0
			s[7] += a * y * l1
			s[8] += a * z * l1
			s[9] += a * y * z * l0
		}
	}
	vol = s[0]
	c = geom.Vec3{X: s[1], Y: s[2], Z: s[3]}.Scale(1 / vol)
	cxx := s[4] - vol*c.X*c.X
	cyy := s[5] - vol*c.Y*c.Y
	czz := s[6] - vol*c.Z*c.Z
	cxy := s[7] - vol*c.X*c.Y
	cxz := s[8] - vol*c.X*c.Z
	cyz := s[9] - vol*c.Y*c.Z
	I = geom.Mat3{{cyy + czz, -cxy, -cxz}, {-cxy, cxx + czz, -cyz}, {-cxz, -cyz, cxx + cyy}}.Scale(density)
	return
}

// TestMassPropertiesGrid compares the torus, Buss's car and random convex
// polytopes, in random poses, with a dense integration over lines.
func TestMassPropertiesGrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 2))
	cases := []struct {
		name string
		m    *mesh.Mesh
	}{
		{"torus", shapes.Torus(1, 0.35, 20, 15)},
		{"car", shapes.Car()},
		{"coil", shapes.Coil(1, 0.1, 0.5, 2, 16, 6)},
		{"ellipsoid", shapes.RandomPolytope(shapes.Ellipsoid, 60, 1, 3)},
	}
	for _, c := range cases {
		q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		m := transformed(t, c.m, geom.Pose{P: geom.Vec3{X: 3, Y: -2, Z: 1}, Q: q})
		mp, err := mesh.MassProperties(m, 7.5)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		vol, cen, I := gridProps(m, 7.5, 150)
		// The midpoint rule across lines leaves about 1e-4 relative error
		// at 150 lines per side on these shapes (measured: 5e-6 to 1.2e-4).
		checkProps(t, c.name, mp, 7.5, vol, cen, I, 1e-3)
	}
}

// TestMassPropertiesScene compares with the mass and inertia that the
// simulation scene generator wrote for the bodies of a sample scene (the
// meshes have their centre of mass at the origin).
func TestMassPropertiesScene(t *testing.T) {
	dir := "testdata/sim-pile"
	b, err := os.ReadFile(filepath.Join(dir, "scene.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sc struct {
		Params struct {
			Density float64 `json:"density"`
		} `json:"params"`
		Meshes []struct{ Name, File string } `json:"meshes"`
		Bodies []struct {
			Mesh    string     `json:"mesh"`
			Static  bool       `json:"static"`
			Mass    float64    `json:"mass"`
			Inertia [9]float64 `json:"inertia"`
		} `json:"bodies"`
	}
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, m := range sc.Meshes {
		files[m.Name] = m.File
	}
	n := 0
	for _, body := range sc.Bodies {
		if body.Static {
			continue
		}
		m, err := meshio.ReadFile(filepath.Join(dir, files[body.Mesh]), nil)
		if err != nil {
			t.Fatal(err)
		}
		mp, err := mesh.MassProperties(m, sc.Params.Density)
		if err != nil {
			t.Fatalf("%s: %v", body.Mesh, err)
		}
		var want geom.Mat3
		for k, v := range body.Inertia {
			want[k/3][k%3] = v
		}
		vol := body.Mass / sc.Params.Density
		checkProps(t, body.Mesh, mp, sc.Params.Density, vol, geom.Vec3{}, want, 1e-9)
		n++
	}
	if n < 20 {
		t.Fatalf("only %d dynamic bodies compared", n)
	}
}

// TestMassPropertiesErrors checks the refusals: open and inconsistently
// oriented meshes, inward faces, bad densities.
func TestMassPropertiesErrors(t *testing.T) {
	cube := shapes.Cube(1)
	fs := cube.Loops()
	open, _ := mesh.New(cube.Verts, fs[1:], nil)
	flipped := slices.Clone(fs)
	flipped[0] = slices.Clone(fs[0])
	slices.Reverse(flipped[0])
	flip, _ := mesh.New(cube.Verts, flipped, nil)
	inward := make([][]int, len(fs))
	for i, l := range fs {
		inward[i] = slices.Clone(l)
		slices.Reverse(inward[i])
	}
	in, _ := mesh.New(cube.Verts, inward, nil)
	for _, c := range []struct {
		name    string
		m       *mesh.Mesh
		density float64
		want    string
	}{
		{"open", open, 1, "not closed"},
		{"flipped", flip, 1, "inconsistent orientation"},
		{"inward", in, 1, "not positive"},
		{"zero density", cube, 0, "density"},
		{"NaN density", cube, math.NaN(), "density"},
		{"Inf density", cube, math.Inf(1), "density"},
	} {
		_, err := mesh.MassProperties(c.m, c.density)
		if err == nil || !containsStr(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func containsStr(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// TestSymEigen checks the Jacobi decomposition on random symmetric
// matrices, repeated eigenvalues and diagonal input.
func TestSymEigen(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 3))
	for i := range 2000 {
		var a geom.Mat3
		switch i % 4 {
		case 0: // general
			for r := range 3 {
				for c := r; c < 3; c++ {
					a[r][c] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
					a[c][r] = a[r][c]
				}
			}
		case 1: // rotated with a repeated eigenvalue
			q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
			R := q.Mat3()
			e := rng.Float64()
			a = R.Mul(geom.Diag(geom.Vec3{X: e, Y: e, Z: 3 * e})).Mul(R.Transpose())
		case 2: // diagonal
			a = geom.Diag(geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()})
		default: // a multiple of the identity
			a = geom.Identity().Scale(rng.Float64())
		}
		vals, axes := mesh.SymEigen(a)
		checkEigen(t, fmt.Sprint("matrix ", i), mesh.MassProps{Inertia: a, Principal: vals, Axes: axes})
		// The eigenvalues are the roots of the characteristic polynomial:
		// det(a - lambda I) = 0.
		for k := range 3 {
			l := vals.Get(k)
			sc := max(math.Abs(vals.X), math.Abs(vals.Z), 1e-300)
			if d := a.Add(geom.Identity().Scale(-l)).Det(); math.Abs(d) > 1e-9*sc*sc*sc {
				t.Fatalf("matrix %d: det(a - %v I) = %v", i, l, d)
			}
		}
	}
}

// TestMassPropertiesCavity checks a hollow cube (an inward cube inside an
// outward one: the cavity's mass is subtracted, closed form I_outer -
// I_inner) and the same inward cube outside the outer one, which bounds no
// solid and is refused although its total volume is positive.
func TestMassPropertiesCavity(t *testing.T) {
	build := func(inner geom.Vec3) *mesh.Mesh {
		outer, in := shapes.Cube(2), shapes.Cube(1)
		vs := slices.Clone(outer.Verts)
		fs := outer.Loops()
		for _, v := range in.Verts {
			vs = append(vs, v.Add(inner))
		}
		for _, l := range in.Loops() {
			r := make([]int, len(l))
			for k, v := range l {
				r[len(l)-1-k] = v + outer.NumVerts()
			}
			fs = append(fs, r)
		}
		m, err := mesh.New(vs, fs, nil)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	const rho = 3.0
	mp, err := mesh.MassProperties(build(geom.Vec3{}), rho)
	if err != nil {
		t.Fatal(err)
	}
	want := boxInertia(8*rho, geom.Vec3{X: 2, Y: 2, Z: 2}).Add(boxInertia(rho, geom.Vec3{X: 1, Y: 1, Z: 1}).Scale(-1))
	checkProps(t, "hollow cube", mp, rho, 7, geom.Vec3{}, want, 1e-12)
	if _, err := mesh.MassProperties(build(geom.Vec3{X: 5}), rho); err == nil || !containsStr(err.Error(), "not those of a solid") {
		t.Fatalf("inward cube outside: %v", err)
	}
}

// BenchmarkMassProperties: a 100 x 100 quad torus (10 000 faces, 20 000
// triangles' tetrahedra).
func BenchmarkMassProperties(b *testing.B) {
	m := shapes.Torus(1, 0.35, 100, 100)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := mesh.MassProperties(m, 1000); err != nil {
			b.Fatal(err)
		}
	}
}
