package world

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// mollerTrumbore is the test's own ray-triangle intersection (Moller and
// Trumbore 1997), sharing no code with the world: the ray parameter of the
// hit, or false.
func mollerTrumbore(o, d, a, b, c geom.Vec3) (float64, bool) {
	e1, e2 := b.Sub(a), c.Sub(a)
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-14 {
		return 0, false
	}
	s := o.Sub(a)
	u := s.Dot(p) / det
	q := s.Cross(e1)
	v := d.Dot(q) / det
	if u < 0 || v < 0 || u+v > 1 {
		return 0, false
	}
	return e2.Dot(q) / det, true
}

type queryScene struct {
	w     *World
	ids   []BodyID
	poses []geom.Pose
	half  []geom.Vec3 // half extents of the boxes
}

// newQueryScene places boxes (as convex bodies, polyhedra and soups) at
// random poses; after a step they are at their end poses.
func newQueryScene(t *testing.T, seed uint64) *queryScene {
	r := rand.New(rand.NewPCG(seed, 3))
	w, _ := New(nil)
	s := &queryScene{w: w}
	for i := 0; i < 40; i++ {
		h := geom.Vec3{X: 0.5 + 1.5*r.Float64(), Y: 0.5 + 1.5*r.Float64(), Z: 0.5 + 1.5*r.Float64()}
		m := shapes.Box(h)
		q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		p := geom.Pose{P: geom.Vec3{X: 12 * r.Float64(), Y: 12 * r.Float64(), Z: 12 * r.Float64()}, Q: q}
		id, err := w.Add(BodyDef{Mesh: m, Kind: BodyKind(i % 3), Pose: geom.PoseIdentity()})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetPose(id, p); err != nil {
			t.Fatal(err)
		}
		s.ids, s.poses, s.half = append(s.ids, id), append(s.poses, p), append(s.half, h)
	}
	return s
}

// TestRayCast compares RayCast and RayCastAll with brute force over every
// triangle of every body (the test's own ray-triangle test), and checks
// the normal and the face: the normal is a face normal of the box facing
// the ray, and the point lies on the box's surface.
func TestRayCast(t *testing.T) {
	s := newQueryScene(t, 1)
	r := rand.New(rand.NewPCG(2, 2))
	hits := 0
	var all []RayHit
	for q := 0; q < 400; q++ {
		o := geom.Vec3{X: 16*r.Float64() - 2, Y: 16*r.Float64() - 2, Z: 16*r.Float64() - 2}
		d, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		maxT := 5 + 10*r.Float64()
		if q%5 == 0 {
			maxT = math.Inf(1)
		}
		// Brute force: the first hit per body.
		want := map[BodyID]float64{}
		for i, id := range s.ids {
			m := s.w.bodies[id].sh.mesh
			for _, tr := range m.Triangles(nil) {
				a, b, c := s.poses[i].Apply(m.Verts[tr.V[0]]), s.poses[i].Apply(m.Verts[tr.V[1]]), s.poses[i].Apply(m.Verts[tr.V[2]])
				if tt, ok := mollerTrumbore(o, d, a, b, c); ok && tt >= 0 && tt <= maxT {
					if old, seen := want[id]; !seen || tt < old {
						want[id] = tt
					}
				}
			}
		}
		all = s.w.RayCastAll(o, d, maxT, nil, all[:0])
		if len(all) != len(want) {
			t.Fatalf("ray %d: %d bodies hit, want %d (%v)", q, len(all), len(want), want)
		}
		for k, h := range all {
			wt, ok := want[h.Body]
			if !ok || math.Abs(h.T-wt) > 1e-9 {
				t.Fatalf("ray %d: body %d at t %v, want %v", q, h.Body, h.T, wt)
			}
			if k > 0 && h.T < all[k-1].T {
				t.Fatalf("ray %d: hits not sorted", q)
			}
			// The point on the box surface, the normal a box axis facing the ray.
			i := int(h.Body)
			x := s.poses[i].Inverse().Apply(h.Point)
			hf := s.half[i]
			out := math.Max(math.Abs(x.X)-hf.X, math.Max(math.Abs(x.Y)-hf.Y, math.Abs(x.Z)-hf.Z))
			if math.Abs(out) > 1e-9 {
				t.Fatalf("ray %d: point %v is %v off the box surface", q, h.Point, out)
			}
			nl := s.poses[i].Q.Conj().Rotate(h.Normal)
			if ax := nl.Abs().MaxAbs(); math.Abs(ax-1) > 1e-9 || h.Normal.Dot(d) > 0 {
				t.Fatalf("ray %d: normal %v (local %v) is not a box axis facing the ray", q, h.Normal, nl)
			}
		}
		first, ok := s.w.RayCast(o, d, maxT, nil)
		if ok != (len(all) > 0) || ok && (first.Body != all[0].Body || first.T != all[0].T) {
			t.Fatalf("ray %d: RayCast %v %v, first of all %v", q, first, ok, all)
		}
		if len(all) > 0 {
			hits++
			// A filter that excludes the first body gives the second.
			ex := all[0].Body
			h2, ok2 := s.w.RayCast(o, d, maxT, func(id BodyID) bool { return id != ex })
			if ok2 != (len(all) > 1) || ok2 && h2.Body != all[1].Body {
				t.Fatalf("ray %d: filtered RayCast %v, want the second hit of %v", q, h2, all)
			}
		}
	}
	if hits < 120 || hits > 280 {
		t.Fatalf("%d of 400 rays hit: want a mix", hits)
	}
}

