package convex

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// close64 reports whether x and y agree to a few units in the last place
// of scale (the vector kernels do the scalar code's operations in the
// same order; only a compiler fusing multiply-adds in the scalar code,
// GOAMD64=v3, can make them differ, by a rounding).
func close64(x, y, scale float64) bool {
	return x == y || math.Abs(x-y) <= 1e-14*scale
}

// TestPoseSoA checks the posing of small polytopes (vector kernel when the
// processor has one, scalar code otherwise) against geom.Transform.Apply,
// padding included.
func TestPoseSoA(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 2000; trial++ {
		n := 1 + rng.IntN(soaLen)
		vs := make([]geom.Vec3, n)
		for i := range vs {
			vs[i] = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		}
		q, _ := geom.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
		tf := geom.Pose{P: geom.Vec3{X: 10 * rng.NormFloat64(), Y: rng.NormFloat64(), Z: 1e3 * rng.NormFloat64()}, Q: q}.Transform()
		var got, ref soa
		poseSoA(&got, newSoa(vs), n, &tf)
		poseGo(&ref, newSoa(vs), n, &tf)
		st := soaStride(n)
		for i := 0; i < st; i++ {
			v := vs[0]
			if i < n {
				v = vs[i]
			}
			want := tf.Apply(v)
			g, r := got.at(st, int32(i)), ref.at(st, int32(i))
			for k, pair := range [][3]float64{{g.X, r.X, want.X}, {g.Y, r.Y, want.Y}, {g.Z, r.Z, want.Z}} {
				if !close64(pair[0], pair[1], 1e3) || !close64(pair[0], pair[2], 1e3) {
					t.Fatalf("trial %d point %d coord %d: kernel %v, scalar %v, Apply %v (tf %v, v %v)", trial, i, k, pair[0], pair[1], pair[2], tf, v)
				}
			}
		}
	}
}

// TestScan2Vec checks the vector kernel of the posed search against the
// scalar scans: same maxima, the vertices returned attain them, for every
// pair of sizes, with many ties, and NaN-free data only (the search calls
// it only for bodies posed with finite coordinates).
func TestScan2Vec(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernels on this processor")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for na := 1; na <= soaLen; na++ {
		for nb := 1; nb <= soaLen; nb++ {
			for trial := 0; trial < 40; trial++ {
				ties := trial%3 == 0
				wa, wb := tiePoints(rng, na, ties), tiePoints(rng, nb, ties)
				d := tieDir(rng, ties)
				sa, sb := newSoa(wa), newSoa(wb)
				ia, ib, hA, hb := scan2Vec(sa, sb, &d, soaStride(na)>>2, soaStride(nb)>>2)
				p, q, hB := int32(ia), int32(ib), -hb
				p0, hA0, q0, hB0 := scanSoA2Go(sa, na, sb, nb, d)
				pa, _ := scanSoA(sa, na, d)
				_, hb1 := scanSoA(sb, nb, d.Neg())
				if p < 0 || int(p) >= na || q < 0 || int(q) >= nb ||
					!close64(hA, hA0, 10) || !close64(hB, hB0, 10) || !close64(hB, hb1, 10) ||
					!close64(d.Dot(wa[p]), hA, 10) || !close64(-d.Dot(wb[q]), hB, 10) {
					t.Fatalf("d %v wa %v wb %v: got %d %v %d %v, scalar %d %v %d %v (%d)", d, wa, wb, p, hA, q, hB, p0, hA0, q0, hB0, pa)
				}
			}
		}
	}
}

