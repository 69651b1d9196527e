package hull

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

var (
	long = flag.Bool("long", false, "run the exhaustive hull property tests (many more cases)")
	seed = flag.Uint64("seed", 1, "seed of the random hull property tests")
)

// gen makes the test point sets: random in a ball or on a sphere, integer
// grids (many exactly coplanar and collinear points), coplanar subsets,
// duplicates, points nearly coplanar within 1e-12, huge and tiny
// coordinates, and sets far from the origin.
type gen struct{ r *rand.Rand }

func (g gen) unit() geom.Vec3 {
	for {
		v := geom.Vec3{X: 2*g.r.Float64() - 1, Y: 2*g.r.Float64() - 1, Z: 2*g.r.Float64() - 1}
		if n := v.Norm2(); n > 1e-6 && n <= 1 {
			return v
		}
	}
}

func (g gen) sphere() geom.Vec3 {
	v, _ := g.unit().Normalize()
	return v
}

const kinds = 10

func kindName(k int) string {
	return [...]string{"ball", "sphere", "grid", "coplanar-subsets", "duplicates", "nearly-coplanar", "huge", "tiny", "far", "cube-faces"}[k]
}

func (g gen) points(kind, n int) []geom.Vec3 {
	var p []geom.Vec3
	switch kind {
	case 0:
		for i := 0; i < n; i++ {
			p = append(p, g.unit())
		}
	case 1:
		for i := 0; i < n; i++ {
			p = append(p, g.sphere())
		}
	case 2: // integer grid points in a box: many exact coplanarities
		k := 1 + g.r.IntN(4)
		for i := 0; i < n; i++ {
			p = append(p, geom.Vec3{X: float64(g.r.IntN(k + 1)), Y: float64(g.r.IntN(k + 1)), Z: float64(g.r.IntN(2*k + 1))})
		}
	case 3: // points on a few random planes, plus a few in general position
		for i := 0; i < n; i++ {
			if i%5 == 0 {
				p = append(p, g.unit())
				continue
			}
			// plane z = x/3 + y/4 + c with c in {-1, 0, 1}: exact in binary?
			// Not necessarily; use an exactly representable plane instead.
			x, y := math.Round(g.r.Float64()*64)/64, math.Round(g.r.Float64()*64)/64
			c := float64(g.r.IntN(3) - 1)
			p = append(p, geom.Vec3{X: x, Y: y, Z: x/2 + y/4 + c})
		}
	case 4: // few distinct points, many duplicates
		base := []geom.Vec3{g.unit(), g.unit(), g.unit(), g.unit(), g.unit()}
		for i := 0; i < n; i++ {
			if g.r.IntN(3) == 0 {
				base = append(base, g.unit())
			}
			p = append(p, base[g.r.IntN(len(base))])
		}
	case 5: // on the faces of a box, perturbed by up to 1e-12
		for i := 0; i < n; i++ {
			v := geom.Vec3{X: 2*g.r.Float64() - 1, Y: 2*g.r.Float64() - 1, Z: 2*g.r.Float64() - 1}
			a := g.r.IntN(3)
			s := float64(2*g.r.IntN(2) - 1)
			v = v.Set(a, s+1e-12*(2*g.r.Float64()-1))
			p = append(p, v)
		}
		p = append(p, geom.Vec3{X: 1, Y: 1, Z: 1}, geom.Vec3{X: -1, Y: -1, Z: -1})
	case 6, 7: // huge or tiny coordinates
		s := 1e100
		if kind == 7 {
			s = 1e-100
		}
		for _, v := range g.points(g.r.IntN(6), n) {
			p = append(p, v.Scale(s))
		}
	case 8: // far from the origin
		o := geom.Vec3{X: 1e6, Y: -3e6, Z: 2e6}
		for _, v := range g.points(g.r.IntN(6), n) {
			p = append(p, v.Add(o))
		}
	case 9: // points on the faces of a cube grid, exactly coplanar
		for i := 0; i < n; i++ {
			v := geom.Vec3{X: float64(g.r.IntN(9)-4) / 4, Y: float64(g.r.IntN(9)-4) / 4, Z: float64(g.r.IntN(9)-4) / 4}
			v = v.Set(g.r.IntN(3), float64(2*g.r.IntN(2)-1))
			p = append(p, v)
		}
	}
	return p
}

