package toc

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/exact"
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
	return oIn(func(t float64) geom.Pose { return oPose(b, t) }, func(t float64) geom.Pose { return oPose(s, t) }, u, t)
}

func arr(v geom.Vec3) [3]float64 { return [3]float64{v.X, v.Y, v.Z} }

// oSegTri reports whether segment p-q crosses triangle a, b, c (closed; a
// segment lying in the plane is not counted: trajectories in random cases
// are never exactly coplanar), by exact signs (package internal/exact).
func oSegTri(p, q, a, b, c geom.Vec3) bool {
	return exact.SegmentCrossesTriangle(arr(p), arr(q), arr(a), arr(b), arr(c))
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

// poseFn is a body's pose at time t in [0, 1] of the step.
type poseFn func(t float64) geom.Pose

// oIn returns the point u of body b at time t in the frame of body s.
func oIn(b, s poseFn, u geom.Vec3, t float64) geom.Vec3 {
	return s(t).Inverse().Apply(b(t).Apply(u))
}

// oRefine returns the first time in [t0, t1] at which the trajectory of u
// (body b in the frame of s) crosses a triangle, by bisection of the chord
// [t0, t1] (which hits): the earlier half first, depth levels deep. When
// neither half-chord hits, the chord's hit was an artefact of cutting
// across a triangle's edge that the curve passes outside, and the result
// is +Inf (no crossing in this interval).
func oRefine(b, s poseFn, u geom.Vec3, ts []oTri, t0, t1 float64, depth int) float64 {
	if depth == 0 {
		return t0
	}
	tm := (t0 + t1) / 2
	p0, pm, p1 := oIn(b, s, u, t0), oIn(b, s, u, tm), oIn(b, s, u, t1)
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
func oracle(ma *mesh.Mesh, pa poseFn, mb *mesh.Mesh, pb poseFn, n int) float64 {
	ta, tb := oTris(ma), oTris(mb)
	prevA := make([]geom.Vec3, len(ma.Verts))
	prevB := make([]geom.Vec3, len(mb.Verts))
	for i, u := range ma.Verts {
		prevA[i] = oIn(pa, pb, u, 0)
	}
	for i, u := range mb.Verts {
		prevB[i] = oIn(pb, pa, u, 0)
	}
	for k := 0; k < n; k++ {
		t0, t1 := float64(k)/float64(n), float64(k+1)/float64(n)
		best := math.Inf(1)
		for i, u := range ma.Verts {
			p1 := oIn(pa, pb, u, t1)
			if oHits(prevA[i], p1, tb) {
				best = math.Min(best, oRefine(pa, pb, u, tb, t0, t1, 45))
			}
			prevA[i] = p1
		}
		for i, u := range mb.Verts {
			p1 := oIn(pb, pa, u, t1)
			if oHits(prevB[i], p1, ta) {
				best = math.Min(best, oRefine(pb, pa, u, ta, t0, t1, 45))
			}
			prevB[i] = p1
		}
		if !math.IsInf(best, 1) {
			return best
		}
	}
	return math.Inf(1)
}

// oCross reports whether the surfaces cross at time t: an edge of one
// through a triangle of the other (exact tests).
func oCross(ma *mesh.Mesh, pa poseFn, mb *mesh.Mesh, pb poseFn, ta, tb []oTri, t float64) bool {
	for _, c := range []struct {
		m     *mesh.Mesh
		p, o  poseFn
		other []oTri
	}{{ma, pa, pb, tb}, {mb, pb, pa, ta}} {
		for _, e := range c.m.Edges {
			if oHits(oIn(c.p, c.o, c.m.Verts[e.V[0]], t), oIn(c.p, c.o, c.m.Verts[e.V[1]], t), c.other) {
				return true
			}
		}
	}
	return false
}

// oSurface returns the first time the surfaces cross, by n samples and
// bisection (an edge against an edge included), or +Inf.
func oSurface(ma *mesh.Mesh, pa poseFn, mb *mesh.Mesh, pb poseFn, n int) float64 {
	ta, tb := oTris(ma), oTris(mb)
	for k := 1; k <= n; k++ {
		t1 := float64(k) / float64(n)
		if !oCross(ma, pa, mb, pb, ta, tb, t1) {
			continue
		}
		t0 := float64(k-1) / float64(n)
		for j := 0; j < 45; j++ {
			tm := (t0 + t1) / 2
			if oCross(ma, pa, mb, pb, ta, tb, tm) {
				t1 = tm
			} else {
				t0 = tm
			}
		}
		return t1
	}
	return math.Inf(1)
}

// oSegSeg is the distance between the segments a0-a1 and b0-b1: the least
// of the four distances from an end to the other segment and, when the
// lines' closest points lie inside both, the lines' distance (toc's edge
// phase uses geom.ClosestSegmentPoints, which the oracle avoids).
func oSegSeg(a0, a1, b0, b1 geom.Vec3) float64 {
	pointSeg := func(p, s0, s1 geom.Vec3) float64 {
		d := s1.Sub(s0)
		t := 0.0
		if l := d.Dot(d); l > 0 {
			t = math.Max(0, math.Min(1, p.Sub(s0).Dot(d)/l))
		}
		return p.Dist(s0.Add(d.Scale(t)))
	}
	best := math.Min(math.Min(pointSeg(a0, b0, b1), pointSeg(a1, b0, b1)), math.Min(pointSeg(b0, a0, a1), pointSeg(b1, a0, a1)))
	u, v, w := a1.Sub(a0), b1.Sub(b0), a0.Sub(b0)
	n := u.Cross(v)
	if nn := n.Dot(n); nn > 1e-24*u.Dot(u)*v.Dot(v) {
		// a0 + s u - (b0 + t v) is along n: s = (v x w).n / nn, t = (u x w).n / nn.
		s, t := v.Cross(w).Dot(n)/nn, u.Cross(w).Dot(n)/nn
		if s >= 0 && s <= 1 && t >= 0 && t <= 1 {
			best = math.Min(best, a0.Add(u.Scale(s)).Dist(b0.Add(v.Scale(t))))
		}
	}
	return best
}

// oDist is the distance between the surfaces at time t: 0 when they cross,
// else the least vertex-triangle and edge-edge distance (brute force, in
// world coordinates).
func oDist(ma *mesh.Mesh, pa poseFn, mb *mesh.Mesh, pb poseFn, t float64) float64 {
	if oCross(ma, pa, mb, pb, oTris(ma), oTris(mb), t) {
		return 0
	}
	world := func(m *mesh.Mesh, p geom.Pose) []geom.Vec3 {
		vs := make([]geom.Vec3, len(m.Verts))
		for i, v := range m.Verts {
			vs[i] = p.Apply(v)
		}
		return vs
	}
	va, vb := world(ma, pa(t)), world(mb, pb(t))
	d := math.Inf(1)
	for _, c := range []struct {
		v  []geom.Vec3
		m  *mesh.Mesh
		tv []geom.Vec3
	}{{va, mb, vb}, {vb, ma, va}} {
		for _, tr := range c.m.Triangles(nil) {
			a, b, cc := c.tv[tr.V[0]], c.tv[tr.V[1]], c.tv[tr.V[2]]
			for _, p := range c.v {
				_, _, x := geom.ClosestTrianglePoint(p, a, b, cc) // toc does not use it
				d = math.Min(d, p.Dist(x))
			}
		}
	}
	for _, ea := range ma.Edges {
		for _, eb := range mb.Edges {
			d = math.Min(d, oSegSeg(va[ea.V[0]], va[ea.V[1]], vb[eb.V[0]], vb[eb.V[1]]))
		}
	}
	return d
}

// oCheck compares a reported first contact got (+Inf for none) with the
// oracles' first contact want: none missed, none later than want + 1e-9,
// and at every reported time, early or without an oracle contact, the
// surfaces within bound of each other (a contact within the tolerance, the
// meaning of the tolerance). It returns the distance at the reported time
// (0 when nothing is reported).
func oCheck(t *testing.T, name string, ma *mesh.Mesh, pa poseFn, mb *mesh.Mesh, pb poseFn, got, want, bound float64) float64 {
	t.Helper()
	const tau = 1e-9
	switch {
	case !math.IsInf(want, 1) && math.IsInf(got, 1):
		t.Errorf("%s: missed the contact at %v", name, want)
		return 0
	case math.IsInf(got, 1):
		return 0
	case got > want+tau:
		t.Errorf("%s: reported %v, later than the oracle's %v", name, got, want)
	}
	d := oDist(ma, pa, mb, pb, got)
	if d > bound {
		t.Errorf("%s: reported %v (oracle %v), but the surfaces are %g apart then, more than %g", name, got, want, d, bound)
	}
	return d
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
	aim := dir.Neg().Add(randUnit(r).Scale(1.3 * r.Float64()))
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

// TestOracle checks Algorithm 1 with Boxes (Algorithm 2) and the edge
// phase against the oracles on random convex and non-convex bodies and
// soups moving with constant velocities: no contact the oracles find
// (points by chords, surfaces by dense sampling) is missed or reported
// late, and every reported time, including those earlier than the
// oracles' and those the oracles do not confirm, has the surfaces within
// 3 tolerances of each other. Segments (Algorithm 3) is held to the same
// bound on what it reports; it may miss contacts, which are counted.
func TestOracle(t *testing.T) {
	n, chords := 600, 200
	if testing.Short() {
		n = 150
	}
	if *long {
		n, chords = 20000, 1000
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	kinds := []*mesh.Mesh{shapes.Cube(1), shapes.Torus(0.8, 0.3, 8, 6), shapes.Car(), shapes.Box(geom.V(0.9, 0.2, 0.4))}
	var q Scratch
	var hits, segMiss, early, unconfirmed int
	var maxD, maxSegD float64
	var dst []Contact
	for i := 0; i < n; i++ {
		c := randomCase(r, kinds)
		pa := func(t float64) geom.Pose { return oPose(c.sa, t*c.dt) }
		pb := func(t float64) geom.Pose { return oPose(c.sb, t*c.dt) }
		want := math.Min(oracle(c.ma, pa, c.mb, pb, chords), oSurface(c.ma, pa, c.mb, pb, chords))
		sha, err := ShapeOf(c.ma)
		if err != nil {
			t.Fatal(err)
		}
		shb, err := ShapeOf(c.mb)
		if err != nil {
			t.Fatal(err)
		}
		bound := 3 * DefaultRelTolerance * math.Min(sha.radius, shb.radius)
		for _, alg := range []Method{Boxes, Segments} {
			dst, err = q.Contacts(sha, c.sa, shb, c.sb, c.dt, &Options{Method: alg}, dst[:0])
			if err != nil {
				t.Fatal(err)
			}
			got := math.Inf(1)
			if len(dst) > 0 {
				got = dst[0].Time
				if err := dst[0].Record(); err.Validate() != nil {
					t.Errorf("case %d: %v", i, err.Validate())
				}
			}
			name := fmt.Sprintf("case %d %v (A=%v %v %v B=%v %v %v)", i, alg, c.sa.Pose, c.sa.V, c.sa.W, c.sb.Pose, c.sb.V, c.sb.W)
			if alg == Segments {
				if !math.IsInf(want, 1) && math.IsInf(got, 1) {
					segMiss++
					continue
				}
				if got > want+1e-9 {
					got = math.Inf(1) // Segments may report a later crossing; only what it reports is checked
				}
				maxSegD = math.Max(maxSegD, oCheck(t, name, c.ma, pa, c.mb, pb, got, math.Inf(1), bound))
				continue
			}
			if !math.IsInf(want, 1) {
				hits++
			}
			if got < want-1e-9 {
				early++
			}
			if !math.IsInf(got, 1) && math.IsInf(want, 1) {
				unconfirmed++
			}
			maxD = math.Max(maxD, oCheck(t, name, c.ma, pa, c.mb, pb, got, want, bound))
		}
	}
	rate := float64(hits) / float64(n)
	t.Logf("%d cases, %d with contact (%.0f%%); Boxes: %d earlier than the oracles, %d without an oracle contact, surfaces at most %.3g apart at a reported time (bound 3 tolerances); Segments: %d missed, at most %.3g apart",
		n, hits, 100*rate, early, unconfirmed, maxD, segMiss, maxSegD)
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("contact rate %.2f outside [0.3, 0.7]: the random cases do not test much", rate)
	}
}

// TestOracleMotionModels checks Between on both motion models against
// oracles that place the bodies with the model's own poses
// (geom.MotionModel.PoseAt) and share no code with toc's trajectories:
// every contact found, none late, every reported time a contact within 3
// tolerances.
func TestOracleMotionModels(t *testing.T) {
	n, chords := 300, 200
	if testing.Short() {
		n = 80
	}
	r := rand.New(rand.NewPCG(*seed, 43))
	kinds := []*mesh.Mesh{shapes.Cube(1), shapes.Torus(0.8, 0.3, 8, 6), shapes.Car()}
	shp := make([]*Shape, len(kinds))
	for i, m := range kinds {
		shp[i] = mustShape(t, m)
	}
	var q Scratch
	var dst []Contact
	for _, model := range []geom.MotionModel{geom.ScrewMotion, geom.LinearAngular} {
		hits := 0
		for i := 0; i < n; i++ {
			ka, kb := r.IntN(len(kinds)), r.IntN(len(kinds))
			dir := randUnit(r)
			dist := 1.6 + 2*r.Float64()
			a0 := geom.Pose{P: dir.Scale(dist), Q: randQuat(r)}
			aim := dir.Neg().Add(randUnit(r).Scale(1.7 * r.Float64()))
			a1 := geom.Pose{P: a0.P.Add(aim.Scale(dist * (0.6 + 1.2*r.Float64()))), Q: geom.QuatAxisAngle(randUnit(r), 2.5*r.Float64()).Mul(a0.Q)}
			b0 := geom.Pose{Q: randQuat(r)}
			b1 := geom.Pose{P: randUnit(r).Scale(0.5 * r.Float64()), Q: geom.QuatAxisAngle(randUnit(r), 1.5*r.Float64()).Mul(b0.Q)}
			pa := func(t float64) geom.Pose { return model.PoseAt(a0, a1, t) }
			pb := func(t float64) geom.Pose { return model.PoseAt(b0, b1, t) }
			ma, mb := kinds[ka], kinds[kb]
			want := math.Min(oracle(ma, pa, mb, pb, chords), oSurface(ma, pa, mb, pb, chords))
			var err error
			dst, err = q.Between(shp[ka], a0, a1, shp[kb], b0, b1, &Options{Motion: model}, dst[:0])
			if err != nil {
				t.Fatal(err)
			}
			got := math.Inf(1)
			if len(dst) > 0 {
				got = dst[0].Time
			}
			if !math.IsInf(want, 1) {
				hits++
			}
			bound := 3 * DefaultRelTolerance * math.Min(shp[ka].radius, shp[kb].radius)
			oCheck(t, fmt.Sprintf("%v case %d (A %v -> %v, B %v -> %v)", model, i, a0, a1, b0, b1), ma, pa, mb, pb, got, want, bound)
		}
		if rate := float64(hits) / float64(n); rate < 0.3 || rate > 0.7 {
			t.Errorf("%v: contact rate %.2f outside [0.3, 0.7]", model, rate)
		} else {
			t.Logf("%v: contact rate %.2f", model, rate)
		}
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

// TestSpeedBoundGlobalHolds checks SpeedBoundGlobal against the speed of
// the oracle's trajectory (central differences of oracle poses) at 100
// instants of random pieces of random motions: never above the bound, with
// screw motions (translation along the axis, the reference point on it)
// in a third of the cases, both bodies moving and rotating in another,
// and for a point of a screw motion against a static body, where the
// speed is constant, equal to the bound (the translational and rotational
// parts are perpendicular: sqrt(v^2 + (w d)^2), not v + w d).
func TestSpeedBoundGlobalHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 71))
	const n = 2000
	const dt = 1e-6
	for i := range n {
		b := State{Pose: geom.Pose{P: randUnit(r).Scale(3 * r.Float64()), Q: randQuat(r)}, W: randUnit(r).Scale(6 * r.Float64()), Ref: randUnit(r).Scale(2 * r.Float64())}
		s := State{Pose: geom.Pose{P: randUnit(r).Scale(r.Float64()), Q: randQuat(r)}}
		screw := i%3 == 0
		if screw {
			b.V = b.W.Scale(2 * (r.Float64() - 0.5))
		} else {
			b.V = randUnit(r).Scale(5 * r.Float64())
		}
		if i%3 == 1 {
			s.V, s.W, s.Ref = randUnit(r).Scale(3*r.Float64()), randUnit(r).Scale(4*r.Float64()), randUnit(r).Scale(r.Float64())
		}
		u := randUnit(r).Scale(2 * r.Float64())
		rel := NewRelative(b, s)
		ta := r.Float64()
		tb := ta + (1-ta)*r.Float64()
		L := rel.SpeedBoundGlobal(rel.RotationBound(u), ta, tb)
		for k := 0; k <= 100; k++ {
			tt := ta + (tb-ta)*float64(k)/100
			v := oLocal(b, s, u, tt+dt).Sub(oLocal(b, s, u, tt-dt)).Scale(1 / (2 * dt)).Norm()
			if v > L*(1+1e-6)+1e-6 {
				t.Fatalf("case %d: speed %v at t=%v above the bound %v (B=%+v S=%+v u=%v)", i, v, tt, L, b, s, u)
			}
			if screw && math.Abs(v-L) > 1e-6*(1+L) {
				t.Fatalf("screw case %d: speed %v at t=%v, bound %v: want them equal", i, v, tt, L)
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

// TestTighterHolds checks the placed node box of tighter (the node's
// local box placed at the middle of an interval, grown by the distance its
// points travel in half of it) against the oracle's trajectories: 2000
// random nodes (boxes of random points) over random pieces of random
// motions (screw motions, both bodies moving and rotating, reference
// points), every point at 100 instants inside whichever box tighter
// returns, and the placed box chosen in a share of the cases that is
// neither none nor all.
func TestTighterHolds(t *testing.T) {
	r := rand.New(rand.NewPCG(*seed, 83))
	soup, err := NewSoup([]geom.Vec3{{}, {X: 1}, {Y: 1}}, [][3]int32{{0, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	var q Scratch
	const n = 2000
	placed := 0
	for i := range n {
		b := State{Pose: geom.Pose{P: randUnit(r).Scale(3 * r.Float64()), Q: randQuat(r)}, W: randUnit(r).Scale(6 * r.Float64())}
		s := State{Pose: geom.Pose{P: randUnit(r).Scale(r.Float64()), Q: randQuat(r)}}
		switch i % 3 {
		case 0: // screw motion against a static body
			b.V = b.W.Scale(2 * (r.Float64() - 0.5))
		case 1:
			b.V = randUnit(r).Scale(5 * r.Float64())
			s.V, s.W = randUnit(r).Scale(3*r.Float64()), randUnit(r).Scale(5*r.Float64())
			b.Ref, s.Ref = randUnit(r).Scale(2*r.Float64()), randUnit(r).Scale(2*r.Float64())
		default:
			b.V = randUnit(r).Scale(5 * r.Float64())
		}
		// A node: a few points in a flat random box.
		centre := randUnit(r).Scale(2 * r.Float64())
		half := geom.V(r.Float64(), r.Float64(), 0.05*r.Float64()).Scale(0.3)
		pts := make([]geom.Vec3, 8)
		rad := 0.0
		for k := range pts {
			pts[k] = centre.Add(geom.V((2*r.Float64()-1)*half.X, (2*r.Float64()-1)*half.Y, (2*r.Float64()-1)*half.Z))
			rad = math.Max(rad, pts[k].Dist(centre))
		}
		rel := NewRelative(b, s)
		ta := r.Float64()
		tb := ta + math.Pow(r.Float64(), 3)
		fa, fb := rel.Frame(ta), rel.Frame(tb)
		ell := rel.SpeedBoundGlobal(rel.RotationBound(centre)+rel.dwn*rad, ta, tb) * (tb - ta)
		bx, _ := trajBox(fa.Pos(centre), fb.Pos(centre), ell, rad)
		before := bx
		q.fgen++
		q.tighter(&bx, &rel, soup, centre, half, rad, ta, tb)
		if bx != before {
			placed++
		}
		for k := 0; k <= 100; k++ {
			tt := ta + (tb-ta)*float64(k)/100
			for _, u := range pts {
				if p := oLocal(b, s, u, tt); !bx.contains(p) {
					t.Fatalf("case %d: point %v at t=%v (%v) outside the box %+v", i, u, tt, p, bx)
				}
			}
		}
	}
	if placed < n/10 || placed > n*9/10 {
		t.Fatalf("the placed box was chosen in %d of %d cases", placed, n)
	}
	t.Logf("placed box chosen in %d of %d cases", placed, n)
}
