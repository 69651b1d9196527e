package broad

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// screwByAxis is an independent construction of the screw motion: find a
// point a on the screw axis by solving (I - Rot(u, θ)) (a - p0) = o⊥ in the
// plane normal to u, then X(t) = a + Rot(u, θt)(X0 - a) + t d u for every
// point X0 of the body at t = 0.
type screwByAxis struct {
	u, a    geom.Vec3
	theta   float64
	d       float64
	o       geom.Vec3
	q0      geom.Quat
	p0      geom.Pose
	zeroRot bool
}

func newScrewByAxis(p0, p1 geom.Pose) screwByAxis {
	// Normalize as swept.go does: a half turn's direction depends on the
	// sign of dq.W, so both must see the same rounding.
	p0.Q, _ = p0.Q.Normalize()
	p1.Q, _ = p1.Q.Normalize()
	dq := p1.Q.Mul(p0.Q.Conj())
	u, th := dq.AxisAngle()
	s := screwByAxis{u: u, theta: th, o: p1.P.Sub(p0.P), p0: p0}
	if th == 0 {
		s.zeroRot = true
		return s
	}
	s.d = u.Dot(s.o)
	perp := s.o.Sub(u.Scale(s.d))
	e1, e2 := u.Orthonormal()
	// In the basis (e1, e2), Rot is [[c, -sn], [sn, c]]; solve
	// [[1-c, sn], [-sn, 1-c]] w = (perp.e1, perp.e2).
	c, sn := math.Cos(th), math.Sin(th)
	b1, b2 := perp.Dot(e1), perp.Dot(e2)
	det := (1-c)*(1-c) + sn*sn
	w1 := ((1-c)*b1 - sn*b2) / det
	w2 := (sn*b1 + (1-c)*b2) / det
	s.a = p0.P.Add(e1.Scale(w1)).Add(e2.Scale(w2))
	return s
}

func (s screwByAxis) point(x0 geom.Vec3, t float64) geom.Vec3 {
	if s.zeroRot {
		return x0.Add(s.o.Scale(t))
	}
	r := geom.RotationAxisAngle(s.u, s.theta*t)
	return s.a.Add(r.MulVec(x0.Sub(s.a))).Add(s.u.Scale(t * s.d))
}

func randPose(r *rand.Rand, spread float64) geom.Pose {
	q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	return geom.Pose{P: geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Scale(spread), Q: q}
}

// nextPose returns a pose after p0 with a turn of kind k: random, none,
// tiny, or a half turn.
func nextPose(r *rand.Rand, p0 geom.Pose, k int) geom.Pose {
	p1 := randPose(r, 3)
	p1.P = p1.P.Add(p0.P)
	switch k {
	case 1:
		p1.Q = p0.Q
	case 2:
		p1.Q, _ = geom.QuatAxisAngle(geom.Vec3{X: r.NormFloat64(), Y: 1, Z: r.NormFloat64()}, 1e-9).Mul(p0.Q).Normalize()
	case 3:
		p1.Q, _ = geom.QuatAxisAngle(geom.Vec3{X: r.NormFloat64(), Y: 1, Z: r.NormFloat64()}, math.Pi).Mul(p0.Q).Normalize()
	case 4:
		p1.P = p0.P
	}
	return p1
}

