package robust

import (
	"flag"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/exact"
	"github.com/collide-go/collide/internal/racecheck"
)

var long = flag.Bool("long", false, "run many more random cases")

// cases returns the number of random cases of a property test.
func cases() int {
	if *long {
		return 400000
	}
	return 10000
}

// oracle3 is the sign of det[b-a; c-a; d-a] in exact rational
// arithmetic (package internal/exact, independent of the package's code
// paths).
func oracle3(a, b, c, d geom.Vec3) int {
	v := func(p geom.Vec3) [3]float64 { return [3]float64{p.X, p.Y, p.Z} }
	return exact.Orient3(v(a), v(b), v(c), v(d))
}

// oracle2 is the sign of det[b-a; c-a] in the plane, exactly.
func oracle2(ax, ay, bx, by, cx, cy float64) int {
	return exact.Orient2([2]float64{ax, ay}, [2]float64{bx, by}, [2]float64{cx, cy})
}

// caseGen produces the random and near-degenerate inputs of the tests.
type caseGen struct{ r *rand.Rand }

func (g caseGen) scale() float64 {
	switch g.r.IntN(6) {
	case 0:
		return math.Ldexp(1, g.r.IntN(1200)-600) // anything from 2^-600 to 2^600
	case 1:
		return 1e-150
	case 2:
		return 1e150
	}
	return 1
}

func (g caseGen) vec(s float64) geom.Vec3 {
	return geom.Vec3{X: s * (2*g.r.Float64() - 1), Y: s * (2*g.r.Float64() - 1), Z: s * (2*g.r.Float64() - 1)}
}

// ulps moves x by k units in the last place.
func ulps(x float64, k int) float64 {
	for ; k > 0; k-- {
		x = math.Nextafter(x, math.Inf(1))
	}
	for ; k < 0; k++ {
		x = math.Nextafter(x, math.Inf(-1))
	}
	return x
}

// quad returns four points: random, exactly coplanar on an integer grid,
// nearly coplanar (a rounded affine combination, possibly nudged by ulps),
// collinear, with duplicates, or with mixed magnitudes.
func (g caseGen) quad() (a, b, c, d geom.Vec3) {
	s := g.scale()
	switch g.r.IntN(7) {
	case 0:
		return g.vec(s), g.vec(s), g.vec(s), g.vec(s)
	case 1: // integer grid plane z = x + 2y (exact) scaled by a power of two
		p := func() geom.Vec3 {
			x, y := float64(g.r.IntN(21)-10), float64(g.r.IntN(21)-10)
			k := math.Ldexp(1, g.r.IntN(200)-100)
			return geom.Vec3{X: x * k, Y: y * k, Z: (x + 2*y) * k}
		}
		return p(), p(), p(), p()
	case 2, 3: // nearly coplanar
		a, b, c = g.vec(s), g.vec(s), g.vec(s)
		u, v := g.r.Float64()*2-1, g.r.Float64()*2-1
		d = a.Add(b.Sub(a).Scale(u)).Add(c.Sub(a).Scale(v))
		d.X = ulps(d.X, g.r.IntN(5)-2)
		d.Z = ulps(d.Z, g.r.IntN(5)-2)
		return a, b, c, d
	case 4: // collinear-ish and duplicates
		a, b = g.vec(s), g.vec(s)
		c = a.Lerp(b, g.r.Float64())
		d = g.vec(s)
		if g.r.IntN(2) == 0 {
			d = b
		}
		return a, b, c, d
	case 5: // mixed magnitudes: a tiny tetrahedron far from the origin
		o := g.vec(1e10)
		e := 1e-6 * g.r.Float64()
		return o.Add(g.vec(e)), o.Add(g.vec(e)), o.Add(g.vec(e)), o.Add(g.vec(e))
	}
	// exact tiny differences: ulp-sized perturbations around one point
	o := g.vec(s)
	n := func() geom.Vec3 {
		return geom.Vec3{X: ulps(o.X, g.r.IntN(5)-2), Y: ulps(o.Y, g.r.IntN(5)-2), Z: ulps(o.Z, g.r.IntN(5)-2)}
	}
	return n(), n(), n(), n()
}

func TestOrient3DAgainstRational(t *testing.T) {
	g := caseGen{rand.New(rand.NewPCG(1, 2))}
	zeros := 0
	n := cases()
	for i := 0; i < n; i++ {
		a, b, c, d := g.quad()
		want := oracle3(a, b, c, d)
		if want == 0 {
			zeros++
		}
		if got := Orient3D(a, b, c, d); got != want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
		}
		if got := Orient3DExact(a, b, c, d); got != want {
			t.Fatalf("Orient3DExact(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
		}
		// Symmetries: swapping two points flips the sign; cyclic shifts of
		// (a, b, c) keep it.
		if got := Orient3D(b, a, c, d); got != -want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", b, a, c, d, got, -want)
		}
		if got := Orient3D(b, c, a, d); got != want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", b, c, a, d, got, want)
		}
	}
	// The generator must exercise both outcomes (guards against a
	// generator that only makes easy cases).
	if zeros < n/20 || zeros > n/2 {
		t.Errorf("%d of %d cases are coplanar; want a real mix", zeros, n)
	}
}

