package screw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// exactShapes are the meshes of the differential tests.
func exactShapes() []struct {
	name string
	m    *mesh.Mesh
	n    int
} {
	return []struct {
		name string
		m    *mesh.Mesh
		n    int
	}{
		{"cube", shapes.Cube(1), 150},
		{"box", shapes.Box(geom.Vec3{X: 0.7, Y: 0.2, Z: 0.4}), 150},
		{"polytope", shapes.RandomPolytope(shapes.Ellipsoid, 12, 0.8, 3), 60},
		{"car", shapes.Car(), 40},
		{"torus12x8", shapes.Torus(1, 0.35, 12, 8), 25},
	}
}

// TestExactDifferential compares the Taylor-model solvers with the
// reference solvers of exact_ref_test.go (Hermite exclusion, closed-form
// critical points) on every candidate of seeded random screw motions: the
// same contacts at the same times, for the whole window and for a clipped
// one, and the same collision records.
func TestExactDifferential(t *testing.T) {
	d := NewDetector()
	var cands, hits, diffs int
	for si, s := range exactShapes() {
		r := rand.New(rand.NewPCG(uint64(si)+40, 3))
		for k := 0; k < s.n; k++ {
			pa, b0, b1 := randomCase(r, s.m.Radius(), s.m.Radius())
			ppe := []float64{6, 12, 24}[k%3]
			opt := &Options{PixelsPerEdge: ppe, Properness: AllProperness, Conservative: k%5 == 4}
			if _, err := d.Detect(s.m, s.m, pa, pa, b0, b1, opt, nil); err != nil {
				t.Fatal(err)
			}
			where := fmt.Sprintf("%s case %d (px %v cons %v): pa=%v b0=%v b1=%v", s.name, k, ppe, opt.Conservative, pa, b0, b1)
			for i := range d.cands.list {
				c := d.cands.list[i]
				cands++
				for _, tmax := range []float64{1, r.Float64()} {
					var t1, t2 float64
					var ok1, ok2 bool
					if c.kind == contact.EdgeEdge {
						t1, ok1 = d.solveEE(&c, tmax, true)
						t2, ok2 = d.refSolveEE(&c, tmax, true)
					} else {
						t1, ok1 = d.solveVertex(&c, tmax, true)
						t2, ok2 = d.refSolveVertex(&c, tmax, true)
						if ok2 && t2 < c.tlo-1e-9 {
							// The reference ignores the window's start.
							ok2 = false
						}
					}
					if ok1 {
						hits++
					}
					if ok1 != ok2 || ok1 && math.Abs(t1-t2) > 1e-11 {
						diffs++
						t.Errorf("%s: %v A%d B%d window [%v, %v] tmax %v: got %v %v, reference %v %v", where, c.kind, c.a, c.b, c.tlo, c.thi, tmax, ok1, t1, ok2, t2)
					}
				}
			}
			// Collision records of each candidate.
			for i := range d.cands.list {
				c := d.cands.list[i]
				d.hits = d.hits[:0]
				var ok1, ok2 bool
				if c.kind == contact.EdgeEdge {
					_, ok1 = d.solveEE(&c, 1, false)
				} else {
					_, ok1 = d.solveVertex(&c, 1, false)
				}
				got := slices.Clone(d.hits)
				d.hits = d.hits[:0]
				if c.kind == contact.EdgeEdge {
					_, ok2 = d.refSolveEE(&c, 1, false)
				} else {
					_, ok2 = d.refSolveVertex(&c, 1, false)
				}
				want := d.hits
				if ok2 && c.kind != contact.EdgeEdge && want[0].Time < c.tlo-1e-9 {
					continue // the reference ignores the window's start
				}
				if ok1 != ok2 || len(got) != len(want) {
					t.Errorf("%s: %v A%d B%d window [%v, %v]: got %v %v, reference %v %v", where, c.kind, c.a, c.b, c.tlo, c.thi, ok1, got, ok2, want)
					continue
				}
				for i := range got {
					g, w := got[i], want[i]
					if g.Near == w.Near && math.Abs(g.Time-w.Time) <= 1e-11 && math.Abs(g.Properness-w.Properness) <= 1e-9 &&
						(g.Kind != w.Kind || g.FeatureA != w.FeatureA || g.FeatureB != w.FeatureB) {
						// A contact at edge ends resolved into one of
						// several vertex-face pairs of equal properness:
						// the tie goes either way with rounding.
						continue
					}
					if g.Kind != w.Kind || g.FeatureA != w.FeatureA || g.FeatureB != w.FeatureB || g.Near != w.Near ||
						math.Abs(g.Time-w.Time) > 1e-11 || math.Abs(g.Properness-w.Properness) > 1e-9 ||
						g.Point.Dist(w.Point) > 1e-9 || g.Normal.Dist(w.Normal) > 1e-9 {
						t.Errorf("%s: collision\n%v\nreference\n%v", where, g, w)
					}
				}
			}
		}
	}
	t.Logf("%d candidates, %d contacts, %d differences", cands, hits, diffs)
}

