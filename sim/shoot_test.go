package sim

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/simio"
)

func readHoldoutShoot(t testing.TB) *simio.Scene {
	t.Helper()
	sc, err := simio.ReadScene(filepath.Join("testdata", "shoot-b12-k60-s11"))
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestHoldoutShoot judges the shoot scene of seed 11 with the independent
// oracle: no body through the plate, overlap within 1%, no energy gained.
func TestHoldoutShoot(t *testing.T) { runJudged(t, readHoldoutShoot(t), 1) }

// TestReduceTouchingFast steps the hold-out shoot and checks the contact
// reduction of every pair of a fast body and a static one against the
// contacts the search found (those kept plus those set aside): each pair
// keeps its nearest contact, at most 2*reduceKeep contacts per normal
// group, and, when it touches, its kept touching contacts span at least
// half of the touching region (farthest-point sampling takes a diameter's
// far end second, brute force over the touching contacts here). Some
// touching group must have been reduced, or the test proves nothing.
func TestReduceTouchingFast(t *testing.T) {
	s, err := FromScene(readHoldoutShoot(t), &Options{})
	if err != nil {
		t.Fatal(err)
	}
	type pair struct{ a, b BodyID }
	reducedTouching := 0
	for step := 0; step < 8; step++ {
		// The pairs' contacts before the step's solver: the step's
		// search (Contacts) and what the reduction set aside (promote
		// may have moved some of those into Contacts).
		_, splits, rechecks := s.Redone()
		if err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if _, sp, re := s.Redone(); sp != splits || re != rechecks {
			continue // the last search was not the step's
		}
		kept := map[pair][]Contact{}
		all := map[pair][]Contact{}
		for _, c := range s.Contacts() {
			kept[pair{c.A, c.B}] = append(kept[pair{c.A, c.B}], c)
			all[pair{c.A, c.B}] = append(all[pair{c.A, c.B}], c)
		}
		for _, c := range s.dropped {
			all[pair{c.A, c.B}] = append(all[pair{c.A, c.B}], c)
		}
		for p, cs := range all {
			if len(cs) == len(kept[p]) {
				continue
			}
			if !s.bodies[p.a].static && !s.bodies[p.b].static {
				t.Fatalf("step %d: pair %d-%d of two dynamic bodies reduced", step, p.a, p.b)
			}
			nearest := cs[0]
			for _, c := range cs {
				if c.Separation < nearest.Separation {
					nearest = c
				}
			}
			found := false
			for _, c := range kept[p] {
				found = found || c.Point == nearest.Point && c.Separation == nearest.Separation
			}
			if !found {
				t.Errorf("step %d: pair %d-%d lost its nearest contact (separation %g)", step, p.a, p.b, nearest.Separation)
			}
			// Kept per normal direction: group by normal as the
			// reduction does, counting brute force.
			var heads []Contact
			counts := map[int]int{}
			for _, c := range kept[p] {
				g := -1
				for i, h := range heads {
					if h.Normal.Dot(c.Normal) >= reduceCos {
						g = i
						break
					}
				}
				if g < 0 {
					heads = append(heads, c)
					g = len(heads) - 1
				}
				counts[g]++
			}
			for g, n := range counts {
				if n > 2*reduceKeep+promoted(s, p.a, p.b) {
					t.Errorf("step %d: pair %d-%d keeps %d contacts in normal group %d", step, p.a, p.b, n, g)
				}
			}
			if nearest.Separation > 0 {
				continue
			}
			touching := func(set []Contact) (diam float64) {
				for i, c := range set {
					if c.Separation > 0 {
						continue
					}
					for _, d := range set[:i] {
						if d.Separation <= 0 {
							diam = math.Max(diam, c.Point.Sub(d.Point).Norm())
						}
					}
				}
				return diam
			}
			reducedTouching++
			dAll := touching(cs)
			dKept := touching(kept[p])
			if dKept < 0.5*dAll {
				t.Errorf("step %d: pair %d-%d: kept touching contacts span %g of the touching region's %g", step, p.a, p.b, dKept, dAll)
			}
		}
	}
	if reducedTouching == 0 {
		t.Fatal("no touching group of a fast body was reduced")
	}
}

// promoted counts the contacts of a pair that promote added to the
// solver's after the reduction.
func promoted(s *Sim, a, b BodyID) int {
	n := 0
	for i := range s.cons {
		if k := &s.cons[i]; BodyID(k.a) == a && BodyID(k.b) == b && k.imp.n == 0 && k.maxImp == 0 {
			n++
		}
	}
	return n
}

// TestInsideFace checks insideFace (with its quick test on the face's
// inner radius) against the distance to each edge of the face measured by
// geom.ClosestSegmentPoints, for seeded random points near the faces of a
// car (non-convex, many face shapes) and a plate, at random poses and
// distances: the answers agree except within 1e-9 of the boundary, and
// between 30% and 70% of the points are inside.
func TestInsideFace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 9))
	inside, trials := 0, 4000
	car, plate := shapes.Car(), shapes.Box(geom.V(3, 2, 0.01))
	for k := range 2 {
		m := car
		if k == 1 {
			m = plate
		}
		b := &body{mesh: m, inner: innerOf(m)}
		for trial := 0; trial < trials/2; trial++ {
			axis := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
			b.pose = geom.Pose{P: geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), Q: geom.QuatAxisAngle(axis, math.Pi*r.Float64())}
			f := int32(r.IntN(m.NumFaces()))
			loop := m.Face(int(f))
			// A point near the face: a random mix of its vertices,
			// moved off the plane and a little beyond.
			var q geom.Vec3
			wsum := 0.0
			for _, v := range loop {
				w := r.Float64()
				q = q.AddScaled(w, m.Verts[v])
				wsum += w
			}
			q = q.Scale(1 / wsum).Add(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.05 * m.Radius()))
			tr := b.pose.Transform()
			p := tr.Apply(q)
			d := 0.3 * m.Radius() * r.Float64() * r.Float64()
			inv := tr.Inverse()
			got := insideFace(b, &inv, f, p, d)
			// The oracle: the projection's distance to every edge.
			pl := m.Planes[f]
			proj := q.AddScaled(-pl.SignedDist(q), pl.N)
			min := math.Inf(1)
			for k, v := range loop {
				_, _, x, _ := geom.ClosestSegmentPoints(m.Verts[v], m.Verts[loop[(k+1)%len(loop)]], proj, proj)
				min = math.Min(min, x.Sub(proj).Norm())
			}
			if want := min >= d; got != want && math.Abs(min-d) > 1e-9 {
				t.Fatalf("face %d, distance to the edges %g, d %g: insideFace %v", f, min, d, got)
			}
			if got {
				inside++
			}
		}
	}
	if inside < trials*3/10 || inside > trials*7/10 {
		t.Fatalf("%d of %d points inside, want 30-70%%", inside, trials)
	}
	t.Logf("%d of %d inside", inside, trials)
}
