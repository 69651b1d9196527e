package earclip

import (
	"math"
	"math/rand/v2"
	"testing"
)

// shoelace is twice the signed area of the polygon pt.
func shoelace(pt [][2]float64) float64 {
	s := 0.0
	for i := range pt {
		j := (i + 1) % len(pt)
		s += pt[i][0]*pt[j][1] - pt[j][0]*pt[i][1]
	}
	return s
}

// TestStarPolygons triangulates random star-shaped polygons (simple, most
// of them not convex): n-2 triangles of distinct corners, each turning
// counter-clockwise, whose areas add up to the polygon's (shoelace formula).
func TestStarPolygons(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	nonConvex := 0
	for it := 0; it < 500; it++ {
		n := 3 + rng.IntN(30)
		pt := make([][2]float64, n)
		for k := range pt {
			a := 2 * math.Pi * (float64(k) + 0.8*rng.Float64()) / float64(n)
			r := 0.2 + rng.Float64()
			pt[k] = [2]float64{r * math.Cos(a), r * math.Sin(a)}
		}
		tris, _ := Triangulate(pt, nil, nil)
		if len(tris) != n-2 {
			t.Fatalf("%d corners: %d triangles", n, len(tris))
		}
		sum := 0.0
		for _, tr := range tris {
			if tr[0] == tr[1] || tr[1] == tr[2] || tr[0] == tr[2] {
				t.Fatalf("triangle %v repeats a corner", tr)
			}
			a := shoelace([][2]float64{pt[tr[0]], pt[tr[1]], pt[tr[2]]})
			if a <= 0 {
				t.Fatalf("%d corners: triangle %v turns clockwise (%g)", n, tr, a)
			}
			sum += a
		}
		if want := shoelace(pt); math.Abs(sum-want) > 1e-12*want {
			t.Fatalf("%d corners: triangles cover %g, polygon %g", n, sum, want)
		}
		for k := range pt {
			p, q, r := pt[(k+n-1)%n], pt[k], pt[(k+1)%n]
			if shoelace([][2]float64{p, q, r}) < 0 {
				nonConvex++
				break
			}
		}
	}
	if nonConvex < 250 {
		t.Errorf("only %d of 500 polygons are not convex", nonConvex)
	}
}

// TestFoldedPolygon: a polygon whose corners turn clockwise has no ear; the
// rest is fanned, still n-2 triangles.
func TestFoldedPolygon(t *testing.T) {
	pt := [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}, {0.5, -0.2}}
	tris, _ := Triangulate(pt, nil, nil)
	if len(tris) != 3 || tris[0] != [3]int{0, 1, 2} {
		t.Fatalf("%v", tris)
	}
}