// benchSolve times the exact solvers alone (solveAll in Detect mode) on the
// candidates of a typical query.
func benchSolve(b *testing.B, shape string, ref bool) {
	ma, mb, p := typical(shape)
	d := NewDetector()
	opt := &Options{PixelsPerEdge: 12}
	if _, err := d.Detect(ma, mb, p[0], p[1], p[2], p[3], opt, nil); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(len(d.cands.list)), "candidates")
	b.ResetTimer()
	c0 := cpuTime()
	for i := 0; i < b.N; i++ {
		d.hits = d.hits[:0]
		if ref {
			d.refSolveAll(math.Inf(1), false)
		} else {
			d.solveAll(math.Inf(1), false)
		}
	}
	b.ReportMetric(float64((cpuTime()-c0).Nanoseconds())/float64(b.N), "cpu-ns/op")
}

func BenchmarkSolveCube(b *testing.B)     { benchSolve(b, "cube", false) }
func BenchmarkSolveCar(b *testing.B)      { benchSolve(b, "car", false) }
func BenchmarkSolveTorus(b *testing.B)    { benchSolve(b, "torus", false) }
func BenchmarkSolveCubeRef(b *testing.B)  { benchSolve(b, "cube", true) }
func BenchmarkSolveCarRef(b *testing.B)   { benchSolve(b, "car", true) }
func BenchmarkSolveTorusRef(b *testing.B) { benchSolve(b, "torus", true) }

// directVertex is the vertex-plane distance written directly.
func directVertex(f0, k1, k2, k3, theta, t float64) float64 {
	return f0 + k1*t + k2*(math.Cos(t*theta)-1) + k3*math.Sin(t*theta)
}

// sampledRoots finds the sign changes of f on [lo, hi] by n samples and
// bisection (down: only downward crossings).
func sampledRoots(f func(float64) float64, lo, hi float64, n int, down bool) []float64 {
	var out []float64
	ta, fa := lo, f(lo)
	for i := 1; i <= n; i++ {
		tb := lo + (hi-lo)*float64(i)/float64(n)
		fb := f(tb)
		cross := fa > 0 && fb <= 0 || !down && fa <= 0 && fb > 0
		if cross {
			a, b := ta, tb
			for k := 0; k < 80; k++ {
				m := (a + b) / 2
				if (f(m) > 0) == (fa > 0) {
					a = m
				} else {
					b = m
				}
			}
			out = append(out, (a+b)/2)
		}
		ta, fa = tb, fb
	}
	return out
}

