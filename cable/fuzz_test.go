package cable

import (
	"math"
	"testing"

	"github.com/collide-go/collide/geom"
)

// pointTriangleDist is the distance from p to triangle abc.
func pointTriangleDist(p, a, b, c geom.Vec3) float64 {
	n, ok := b.Sub(a).Cross(c.Sub(a)).Normalize()
	if ok {
		q := p.AddScaled(-n.Dot(p.Sub(a)), n)
		if b.Sub(a).Cross(q.Sub(a)).Dot(n) >= 0 && c.Sub(b).Cross(q.Sub(b)).Dot(n) >= 0 && a.Sub(c).Cross(q.Sub(c)).Dot(n) >= 0 {
			return math.Abs(n.Dot(p.Sub(a)))
		}
	}
	d := math.Inf(1)
	for _, e := range [3][2]geom.Vec3{{a, b}, {b, c}, {c, a}} {
		_, _, c1, c2 := geom.ClosestSegmentPoints(p, p, e[0], e[1])
		d = math.Min(d, c1.Dist(c2))
	}
	return d
}

// minGap is the smallest distance between primitives that may collide.
func minGap(s *System) float64 {
	g := math.Inf(1)
	for i, e := range s.edges {
		for _, f := range s.edges[:i] {
			if e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1] {
				continue
			}
			_, _, c1, c2 := geom.ClosestSegmentPoints(s.x[e[0]], s.x[e[1]], s.x[f[0]], s.x[f[1]])
			g = math.Min(g, c1.Dist(c2))
		}
	}
	// A segment's distance to a triangle is that of its endpoints or of
	// the triangle's edges, unless it pierces the triangle.
	for _, e := range s.edges {
		for _, t := range s.tris {
			if segmentHitsTriangle(s.x[e[0]], s.x[e[1]], s.x[t[0]], s.x[t[1]], s.x[t[2]]) && !(s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0) {
				return 0
			}
		}
	}
	for p := range s.x {
		for _, t := range s.tris {
			if int32(p) == t[0] || int32(p) == t[1] || int32(p) == t[2] {
				continue
			}
			g = math.Min(g, pointTriangleDist(s.x[p], s.x[t[0]], s.x[t[1]], s.x[t[2]]))
		}
	}
	return g
}

// fuzzSystem builds two 3-segment cables, a static triangle and a static
// edge from bytes: coordinates on a 1/32 grid (many exact coplanarities),
// velocities up to 16 m/s. It returns nil for unusable data.
func fuzzSystem(data []byte) *System {
	if len(data) < 8 {
		return nil
	}
	k := 0
	next := func() float64 {
		b := data[k%len(data)]
		k++
		return float64(int(b)-128) / 32 // [-4, 4)
	}
	vec := func() geom.Vec3 { return geom.V(next(), next(), next()) }
	o := Options{Dt: 0.001 * (1 + float64(data[0]%8)), Thickness: 1e-3 * (1 + float64(data[1]%4)), Friction: float64(data[2]%3) / 4,
		Restitution: float64(data[3]%2) / 2, NoGravity: data[4]%2 == 0, Verify: true}
	k = 5
	s, err := New(o)
	if err != nil {
		return nil
	}
	if _, err := s.AddStaticMesh([]geom.Vec3{vec(), vec(), vec(), vec(), vec()}, [][2]int{{0, 1}, {1, 2}, {2, 0}, {3, 4}}, [][3]int{{0, 1, 2}}); err != nil {
		return nil
	}
	for c := 0; c < 2; c++ {
		first := s.NumParticles()
		for i := 0; i < 4; i++ {
			if _, err := s.AddParticle(Particle{X: vec(), V: vec().Scale(4), Mass: 0.01}); err != nil {
				return nil
			}
			if i > 0 {
				if err := s.AddSpring(first+i-1, first+i, 50, 0.01); err != nil {
					return nil
				}
			}
		}
	}
	if minGap(s) < 4*s.opt.Thickness {
		return nil
	}
	return s
}

// FuzzStep: whatever the configuration, a step never lets an edge pass
// through another or a vertex through the triangle.
func FuzzStep(f *testing.F) {
	f.Add([]byte("\x00\x00\x00\x00\x00 cables and a triangle, moving fast toward each other"))
	f.Add([]byte{1, 2, 0, 1, 1, 128, 128, 128, 160, 128, 128, 128, 160, 128, 140, 140, 150, 100, 100, 150, 100, 200, 150, 120, 130, 126, 90, 128, 128, 64, 140, 128, 64, 150, 128, 64})
	f.Add([]byte{7, 3, 2, 0, 0, 100, 100, 128, 156, 100, 128, 100, 156, 128, 90, 128, 120, 166, 128, 120, 110, 110, 140, 118, 118, 140, 126, 126, 140, 134, 134, 140, 128, 128, 96, 110, 146, 150, 116, 146, 150, 122, 146, 150, 128, 146, 150, 128, 128, 96})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := fuzzSystem(data)
		if s == nil {
			return
		}
		for i := 0; i < 20; i++ {
			// Verify checks every substep.
			if st := s.Step(); st.Penetrations > 0 {
				t.Fatalf("step %d: %d crossings, in the last substep %+v", i, st.Penetrations, s.LastStepCrossings())
			}
			for p := 0; p < s.NumParticles(); p++ {
				if !s.Position(p).IsFinite() || !s.Velocity(p).IsFinite() {
					t.Fatalf("step %d: particle %d at %v moving %v", i, p, s.Position(p), s.Velocity(p))
				}
			}
		}
	})
}

// FuzzNew: options and particles from arbitrary floats give an error or
// a usable system, never a panic.
func FuzzNew(f *testing.F) {
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 1.0)
	f.Add(-1.0, math.NaN(), 2.0, -1.0, math.Inf(1), 0.0, 0.0, 0.0)
	f.Add(1e-300, 1e300, 0.5, 0.3, 1e308, -1e308, 5e-324, 1e-320)
	f.Fuzz(func(t *testing.T, dt, thick, rest, fric, x, y, z, mass float64) {
		s, err := New(Options{Dt: dt, Thickness: thick, Restitution: rest, Friction: fric})
		if err != nil {
			return
		}
		a, errA := s.AddParticle(Particle{X: geom.V(x, y, z), Mass: mass})
		b, errB := s.AddParticle(Particle{X: geom.V(z, x, y), V: geom.V(y, z, x), Mass: mass})
		if errA == nil && errB == nil {
			_ = s.AddSpring(a, b, 10, 0)
		}
		s.Step()
		_ = s.Energy()
	})
}
