package hull

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// fuzzPoints decodes little-endian float64 triples; a leading byte selects
// the Triangles option.
func fuzzPoints(data []byte) ([]geom.Vec3, bool) {
	tri := len(data) > 0 && data[0]&1 == 1
	if len(data) > 0 {
		data = data[1:]
	}
	var pts []geom.Vec3
	for len(data) >= 24 && len(pts) < 2000 {
		f := func(i int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:])) }
		pts = append(pts, geom.Vec3{X: f(0), Y: f(1), Z: f(2)})
		data = data[24:]
	}
	return pts, tri
}

func encodePoints(tri bool, pts ...geom.Vec3) []byte {
	b := []byte{0}
	if tri {
		b[0] = 1
	}
	for _, p := range pts {
		for _, x := range []float64{p.X, p.Y, p.Z} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
		}
	}
	return b
}

// FuzzNew checks that New never panics and that every hull it returns
// passes the brute-force checks of the property test.
func FuzzNew(f *testing.F) {
	f.Add(encodePoints(false, geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1}))
	f.Add(encodePoints(true, geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1}, geom.Vec3{X: 1, Y: 1, Z: 1}, geom.Vec3{X: 0.5, Y: 0.5}))
	f.Add(encodePoints(false, geom.Vec3{}, geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{X: 2}))
	f.Add(encodePoints(false, geom.Vec3{}, geom.Vec3{X: 1}, geom.Vec3{Y: 1}, geom.Vec3{X: math.NaN()}))
	f.Add(encodePoints(false, geom.Vec3{X: 1e-300}, geom.Vec3{X: 1e300}, geom.Vec3{Y: 1}, geom.Vec3{Z: 1}, geom.Vec3{Z: 1 + 1e-12}))
	f.Fuzz(func(t *testing.T, data []byte) {
		pts, tri := fuzzPoints(data)
		m, idx, err := NewIndexed(pts, &Options{Triangles: tri})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error %v is not a *hull.Error", err)
			}
			return
		}
		b := geom.AABBOf(pts...)
		if d := b.Diagonal(); d > 1e100 || d < 1e-100 {
			return // the containment tolerances below are not meaningful
		}
		if err := check(pts, m, idx, tri, false); err != nil {
			t.Fatalf("%v\npoints: %v", err, pts)
		}
	})
}