// checkRoots compares roots found by helixFn.roots with the sampled ones:
// every sampled root is found, and every root found is a sign change of
// the direct function.
func checkRoots(t *testing.T, what string, f func(float64) float64, got []hroot, want []float64, lo, hi, theta, scale float64, down bool) {
	t.Helper()
	for i, r := range got {
		if r.t < lo-1e-15 || r.t > hi+1e-15 || i > 0 && r.t < got[i-1].t {
			t.Errorf("%s: root %v outside [%v, %v] or out of order", what, r.t, lo, hi)
		}
		if sn, cs := math.Sincos(r.t * theta); math.Abs(sn-r.sn) > 1e-14 || math.Abs(cs-r.cs) > 1e-14 {
			t.Errorf("%s: root %v: sine and cosine %v %v, want %v %v", what, r.t, r.sn, r.cs, sn, cs)
		}
		e := 1e-12
		a, b := max(lo, r.t-e), min(hi, r.t+e)
		fa, fb := f(a), f(b)
		real := math.Abs(f(r.t)) <= 1e-12*scale || (fa > 0) != (fb > 0)
		if down {
			real = real && !(fa < -1e-12*scale)
		}
		if !real {
			t.Errorf("%s: root %v is not a crossing: f = %v, %v, %v", what, r.t, fa, f(r.t), fb)
		}
	}
	for _, w := range want {
		ok := false
		for _, r := range got {
			if math.Abs(r.t-w) <= 1e-9 {
				ok = true
			}
		}
		if !ok {
			t.Errorf("%s: missed root %v (found %v)", what, w, got)
		}
	}
}

// TestHelixRootsVertex checks the downward crossings of random
// vertex-plane distances (including linear ones, tangent ones and windows
// of every size) against dense sampling of the function written directly.
func TestHelixRootsVertex(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	var fn helixFn
	var out [maxRoots]hroot
	found, gaveUp := 0, 0
	d := NewDetector()
	for k := 0; k < 4000; k++ {
		theta := r.Float64() * math.Pi
		switch k % 10 {
		case 0:
			theta = 0
		case 1:
			theta = 1e-9
		}
		f0, k1, k2, k3 := r.NormFloat64(), r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		if k%7 == 3 {
			// Tangent to zero at a random time.
			tc := r.Float64()
			f0 -= directVertex(f0, k1, k2, k3, theta, tc)
			a := tc * theta
			d := k1 + theta*(-k2*math.Sin(a)+k3*math.Cos(a))
			k1 -= d
			f0 -= directVertex(f0, k1, k2, k3, theta, tc)
		}
		lo, hi := 0.0, 1.0
		if k%3 == 1 {
			lo = r.Float64()
			hi = lo + (1-lo)*math.Pow(r.Float64(), 3)
		}
		fn.setVertex(f0, k1, k2, k3, theta)
		fn.scOK = false
		var prs [maxRoots]proot
		if _, ok := fn.roots(lo, hi, true, &prs); !ok {
			gaveUp++ // vertexRoots falls back to planeRoots
		}
		d.theta = theta
		sn, cs := math.Sincos((lo + (hi-lo)/2) * theta)
		var vf helixFn
		n := d.vertexRoots(&vf, f0, k1, k2, k3, lo, hi, sn, cs, &prs)
		for i := range prs[:n] {
			if prs[i].e < 0 || math.Abs(prs[i].t-vf.polish(&prs[i]).t) > prs[i].e {
				t.Errorf("case %d: approximate root %v error %v, polished %v", k, prs[i].t, prs[i].e, vf.polish(&prs[i]).t)
			}
			out[i] = vf.polish(&prs[i])
		}
		found += n
		f := func(x float64) float64 { return directVertex(f0, k1, k2, k3, theta, x) }
		want := sampledRoots(f, lo, hi, 4000, true)
		what := fmt.Sprintf("case %d: f0=%v k1=%v k2=%v k3=%v theta=%v window [%v, %v]", k, f0, k1, k2, k3, theta, lo, hi)
		checkRoots(t, what, f, out[:n], want, lo, hi, theta, 1+math.Abs(f0)+math.Abs(k1)+math.Abs(k2)+math.Abs(k3), true)
	}
	t.Logf("%d roots, %d functions left to the closed form", found, gaveUp)
	if gaveUp > 400 {
		t.Errorf("gave up on %d functions", gaveUp)
	}
}

