package broad

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// FuzzPhases decodes a sequence of operations — set a box (six float64
// coordinates, possibly NaN, infinite or inverted), remove, list pairs —
// applies them to every structure and checks each pair list against the
// oracle and each rejected box against the validity rule.
func FuzzPhases(f *testing.F) {
	f.Add([]byte{0, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 2})
	f.Add([]byte("\x00\x01abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN\x02\x01\x01\x02"))
	f.Add(make([]byte, 200))
	f.Fuzz(func(t *testing.T, data []byte) {
		ss := make([]Phase, len(phases))
		for i, ph := range phases {
			ss[i] = ph.make()
		}
		o := oracle{}
		for len(data) >= 2 {
			op, id := data[0]%3, int(data[1]%32)
			data = data[2:]
			switch op {
			case 0:
				var c [6]float64
				for k := range c {
					if len(data) >= 8 {
						c[k] = math.Float64frombits(binary.LittleEndian.Uint64(data))
						data = data[8:]
					} else if len(data) > 0 {
						c[k] = float64(int8(data[0])) / 4
						data = data[1:]
					}
				}
				b := geom.AABB{Min: geom.Vec3{X: c[0], Y: c[1], Z: c[2]}, Max: geom.Vec3{X: c[3], Y: c[4], Z: c[5]}}
				valid := true
				for _, x := range c {
					valid = valid && !math.IsNaN(x) && !math.IsInf(x, 0)
				}
				valid = valid && c[0] <= c[3] && c[1] <= c[4] && c[2] <= c[5]
				if valid {
					o[id] = b
				}
				for i, s := range ss {
					if err := s.Set(id, b); (err == nil) != valid {
						t.Fatalf("%s: Set(%d, %v) error %v, valid %v", phases[i].name, id, b, err, valid)
					}
				}
			case 1:
				_, ok := o[id]
				delete(o, id)
				for i, s := range ss {
					if s.Remove(id) != ok {
						t.Fatalf("%s: Remove(%d) != %v", phases[i].name, id, ok)
					}
				}
			case 2:
				want := o.pairs()
				for i, s := range ss {
					if d := diffPairs(s.Pairs(nil), want); d != "" {
						t.Fatalf("%s: %s", phases[i].name, d)
					}
				}
			}
		}
		want := o.pairs()
		for i, s := range ss {
			if s.Len() != len(o) {
				t.Fatalf("%s: Len %d, want %d", phases[i].name, s.Len(), len(o))
			}
			if d := diffPairs(s.Pairs(nil), want); d != "" {
				t.Fatalf("%s: final: %s", phases[i].name, d)
			}
		}
	})
}
