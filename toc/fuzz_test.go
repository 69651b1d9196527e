package toc

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// checkContacts verifies the invariants of a query's output.
func checkContacts(t *testing.T, cs []Contact, dt float64) {
	t.Helper()
	for _, c := range cs {
		if !(c.Time >= 0 && c.Time <= 1) || !c.Point.IsFinite() || math.Abs(c.Normal.Norm()-1) > 1e-9 || func() bool { r := c.Record(); return r.Validate() != nil }() {
			t.Fatalf("bad contact %+v (dt %v)", c, dt)
		}
	}
}

// FuzzNewSoup builds a soup from arbitrary bytes (vertex coordinates then
// index triples) and, when it is accepted, runs a query of a cube falling
// through it.
func FuzzNewSoup(f *testing.F) {
	f.Add([]byte{}, []byte{})
	tri := func(vs []float64, ix []int32) ([]byte, []byte) {
		var a, b []byte
		for _, v := range vs {
			a = binary.LittleEndian.AppendUint64(a, math.Float64bits(v))
		}
		for _, i := range ix {
			b = binary.LittleEndian.AppendUint32(b, uint32(i))
		}
		return a, b
	}
	{
		a, b := tri([]float64{-2, -2, 0, 2, -2, 0, 0, 2, 0}, []int32{0, 1, 2})
		f.Add(a, b)
	}
	{
		a, b := tri([]float64{-2, -2, 0, 2, -2, 0, 0, 2, 0, 0, 0, 1}, []int32{0, 1, 2, 0, 1, 3, 1, 2, 3})
		f.Add(a, b)
	}
	{
		a, b := tri([]float64{0, 0, 0, 1, 0, 0, 2, 0, 0}, []int32{0, 1, 2})
		f.Add(a, b)
	}
	{
		a, b := tri([]float64{0, 0, math.NaN(), 1, 0, 0, 2, 0, 0}, []int32{0, 1, 2})
		f.Add(a, b)
	}
	{
		a, b := tri([]float64{0, 0, 0, 1, 0, 0, 0, 1, 0}, []int32{0, 1, 5})
		f.Add(a, b)
	}
	cube, err := ShapeOf(shapes.Cube(0.5))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, vb, ib []byte) {
		if len(vb) > 8*3*64 || len(ib) > 4*3*64 {
			return
		}
		var vs []geom.Vec3
		for i := 0; i+24 <= len(vb); i += 24 {
			g := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(vb[i+8*k:])) }
			vs = append(vs, geom.V(g(0), g(1), g(2)))
		}
		var ts [][3]int32
		for i := 0; i+12 <= len(ib); i += 12 {
			g := func(k int) int32 { return int32(binary.LittleEndian.Uint32(ib[i+4*k:])) }
			ts = append(ts, [3]int32{g(0), g(1), g(2)})
		}
		s, err := NewSoup(vs, ts)
		if err != nil {
			return
		}
		sh, err := NewShape(s, nil)
		if err != nil {
			t.Fatalf("NewShape of an accepted soup: %v", err)
		}
		var q Scratch
		sa := State{Pose: geom.Pose{P: geom.V(0.1, 0.2, 3), Q: geom.QuatIdentity()}, V: geom.V(0, 0, -6), W: geom.V(1, 0, 2)}
		for _, alg := range []Method{Boxes, Segments} {
			cs, err := q.Contacts(cube, sa, sh, State{Pose: geom.PoseIdentity()}, 1, &Options{Method: alg, Within: 0.1}, nil)
			if err != nil {
				t.Fatalf("query: %v", err)
			}
			checkContacts(t, cs, 1)
		}
	})
}

// FuzzContacts runs queries with arbitrary states, step and options
// between a torus and the car.
func FuzzContacts(f *testing.F) {
	f.Add(0.3, 0.1, 2.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0, 3.0, 1.0, 2.0, 1.0, 0.0, uint8(0))
	f.Add(0.3, 0.1, 2.5, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -3.0, 3.0, 1.0, 2.0, 1.0, 0.0, uint8(1))
	f.Add(0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, uint8(0))
	f.Add(1e300, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, -1e300, 0.0, 0.0, 1e10, 0.0, 0.0, 1.0, 1e-300, uint8(0))
	f.Add(0.0, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.0, 0.0, -1.0, 1e6, 0.0, 0.0, 1.0, 0.0, uint8(1))
	f.Add(math.NaN(), 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.0, 0.0, 0.0, 0.0, 1.0, 0.0, uint8(0))
	a, err := ShapeOf(shapes.Torus(0.8, 0.3, 8, 6))
	if err != nil {
		f.Fatal(err)
	}
	b, err := ShapeOf(shapes.Car())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, px, py, pz, qw, qx, qy, qz, vx, vy, vz, wx, wy, wz, dt, tol float64, alg uint8) {
		qt, ok := geom.Quat{W: qw, X: qx, Y: qy, Z: qz}.Normalize()
		if !ok {
			qt = geom.Quat{W: qw, X: qx, Y: qy, Z: qz}
		}
		sa := State{Pose: geom.Pose{P: geom.V(px, py, pz), Q: qt}, V: geom.V(vx, vy, vz), W: geom.V(wx, wy, wz)}
		sb := State{Pose: geom.PoseIdentity(), W: geom.V(0, 0, 1)}
		var q Scratch
		cs, err := q.Contacts(a, sa, b, sb, dt, &Options{Method: Method(alg % 3), Tolerance: tol}, nil)
		if err != nil {
			return
		}
		checkContacts(t, cs, dt)
	})
}