// TestHelixRootsEE checks the roots of the coplanarity function of random
// edge pairs (eeSetup, then the Taylor models) against dense sampling of
// (eA x R(t) eB) . (R(t) q + t g y - p) computed with vectors.
func TestHelixRootsEE(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	v := func() geom.Vec3 { return geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()} }
	var fn eeFunc
	var hf helixFn
	var out [maxRoots]hroot
	found, gaveUp := 0, 0
	d := NewDetector()
	for k := 0; k < 3000; k++ {
		d.theta = r.Float64() * math.Pi
		if k%10 == 0 {
			d.theta = 0
		}
		d.g = r.NormFloat64()
		p, ea, q, eb := v(), v(), v(), v()
		if k%9 == 4 {
			eb = geom.Vec3{Y: r.NormFloat64()} // parallel to the axis
		}
		d.eeSetup(&fn, p, ea, q, eb)
		lo, hi := 0.0, 1.0
		if k%3 == 1 {
			lo = r.Float64()
			hi = lo + (1-lo)*math.Pow(r.Float64(), 3)
		}
		hf.setEE(&fn, hi)
		var prs [maxRoots]proot
		n, ok := hf.roots(lo, hi, false, &prs)
		if !ok {
			gaveUp++
			continue // the caller falls back to sampling
		}
		for i := range prs[:n] {
			if prs[i].e < 0 || math.Abs(prs[i].t-hf.polish(&prs[i]).t) > prs[i].e {
				t.Errorf("case %d: approximate root %v error %v, polished %v", k, prs[i].t, prs[i].e, hf.polish(&prs[i]).t)
			}
			out[i] = hf.polish(&prs[i])
		}
		found += n
		th, g := d.theta, d.g
		f := func(x float64) float64 {
			s, c := math.Sincos(x * th)
			rot := func(w geom.Vec3) geom.Vec3 { return geom.Vec3{X: w.X*c + w.Z*s, Y: w.Y, Z: -w.X*s + w.Z*c} }
			qt := rot(q).Add(geom.Vec3{Y: x * g})
			return ea.Cross(rot(eb)).Dot(qt.Sub(p))
		}
		want := sampledRoots(f, lo, hi, 4000, false)
		what := fmt.Sprintf("case %d: p=%v ea=%v q=%v eb=%v theta=%v g=%v window [%v, %v]", k, p, ea, q, eb, d.theta, d.g, lo, hi)
		scale := 0.0
		for _, c := range fn.c {
			scale += math.Abs(c)
		}
		checkRoots(t, what, f, out[:n], want, lo, hi, d.theta, scale, false)
	}
	t.Logf("%d roots, %d functions given up", found, gaveUp)
	if gaveUp > 50 {
		t.Errorf("gave up on %d functions", gaveUp)
	}
}

