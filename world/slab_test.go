package world

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/shapes"
)

// boxOf is the box of the points pts.
func boxOf(pts []geom.Vec3) geom.AABB {
	b := geom.AABB{Min: pts[0], Max: pts[0]}
	for _, q := range pts {
		b.Min = geom.V(math.Min(b.Min.X, q.X), math.Min(b.Min.Y, q.Y), math.Min(b.Min.Z, q.Z))
		b.Max = geom.V(math.Max(b.Max.X, q.X), math.Max(b.Max.Y, q.Y), math.Max(b.Max.Z, q.Z))
	}
	return b
}

// within reports whether boxes a and b, each grown by pad/2, overlap.
func within(a, b geom.AABB, pad float64) bool {
	gap := func(alo, ahi, blo, bhi float64) float64 { return math.Max(alo-bhi, blo-ahi) }
	return gap(a.Min.X, a.Max.X, b.Min.X, b.Max.X) <= pad && gap(a.Min.Y, a.Max.Y, b.Min.Y, b.Max.Y) <= pad && gap(a.Min.Z, a.Max.Z, b.Min.Z, b.Max.Z) <= pad
}

func sameSet(a, b [][2]int32) bool {
	cmp := func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, cmp)
	slices.SortFunc(b, cmp)
	return slices.Equal(a, b)
}

// TestSlabCandidates places a torus at seeded random poses over and beside
// a thin plate (the plate as the pair's first body and as its second) with
// random pads, and checks slabCandidates against a brute-force oracle on
// the raw meshes: when it takes the pair, no vertex or edge of the plate
// comes within the pad of the torus's box, and its candidates are exactly
// the (torus vertex, plate face) pairs whose vertex lies within the pad of
// the face's box, the same set the traversal of the face trees finds
// (candidates); when it declines, a vertex or edge of the plate does come
// that near. Between 30% and 70% of the placements take the fast path.
func TestSlabCandidates(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	plate := shapes.Box(geom.V(3, 3, 0.005))
	torus := shapes.Torus(0.3, 0.1, 20, 12)
	fp, ft := newFeatures(plate), newFeatures(torus)
	taken, trials := 0, 600
	for trial := 0; trial < trials; trial++ {
		pp := geom.Pose{P: geom.V(0, 0, -0.005), Q: geom.QuatIdentity()}
		axis := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64())
		pt := geom.Pose{P: geom.V(8*r.Float64()-4, 8*r.Float64()-4, 1.5*r.Float64()-0.1), Q: geom.QuatAxisAngle(axis, math.Pi*r.Float64())}
		pad := 0.5 * r.Float64()
		plateFirst := trial%2 == 0
		sa, sb, ta, tb := ft, fp, pt.Transform(), pp.Transform()
		if plateFirst {
			sa, sb, ta, tb = fp, ft, pp.Transform(), pt.Transform()
		}
		var p probe
		p.moved = place(p.moved[:0], sa.m.Verts, tb.Inverse().Mul(ta))
		abox := geom.AABB{Min: p.moved[0], Max: p.moved[0]}
		for _, q := range p.moved {
			grow(&abox, q)
		}
		// The oracle, in sb's frame: the plate's and the torus's points.
		platePts, torusPts := p.moved, sb.m.Verts
		if !plateFirst {
			platePts, torusPts = sb.m.Verts, p.moved
		}
		tbox := boxOf(torusPts)
		clear := true
		for _, q := range platePts {
			clear = clear && !within(boxOf([]geom.Vec3{q}), tbox, pad)
		}
		for f := range plate.NumFaces() {
			loop := plate.Face(f)
			for k := range loop {
				e := []geom.Vec3{platePts[loop[k]], platePts[loop[(k+1)%len(loop)]]}
				clear = clear && !within(boxOf(e), tbox, pad)
			}
		}
		var want [][2]int32
		for f := range plate.NumFaces() {
			var fpts []geom.Vec3
			for _, v := range plate.Face(f) {
				fpts = append(fpts, platePts[v])
			}
			fbox := boxOf(fpts)
			for v, q := range torusPts {
				if within(boxOf([]geom.Vec3{q}), fbox, pad) {
					want = append(want, [2]int32{int32(v), int32(f)})
				}
			}
		}
		ok := p.slabCandidates(sa, sb, &abox, pad)
		if ok != clear {
			t.Fatalf("trial %d: slabCandidates took the pair %v, the plate's features clear of the torus %v", trial, ok, clear)
		}
		if !ok {
			continue
		}
		taken++
		got, other := p.vf, p.fv
		if plateFirst {
			got, other = p.fv, p.vf
		}
		if len(other) != 0 || len(p.ee) != 0 {
			t.Fatalf("trial %d: %d plate-vertex and %d edge candidates, want none", trial, len(other), len(p.ee))
		}
		if !sameSet(got, want) {
			t.Fatalf("trial %d: %d candidates, the oracle %d", trial, len(got), len(want))
		}
		vf, fv := slices.Clone(p.vf), slices.Clone(p.fv)
		p.candidates(sa, sb, pad)
		if !sameSet(vf, p.vf) || !sameSet(fv, p.fv) || len(p.ee) != 0 {
			t.Fatalf("trial %d: the traversal finds %d, %d and %d candidates, slabCandidates %d, %d and 0", trial, len(p.vf), len(p.fv), len(p.ee), len(vf), len(fv))
		}
	}
	t.Logf("fast path taken in %d of %d placements", taken, trials)
	if taken < trials*3/10 || taken > trials*7/10 {
		t.Fatalf("fast path taken in %d of %d placements, want 30-70%%", taken, trials)
	}
}

