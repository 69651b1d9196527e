package shapes

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

func TestRandomPolytope(t *testing.T) {
	for _, shape := range []PolytopeShape{Ellipsoid, Rod, Plate} {
		for _, n := range []int{4, 5, 10, 37, 100, 1000} {
			for seed := uint64(1); seed <= 3; seed++ {
				if n == 1000 && seed > 1 {
					continue
				}
				m := RandomPolytope(shape, n, 1.5, seed)
				if m.NumVerts() != n {
					t.Fatalf("%v n=%d seed=%d: %d vertices", shape, n, seed, m.NumVerts())
				}
				if !m.Closed() || !m.Manifold() || !m.Oriented() || !m.Convex() || m.Euler() != 2 {
					t.Fatalf("%v n=%d seed=%d: closed %v manifold %v oriented %v convex %v euler %d", shape, n, seed, m.Closed(), m.Manifold(), m.Oriented(), m.Convex(), m.Euler())
				}
				// Every vertex on the ellipsoid of the documented axes.
				ax := PolytopeAxes(shape, 1.5, seed)
				for i, v := range m.Verts {
					q := geom.Vec3{X: v.X / ax.X, Y: v.Y / ax.Y, Z: v.Z / ax.Z}
					if math.Abs(q.Norm()-1) > 1e-12 {
						t.Fatalf("%v n=%d seed=%d: vertex %d %v is not on the ellipsoid %v", shape, n, seed, i, v, ax)
					}
				}
				if ax.X != 1.5 || ax.Y > 1.5 || ax.Z > 1.5 {
					t.Fatalf("%v: axes %v, want largest 1.5 along x", shape, ax)
				}
				// Determinism.
				m2 := RandomPolytope(shape, n, 1.5, seed)
				for i := range m.Verts {
					if m.Verts[i] != m2.Verts[i] {
						t.Fatalf("%v n=%d seed=%d: not deterministic", shape, n, seed)
					}
				}
			}
		}
	}
	// Shape proportions.
	if a := PolytopeAxes(Rod, 1, 1); a != (geom.Vec3{X: 1, Y: 0.12, Z: 0.12}) {
		t.Errorf("rod axes %v", a)
	}
	if a := PolytopeAxes(Plate, 1, 1); a.Z != 0.1 || a.Y < 0.7 || a.Y > 1 {
		t.Errorf("plate axes %v", a)
	}
	a, b := RandomPolytope(Ellipsoid, 50, 1, 1), RandomPolytope(Ellipsoid, 50, 1, 2)
	if a.Verts[0] == b.Verts[0] {
		t.Error("different seeds give the same polytope")
	}
}

func TestParsePolytopeShape(t *testing.T) {
	for _, s := range []PolytopeShape{Ellipsoid, Rod, Plate} {
		if p, err := ParsePolytopeShape(s.String()); err != nil || p != s {
			t.Errorf("ParsePolytopeShape(%q) = %v, %v", s.String(), p, err)
		}
	}
	if _, err := ParsePolytopeShape("cube"); err == nil {
		t.Error("ParsePolytopeShape(cube) succeeded")
	}
}

func TestRandomPolytopePanics(t *testing.T) {
	for _, f := range []func(){
		func() { RandomPolytope(Rod, 3, 1, 1) },
		func() { RandomPolytope(PolytopeShape(7), 10, 1, 1) },
		func() { RandomPolytope(Plate, 10, 0, 1) },
		func() { EllipsoidPolytope(10, geom.Vec3{X: 1, Y: math.NaN(), Z: 1}, 1) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			f()
		}()
	}
}

func BenchmarkRandomPolytope(b *testing.B) {
	for i := 0; i < b.N; i++ {
		RandomPolytope(Ellipsoid, 500, 1, uint64(i))
	}
}

func TestCheckFunctions(t *testing.T) {
	panics := func(f func()) (p bool) {
		defer func() { p = recover() != nil }()
		f()
		return false
	}
	for _, c := range [][2]float64{{1, 5}, {1, 3}, {0, 1}, {1, 1e5}, {math.NaN(), 4}, {1, math.Inf(1)}, {math.Inf(1), math.Inf(1)}} {
		err := CheckBullet(c[0], c[1])
		if p := panics(func() { Bullet(c[0], c[1]) }); p != (err != nil) {
			t.Errorf("Bullet%v panics %v, CheckBullet says %v", c, p, err)
		}
	}
	for _, c := range [][3]float64{{2, 0.3, 0.1}, {2, 1, 0}, {2, 0, 0}, {2, 0.3, 1e3}, {math.Inf(1), 1, 0}, {-2, 0.3, 0}, {2, 0.3, math.NaN()}} {
		err := CheckWarpedPlane(c[0], c[1], c[2])
		if p := panics(func() { WarpedPlane(c[0], c[1], c[2]) }); p != (err != nil) {
			t.Errorf("WarpedPlane%v panics %v, CheckWarpedPlane says %v", c, p, err)
		}
	}
	for _, c := range []struct {
		s PolytopeShape
		n int
		r float64
	}{{Rod, 10, 1}, {Rod, 3, 1}, {PolytopeShape(5), 10, 1}, {Plate, 10, 0}, {Plate, 10, math.Inf(1)}, {Ellipsoid, 4, 1e-120}} {
		err := CheckPolytope(c.s, c.n, c.r)
		if p := panics(func() { RandomPolytope(c.s, c.n, c.r, 1) }); p != (err != nil) {
			t.Errorf("RandomPolytope%v panics %v, CheckPolytope says %v", c, p, err)
		}
	}
}