// tolFor returns the tolerance of the containment checks: a few times the
// merge tolerance, plus rounding of the planes.
func tolFor(pts []geom.Vec3) float64 {
	b := geom.AABBOf(pts...)
	d := b.Diagonal()
	// Coordinates far from the origin are themselves rounded to
	// ulp(|coordinate|): allow a few of those.
	far := math.Max(b.Min.MaxAbs(), b.Max.MaxAbs()) * 0x1p-50
	return 4*DefaultTol*d + 1e-14*d + far
}

// newellPlane is the test's own plane of a face (independent of mesh.New):
// Newell's normal through the loop's centroid.
func newellPlane(vs []geom.Vec3, loop []int32) (n, c geom.Vec3) {
	for _, v := range loop {
		c = c.Add(vs[v])
	}
	c = c.Scale(1 / float64(len(loop)))
	for i, v := range loop {
		a, b := vs[v].Sub(c), vs[loop[(i+1)%len(loop)]].Sub(c)
		n = n.Add(geom.Vec3{X: (a.Y - b.Y) * (a.Z + b.Z), Y: (a.Z - b.Z) * (a.X + b.X), Z: (a.X - b.X) * (a.Y + b.Y)})
	}
	n, _ = n.Normalize()
	return n, c
}

// flatWithin reports whether the points lie within tol of a common plane,
// by brute force over the planes of all triples of points (test oracle).
func flatWithin(pts []geom.Vec3, tol float64) bool {
	// The width of the set along the normal of every non-collinear triple;
	// without such a triple the points are collinear.
	anyTriple := false
	for i := 0; i < len(pts); i++ {
		for j := i + 1; j < len(pts); j++ {
			for k := j + 1; k < len(pts); k++ {
				n, ok := pts[j].Sub(pts[i]).Cross(pts[k].Sub(pts[i])).Normalize()
				if !ok {
					continue
				}
				anyTriple = true
				lo, hi := math.Inf(1), math.Inf(-1)
				for _, p := range pts {
					d := n.Dot(p)
					lo, hi = math.Min(lo, d), math.Max(hi, d)
				}
				if hi-lo <= tol {
					return true
				}
			}
		}
	}
	return !anyTriple
}

// check verifies the hull m of pts against brute force; it returns a
// description of the first violation.
//
// A face's floating-point plane is only accurate to about the rounding
// error times diameter over width, so for thin faces (and for the
// triangles of a merged face in Triangles mode, which tilt by up to the
// merge tolerance over their height) the containment tolerance is scaled
// by diameter/width; with strict set, the mesh must also pass mesh.Convex
// (all property-test inputs do; adversarial fuzz inputs with faces
// narrower than ~1e-7 of the diameter need not).
func check(pts []geom.Vec3, m *mesh.Mesh, index []int, tri, strict bool) error {
	tol := tolFor(pts)
	diag := geom.AABBOf(pts...).Diagonal()
	if !m.Closed() || !m.Manifold() || !m.Oriented() || (strict && !tri && !m.Convex()) || m.Euler() != 2 {
		return fmt.Errorf("closed %v manifold %v oriented %v convex %v euler %d", m.Closed(), m.Manifold(), m.Oriented(), m.Convex(), m.Euler())
	}
	if err := m.RequireSolid(); err != nil {
		return err
	}
	if len(index) != m.NumVerts() {
		return fmt.Errorf("%d indices for %d vertices", len(index), m.NumVerts())
	}
	for i, v := range m.Verts {
		if index[i] < 0 || index[i] >= len(pts) || pts[index[i]] != v {
			return fmt.Errorf("vertex %d %v is not input point %d", i, v, index[i])
		}
	}
	// Every input point on or below every face plane.
	// In Triangles mode a triangle of a merged face may tilt against the
	// face's plane by up to the tolerance over its height: allow for it.
	for f := 0; f < m.NumFaces(); f++ {
		n, d := newellPlane(m.Verts, m.Face(f))
		ft := tol
		if tri || !strict {
			l := m.Face(f)
			e, area := 0.0, 0.0
			for k := range l {
				a, b := m.Verts[l[k]], m.Verts[l[(k+1)%len(l)]]
				e = math.Max(e, a.Dist(b))
				if k >= 1 && k+1 < len(l) {
					area += b.Sub(m.Verts[l[0]]).Cross(a.Sub(m.Verts[l[0]])).Norm() / 2
				}
			}
			h := 2 * area / e
			ft = tol * math.Max(1, 2*diag/h)
			if !strict {
				ft += 1e-15 * diag * diag / h
			}
		}
		for i, p := range pts {
			if s := n.Dot(p.Sub(d)); s > ft {
				return fmt.Errorf("point %d %v is %g above face %d (tolerance %g)", i, p, s, f, ft)
			}
		}
	}
	// Merged: no two adjacent faces lie within the tolerance of one plane.
	for ei, e := range m.Edges {
		if tri || !strict {
			break
		}
		n, d := newellPlane(m.Verts, m.Face(int(e.Left)))
		flat := true
		for _, v := range m.Face(int(e.Right)) {
			if math.Abs(n.Dot(m.Verts[v].Sub(d))) > DefaultTol*geom.AABBOf(pts...).Diagonal()/2 {
				flat = false
			}
		}
		if flat {
			return fmt.Errorf("faces %d and %d across edge %d are coplanar, not merged", e.Left, e.Right, ei)
		}
	}
	// Extreme points: the strict maximum in a random direction, by a margin
	// above the tolerance, is a hull vertex.
	r := rand.New(rand.NewPCG(uint64(len(pts)), 7))
	isVert := make(map[geom.Vec3]bool)
	for _, v := range m.Verts {
		isVert[v] = true
	}
	for k := 0; k < 50; k++ {
		dir, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		best, second, bi := math.Inf(-1), math.Inf(-1), -1
		for i, p := range pts {
			d := dir.Dot(p)
			switch {
			case bi >= 0 && p == pts[bi]:
			case d > best:
				best, second, bi = d, best, i
			case d > second:
				second = d
			}
		}
		margin := 4 * tol
		if !strict {
			margin = 1e-6 * diag
		}
		if best-second > margin && !isVert[pts[bi]] {
			return fmt.Errorf("point %d %v is extreme in direction %v by %g but not a hull vertex", bi, pts[bi], dir, best-second)
		}
	}
	return nil
}