// boxDistance is the analytic distance from local point x to the surface
// of the box of half extents h, and whether x is inside.
func boxDistance(x, h geom.Vec3) (float64, bool) {
	q := geom.Vec3{X: math.Abs(x.X) - h.X, Y: math.Abs(x.Y) - h.Y, Z: math.Abs(x.Z) - h.Z}
	if q.X <= 0 && q.Y <= 0 && q.Z <= 0 {
		return -math.Max(q.X, math.Max(q.Y, q.Z)), true
	}
	return geom.Vec3{X: math.Max(q.X, 0), Y: math.Max(q.Y, 0), Z: math.Max(q.Z, 0)}.Norm(), false
}

// TestClosestBodyAndQueryBox compares ClosestBody with the analytic
// distance to every box and QueryBox with brute force over the boxes.
func TestClosestBodyAndQueryBox(t *testing.T) {
	s := newQueryScene(t, 4)
	r := rand.New(rand.NewPCG(5, 5))
	inside := 0
	for q := 0; q < 300; q++ {
		p := geom.Vec3{X: 14*r.Float64() - 1, Y: 14*r.Float64() - 1, Z: 14*r.Float64() - 1}
		best, bestID, bestIn := math.Inf(1), BodyID(-1), false
		for i, id := range s.ids {
			d, in := boxDistance(s.poses[i].Inverse().Apply(p), s.half[i])
			key := d
			if in && s.w.bodies[id].kind != Soup {
				key = 0
			}
			if key < best {
				best, bestID, bestIn = key, id, in && s.w.bodies[id].kind != Soup
			}
		}
		got, ok := s.w.ClosestBody(p, math.Inf(1), nil)
		if !ok || got.Body != bestID || got.Inside != bestIn {
			t.Fatalf("point %d %v: closest %+v, want body %d at %v inside %v", q, p, got, bestID, best, bestIn)
		}
		if !bestIn && math.Abs(got.Distance-best) > 1e-9 {
			t.Fatalf("point %d: distance %v, want %v", q, got.Distance, best)
		}
		if math.Abs(got.Point.Sub(p).Norm()-got.Distance) > 1e-9 {
			t.Fatalf("point %d: closest point %v is not at the distance", q, got.Point)
		}
		if bestIn {
			inside++
		}
		if _, ok := s.w.ClosestBody(p, best*0.5-1e-9, nil); ok && !bestIn {
			t.Fatalf("point %d: a body within half the nearest distance", q)
		}

		// QueryBox around p.
		qb := geom.AABB{Min: p.Sub(geom.Vec3{X: 1, Y: 1, Z: 1}), Max: p.Add(geom.Vec3{X: 1, Y: 1, Z: 1})}
		got2 := s.w.QueryBox(qb, nil)
		want := 0
		for _, id := range s.ids {
			if tightBox(s.w.bodies[id].sh, s.w.bodies[id].p0).Overlaps(qb) {
				want++
			}
		}
		if len(got2) != want {
			t.Fatalf("point %d: QueryBox %d bodies, want %d", q, len(got2), want)
		}
	}
	if inside < 5 {
		t.Fatalf("only %d points inside a body: the test misses the inside case", inside)
	}
}