// TestSlabVertices places a torus, a car and a cube at seeded random poses
// over, under and beside a thin plate (as the pair's first body and as
// its second), moving them by random steps, and checks that the pair's
// contacts found by slabPair are, record for record and in order, those of
// the general passes (candidates by slabCandidates or the traversal, then
// vertices and the edge pairs): the same features, points, normals and
// separations. Between 30% and 70% of the placements take the slab path,
// and most of those have contacts.
func TestSlabVertices(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 5))
	plate := newFeatures(shapes.Box(geom.V(3, 3, 0.005)))
	bodies := []*features{newFeatures(shapes.Torus(0.3, 0.1, 20, 12)), newFeatures(shapes.Car()), newFeatures(shapes.Cube(0.4))}
	randQuat := func() geom.Quat {
		return geom.QuatAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), math.Pi*r.Float64())
	}
	pp := geom.Pose{P: geom.V(0, 0, -0.005), Q: geom.QuatIdentity()}
	taken, withContacts, deep, trials := 0, 0, 0, 900
	var p probe
	for trial := 0; trial < trials; trial++ {
		body := bodies[trial%len(bodies)]
		p0 := geom.Pose{P: geom.V(5*r.Float64()-2.5, 5*r.Float64()-2.5, 0.9*r.Float64()-0.15), Q: randQuat()}
		p1 := p0
		if r.IntN(4) > 0 {
			d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()-1).Scale(0.2 * r.Float64())
			p1 = geom.Pose{P: p0.P.Add(d), Q: geom.QuatRotationVector(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(0.5 * r.Float64())).Mul(p0.Q)}
		}
		base := 0.05 * r.Float64()
		sa, sb, a0, a1, b0, b1 := body, plate, p0, p1, pp, pp
		if trial%2 == 0 {
			sa, sb, a0, a1, b0, b1 = plate, body, pp, pp, p0, p1
		}
		m := newStepMotion(a0, a1, b0, b1, sa.radius, sb.radius)
		depthTol := depthWindow(sa, sb)
		slabOff = true
		want, _ := p.pair(nil, sa, sb, a0.Transform(), b0.Transform(), &m, base, depthTol, nil)
		slabOff = false
		got, _ := p.pair(nil, sa, sb, a0.Transform(), b0.Transform(), &m, base, depthTol, nil)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: slabPair gives %d contacts, the general passes %d:\n%v\n%v", trial, len(got), len(want), got, want)
		}
		pad := math.Max(p.rb.max, depthTol)
		if !near(&p.abox, &sb.box, pad) || !p.slabCandidates(sa, sb, &p.abox, pad) {
			continue
		}
		taken++
		if len(got) > 0 {
			withContacts++
		}
		for _, c := range got {
			if c.Separation < 0 {
				deep++
				break
			}
		}
	}
	t.Logf("slab path taken in %d of %d placements, %d with contacts, %d with a vertex behind a face", taken, trials, withContacts, deep)
	if taken < trials*3/10 || taken > trials*7/10 || withContacts < taken/2 || deep == 0 {
		t.Fatalf("slab path taken in %d of %d placements (want 30-70%%), %d with contacts (want half), %d with a vertex behind a face", taken, trials, withContacts, deep)
	}
}

// TestSlabApart moves a torus's bounding sphere along seeded random
// straight paths near a thin plate and a box (static, at random poses)
// and checks slabApart against an oracle on the raw meshes: when it
// reports the body apart, the sphere (radius, margin and sagitta added)
// stays farther from the convex body than that at 200 points of the path,
// the distance measured to the body's box in its own frame (both bodies
// are boxes). Between 30% and 70% of the paths are reported apart.
func TestSlabApart(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 7))
	torus := newFeatures(shapes.Torus(0.3, 0.1, 20, 12))
	slabs := []*features{newFeatures(shapes.Box(geom.V(3, 3, 0.005))), newFeatures(shapes.Box(geom.V(0.5, 0.8, 0.4)))}
	apartN, trials := 0, 1000
	for trial := 0; trial < trials; trial++ {
		s := slabs[trial%len(slabs)]
		ps := geom.Pose{P: geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), Q: geom.QuatAxisAngle(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()), math.Pi*r.Float64())}
		ts := ps.Transform()
		c := ps.P.Add(geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(1.5))
		d := geom.V(r.NormFloat64(), r.NormFloat64(), r.NormFloat64()).Scale(r.Float64())
		turn, margin := math.Pi*r.Float64(), 0.05*r.Float64()
		if !slabApart(s, &ts, c, d, turn, torus.radius, margin) {
			continue
		}
		apartN++
		lim := torus.radius + margin + d.Norm()*turn/4
		for k := 0; k <= 200; k++ {
			q := ts.ApplyInv(c.AddScaled(float64(k)/200, d))
			// Distance from q to the box s.box (the slab is a box).
			dx := math.Max(0, math.Max(s.box.Min.X-q.X, q.X-s.box.Max.X))
			dy := math.Max(0, math.Max(s.box.Min.Y-q.Y, q.Y-s.box.Max.Y))
			dz := math.Max(0, math.Max(s.box.Min.Z-q.Z, q.Z-s.box.Max.Z))
			if dist := math.Sqrt(dx*dx + dy*dy + dz*dz); dist <= lim {
				t.Fatalf("trial %d: reported apart, but the path comes within %g of the slab at %d/200 (limit %g)", trial, dist, k, lim)
			}
		}
	}
	t.Logf("%d of %d paths apart", apartN, trials)
	if apartN < trials*3/10 || apartN > trials*7/10 {
		t.Fatalf("%d of %d paths apart, want 30-70%%", apartN, trials)
	}
}