// TestPoseSoAFinite: poseSoA allows the vector scans only when every
// world coordinate is finite and below 1e300 in magnitude.
func TestPoseSoAFinite(t *testing.T) {
	p, err := New(shapes.Cube(1))
	if err != nil {
		t.Fatal(err)
	}
	var dst soa
	id := geom.TransformIdentity()
	n := p.NumVerts()
	if got := poseSoA(&dst, p.soa, n, &id); got != haveVec {
		t.Errorf("identity: %v, want %v", got, haveVec)
	}
	big := geom.Transform{R: geom.Identity(), T: geom.Vec3{Z: 9e299}}
	if got := poseSoA(&dst, p.soa, n, &big); got != haveVec {
		t.Errorf("9e299: %v, want %v", got, haveVec)
	}
	for _, tf := range []geom.Transform{
		{R: geom.Identity(), T: geom.Vec3{X: math.NaN()}},
		{R: geom.Identity(), T: geom.Vec3{Y: math.Inf(-1)}},
		{R: geom.Identity(), T: geom.Vec3{Z: 2e300}},
		{R: geom.Identity().Scale(1e301)},
		{R: geom.Mat3{{math.NaN(), 0, 0}, {0, 1, 0}, {0, 0, 1}}},
		{R: geom.Mat3{{1, 0, 0}, {0, 1, 0}, {0, 0, math.Inf(1)}}},
	} {
		if poseSoA(&dst, p.soa, n, &tf) {
			t.Errorf("%v: vector scans allowed, want not", tf)
		}
	}
}

// TestSupportLoc checks the vector scan of a polytope's local vertices
// against SupportBrute: the same vertex and the same maximum, bit for bit,
// for random polytopes of 4 to locMax vertices and random and
// axis-aligned directions (ties between vertices).
func TestSupportLoc(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernels on this processor")
	}
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 300; trial++ {
		n := 4 + rng.IntN(locMax-3)
		pts := make([]geom.Vec3, n)
		for i := range pts {
			pts[i] = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		}
		var p *Polytope
		var err error
		if trial%5 == 0 {
			p, err = New(shapes.Cube(1 + rng.Float64()))
		} else {
			p, err = FromPoints(pts)
		}
		if err != nil {
			t.Fatal(err)
		}
		if p.loc == nil {
			t.Fatalf("trial %d: no loc for %d vertices", trial, p.NumVerts())
		}
		for k := 0; k < 50; k++ {
			d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			if k%4 == 0 {
				d = geom.Vec3{X: float64(rng.IntN(3) - 1), Y: float64(rng.IntN(3) - 1), Z: float64(rng.IntN(3) - 1)}
			}
			i, h, ok := p.supportLoc(d)
			wi, want := p.SupportBrute(d)
			if !ok || i != wi || h != want {
				t.Fatalf("trial %d (%d vertices) d %v: got %d %v %v, want %d %v", trial, p.NumVerts(), d, i, h, ok, wi, want)
			}
		}
	}
	// Directions the scan must refuse.
	p, _ := New(shapes.Cube(1))
	for _, d := range []geom.Vec3{{X: math.NaN()}, {Y: math.Inf(1)}, {Z: 1e7}} {
		if _, _, ok := p.supportLoc(d); ok {
			t.Errorf("d %v: scan accepted", d)
		}
	}
}

