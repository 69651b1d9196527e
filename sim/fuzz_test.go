package sim

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// FuzzStep builds a small scene from arbitrary numbers (options, poses,
// velocities, masses) and steps it: bad input must be an error, never a
// panic, and accepted input must keep every state finite.
func FuzzStep(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x20"))
	f.Add(make([]byte, 200))
	cube := shapes.Cube(0.3)
	car := shapes.Car()
	slab := shapes.Box(geom.V(2, 2, 0.1))
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() float64 {
			if len(data) < 8 {
				return 0
			}
			x := math.Float64frombits(binary.LittleEndian.Uint64(data))
			data = data[8:]
			return x
		}
		small := func() float64 { // a finite number in [-10, 10] from a byte
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return float64(int(b)-128) / 12.8
		}
		opt := &Options{Gravity: geom.V(0, 0, -9.81), Dt: next(), Friction: math.Abs(small()), Restitution: math.Abs(small()) / 10, Substeps: int(math.Abs(small()))}
		s, err := New(opt)
		if err != nil {
			return
		}
		if _, err := s.Add(BodyDef{Mesh: slab, Static: true, Pose: geom.Pose{P: geom.V(0, 0, -0.1), Q: geom.QuatIdentity()}}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 3; i++ {
			m := cube
			if i == 1 {
				m = car
			}
			q, ok := geom.Quat{W: small(), X: small(), Y: small(), Z: small()}.Normalize()
			if !ok {
				q = geom.QuatIdentity()
			}
			def := BodyDef{Mesh: m, Mass: next(), Inertia: geom.Diag(geom.V(small(), small(), small())),
				Pose: geom.Pose{P: geom.V(small(), small(), math.Abs(small())), Q: q},
				V:    geom.V(small(), small(), small()), W: geom.V(small(), small(), small())}
			if _, err := s.Add(def); err != nil {
				continue
			}
		}
		steps := 3
		if s.Options().Dt > 0.1 {
			steps = 1
		}
		for k := 0; k < steps; k++ {
			if err := s.Step(); err != nil {
				return
			}
		}
		for i := 0; i < s.Len(); i++ {
			st := s.State(BodyID(i))
			if !st.Pose.P.IsFinite() || !st.Pose.Q.IsFinite() || !st.V.IsFinite() || !st.W.IsFinite() {
				t.Fatalf("body %d: state not finite: %+v", i, st)
			}
		}
	})
}
