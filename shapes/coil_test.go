package shapes

import (
	"math"
	"testing"
)

// TestCoil checks the coil's topology (a closed surface of genus 0) and its
// volume against the volume swept by its cross-section (a regular n-gon of
// radius r) turning about the axis: 2 pi R times the section's area per
// turn, whatever the pitch.
func TestCoil(t *testing.T) {
	for _, c := range []struct {
		R, r, pitch, turns float64
		m, n               int
	}{
		{1, 0.1, 0.5, 6, 64, 6},
		{2, 0.3, 0.7, 1.5, 128, 8},
		{1, 0.2, 0.45, 0.25, 96, 5},
	} {
		m := Coil(c.R, c.r, c.pitch, c.turns, c.m, c.n)
		ns := int(math.Round(c.turns*float64(c.m))) + 1
		if len(m.Verts) != ns*c.n || m.NumFaces() != 2*(ns-1)*c.n+2 {
			t.Errorf("%+v: %d vertices, %d faces", c, len(m.Verts), m.NumFaces())
		}
		if chi := len(m.Verts) - len(m.Edges) + m.NumFaces(); chi != 2 {
			t.Errorf("%+v: Euler characteristic %d, want 2", c, chi)
		}
		area := float64(c.n) / 2 * c.r * c.r * math.Sin(2*math.Pi/float64(c.n))
		want := 2 * math.Pi * c.R * area * c.turns
		if v := m.Volume(); math.Abs(v-want) > 0.01*want {
			t.Errorf("%+v: volume %v, want about %v", c, v, want)
		}
	}
	for _, bad := range [][4]float64{{1, 0.3, 0.5, 2}, {0.1, 0.2, 1, 1}, {1, 0.1, 0.5, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Coil%v: no panic", bad)
				}
			}()
			Coil(bad[0], bad[1], bad[2], bad[3], 8, 4)
		}()
	}
}
