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
			op, id := data[0]%3, int(data[1]%64)
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

// FuzzSwept decodes a body (a few local points) and two poses, possibly
// non-finite, and checks that the swept boxes never panic, are empty for
// non-finite input, and otherwise contain the body at sampled times of both
// motions.
func FuzzSwept(f *testing.F) {
	f.Add(make([]byte, 120))
	f.Add([]byte("\x00\x00\x00\x00\x00\x00\xf0\x3f some bytes for the poses and points of the body"))
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() float64 {
			if len(data) >= 8 {
				x := math.Float64frombits(binary.LittleEndian.Uint64(data))
				data = data[8:]
				return x
			}
			if len(data) > 0 {
				x := float64(int8(data[0])) / 8
				data = data[1:]
				return x
			}
			return 0.5
		}
		pose := func() geom.Pose {
			return geom.Pose{P: geom.Vec3{X: next(), Y: next(), Z: next()}, Q: geom.Quat{W: next(), X: next(), Y: next(), Z: next()}}
		}
		var pts []geom.Vec3
		for i := 0; i < 4; i++ {
			pts = append(pts, geom.Vec3{X: next(), Y: next(), Z: next()})
		}
		p0, p1 := pose(), pose()
		e := ExtentOf(pts)
		lin := SweptLinear(e, p0, p1, nil)
		scr := SweptScrew(e, p0, p1, nil)
		finiteIn := e.Box.Min.IsFinite() && e.Box.Max.IsFinite() && p0.P.IsFinite() && p1.P.IsFinite() && p0.Q.IsFinite() && p1.Q.IsFinite()
		if !finiteIn {
			return
		}
		// Containment is meaningful where the arithmetic does not overflow.
		big := max(e.Radius, p0.P.Norm(), p1.P.Norm(), p0.Q.Norm(), p1.Q.Norm(), 1/max(p0.Q.Norm(), 1e-300), 1/max(p1.Q.Norm(), 1e-300))
		if !(big < 1e100) || lin.IsEmpty() || scr.IsEmpty() {
			return
		}
		q0, ok0 := p0.Q.Normalize()
		q1, ok1 := p1.Q.Normalize()
		if !ok0 || !ok1 {
			return
		}
		m := newScrew(p0, p1)
		for k := 0; k <= 64; k++ {
			tt := float64(k) / 64
			pl := geom.Pose{P: p0.P.Lerp(p1.P, tt), Q: q0.Slerp(q1, tt)}
			ps := m.at(tt)
			for _, x := range pts {
				if y := pl.Apply(x); !lin.Contains(y) {
					t.Fatalf("linear: %v at t=%v outside %v", y, tt, lin)
				}
				if y := ps.Apply(x); !scr.Contains(y) {
					t.Fatalf("screw: %v at t=%v outside %v", y, tt, scr)
				}
			}
		}
	})
}
