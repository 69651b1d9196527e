package world

import (
	"encoding/binary"
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// fuzzFloat takes a float64 from the front of data: any bit pattern from
// eight bytes, a small value (a signed byte over div) from fewer, 0 when
// none are left.
func fuzzFloat(data *[]byte, div float64) float64 {
	d := *data
	switch {
	case len(d) >= 8:
		*data = d[8:]
		return math.Float64frombits(binary.LittleEndian.Uint64(d))
	case len(d) > 0:
		*data = d[1:]
		return float64(int8(d[0])) / div
	}
	return 0
}

// FuzzWorld decodes operations — add a body of some kind at a pose, move,
// teleport, remove, step — with arbitrary float64 pose components (NaN,
// infinities, zero quaternions), and checks that bad input is an error,
// never a panic, and that every step's contacts equal the pairwise
// reference.
func FuzzWorld(f *testing.F) {
	f.Add([]byte{0, 0, 1, 1, 4})
	f.Add([]byte("\x00\x02\x01\x03\x00\x01\x04\x02\x00\x04\x03\x01\x04"))
	f.Add(append([]byte{0, 1}, make([]byte, 60)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		w := mustNew(t, &Options{Workers: 2})
		meshes := []BodyDef{{Mesh: cubeMesh, Kind: Convex}, {Mesh: carMesh, Kind: Polyhedron}, {Mesh: cubeMesh, Kind: Soup}}
		var ids []BodyID
		next := func() float64 { return fuzzFloat(&data, 16) }
		pick := func(n int) int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b) % n
		}
		pose := func() geom.Pose {
			return geom.Pose{P: geom.Vec3{X: next(), Y: next(), Z: next()}, Q: geom.Quat{W: 1 + next(), X: next(), Y: next(), Z: next()}}
		}
		for steps := 0; len(data) > 0 && steps < 8; {
			op := data[0] % 5
			data = data[1:]
			switch op {
			case 0:
				if len(ids) >= 6 {
					continue
				}
				def := meshes[pick(3)]
				def.Pose = pose()
				if id, err := w.Add(def); err == nil {
					ids = append(ids, id)
				}
			case 1, 2:
				if len(ids) == 0 {
					continue
				}
				id := ids[pick(len(ids))]
				if op == 1 {
					w.Move(id, pose())
				} else {
					w.SetPose(id, pose())
				}
			case 3:
				if len(ids) == 0 {
					continue
				}
				i := pick(len(ids))
				if err := w.Remove(ids[i]); err != nil {
					t.Fatal(err)
				}
				ids = append(ids[:i], ids[i+1:]...)
			case 4:
				steps++
				// A narrow phase may refuse extreme coordinates: both
				// sides then leave that pair out and report the others.
				want, werr := pairwiseErr(w)
				got, err := w.Step(nil)
				if (err == nil) != (werr == nil) && w.Stats().Tests > 0 {
					// The world skips pairs the broad phase culls, whose
					// narrow phase the reference may still have refused.
					if err != nil {
						t.Fatalf("step: world error %v, reference none", err)
					}
				}
				if !sameContacts(got, want) {
					t.Fatalf("step: got %v, want %v", got, want)
				}
			}
		}
	})
}

// FuzzFeatureMargins runs FeatureContacts on cubes and cars with arbitrary
// body margins (NaN, infinities, negative), poses, moves and sleep flags,
// and checks that a bad margin is an error that leaves the body's margin
// unchanged, never a panic, and that every contact is a valid record within
// the pair's margin plus the step's reach.
func FuzzFeatureMargins(f *testing.F) {
	f.Add([]byte{0, 0, 1, 4, 5})
	f.Add(append([]byte{0, 0, 3, 1, 2, 4}, make([]byte, 40)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
		next := func() float64 { return fuzzFloat(&data, 32) }
		var ids []BodyID
		margins := map[BodyID]float64{}
		moved := map[BodyID]bool{} // moved in the coming step
		pick := func() BodyID { return ids[int(uint8(next()*32))%len(ids)] }
		for steps := 0; len(data) > 0 && steps < 6; {
			op := data[0] % 6
			data = data[1:]
			if op != 0 && len(ids) == 0 {
				continue
			}
			switch op {
			case 0:
				if len(ids) >= 4 {
					continue
				}
				m, kind := cubeMesh, Convex
				if len(ids)%2 == 1 {
					m, kind = carMesh, Polyhedron
				}
				p := geom.Pose{P: geom.Vec3{X: next(), Y: next(), Z: next()}, Q: geom.QuatIdentity()}
				if id, err := w.Add(BodyDef{Mesh: m, Kind: kind, Pose: p}); err == nil {
					ids = append(ids, id)
				}
			case 1:
				id, m := pick(), next()
				err := w.SetMargin(id, m)
				if ok := m >= 0 && m <= geom.MaxCoord; ok != (err == nil) {
					t.Fatalf("SetMargin(%v): %v", m, err)
				}
				if err == nil {
					margins[id] = m
				}
			case 2:
				w.SetAsleep(pick(), next() > 0)
			case 3:
				id := pick()
				moved[id] = true
				p0, _ := w.Pose(id)
				w.Move(id, geom.Pose{P: p0.P.Add(geom.Vec3{X: next(), Y: next(), Z: next()}), Q: geom.Quat{W: 1, X: next(), Y: next(), Z: next()}})
			case 4, 5:
				steps++
				cs, err := w.Step(nil)
				if err != nil {
					t.Fatalf("step: %v", err)
				}
				for _, c := range cs {
					if err := c.Validate(); err != nil {
						t.Fatalf("%v: %v", c, err)
					}
					// A move adds its reach to the pair's margin:
					// check the bodies' margins alone when neither
					// moved.
					if !moved[c.A] && !moved[c.B] && c.Separation > margins[c.A]+margins[c.B]+1e-9*(1+margins[c.A]+margins[c.B]) {
						t.Fatalf("%v: separation beyond the margins %v + %v", c, margins[c.A], margins[c.B])
					}
				}
				clear(moved)
			}
		}
	})
}
