package broad

import (
	"math"
	"math/rand/v2"

	"github.com/collide-go/collide/geom"
)

// scene is a seeded frames workload like the benchmark's "polytopes"
// generator (FORMAT.md Sec. 5): convex point clouds on ellipsoids, rods and
// plates bouncing in a box, moving 5% of their radius and turning 10
// degrees per frame; the box side is scaled so the density matches the
// samples (about two overlapping pairs per body).
type scene struct {
	L      float64
	pts    [][]geom.Vec3
	rad    []float64
	pose   []geom.Pose
	vel    []geom.Vec3
	spin   []geom.Quat
	frames [][]geom.AABB
}

func newScene(n int, seed uint64) *scene {
	r := rand.New(rand.NewPCG(seed, 7))
	s := &scene{L: 6.18 * math.Cbrt(float64(n)/50)}
	u := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for i := 0; i < n; i++ {
		sc := u(0.65, 1.1)
		var ax geom.Vec3
		switch i % 3 {
		case 0:
			ax = geom.Vec3{X: 1, Y: u(0.55, 0.9), Z: u(0.5, 0.85)}
		case 1:
			ax = geom.Vec3{X: 1, Y: u(0.1, 0.14), Z: u(0.1, 0.14)}
		default:
			ax = geom.Vec3{X: 1, Y: u(0.6, 0.9), Z: u(0.07, 0.1)}
		}
		ax = ax.Scale(sc)
		var ps []geom.Vec3
		rad := 0.0
		for k := 0; k < 10; k++ {
			d, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
			p := d.Mul(ax)
			ps = append(ps, p)
			rad = math.Max(rad, p.Norm())
		}
		s.pts = append(s.pts, ps)
		s.rad = append(s.rad, rad)
		q := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}
		q, _ = q.Normalize()
		s.pose = append(s.pose, geom.Pose{P: geom.Vec3{X: u(rad, s.L-rad), Y: u(rad, s.L-rad), Z: u(rad, s.L-rad)}, Q: q})
		d, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		s.vel = append(s.vel, d.Scale(0.05*rad))
		a, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		s.spin = append(s.spin, geom.QuatAxisAngle(a, 10*math.Pi/180))
	}
	return s
}

// boxes returns the tight world boxes of the current poses.
func (s *scene) boxes(dst []geom.AABB) []geom.AABB {
	dst = dst[:0]
	for i, ps := range s.pts {
		t := s.pose[i].Transform()
		b := geom.EmptyAABB()
		for _, p := range ps {
			b = b.AddPoint(t.Apply(p))
		}
		dst = append(dst, b)
	}
	return dst
}

// step advances every body by one frame, bouncing off the walls.
func (s *scene) step() {
	for i := range s.pose {
		p := s.pose[i].P.Add(s.vel[i])
		v := s.vel[i]
		lo, hi := s.rad[i], s.L-s.rad[i]
		for k := 0; k < 3; k++ {
			if c := p.Get(k); (c < lo && v.Get(k) < 0) || (c > hi && v.Get(k) > 0) {
				v = v.Set(k, -v.Get(k))
			}
		}
		s.vel[i] = v
		q, _ := s.spin[i].Mul(s.pose[i].Q).Normalize()
		s.pose[i] = geom.Pose{P: p, Q: q}
	}
}

// run precomputes the boxes of f frames.
func (s *scene) run(f int) [][]geom.AABB {
	var out [][]geom.AABB
	for i := 0; i < f; i++ {
		out = append(out, s.boxes(nil))
		s.step()
	}
	return out
}
