package shapes

import (
	"math"
	"testing"
)

// FuzzGenerators drives the generators with arbitrary valid parameters:
// they must not panic and must keep their documented counts and topology.
func FuzzGenerators(f *testing.F) {
	f.Add(uint8(0), 10, 1.0, 5.0, 0.1, uint64(1))
	f.Add(uint8(1), 200, 0.004, 0.03, 0.0, uint64(7))
	f.Add(uint8(2), 4, 1e-6, 1e-5, -3.0, uint64(99))
	f.Add(uint8(200), 100, 0.1, 1.0, 0.5, uint64(0))
	f.Fuzz(func(t *testing.T, kind uint8, n int, a, b, c float64, seed uint64) {
		if !(a > 1e-100 && a < 1e100) || math.IsNaN(b) || math.IsNaN(c) || math.IsInf(c, 0) {
			return
		}
		if kind >= 200 { // a coil
			R, pitch, turns, m, k := b, math.Abs(c), float64(n%4000)/16, 3+n%29, 3+n%7
			if CheckCoil(R, a, pitch, turns, m, k) != nil || !(R < 1e100 && pitch < 1e100 && R > 1e-100) {
				return
			}
			cm := Coil(R, a, pitch, turns, m, k)
			if !cm.Closed() || !cm.Manifold() || cm.Euler() != 2 || !(cm.Volume() > 0) {
				t.Fatalf("Coil(%v, %v, %v, %v, %d, %d): closed %v euler %d volume %v", R, a, pitch, turns, m, k, cm.Closed(), cm.Euler(), cm.Volume())
			}
			return
		}
		switch kind % 4 {
		case 0:
			if !(b > 3*a*(1+1e-9) && b <= 1e4*a) {
				return
			}
			m := Bullet(a, b)
			if m.NumFaces() != BulletTriangles || !m.Closed() || !m.Convex() || m.Euler() != 2 {
				t.Fatalf("Bullet(%v, %v): %d faces closed %v convex %v euler %d", a, b, m.NumFaces(), m.Closed(), m.Convex(), m.Euler())
			}
		case 1:
			if !(b > 2*a*(1+1e-9) && a >= 1e-6*b) || math.Abs(c) > 100*b {
				return
			}
			m := WarpedPlane(b, a, c)
			if m.NumFaces() != WarpedPlaneTriangles || m.Closed() || !m.Manifold() || m.Euler() != 0 {
				t.Fatalf("WarpedPlane(%v, %v, %v): %d faces closed %v euler %d", b, a, c, m.NumFaces(), m.Closed(), m.Euler())
			}
		default:
			if n < 4 || n > 300 {
				return
			}
			shape := PolytopeShape(int(kind/4) % 3)
			m := RandomPolytope(shape, n, a, seed)
			if m.NumVerts() != n || !m.Convex() || m.Euler() != 2 {
				t.Fatalf("RandomPolytope(%v, %d, %v, %d): %d vertices convex %v euler %d", shape, n, a, seed, m.NumVerts(), m.Convex(), m.Euler())
			}
		}
	})
}