func TestHullProperties(t *testing.T) {
	cases := 3000
	if *long {
		cases = 60000
	}
	g := gen{rand.New(rand.NewPCG(*seed, 11))}
	errs := make(map[string]int)
	for c := 0; c < cases; c++ {
		kind := c % kinds
		n := 4 + g.r.IntN(60)
		if c%50 == 0 {
			n = 200 + g.r.IntN(800)
		}
		pts := g.points(kind, n)
		tri := c%3 == 0
		m, idx, err := NewIndexed(pts, &Options{Triangles: tri})
		if err != nil {
			var he *Error
			if !errors.As(err, &he) {
				t.Fatalf("case %d (%s, n=%d): error %v is not a *hull.Error", c, kindName(kind), n, err)
			}
			// Only flat sets may fail.
			if len(pts) >= 4 && !flatWithin(pts, tolFor(pts)) {
				t.Fatalf("case %d (%s, n=%d): %v, but the points are not flat\npoints: %v", c, kindName(kind), n, err, pts)
			}
			errs[kindName(kind)]++
			continue
		}
		if err := check(pts, m, idx, tri, true); err != nil {
			t.Fatalf("case %d (%s, n=%d, triangles %v): %v\npoints: %v", c, kindName(kind), n, tri, err, pts)
		}
		if tri {
			for f := 0; f < m.NumFaces(); f++ {
				if len(m.Face(f)) != 3 {
					t.Fatalf("case %d: Triangles option gave face %d with %d vertices", c, f, len(m.Face(f)))
				}
			}
		}
	}
	t.Logf("%d cases; rejected as flat per kind: %v", cases, errs)
}