// TestSupportLocNearTies checks the vector scan on point sets whose values
// along the direction differ by 1e-15 to 1e-5 of their size, at scales
// from 1e-30 to 1e25, with exact ties among them: it must give the first
// vertex of the largest value, as a plain float64 loop computes it.
func TestSupportLocNearTies(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernels on this processor")
	}
	rng := rand.New(rand.NewPCG(10, 11))
	for trial := 0; trial < 3000; trial++ {
		n := 1 + rng.IntN(locMax)
		scale := math.Pow(10, -30+55*rng.Float64())
		d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		u := d.Scale(1 / math.Sqrt(d.Dot(d)))
		e1, e2 := u.Orthonormal()
		gap := math.Pow(10, -15+10*rng.Float64())
		vs := make([]geom.Vec3, n)
		for i := range vs {
			// A point near the plane u.x = scale, off it by a few gaps,
			// or a copy of an earlier point (an exact tie).
			if i > 0 && rng.IntN(8) == 0 {
				vs[i] = vs[rng.IntN(i)]
				continue
			}
			off := scale * (1 - gap*float64(rng.IntN(4)))
			vs[i] = u.Scale(off).Add(e1.Scale(scale * rng.NormFloat64())).Add(e2.Scale(scale * rng.NormFloat64()))
		}
		p := &Polytope{verts: vs}
		p.loc = newLoc(vs)
		if p.loc == nil {
			t.Fatalf("trial %d: no loc at scale %g", trial, scale)
		}
		for _, dir := range []geom.Vec3{d, d.Scale(1e5), d.Scale(1e-5), d.Neg()} {
			wi, want := int32(-1), 0.0
			for k, v := range vs {
				if s := dir.X*v.X + dir.Y*v.Y + dir.Z*v.Z; wi < 0 || s > want {
					wi, want = int32(k), s
				}
			}
			i, h, ok := p.supportLoc(dir)
			if !ok || i != wi || h != want {
				t.Fatalf("trial %d (n %d, scale %g, gap %g) d %v: got %d %v %v, want %d %v", trial, n, scale, gap, dir, i, h, ok, wi, want)
			}
		}
	}
}

// tiePoints returns n random points; with ties, small integer coordinates
// so that many points tie in any direction.
func tiePoints(rng *rand.Rand, n int, ties bool) []geom.Vec3 {
	w := make([]geom.Vec3, n)
	for i := range w {
		if ties {
			w[i] = geom.Vec3{X: float64(rng.IntN(3) - 1), Y: float64(rng.IntN(3) - 1), Z: float64(rng.IntN(3) - 1)}
		} else {
			w[i] = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		}
	}
	return w
}

// tieDir returns a random direction; with ties, one with small integer
// components (faces and edges of integer point sets then tie).
func tieDir(rng *rand.Rand, ties bool) geom.Vec3 {
	if ties {
		return geom.Vec3{X: float64(rng.IntN(3) - 1), Y: float64(rng.IntN(3) - 1), Z: 1}
	}
	return geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
}

// TestMinDirsVec checks the many-direction kernel of the separating-axis
// test against a brute-force minimum over the points, for every size, with
// directions in planes' layout (stride 32 bytes) and as bare vectors
// (stride 24), with exact ties (points repeated): the same minimum and the
// first point attaining it.
func TestMinDirsVec(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernels on this processor")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 3000; trial++ {
		n := trial%soaLen + 1
		vs := make([]geom.Vec3, n)
		for i := range vs {
			if i > 0 && rng.IntN(4) == 0 {
				vs[i] = vs[rng.IntN(i)] // a tie
				continue
			}
			vs[i] = geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
		}
		s := newSoa(vs)
		nd := 1 + rng.IntN(2*satMax-4)
		pls := make([]geom.Plane, nd)
		dirs := make([]geom.Vec3, nd)
		for k := range pls {
			d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			pls[k], dirs[k] = geom.Plane{N: d, D: rng.NormFloat64()}, d
		}
		vals := make([]float64, nd)
		idx := make([]int32, nd)
		for layout := 0; layout < 2; layout++ {
			clear(vals)
			clear(idx)
			if layout == 0 {
				minDirsVec(s, soaStride(n)>>2, &pls[0].N.X, 32, nd, &vals[0], &idx[0])
			} else {
				minDirsVec(s, soaStride(n)>>2, &dirs[0].X, 24, nd, &vals[0], &idx[0])
			}
			for k, d := range dirs {
				best, lo := 0, math.Inf(1)
				for i, v := range vs {
					if x := d.X*v.X + d.Y*v.Y + d.Z*v.Z; x < lo {
						best, lo = i, x
					}
				}
				if !close64(vals[k], lo, 10) || uint32(idx[k]) >= uint32(n) || idx[k] != int32(best) && !close64(lo, d.Dot(vs[idx[k]]), 10) {
					t.Fatalf("trial %d layout %d dir %d (n %d): kernel %v at %d, brute force %v at %d", trial, layout, k, n, vals[k], idx[k], lo, best)
				}
			}
		}
	}
}

