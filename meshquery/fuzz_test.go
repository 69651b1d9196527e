package meshquery

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// soupFromBytes makes up to 6 triangles on a small integer grid (so that
// touching, coplanar and degenerate cases are frequent) from raw bytes.
func soupFromBytes(raw []byte) ([]geom.Vec3, [][3]int32) {
	var verts []geom.Vec3
	var tris [][3]int32
	for len(raw) >= 9 && len(tris) < 6 {
		n := int32(len(verts))
		for k := 0; k < 3; k++ {
			verts = append(verts, geom.Vec3{X: float64(raw[3*k]%5) - 2, Y: float64(raw[3*k+1]%5) - 2, Z: float64(raw[3*k+2]%5) - 2})
		}
		tris = append(tris, [3]int32{n, n + 1, n + 2})
		raw = raw[9:]
	}
	return verts, tris
}

// FuzzQueries builds two small soups and a relative pose from the input
// and runs every public query: errors are allowed for bad input, panics
// and hangs are not, and the answers must agree with the brute-force
// oracles.
func FuzzQueries(f *testing.F) {
	f.Add([]byte("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10\x11"), []byte("\x02\x02\x02\x04\x02\x02\x02\x04\x02"), 0.5, 0.25, 0.0, 0.3)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x01\x01\x00\x03\x01\x00\x01\x03\x00"), 0.0, 0.0, 0.0, 0.0)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x01\x01\x01\x03\x01\x01\x01\x03\x01"), 0.0, 0.0, 1.0, 0.0)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), math.NaN(), 0.0, 0.0, 0.0)
	f.Add([]byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), []byte("\x00\x00\x00\x04\x00\x00\x00\x04\x00"), 1e300, 0.0, 0.0, 1e300)
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
		hit, err := q.Intersect(a, &tfa, b, &tfb)
		if err != nil {
			return // non-finite or huge pose: refused
		}
		pairs, _ := q.AppendPairs(a, &tfa, b, &tfb, nil, 0)
		res, _ := q.Distance(a, &tfa, b, &tfb, nil)
		cs, _ := q.Contacts(a, &tfa, b, &tfb, &ContactOptions{Margin: 0.5}, nil)
		for i := range cs {
			if err := cs[i].Validate(); err != nil {
				t.Fatalf("contact %v: %v", cs[i], err)
			}
		}
		q.Locate(a, pose.P)
		checkPenetrating(t, &q, a, &tfa, b, &tfb)
		// Brute force in A's frame (A is at the identity).
		o := &oracleMesh{}
		for _, x := range ta {
			o.a = append(o.a, [3]geom.Vec3{va[x[0]], va[x[1]], va[x[2]]})
		}
		for _, x := range tb {
			o.b = append(o.b, [3]geom.Vec3{tfb.Apply(vb[x[0]]), tfb.Apply(vb[x[1]]), tfb.Apply(vb[x[2]])})
		}
		degenerate := false
		for _, s := range append(append([][3]geom.Vec3{}, o.a...), o.b...) {
			if collinear(s[0], s[1], s[2]) {
				degenerate = true // the oracle needs proper triangles
			}
		}
		if degenerate {
			return
		}
		want := o.bruteHit()
		if hit != want || res.Hit != want || (len(pairs) > 0) != want {
			t.Fatalf("hit %v, pairs %d, distance hit %v; brute force %v", hit, len(pairs), res.Hit, want)
		}
		checkSeparation(t, &q, a, b, &tfa, &tfb, o, math.Abs(angle), "fuzz")
		if !want {
			if d := o.bruteDist(); math.Abs(d-res.Dist) > 1e-9*(1+d) {
				t.Fatalf("distance %.17g, brute force %.17g", res.Dist, d)
			}
		}
	})
}

// FuzzNew feeds arbitrary vertices and faces to New and NewSoup: an
// error or a tree, never a panic.
func FuzzNew(f *testing.F) {
	f.Add(0.0, 1.0, 2.0, int32(0), int32(1), int32(2))
	f.Add(math.Inf(1), 1.0, 2.0, int32(0), int32(1), int32(5))
	f.Add(1e300, -1e300, 0.0, int32(-1), int32(1), int32(2))
	f.Fuzz(func(t *testing.T, x, y, z float64, i, j, k int32) {
		verts := []geom.Vec3{{X: x, Y: y, Z: z}, {X: 1}, {Y: 1}, {Z: 1}}
		if tr, err := NewSoup(verts, [][3]int32{{i, j, k}, {1, 2, 3}}, false); err == nil {
			var q Scratch
			id := geom.TransformIdentity()
			q.Distance(tr, &id, tr, &id, nil)
		}
		if m, err := mesh.New(verts, [][]int{{int(i), int(j), int(k)}}, nil); err == nil {
			New(m)
		}
	})
}
