package toc

import (
	"flag"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

var (
	long = flag.Bool("long", false, "run the exhaustive oracle tests")
	seed = flag.Uint64("seed", 1, "seed of the random oracle tests")
)

// The oracle shares no code with the package: poses by quaternion
// exponential (not the package's Rodrigues frames), exact rational
// segment-triangle tests (filtered), dense sampling of the trajectories in
// time and bisection of the first chord that hits.

// oPose is the pose of a body at time t: quaternion exp(W t / 2) Q0, the
// reference point moved by V t and the origin placed from it.
func oPose(s State, t float64) geom.Pose {
	q := geom.QuatRotationVector(s.W.Scale(t)).Mul(s.Pose.Q)
	c := s.Pose.P.Add(s.Pose.Q.Rotate(s.Ref)).AddScaled(t, s.V)
	return geom.Pose{P: c.Sub(q.Rotate(s.Ref)), Q: q}
}

// oLocal returns the point u of body b at time t in the frame of body s.
func oLocal(b, s State, u geom.Vec3, t float64) geom.Vec3 {
	return oPose(s, t).Inverse().Apply(oPose(b, t).Apply(u))
}

// oSign is the exact sign of det[b-a, c-a, d-a] (float filter, then
// rationals).
func oSign(a, b, c, d geom.Vec3) int {
	u, v, w := b.Sub(a), c.Sub(a), d.Sub(a)
	det := u.X*(v.Y*w.Z-v.Z*w.Y) - u.Y*(v.X*w.Z-v.Z*w.X) + u.Z*(v.X*w.Y-v.Y*w.X)
	mag := u.Norm() * v.Norm() * w.Norm()
	if math.Abs(det) > 1e-12*mag {
		if det > 0 {
			return 1
		}
		return -1
	}
	r := func(x float64) *big.Rat { return new(big.Rat).SetFloat64(x) }
	var m [3][3]*big.Rat
	for i, p := range []geom.Vec3{b, c, d} {
		m[i] = [3]*big.Rat{new(big.Rat).Sub(r(p.X), r(a.X)), new(big.Rat).Sub(r(p.Y), r(a.Y)), new(big.Rat).Sub(r(p.Z), r(a.Z))}
	}
	minor := func(i, j, k, l int) *big.Rat {
		x := new(big.Rat).Mul(m[1][i], m[2][j])
		return x.Sub(x, new(big.Rat).Mul(m[1][k], m[2][l]))
	}
	s := new(big.Rat).Mul(m[0][0], minor(1, 2, 2, 1))
	s.Sub(s, new(big.Rat).Mul(m[0][1], minor(0, 2, 2, 0)))
	s.Add(s, new(big.Rat).Mul(m[0][2], minor(0, 1, 1, 0)))
	return s.Sign()
}

// oSegTri reports whether segment p-q crosses triangle a, b, c (closed; a
// segment lying in the plane is not counted: trajectories in random cases
// are never exactly coplanar).
func oSegTri(p, q, a, b, c geom.Vec3) bool {
	sp, sq := oSign(a, b, c, p), oSign(a, b, c, q)
	if sp == sq {
		return false
	}
	s0, s1, s2 := oSign(p, q, a, b), oSign(p, q, b, c), oSign(p, q, c, a)
	return !((s0 < 0 || s1 < 0 || s2 < 0) && (s0 > 0 || s1 > 0 || s2 > 0))
}

type oTri struct{ a, b, c, lo, hi geom.Vec3 }

func oTris(m *mesh.Mesh) []oTri {
	var ts []oTri
	for _, t := range m.Triangles(nil) {
		a, b, c := m.TriangleVerts(t)
		ts = append(ts, oTri{a, b, c, a.Min(b).Min(c), a.Max(b).Max(c)})
	}
	return ts
}

func oHits(p, q geom.Vec3, ts []oTri) bool {
	lo, hi := p.Min(q), p.Max(q)
	for i := range ts {
		t := &ts[i]
		if lo.X > t.hi.X || hi.X < t.lo.X || lo.Y > t.hi.Y || hi.Y < t.lo.Y || lo.Z > t.hi.Z || hi.Z < t.lo.Z {
			continue
		}
		if oSegTri(p, q, t.a, t.b, t.c) {
			return true
		}
	}
	return false
}

// oRefine returns the first time in [t0, t1] at which the trajectory of u
// (body b in the frame of s) crosses a triangle, by bisection of the chord
// [t0, t1] (which hits): the earlier half first, depth levels deep. When
// neither half-chord hits, the chord's hit was an artefact of cutting
// across a triangle's edge that the curve passes outside, and the result
// is +Inf (no crossing in this interval).
func oRefine(b, s State, u geom.Vec3, ts []oTri, t0, t1 float64, depth int) float64 {
	if depth == 0 {
		return t0
	}
	tm := (t0 + t1) / 2
	p0, pm, p1 := oLocal(b, s, u, t0), oLocal(b, s, u, tm), oLocal(b, s, u, t1)
	if oHits(p0, pm, ts) {
		if t := oRefine(b, s, u, ts, t0, tm, depth-1); !math.IsInf(t, 1) {
			return t
		}
	}
	if oHits(pm, p1, ts) {
		return oRefine(b, s, u, ts, tm, t1, depth-1)
	}
	return math.Inf(1)
}

// oracle returns the first time of contact of the vertices of A against
// B's triangles and the vertices of B against A's triangles, by n chords
// per step and bisection, or +Inf.
func oracle(ma *mesh.Mesh, sa State, mb *mesh.Mesh, sb State, dt float64, n int) float64 {
	ta, tb := oTris(ma), oTris(mb)
	prevA := make([]geom.Vec3, len(ma.Verts))
	prevB := make([]geom.Vec3, len(mb.Verts))
	for i, u := range ma.Verts {
		prevA[i] = oLocal(sa, sb, u, 0)
	}
	for i, u := range mb.Verts {
		prevB[i] = oLocal(sb, sa, u, 0)
	}
	for k := 0; k < n; k++ {
		t0, t1 := dt*float64(k)/float64(n), dt*float64(k+1)/float64(n)
		best := math.Inf(1)
		for i, u := range ma.Verts {
			p1 := oLocal(sa, sb, u, t1)
			if oHits(prevA[i], p1, tb) {
				best = math.Min(best, oRefine(sa, sb, u, tb, t0, t1, 45))
			}
			prevA[i] = p1
		}
		for i, u := range mb.Verts {
			p1 := oLocal(sb, sa, u, t1)
			if oHits(prevB[i], p1, ta) {
				best = math.Min(best, oRefine(sb, sa, u, ta, t0, t1, 45))
			}
			prevB[i] = p1
		}
		if !math.IsInf(best, 1) {
			return best
		}
	}
	return math.Inf(1)
}

// randomSoup returns a closed-free soup of n random triangles in a cube of
// side size.
func randomSoup(r *rand.Rand, n int, size float64) *mesh.Mesh {
	var vs []geom.Vec3
	var fs [][]int
	for len(fs) < n {
		c := geom.V(r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5).Scale(size)
		var p [3]geom.Vec3
		for k := range p {
			p[k] = c.Add(geom.V(r.Float64()-0.5, r.Float64()-0.5, r.Float64()-0.5).Scale(size / 2))
		}
		if p[1].Sub(p[0]).Cross(p[2].Sub(p[0])).Norm() < 1e-3*size*size {
			continue
		}
		k := len(vs)
		vs = append(vs, p[0], p[1], p[2])
		fs = append(fs, []int{k, k + 1, k + 2})
	}
	m, err := mesh.New(vs, fs, nil)
	if err != nil {
		panic(err)
	}
	return m
}

func randUnit(r *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(2*r.Float64()-1, 2*r.Float64()-1, 2*r.Float64()-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

func randQuat(r *rand.Rand) geom.Quat {
	q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	return q
}

// oracleCase is a random pair of bodies moving towards each other.
type oracleCase struct {
	ma, mb *mesh.Mesh
	sa, sb State
	dt     float64
}

func randomCase(r *rand.Rand, kinds []*mesh.Mesh) oracleCase {
	c := oracleCase{dt: 1}
	pick := func() *mesh.Mesh {
		if r.IntN(3) == 0 {
			return randomSoup(r, 3+r.IntN(10), 1.2)
		}
		return kinds[r.IntN(len(kinds))]
	}
	c.ma, c.mb = pick(), pick()
	dir := randUnit(r)
	dist := 1.5 + 2*r.Float64()
	c.sa = State{Pose: geom.Pose{P: dir.Scale(dist), Q: randQuat(r)}}
	c.sb = State{Pose: geom.Pose{Q: randQuat(r)}}
	// A heads roughly towards B, fast enough to arrive within the step.
	aim := dir.Neg().Add(randUnit(r).Scale(0.9 * r.Float64()))
	c.sa.V = aim.Scale(dist * (0.6 + 1.2*r.Float64()))
	c.sa.W = randUnit(r).Scale(4 * r.Float64() * r.Float64())
	switch r.IntN(3) {
	case 0: // B static
	case 1: // B rotating in place
		c.sb.W = randUnit(r).Scale(3 * r.Float64())
	default: // B moving and rotating
		c.sb.V = randUnit(r).Scale(r.Float64())
		c.sb.W = randUnit(r).Scale(3 * r.Float64())
		c.sa.V = c.sa.V.Add(c.sb.V)
	}
	return c
}

// TestOracle checks Algorithm 1 with Boxes (Algorithm 2) against the
// oracle on random convex and non-convex bodies and soups: the reported
// first contact is never later than the oracle's by more than the time
// tolerance, and no contact the oracle finds is missed. Segments
// (Algorithm 3) is compared as well and its misses are counted.
func TestOracle(t *testing.T) {
	n, chords := 2000, 200
	if testing.Short() {
		n = 300
	}
	if *long {
		n, chords = 20000, 1000
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	kinds := []*mesh.Mesh{shapes.Cube(1), shapes.Torus(0.8, 0.3, 8, 6), shapes.Car(), shapes.Box(geom.V(0.9, 0.2, 0.4))}
	const tau = 1e-9
	var q Query
	var hits, boxMiss, boxLate, segMiss, fpBox int
	var maxEarly, sumEarly, maxSegErr float64
	var dst []Contact
	for i := 0; i < n; i++ {
		c := randomCase(r, kinds)
		want := oracle(c.ma, c.sa, c.mb, c.sb, c.dt, chords)
		sha, err := ShapeOf(c.ma)
		if err != nil {
			t.Fatal(err)
		}
		shb, err := ShapeOf(c.mb)
		if err != nil {
			t.Fatal(err)
		}
		dst, err = q.Contacts(sha, c.sa, shb, c.sb, c.dt, nil, dst[:0])
		if err != nil {
			t.Fatal(err)
		}
		got := math.Inf(1)
		if len(dst) > 0 {
			got = dst[0].Time * c.dt
		}
		if !math.IsInf(want, 1) {
			hits++
			if math.IsInf(got, 1) {
				boxMiss++
				t.Errorf("case %d: Boxes missed the contact at %v\nA=%v %v %v\nB=%v %v %v", i, want, c.sa.Pose, c.sa.V, c.sa.W, c.sb.Pose, c.sb.V, c.sb.W)
			} else if got > want+tau {
				boxLate++
				t.Errorf("case %d: Boxes reported %v, later than the oracle's %v\nA=%v %v %v\nB=%v %v %v", i, got, want, c.sa.Pose, c.sa.V, c.sa.W, c.sb.Pose, c.sb.V, c.sb.W)
			} else {
				maxEarly = math.Max(maxEarly, want-got)
				sumEarly += want - got
			}
		} else if !math.IsInf(got, 1) {
			fpBox++
		}
		dst, err = q.Contacts(sha, c.sa, shb, c.sb, c.dt, &Options{Algorithm: Segments}, dst[:0])
		if err != nil {
			t.Fatal(err)
		}
		if !math.IsInf(want, 1) {
			if len(dst) == 0 {
				segMiss++
			} else {
				maxSegErr = math.Max(maxSegErr, math.Abs(dst[0].Time*c.dt-want))
			}
		}
	}
	rate := float64(hits) / float64(n)
	t.Logf("%d cases, %d with contact (%.0f%%); Boxes: %d missed, %d late, earliness mean %.3g max %.3g, %d near-miss contacts; Segments: %d missed, max |dt| %.3g",
		n, hits, 100*rate, boxMiss, boxLate, sumEarly/math.Max(1, float64(hits)), maxEarly, fpBox, segMiss, maxSegErr)
	if rate < 0.3 || rate > 0.8 {
		t.Errorf("contact rate %.2f outside [0.3, 0.8]: the random cases do not test much", rate)
	}
}

// TestTrajectoryBoxContains checks the trajectory bound itself: for random
// relative motions (both bodies moving and rotating fast) and random
// pieces of the step, the box of TrajectoryOBB built from the speeds at
// the ends and the Lipschitz constant contains the densely sampled true
// trajectory (oracle poses).
func TestTrajectoryBoxContains(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 11))
	for i := 0; i < 3000; i++ {
		b := State{Pose: geom.Pose{P: randUnit(r).Scale(3 * r.Float64()), Q: randQuat(r)}, V: randUnit(r).Scale(5 * r.Float64()), W: randUnit(r).Scale(10 * r.Float64())}
		s := State{Pose: geom.Pose{P: randUnit(r).Scale(r.Float64()), Q: randQuat(r)}}
		if i%2 == 1 {
			s.V, s.W = randUnit(r).Scale(3*r.Float64()), randUnit(r).Scale(5*r.Float64())
		}
		if i%3 == 1 { // reference points away from the origins
			b.Ref, s.Ref = randUnit(r).Scale(4*r.Float64()), randUnit(r).Scale(4*r.Float64())
		}
		u := randUnit(r).Scale(2 * r.Float64())
		rel := NewRelative(b, s)
		ta := r.Float64()
		tb := ta + r.Float64()*r.Float64()
		fa, fb := rel.Frame(ta), rel.Frame(tb)
		qa, qb := fa.Pos(u), fb.Pos(u)
		if d := qa.Sub(oLocal(b, s, u, ta)).Norm(); d > 1e-9 {
			t.Fatalf("case %d: frame position differs from the oracle by %g", i, d)
		}
		// Both speed bounds must hold on their own.
		Ls := []float64{
			SpeedBound(fa.Vel(u).Norm(), fb.Vel(u).Norm(), rel.Lipschitz(u), tb-ta),
			rel.SpeedBoundGlobal(rel.RotationBound(u), ta, tb),
		}
		for _, L := range Ls {
			o := TrajectoryOBB(qa, qb, L*(tb-ta), 1e-9)
			for k := 0; k <= 200; k++ {
				tt := ta + (tb-ta)*float64(k)/200
				p := oLocal(b, s, u, tt)
				if !o.Contains(p, 0) {
					t.Fatalf("case %d: trajectory point at t=%v (%v) outside the box %+v (speed bound %v)\nB=%v %v %v S=%v %v %v u=%v ta=%v tb=%v",
						i, tt, p, o, L, b.Pose, b.V, b.W, s.Pose, s.V, s.W, u, ta, tb)
				}
			}
		}
	}
}

// TestPaperBoxTooSmall shows the correction to Algorithm 2's box: for a
// point on a quarter circle the paper's half width nu/2 leaves the
// trajectory's middle outside, the ellipsoid bound keeps it inside.
func TestPaperBoxTooSmall(t *testing.T) {
	b := State{Pose: geom.PoseIdentity(), W: geom.V(0, 0, math.Pi/2)}
	s := State{Pose: geom.PoseIdentity()}
	rel := NewRelative(b, s)
	u := geom.V(1, 0, 0)
	f0, f1 := rel.Frame(0), rel.Frame(1)
	qa, qb := f0.Pos(u), f1.Pos(u)
	L := f0.Vel(u).Norm()
	nu := L - qb.Sub(qa).Norm() // the paper's deviation over [0, 1]
	mid := oLocal(b, s, u, 0.5)
	o := TrajectoryOBB(qa, qb, L, 0)
	paper := o
	paper.Half = geom.Vec3{X: (qb.Sub(qa).Norm() + nu) / 2, Y: nu / 2, Z: nu / 2}
	if paper.Contains(mid, 1e-12) {
		t.Errorf("the paper's box (nu=%v) contains the arc's midpoint %v; expected it not to", nu, mid)
	}
	if !o.Contains(mid, 1e-12) {
		t.Errorf("TrajectoryOBB %+v does not contain the arc's midpoint %v", o, mid)
	}
}
