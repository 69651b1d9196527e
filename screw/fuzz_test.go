package screw

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// FuzzDetect feeds arbitrary poses and options to Detect, Contacts (every
// record must validate) and FirstContact:
// they must return an error or well-formed collisions (times in [0, 1],
// finite points, unit normals), never panic or hang. which picks the mesh
// (which % 3) and conservative mode (which / 3 odd).
func FuzzDetect(f *testing.F) {
	f.Add(uint8(0), 2.0, 0.1, 0.0, 1.0, 0.0, 0.0, 0.3, 0.3, 0.0, 0.0, 0.9, 0.1, 0.2, 0.3, 12.0)
	f.Add(uint8(1), 0.0, 2.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, -2.0, 0.0, 0.7, 0.7, 0.0, 0.0, 6.0)
	f.Add(uint8(2), 0.0, 0.0, -2.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 1.0, 0.0, 0.0, 24.0)
	f.Add(uint8(0), 3.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0)
	f.Add(uint8(1), 1e-300, 1e300, 0.0, 1.0, 0.0, 0.0, 0.0, math.Inf(1), 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1.0)
	f.Add(uint8(0), 1e239, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1e239, 0.0, 0.0, 0.7, 0.7, 0.0, 0.0, 12.0)
	f.Add(uint8(2), 8e12, 0.3, 0.0, 1.0, 0.0, 0.0, 0.0, -8e12, 0.2, 0.0, 0.7, 0.7, 0.0, 0.0, 24.0)
	f.Add(uint8(3), 2.0, 1.002, 0.0, 1.0, 0.0, 0.0, 0.3, -2.0, 1.004, 0.0, 0.9, 0.1, 0.2, 0.3, 12.0)
	f.Add(uint8(5), 0.0, 0.0, -2.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.5, 0.0, 1.0, 0.0, 0.0, 6.0)
	cube, car, tor := shapes.Cube(1), shapes.Car(), shapes.Torus(1, 0.35, 8, 6)
	d := NewDetector()
	f.Fuzz(func(t *testing.T, which uint8, x0, y0, z0, w0, qx0, qy0, qz0, x1, y1, z1, w1, qx1, qy1, qz1 float64, ppe float64) {
		a := cube
		switch which % 3 {
		case 1:
			a = car
		case 2:
			a = tor
		}
		q0, _ := geom.Quat{W: w0, X: qx0, Y: qy0, Z: qz0}.Normalize()
		q1, _ := geom.Quat{W: w1, X: qx1, Y: qy1, Z: qz1}.Normalize()
		b0 := geom.Pose{P: geom.Vec3{X: x0, Y: y0, Z: z0}, Q: q0}
		b1 := geom.Pose{P: geom.Vec3{X: x1, Y: y1, Z: z1}, Q: q1}
		id := geom.PoseIdentity()
		opt := &Options{PixelsPerEdge: ppe, Properness: AllProperness, Conservative: which/3%2 == 1}
		if math.IsNaN(ppe) || math.IsInf(ppe, 0) || ppe > 64 {
			opt.PixelsPerEdge = 0
		}
		cs, err := d.Detect(a, a, id, id, b0, b1, opt, nil)
		if err != nil {
			return
		}
		if which/6%2 == 1 {
			opt.RestMargin = 0.05
		}
		recs, err := d.Contacts(a, a, id, id, b0, b1, opt, nil)
		if err != nil {
			t.Fatalf("Contacts error %v where Detect had none", err)
		}
		for _, r := range recs {
			if err := r.Validate(); err != nil {
				t.Fatalf("record %v for b0=%v b1=%v: %v", r, b0, b1, err)
			}
		}
		real := 0
		for _, c := range cs {
			if !(c.Time >= 0 && c.Time <= 1) || !c.Point.IsFinite() || math.Abs(c.Normal.Norm()-1) > 1e-6 || math.IsNaN(c.Properness) {
				t.Fatalf("bad collision %v for b0=%v b1=%v", c, b0, b1)
			}
			if !c.Near {
				real++
			}
		}
		hit, toc, err := d.FirstContact(a, a, id, id, b0, b1, opt)
		if err != nil {
			t.Fatalf("FirstContact error %v where Detect had none", err)
		}
		if hit && !(toc >= 0 && toc <= 1) {
			t.Fatalf("toc %v", toc)
		}
		if !hit && real > 0 {
			t.Fatalf("Detect found %d collisions, FirstContact none", real)
		}
	})
}
