package screw

import (
	"math"
	"math/bits"
	"math/rand"
	randv2 "math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// TestSweepBalls checks the geometry the culling relies on: over each of
// the cullK intervals a point on a helix stays in the ball on the chord of
// the interval (centre the chord midpoint, radius half its length), for the
// motion and its inverse, by dense sampling of the analytic motion.
func TestSweepBalls(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for it := 0; it < 2000; it++ {
		d := &Detector{theta: rng.Float64() * math.Pi, g: rng.NormFloat64() * 3}
		if it%10 == 0 {
			d.theta, d.trans = 0, true
		}
		// A random window of the step, or the whole step.
		t0, dt := 0.0, 1.0
		if it%3 != 0 {
			t0 = rng.Float64()
			dt = (1 - t0) * rng.Float64()
		}
		d.setWindow(t0, dt)
		p := geom.Vec3{X: rng.NormFloat64() * 5, Y: rng.NormFloat64() * 5, Z: rng.NormFloat64() * 5}
		for _, inv := range []bool{false, true} {
			var mid [cullK]geom.Vec3
			hc := d.ballsOf(&d.sw, p, inv, &mid)
			for s := 0; s <= 64*cullK; s++ {
				u := float64(s) / (64 * cullK)
				tt := t0 + u*dt
				// The analytic motion, computed independently.
				a := tt * d.theta
				sn, cs := math.Sincos(a)
				var q geom.Vec3
				if inv {
					q = geom.Vec3{X: p.X*cs - p.Z*sn, Y: p.Y - tt*d.g, Z: p.X*sn + p.Z*cs}
				} else {
					q = geom.Vec3{X: p.X*cs + p.Z*sn, Y: p.Y + tt*d.g, Z: -p.X*sn + p.Z*cs}
				}
				k := min(int(u*cullK), cullK-1)
				for _, kk := range []int{k, k - 1} {
					if kk < 0 || t0+float64(kk+1)*dt/cullK < tt || t0+float64(kk)*dt/cullK > tt {
						continue
					}
					if dist := q.Dist(mid[kk]); dist > hc*(1+1e-12)+1e-12 {
						t.Fatalf("theta %v g %v p %v inv %v t %v: %v from the centre of ball %d, radius %v",
							d.theta, d.g, p, inv, tt, dist, kk, hc)
					}
				}
			}
		}
	}
}

// TestMaskWindow checks the time window of interval masks, on the whole
// step and on a window of it.
func TestMaskWindow(t *testing.T) {
	for _, w := range [][2]float64{{0, 1}, {0.5, 0.25}} {
		sw := sweep{t0: w[0], dt: w[1]}
		at := func(k float64) float64 { return w[0] + k*w[1]/cullK }
		near := func(x, want float64) bool { return math.Abs(x-want) <= 1e-5 }
		lo, hi := sw.window(1)
		if !near(lo, at(0)) || !near(hi, at(1)) || lo > at(0) || hi < at(1) {
			t.Errorf("window %v, mask 1: [%v, %v]", w, lo, hi)
		}
		lo, hi = sw.window(1<<3 | 1<<5)
		if !near(lo, at(3)) || !near(hi, at(6)) || lo > at(3) || hi < at(6) {
			t.Errorf("window %v, mask 3,5: [%v, %v]", w, lo, hi)
		}
		lo, hi = sw.window(allIntervals)
		if lo > at(0) || hi < at(cullK) || lo < 0 || hi > 1 {
			t.Errorf("window %v, all: [%v, %v]", w, lo, hi)
		}
	}
}

// facesMeet reports whether the convex faces fa of ma (vertices av) and fb
// of mb (vertices bv) intersect: an edge of one crosses the other's plane
// inside the other face.
func facesMeet(ma *mesh.Mesh, av [][3]float64, fa int, mb *mesh.Mesh, bv [][3]float64, fb int) bool {
	crosses := func(m *mesh.Mesh, vs [][3]float64, f int, o *mesh.Mesh, ovs [][3]float64, g int) bool {
		n, d := faceGeom(o, ovs, g)
		l := m.Face(f)
		for i := range l {
			p, q := vs[l[i]], vs[l[(i+1)%len(l)]]
			s0, s1 := odot(n, p)-d, odot(n, q)-d
			if s0*s1 > 0 || s0 == s1 {
				continue
			}
			u := s0 / (s0 - s1)
			x := [3]float64{p[0] + u*(q[0]-p[0]), p[1] + u*(q[1]-p[1]), p[2] + u*(q[2]-p[2])}
			if inPoly(o, ovs, g, x, n, 1e-12) {
				return true
			}
		}
		return false
	}
	return crosses(ma, av, fa, mb, bv, fb) || crosses(mb, bv, fb, ma, av, fa)
}

// faceBoxes returns the bounding box (min, max) of every face of m with
// vertices vs.
func faceBoxes(m *mesh.Mesh, vs [][3]float64) [][2][3]float64 {
	bs := make([][2][3]float64, m.NumFaces())
	for f := range bs {
		b := [2][3]float64{vs[m.Face(f)[0]], vs[m.Face(f)[0]]}
		for _, v := range m.Face(f) {
			for i := range 3 {
				b[0][i], b[1][i] = min(b[0][i], vs[v][i]), max(b[1][i], vs[v][i])
			}
		}
		bs[f] = b
	}
	return bs
}

// boxesMeet reports whether two boxes (min, max) overlap.
func boxesMeet(a, b [2][3]float64) bool {
	for i := range 3 {
		if a[0][i] > b[1][i] || b[0][i] > a[1][i] {
			return false
		}
	}
	return true
}

// TestTreeCullMasks checks the culling by the two sphere trees against
// dense sampling of the screw motion (the oracle's own screw formula and
// face intersection test): whenever a face of A and a face of B intersect
// at a sampled time of interval k of the window, both faces keep interval
// k, and the earliest interval in which clusters can meet is no later
// than k. Windows are the whole step and random parts of it.
func TestTreeCullMasks(t *testing.T) {
	ma, mb := shapes.Torus(1, 0.35, 12, 8), shapes.Torus(0.8, 0.3, 10, 6)
	ra, rb := ma.Bounds().Max.Sub(ma.Bounds().Min).Norm()/2, mb.Bounds().Max.Sub(mb.Bounds().Min).Norm()/2
	defer func(n int) { treeMinFaces = n }(treeMinFaces)
	treeMinFaces = 0
	r := randv2.New(randv2.NewPCG(21, 7))
	const cases, perInterval = 40, 4
	meeting := 0
	for c := range cases {
		pa, b0, b1 := randomCase(r, ra, rb)
		d := NewDetector()
		d.startContacts(ma, mb, pa, b0, nil)
		d.first = true // the trees' culling of FirstContact
		if !d.setup(ma, mb, pa, pa, b0, b1, nil) {
			continue
		}
		if !d.paired {
			t.Fatalf("case %d: %d faces in all are not culled by the trees", c, ma.NumFaces()+mb.NumFaces())
		}
		t0, dt := 0.0, 1.0
		if c%2 == 1 {
			t0 = 0.5 * r.Float64()
			dt = (1 - t0) * (0.2 + 0.8*r.Float64())
		}
		d.setWindow(t0, dt)
		ok := d.cullWindow(allIntervals)
		fa, fb := d.fall[0], d.fall[1]
		if !ok {
			fa, fb = make([]uint32, ma.NumFaces()), make([]uint32, mb.NumFaces())
		}
		k0 := d.earliest(allIntervals)
		orc := newOracle(ma, mb, pa, b0, b1, 1)
		first := -1
		for k := range cullK {
			for s := range perInterval {
				tt := d.sw.at(k) + (float64(s)+0.5)/perInterval*dt/cullK
				bv := orc.bVerts(tt)
				ab, bb := faceBoxes(ma, orc.av), faceBoxes(mb, bv)
				for f := range ma.NumFaces() {
					for g := range mb.NumFaces() {
						if !boxesMeet(ab[f], bb[g]) || !facesMeet(ma, orc.av, f, mb, bv, g) {
							continue
						}
						if first < 0 {
							first = k
						}
						if fa[f]&(1<<k) == 0 || fb[g]&(1<<k) == 0 {
							t.Fatalf("case %d, window [%v, +%v]: faces %d and %d meet at t = %v in interval %d, masks %016b and %016b",
								c, t0, dt, f, g, tt, k, fa[f], fb[g])
						}
					}
				}
			}
		}
		if first >= 0 {
			meeting++
			if k0 == 0 || bits.TrailingZeros32(k0) > first {
				t.Fatalf("case %d: faces meet in interval %d, earliest gives %016b", c, first, k0)
			}
		}
	}
	if meeting < cases*3/10 || meeting > cases*7/10 {
		t.Errorf("faces meet in %d of %d cases' windows, want 30-70%%", meeting, cases)
	}
}

// TestSelectKth checks selectKth against sorting, on random slices with
// repeated values.
func TestSelectKth(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	for it := range 2000 {
		n := 1 + r.Intn(40)
		a := make([]float64, n)
		for i := range a {
			a[i] = float64(r.Intn(1 + it%12))
		}
		k := r.Intn(n)
		want := slices.Clone(a)
		slices.Sort(want)
		if got := selectKth(a, k); got != want[k] {
			t.Fatalf("%v, k %d: %v, want %v", want, k, got, want[k])
		}
	}
}

// TestOracleTrees runs the oracle test with FirstContact culling by the
// two sphere trees window by window however few faces the meshes have
// (the real-mesh workloads of the bench check it on large meshes).
func TestOracleTrees(t *testing.T) {
	defer func(n int) { treeMinFaces = n }(treeMinFaces)
	treeMinFaces = 0
	var tot oracleStats
	for _, m := range []*mesh.Mesh{shapes.Car(), shapes.Torus(1, 0.35, 8, 6)} {
		tot.add(runOracle(t, "trees", m, m, 16, 200, 31, &Options{}))
	}
	if tot.hits < tot.cases/5 || tot.hits > tot.cases*19/20 {
		t.Errorf("%d of %d cases hit", tot.hits, tot.cases)
	}
}