func TestOrient3DExactPaths(t *testing.T) {
	// Cases that defeat the filter: d a few ulps off the plane.
	a := geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}
	b := geom.Vec3{X: 1.7, Y: -0.3, Z: 0.9}
	c := geom.Vec3{X: -0.6, Y: 2.1, Z: 0.4}
	for k := -50; k <= 50; k++ {
		d := a.Lerp(b, 0.37).Lerp(c, 0.21)
		d.Z = ulps(d.Z, k)
		if got, want := Orient3D(a, b, c, d), oracle3(a, b, c, d); got != want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
		}
	}
	// Huge and tiny coordinates go through math/big.
	for _, s := range []float64{1e300, 1e-300, 5e-324, math.MaxFloat64 / 4} {
		a, b, c := geom.Vec3{X: s}, geom.Vec3{Y: s}, geom.Vec3{Z: s}
		for _, d := range []geom.Vec3{{}, {X: s, Y: s, Z: s}, {X: s / 3, Y: s / 3, Z: s / 3}} {
			if got, want := Orient3D(a, b, c, d), oracle3(a, b, c, d); got != want {
				t.Errorf("Orient3D(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
			}
		}
	}
	if got := Orient3D(geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1}); got != 1 {
		t.Errorf("unit tetrahedron: Orient3D = %d, want +1 (d above counter-clockwise a, b, c)", got)
	}
}

func TestOrient2DAgainstRational(t *testing.T) {
	g := caseGen{rand.New(rand.NewPCG(3, 4))}
	zeros := 0
	n := cases()
	for i := 0; i < n; i++ {
		a, b, c, d := g.quad()
		// Use (x, y) of a, b and a point on or near the line ab.
		cx, cy := c.X, c.Y
		switch i % 3 {
		case 0:
			t := g.r.Float64()
			cx, cy = a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y)
		case 1:
			cx, cy = d.X, d.Y
		}
		want := oracle2(a.X, a.Y, b.X, b.Y, cx, cy)
		if want == 0 {
			zeros++
		}
		if got := Orient2D(a.X, a.Y, b.X, b.Y, cx, cy); got != want {
			t.Fatalf("Orient2D(%v, %v, %v, %v, %v, %v) = %d, want %d", a.X, a.Y, b.X, b.Y, cx, cy, got, want)
		}
		if got := Orient2DExact(a.X, a.Y, b.X, b.Y, cx, cy); got != want {
			t.Fatalf("Orient2DExact(%v, %v, %v, %v, %v, %v) = %d, want %d", a.X, a.Y, b.X, b.Y, cx, cy, got, want)
		}
		if got := Orient2D(b.X, b.Y, a.X, a.Y, cx, cy); got != -want {
			t.Fatalf("Orient2D(%v, %v, %v, %v, %v, %v) = %d, want %d", b.X, b.Y, a.X, a.Y, cx, cy, got, -want)
		}
	}
	if zeros < n/50 || zeros > n/2 {
		t.Errorf("%d of %d cases are collinear; want a real mix", zeros, n)
	}
}

func TestOrientAllocs(t *testing.T) {
	if racecheck.Enabled {
		t.Skip("the race detector adds allocations of its own")
	}
	a := geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}
	b := geom.Vec3{X: 1.7, Y: -0.3, Z: 0.9}
	c := geom.Vec3{X: -0.6, Y: 2.1, Z: 0.4}
	d := a.Lerp(b, 0.5)
	n := testing.AllocsPerRun(100, func() {
		Orient3D(a, b, c, d)
		Orient3DExact(a, b, c, d)
		Orient2D(a.X, a.Y, b.X, b.Y, d.X, d.Y)
	})
	if n != 0 {
		t.Errorf("Orient3D/Orient2D allocate %v times per call", n)
	}
}

func BenchmarkOrient3D(b *testing.B) {
	g := caseGen{rand.New(rand.NewPCG(5, 6))}
	var qs [256][4]geom.Vec3
	for i := range qs {
		qs[i] = [4]geom.Vec3{g.vec(1), g.vec(1), g.vec(1), g.vec(1)}
	}
	b.ResetTimer()
	s := 0
	for i := 0; i < b.N; i++ {
		q := &qs[i&255]
		s += Orient3D(q[0], q[1], q[2], q[3])
	}
	_ = s
}

func BenchmarkOrient3DCoplanar(b *testing.B) {
	a := geom.Vec3{X: 0.1, Y: 0.2, Z: 0.3}
	p := geom.Vec3{X: 1.7, Y: -0.3, Z: 0.9}
	c := geom.Vec3{X: -0.6, Y: 2.1, Z: 0.4}
	d := a.Lerp(p, 0.37).Lerp(c, 0.21)
	for i := 0; i < b.N; i++ {
		Orient3D(a, p, c, d)
	}
}

func BenchmarkOrient3DBig(b *testing.B) {
	s := 1e300
	a, p, c := geom.Vec3{X: s}, geom.Vec3{Y: s}, geom.Vec3{Z: s}
	d := geom.Vec3{X: s / 3, Y: s / 3, Z: s / 3}
	for i := 0; i < b.N; i++ {
		Orient3D(a, p, c, d)
	}
}