// TestPropernessPruning checks that skipping candidates whose properness
// cannot reach the threshold (propUpper, eePropUpper with eeEndsAway)
// changes nothing: Detect with a threshold reports exactly the collisions
// of Detect with every collision kept that reach the threshold.
func TestPropernessPruning(t *testing.T) {
	d := NewDetector()
	shapesList := exactShapes()
	shapesList = append(shapesList, struct {
		name string
		m    *mesh.Mesh
		n    int
	}{"torus20x15", shapes.Torus(1, 0.35, 20, 15), 10})
	var total, kept int
	for si, s := range shapesList {
		r := rand.New(rand.NewPCG(uint64(si)+70, 5))
		n := s.n
		if s.name == "cube" || s.name == "box" {
			n *= 6 // cheap, and rich in exact contacts at edge ends
		}
		for k := 0; k < n; k++ {
			pa, b0, b1 := randomCase(r, s.m.Radius(), s.m.Radius())
			switch k % 6 {
			case 3:
				// Fast screws through each other, like the torus demo.
				_, _, p := torusQuery(20, 15)
				pa, b0, b1 = p[2], p[0], p[1]
			case 5:
				// A vertex of B screwing exactly onto a vertex or an
				// edge of A (contacts resolved at edge ends).
				pa, b0, b1 = endContact(r, s.m)
			}
			// A static and B moving, or (every other round of six
			// cases) the other way round, so that vertices of either
			// body run into the other.
			a0, a1, p0, p1 := pa, pa, b0, b1
			if k/6%2 == 1 {
				a0, a1, p0, p1 = b0, b1, pa, pa
			}
			for _, th := range []float64{DefaultProperness, ProperOnly, -0.5, 0.3} {
				opt := &Options{PixelsPerEdge: []float64{6, 12, 24}[k%3], Properness: th, Conservative: k%7 == 2}
				got, err := d.Detect(s.m, s.m, a0, a1, p0, p1, opt, nil)
				if err != nil {
					t.Errorf("%s case %d: a0=%v a1=%v b0=%v b1=%v: %v", s.name, k, a0, a1, p0, p1, err)
					continue
				}
				all := *opt
				all.Properness = AllProperness
				every, _ := d.Detect(s.m, s.m, a0, a1, p0, p1, &all, nil)
				var want []Collision
				for _, c := range every {
					if c.Properness >= th {
						want = append(want, c)
					}
				}
				total += len(every)
				kept += len(want)
				if len(got) != len(want) {
					t.Errorf("%s case %d threshold %v: %d collisions, %d of %d without the threshold reach it: a0=%v a1=%v b0=%v b1=%v\ngot  %v\nwant %v", s.name, k, th, len(got), len(want), len(every), a0, a1, p0, p1, got, want)
					continue
				}
				for i := range got {
					// The same contact may come from a vertex-face pair
					// or an edge pair resolved at an edge's end: equal
					// up to rounding.
					g, w := got[i], want[i]
					if opt.Conservative && g.Near != w.Near {
						// An exact contact at an edge's end found both
						// exactly (vertex-face pair) and as a near one
						// (edge pair at its tolerance): Detect keeps
						// either.
						g.Near, g.Point = w.Near, w.Point
					}
					if g.Kind != w.Kind || g.FeatureA != w.FeatureA || g.FeatureB != w.FeatureB || g.Near != w.Near ||
						math.Abs(g.Time-w.Time) > 1e-12 || math.Abs(g.Properness-w.Properness) > 1e-12 ||
						g.Point.Dist(w.Point) > 1e-9 || g.Normal.Dist(w.Normal) > 1e-9 {
						t.Errorf("%s case %d threshold %v: collision %d\n%v\nwant\n%v", s.name, k, th, i, got[i], want[i])
					}
				}
			}
		}
	}
	t.Logf("%d collisions without threshold, %d above", total, kept)
}

// endContact returns a static pose of A and a screw motion of B whose axis
// passes through a vertex v of B and a point X of A that is a vertex or an
// edge midpoint, so that v runs exactly into X at t = 1/2.
func endContact(r *rand.Rand, m *mesh.Mesh) (pa, b0, b1 geom.Pose) {
	pa = geom.PoseIdentity()
	e := m.Edges[r.IntN(len(m.Edges))]
	x := m.Verts[e.V[0]]
	if r.IntN(2) == 0 {
		x = x.Add(m.Verts[e.V[1]]).Scale(0.5)
	}
	// Outward from A's centre through X.
	u, _ := x.Sub(m.Bounds().Center()).Normalize()
	q, _ := geom.Quat{W: r.NormFloat64(), X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
	// B's vertex v, farthest along -u after rotation, starts on the axis.
	v := m.Verts[0]
	for _, w := range m.Verts {
		if q.Rotate(w).Dot(u) < q.Rotate(v).Dot(u) {
			v = w
		}
	}
	dist := 2.5 * m.Radius()
	start := x.AddScaled(dist, u)
	b0 = geom.Pose{P: start.Sub(q.Rotate(v)), Q: q}
	phi := r.Float64() * 1.5
	rot := geom.QuatAxisAngle(u, phi)
	b1 = geom.Pose{P: x.Add(rot.Rotate(b0.P.Sub(x))).AddScaled(-2*dist, u), Q: rot.Mul(q)}
	return pa, b0, b1
}