func TestHullCubeGrid(t *testing.T) {
	// All points of a 5x5x5 grid: the hull is the cube, 8 vertices, 6
	// square faces.
	var pts []geom.Vec3
	for i := 0; i < 5; i++ {
		for j := 0; j < 5; j++ {
			for k := 0; k < 5; k++ {
				pts = append(pts, geom.Vec3{X: float64(i), Y: float64(j), Z: float64(k)})
			}
		}
	}
	m, err := New(pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.NumVerts() != 8 || m.NumFaces() != 6 || m.NumEdges() != 12 {
		t.Fatalf("grid cube hull: %d vertices %d edges %d faces, want 8, 12, 6", m.NumVerts(), m.NumEdges(), m.NumFaces())
	}
	if v := m.Volume(); math.Abs(v-64) > 1e-12 {
		t.Errorf("volume %v, want 64", v)
	}
	mt, err := New(pts, &Options{Triangles: true})
	if err != nil {
		t.Fatal(err)
	}
	if mt.NumVerts() != 8 || mt.NumFaces() != 12 {
		t.Errorf("triangulated cube: %d vertices %d faces, want 8, 12", mt.NumVerts(), mt.NumFaces())
	}
}

func TestHullNearlyCoplanarCube(t *testing.T) {
	// Corners of a cube plus points on its faces within 1e-12: still a
	// cube of 6 faces.
	r := rand.New(rand.NewPCG(3, 3))
	var pts []geom.Vec3
	for i := 0; i < 8; i++ {
		pts = append(pts, geom.Vec3{X: float64(i&1)*2 - 1, Y: float64(i>>1&1)*2 - 1, Z: float64(i>>2&1)*2 - 1})
	}
	for i := 0; i < 2000; i++ {
		v := geom.Vec3{X: 2*r.Float64() - 1, Y: 2*r.Float64() - 1, Z: 2*r.Float64() - 1}
		v = v.Set(r.IntN(3), float64(2*r.IntN(2)-1)+1e-12*(2*r.Float64()-1))
		pts = append(pts, v)
	}
	m, idx, err := NewIndexed(pts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := check(pts, m, idx, false, true); err != nil {
		t.Fatal(err)
	}
	if m.NumFaces() != 6 {
		t.Errorf("nearly coplanar cube: %d faces, %d vertices; want 6 faces", m.NumFaces(), m.NumVerts())
	}
}

func TestHullErrors(t *testing.T) {
	good := []geom.Vec3{{}, {X: 1}, {Y: 1}, {Z: 1}}
	for _, c := range []struct {
		pts   []geom.Vec3
		index int
	}{
		{nil, -1},
		{good[:3], -1},
		{[]geom.Vec3{{}, {}, {}, {}, {}}, -1}, // all equal
		{[]geom.Vec3{{}, {X: 1}, {X: 2}, {X: 3}}, -1},                         // collinear
		{[]geom.Vec3{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1}, {X: 0.5, Y: 0.2}}, -1}, // coplanar
		{[]geom.Vec3{{}, {X: 1}, {Y: 1}, {X: 1, Y: 1, Z: 1e-14}}, -1},         // flat within tolerance
		{[]geom.Vec3{good[0], good[1], {X: math.NaN()}, good[3]}, 2},
		{[]geom.Vec3{good[0], good[1], good[2], good[3], {Z: math.Inf(-1)}}, 4},
	} {
		_, err := New(c.pts, nil)
		var he *Error
		if !errors.As(err, &he) {
			t.Errorf("New(%v): error %v, want a *hull.Error", c.pts, err)
			continue
		}
		if he.Index != c.index {
			t.Errorf("New(%v): error %q names point %d, want %d", c.pts, err, he.Index, c.index)
		}
	}
	for _, tol := range []float64{math.Inf(1), -1e-10, math.NaN()} {
		if _, err := New(good, &Options{Tol: tol}); err == nil {
			t.Errorf("tolerance %v accepted", tol)
		}
	}
}

func TestHullDeterministic(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(9, 9))}
	pts := g.points(1, 500)
	a, _ := New(pts, nil)
	b, _ := New(pts, nil)
	if a.NumVerts() != b.NumVerts() || a.NumFaces() != b.NumFaces() {
		t.Fatal("hull is not deterministic")
	}
	for i := range a.Verts {
		if a.Verts[i] != b.Verts[i] {
			t.Fatal("hull is not deterministic")
		}
	}
}

func benchHull(b *testing.B, kind, n int) {
	g := gen{rand.New(rand.NewPCG(uint64(n), 5))}
	pts := g.points(kind, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := New(pts, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkHull(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		b.Run(fmt.Sprintf("ball/n=%d", n), func(b *testing.B) { benchHull(b, 0, n) })
		b.Run(fmt.Sprintf("sphere/n=%d", n), func(b *testing.B) { benchHull(b, 1, n) })
	}
}

// BenchmarkHullCore times the hull alone, without building and validating
// the mesh.Mesh (mesh.New's convexity check is O(vertices x faces)).
func BenchmarkHullCore(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		for kind, name := range []string{"ball", "sphere"} {
			g := gen{rand.New(rand.NewPCG(uint64(n), 5))}
			pts := g.points(kind, n)
			b.Run(fmt.Sprintf("%s/n=%d", name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					h := &builder{}
					h.scale(pts)
					h.eps = DefaultTol * h.diag
					if err := h.simplex(); err != nil {
						b.Fatal(err)
					}
					h.run()
					h.merge()
				}
			})
		}
	}
}
