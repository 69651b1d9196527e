package robust

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// FuzzOrient3D compares Orient3D and Orient2D with the rational oracle on
// arbitrary finite inputs.
func FuzzOrient3D(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0)
	f.Add(0.1, 0.2, 0.3, 1.7, -0.3, 0.9, -0.6, 2.1, 0.4, 0.5, 0.6, 0.7)
	f.Add(1e300, 0.0, 0.0, 0.0, 1e300, 0.0, 0.0, 0.0, 1e300, 1e-300, 1e-300, 1e-300)
	f.Add(1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 3.0, 3.0, 3.0, 4.0, 4.0, 4.0)
	f.Fuzz(func(t *testing.T, ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz float64) {
		for _, x := range []float64{ax, ay, az, bx, by, bz, cx, cy, cz, dx, dy, dz} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return
			}
		}
		a, b, c, d := geom.Vec3{X: ax, Y: ay, Z: az}, geom.Vec3{X: bx, Y: by, Z: bz}, geom.Vec3{X: cx, Y: cy, Z: cz}, geom.Vec3{X: dx, Y: dy, Z: dz}
		if got, want := Orient3D(a, b, c, d), oracle3(a, b, c, d); got != want {
			t.Fatalf("Orient3D(%v, %v, %v, %v) = %d, want %d", a, b, c, d, got, want)
		}
		if got, want := Orient2D(ax, ay, bx, by, cx, cy), oracle2(ax, ay, bx, by, cx, cy); got != want {
			t.Fatalf("Orient2D(%v, %v, %v, %v, %v, %v) = %d, want %d", ax, ay, bx, by, cx, cy, got, want)
		}
	})
}
