package meshquery

import (
	"errors"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// FuzzPenetratingVertices builds two small soups declared closed (they may
// not be) and a relative pose from the input: PenetratingVertices returns
// an error for bad input or valid records, each with a negative
// separation no deeper than the returned depth, which one of them
// reaches; never a panic or a hang.
func FuzzPenetratingVertices(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"), []byte("\x02\x02\x02\x04\x02\x02\x02\x04\x02"), 0.5, 0.25, 0.0, 0.3)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x01\x01\x00\x03\x01\x00\x01\x03\x00"), 0.0, 0.0, 0.0, 0.0)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), math.NaN(), 0.0, 0.0, 0.0)
	f.Fuzz(func(t *testing.T, ra, rb []byte, px, py, pz, angle float64) {
		va, ta := soupFromBytes(ra)
		vb, tb := soupFromBytes(rb)
		a, errA := NewSoup(va, ta, true)
		b, errB := NewSoup(vb, tb, true)
		if errA != nil || errB != nil {
			return
		}
		pose := geom.Pose{P: geom.Vec3{X: px, Y: py, Z: pz}, Q: geom.QuatAxisAngle(geom.Vec3{X: 1, Y: 2, Z: 3}, angle)}
		tfa, tfb := geom.TransformIdentity(), pose.Transform()
		var q Scratch
		recs, deepest, err := q.PenetratingVertices(a, &tfa, b, &tfb, nil)
		if err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("error %v does not wrap ErrInput", err)
			}
			return
		}
		reached := len(recs) == 0 && deepest == 0
		for _, c := range recs {
			if err := c.Validate(); err != nil || !(c.Separation < 0) || -c.Separation > deepest {
				t.Fatalf("record %v (deepest %v): %v", c, deepest, err)
			}
			reached = reached || -c.Separation == deepest
		}
		if !reached {
			t.Fatalf("deepest %v is no record's depth: %v", deepest, recs)
		}
	})
}