// TestSweptContainsDenseSamples checks, on random bodies and motions, that
// every vertex at 1001 sampled times lies in the swept box, and that the
// screw motion of swept.go agrees with the axis construction.
func TestSweptContainsDenseSamples(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var ratioLin, ratioScrew float64
	const cases = 200
	for c := 0; c < cases; c++ {
		var pts []geom.Vec3
		off := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Scale(float64(c%3) * 0.7)
		for i := 0; i < 12; i++ {
			pts = append(pts, geom.Vec3{X: r.NormFloat64(), Y: 0.3 * r.NormFloat64(), Z: 0.1 * r.NormFloat64()}.Add(off))
		}
		e := ExtentOf(pts)
		p0 := randPose(r, 5)
		p1 := nextPose(r, p0, c%5)
		var opt *SweptOptions
		if c%7 == 0 {
			opt = &SweptOptions{Steps: 1 + c%3}
		}
		lin := SweptLinear(e, p0, p1, opt)
		scr := SweptScrew(e, p0, p1, opt)
		sa := newScrewByAxis(p0, p1)
		m := newScrew(p0, p1)
		denseLin, denseScr := geom.EmptyAABB(), geom.EmptyAABB()
		// A half turn's direction depends on rounding; see the same
		// normalized rotations as swept.go.
		qa, _ := p0.Q.Normalize()
		qb, _ := p1.Q.Normalize()
		for k := 0; k <= 1000; k++ {
			tt := float64(k) / 1000
			pl := geom.Pose{P: p0.P.Lerp(p1.P, tt), Q: qa.Slerp(qb, tt)}
			ps := m.at(tt)
			for _, x := range pts {
				xl := pl.Apply(x)
				xo := sa.point(p0.Apply(x), tt)
				xs := ps.Apply(x)
				// The axis construction loses precision when the axis is
				// far away (tiny turns): |a - p0| ~ |o|/θ.
				if d := xs.Dist(xo); d > 1e-9*(1+xo.Norm())+1e-14*sa.a.Dist(p0.P) {
					t.Fatalf("case %d: screw pose at t=%v differs from the axis construction by %g\np0 %v\np1 %v", c, tt, d, p0, p1)
				}
				if !lin.Contains(xl) {
					t.Fatalf("case %d: linear: point %v at t=%v outside %v\np0 %v\np1 %v", c, xl, tt, lin, p0, p1)
				}
				if !scr.Contains(xs) {
					t.Fatalf("case %d: screw: point %v at t=%v outside %v\np0 %v\np1 %v", c, xs, tt, scr, p0, p1)
				}
				denseLin, denseScr = denseLin.AddPoint(xl), denseScr.AddPoint(xs)
			}
		}
		ratioLin += lin.Diagonal() / denseLin.Diagonal()
		ratioScrew += scr.Diagonal() / denseScr.Diagonal()
	}
	t.Logf("mean diagonal of swept box / sampled box: linear %.3f, screw %.3f", ratioLin/cases, ratioScrew/cases)
}

func TestSweptDegenerate(t *testing.T) {
	e := ExtentOf([]geom.Vec3{{X: 1}, {Y: 1}, {Z: -1}})
	p := geom.Pose{P: geom.Vec3{X: 1, Y: 2, Z: 3}, Q: geom.QuatIdentity()}
	for _, b := range []geom.AABB{SweptLinear(e, p, p, nil), SweptScrew(e, p, p, nil)} {
		want := e.Box.Transform(p.Transform())
		if !b.ContainsBox(want) || b.Diagonal() > want.Diagonal()*(1+1e-9) {
			t.Errorf("no motion: got %v, want %v", b, want)
		}
	}
	if b := SweptScrew(Extent{Box: geom.EmptyAABB()}, p, p, nil); !b.IsEmpty() {
		t.Errorf("empty body: got %v", b)
	}
	bad := geom.Pose{P: geom.Vec3{X: math.NaN()}, Q: geom.QuatIdentity()}
	if b := SweptLinear(e, p, bad, nil); !b.IsEmpty() {
		t.Errorf("NaN pose: got %v, want empty", b)
	}
	if b := SweptScrew(e, bad, p, nil); !b.IsEmpty() {
		t.Errorf("NaN pose: got %v, want empty", b)
	}
	zq := geom.Pose{Q: geom.Quat{}}
	if b := SweptScrew(e, zq, p, nil); b.IsEmpty() {
		t.Errorf("zero quaternion (read as identity): got empty")
	}
}

func BenchmarkSwept(b *testing.B) {
	for _, c := range []struct {
		name  string
		swept func(Extent, geom.Pose, geom.Pose, *SweptOptions) geom.AABB
	}{{"Screw", SweptScrew}, {"Linear", SweptLinear}} {
		b.Run(c.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			e := ExtentOf([]geom.Vec3{{X: 1}, {Y: 0.3}, {Z: -0.2}, {X: -1, Y: -0.3, Z: 0.2}})
			p0 := randPose(r, 5)
			p1 := nextPose(r, p0, 0)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.swept(e, p0, p1, nil)
			}
		})
	}
}