// TestSupportFromInline checks the hill climb over neighbours stored with
// their coordinates (polytopes above locMax vertices) against the climb
// over the vertex array and the neighbour lists: the same vertex and value
// from every start, ties included (integer points on a sphere's shell,
// integer directions), and a value no vertex beats (brute force).
func TestSupportFromInline(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	checked, tied := 0, 0
	for trial := 0; trial < 12; trial++ {
		n := locMax + 1 + rng.IntN(600)
		pts := make([]geom.Vec3, 0, n)
		ties := trial%2 == 1
		for len(pts) < n {
			v := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			v = v.Scale(1 / v.Norm())
			if ties {
				v = geom.Vec3{X: float64(rng.IntN(41) - 20), Y: float64(rng.IntN(41) - 20), Z: float64(rng.IntN(41) - 20)}
				if r := v.Norm(); r < 18 || r > 20 {
					continue
				}
			}
			pts = append(pts, v)
		}
		p, err := FromPoints(pts)
		if err != nil {
			t.Fatal(err)
		}
		if p.NumVerts() <= locMax {
			continue
		}
		checked++
		if ties {
			tied++
		}
		if p.nbr == nil {
			t.Fatalf("trial %d: %d vertices and no inline neighbours", trial, p.NumVerts())
		}
		for k := 0; k < 200; k++ {
			d := geom.Vec3{X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}
			if ties && k%2 == 0 {
				d = geom.Vec3{X: float64(rng.IntN(3) - 1), Y: float64(rng.IntN(3) - 1), Z: float64(rng.IntN(3) - 1)}
			}
			start := int32(rng.IntN(p.NumVerts()))
			v, h := p.SupportFrom(d, start)
			wv, wh := supportClimb(p.verts, p.adj, p.adjStart, d, start)
			_, best := p.SupportBrute(d)
			if v != wv || h != wh || h != best {
				t.Fatalf("trial %d (%d vertices) d %v from %d: got %d %v, climb over the arrays %d %v, brute force %v", trial, p.NumVerts(), d, start, v, h, wv, wh, best)
			}
		}
	}
	if checked < 10 || tied < 4 {
		t.Fatalf("only %d polytopes above %d vertices (%d with ties)", checked, locMax, tied)
	}
}

// TestMinFirst checks the vector kernel of the expanding polytope's
// nearest face against a scan in order: lengths 1 to 70, values drawn
// from a few levels (ties) with +Inf (removed faces) and signed zeros
// among them, and all +Inf.
func TestMinFirst(t *testing.T) {
	if !haveVec {
		t.Skip("no vector kernels on this processor")
	}
	rng := rand.New(rand.NewPCG(7, 8))
	levels := []float64{math.Inf(1), 0, math.Copysign(0, -1), 0.25, 0.5, 1e-300, 3}
	found := 0
	for n := 1; n <= 70; n++ {
		for trial := 0; trial < 200; trial++ {
			xs := make([]float64, n)
			for i := range xs {
				switch {
				case trial%10 == 0:
					xs[i] = math.Inf(1)
				case trial%2 == 0:
					xs[i] = levels[rng.IntN(len(levels))]
				default:
					xs[i] = rng.Float64()
				}
			}
			want, wd := -1, math.Inf(1)
			for i, x := range xs {
				if x < wd {
					want, wd = i, x
				}
			}
			if got := minFirst(&xs[0], n); got != int64(want) {
				t.Fatalf("%v: got %d, want %d", xs, got, want)
			}
			if want >= 0 {
				found++
			}
		}
	}
	if found < 10000 || found > 13000 {
		t.Fatalf("%d of 14000 arrays with a finite minimum", found)
	}
}
