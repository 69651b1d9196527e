package toc

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// oSupport returns the least and the largest n.x over the mesh's vertices
// placed by pose p: for a convex body, the extent of the body along n.
func oSupport(m *mesh.Mesh, p geom.Pose, n geom.Vec3) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range m.Verts {
		d := n.Dot(p.Apply(v))
		lo, hi = math.Min(lo, d), math.Max(hi, d)
	}
	return lo, hi
}

// oSegDist is the distance from x to the segment a-b, by dense sampling of
// the segment refined around the best sample (no shared code with the
// package's closest-point routines).
func oSegDist(x, a, b geom.Vec3) float64 {
	best, bi := math.Inf(1), 0
	const n = 1000
	for i := 0; i <= n; i++ {
		if d := x.Dist(a.Lerp(b, float64(i)/n)); d < best {
			best, bi = d, i
		}
	}
	lo, hi := math.Max(0, float64(bi-1)/n), math.Min(1, float64(bi+1)/n)
	for range 60 {
		m1, m2 := lo+(hi-lo)/3, hi-(hi-lo)/3
		if x.Dist(a.Lerp(b, m1)) < x.Dist(a.Lerp(b, m2)) {
			hi = m2
		} else {
			lo = m1
		}
	}
	return math.Min(best, x.Dist(a.Lerp(b, lo)))
}

// edgeLeadCase returns two boxes each leading with an edge towards the
// other, the edges crossed at an angle that is zero (parallel edges), tiny
// (nearly parallel, down to 1e-9 rad) or anything up to a right angle.
// Half of the pairs are aimed so that the edges cross inside both (for
// nearly parallel edges the lateral offset is then tiny), the other half
// pass beside each other; the whole scene is turned by a random rotation.
func edgeLeadCase(r *rand.Rand) (ma, mb *mesh.Mesh, sa, sb State) {
	ha, hb := 0.2+0.5*r.Float64(), 0.2+0.5*r.Float64()
	ma, mb = shapes.Box(geom.V(0.5, 0.5, ha)), shapes.Box(geom.V(0.5, 0.5, hb))
	var phi float64
	switch r.IntN(3) {
	case 0:
		phi = 0
	case 1:
		phi = math.Pow(10, -9+6*r.Float64())
	default:
		phi = math.Pi / 2 * r.Float64()
	}
	if r.IntN(2) == 0 {
		phi = -phi
	}
	// Turned 45 degrees about z, A leads with its edge along z at
	// x = +0.707; B leads with the same edge at -0.707, turned by phi about
	// x: A's edge is (0, 0, t), |t| <= ha, B's (dy - s sin phi, dz + s cos
	// phi), |s| <= hb, seen along x.
	spin := geom.QuatAxisAngle(geom.V(0, 0, 1), math.Pi/4)
	qa, qb := spin, geom.QuatAxisAngle(geom.V(1, 0, 0), phi).Mul(spin)
	var dy, dz float64
	straight := phi == 0 || math.Abs(phi) < 1e-3
	if r.IntN(2) == 0 {
		s0, t0 := 0.9*hb*(2*r.Float64()-1), 0.9*ha*(2*r.Float64()-1)
		dy, dz = s0*math.Sin(phi), t0-s0*math.Cos(phi)
	} else {
		dy = (1.5 + r.Float64()) * float64(1-2*r.IntN(2))
		dz = 2 * (r.Float64() - 0.5)
	}
	off := geom.V(2+0.5*r.Float64(), dy, dz)
	g := randQuat(r)
	sa = State{Pose: geom.Pose{Q: g.Mul(qa)}}
	sb = State{Pose: geom.Pose{P: g.Rotate(off), Q: g.Mul(qb)}}
	sb.V = g.Rotate(geom.V(-1.2*off.X, 0, 0))
	if !straight {
		sb.V = sb.V.Add(g.Rotate(geom.V(0, 0.05*r.NormFloat64(), 0.05*r.NormFloat64())))
		if r.IntN(2) == 0 {
			sb.W = randUnit(r).Scale(0.2 * r.Float64())
			sa.W = randUnit(r).Scale(0.2 * r.Float64())
		}
	}
	return ma, mb, sa, sb
}

// convexCase returns a random polytope or box at the origin, turning, and
// a cube thrown at it from 3 away along a random direction while turning,
// stopping 0.5 to 1.5 from it.
func convexCase(r *rand.Rand, i int) (ma, mb *mesh.Mesh, sa, sb State) {
	ma = shapes.RandomPolytope(shapes.PolytopeShape(i%3), 8+i%12, 1, uint64(i))
	if r.IntN(4) == 0 {
		ma = shapes.Box(geom.V(0.9, 0.2, 0.4))
	}
	mb = shapes.Cube(1)
	dir := randUnit(r)
	sa = State{Pose: geom.Pose{Q: randQuat(r)}, W: randUnit(r).Scale(0.5 * r.Float64())}
	sb = State{Pose: geom.Pose{P: dir.Scale(3), Q: randQuat(r)}, W: randUnit(r).Scale(r.Float64())}
	sb.V = dir.Scale(-2.5 + r.Float64())
	return ma, mb, sa, sb
}

// TestContactNormalSeparates checks the normal of every first contact of
// convex bodies led by edges into each other (nearly parallel edges
// included) and of random convex pairs, against an oracle that places the
// bodies at the reported time with its own poses (oPose) and brute-forces
// over all their vertices: the plane through the reported point with the
// reported normal has A behind it and B in front within the tolerance
// bound (so the normal points from A to B and separates the bodies where
// they touch), both bodies reach the plane within the bound (the point is
// on both surfaces), and an edge contact's point is within the bound of
// both reported edges. The random set must mix hits and misses and hold
// enough edge-edge contacts to test the edge phase; at most 1% of the
// hits may be unconfirmed.
func TestContactNormalSeparates(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 200
	}
	r := rand.New(rand.NewPCG(*seed, 17))
	var q Scratch
	var dst []Contact
	var hits, edgeEdge, nearParallel, unconfirmed int
	kinds := map[[2]contact.FeatureKind]int{}
	worst := math.Inf(-1)
	for i := 0; i < n; i++ {
		var ma, mb *mesh.Mesh
		var sa, sb State
		if i%4 == 3 {
			ma, mb, sa, sb = convexCase(r, i)
		} else {
			ma, mb, sa, sb = edgeLeadCase(r)
		}
		sha, shb := mustShape(t, ma), mustShape(t, mb)
		var err error
		dst, err = q.Contacts(sha, sa, shb, sb, 1, nil, dst[:0])
		if err != nil {
			t.Fatal(err)
		}
		if len(dst) == 0 {
			continue
		}
		hits++
		c := dst[0]
		if rec := c.Record(); rec.Validate() != nil {
			t.Fatalf("case %d: %v", i, rec.Validate())
		}
		// An unconfirmed contact (an elementary test out of its budget)
		// is no later than the true one, but may be farther apart than
		// the tolerance: only its normal is checked.
		confirmed := c.Status == contact.Hit
		if c.Status == contact.Unconfirmed {
			unconfirmed++
		} else if !confirmed {
			t.Errorf("case %d: %v: status %v, want hit (the bodies start apart)", i, c, c.Status)
		}
		bound := 3 * DefaultRelTolerance * math.Min(sha.radius, shb.radius)
		pa, pb := oPose(sa, c.Time), oPose(sb, c.Time)
		nv, p := c.Normal, c.Point
		d := nv.Dot(p)
		_, hiA := oSupport(ma, pa, nv)
		loB, _ := oSupport(mb, pb, nv)
		worst = math.Max(worst, math.Max(hiA-d, d-loB))
		if hiA > d+bound || loB < d-bound {
			t.Errorf("case %d: %v: A reaches %.3g in front of the contact plane, B %.3g behind it (bound %.3g)", i, c, hiA-d, d-loB, bound)
		}
		if confirmed && (hiA < d-bound || loB > d+bound) {
			t.Errorf("case %d: %v: the point is not on both surfaces: A ends %.3g before it, B starts %.3g after (bound %.3g)", i, c, d-hiA, loB-d, bound)
		}
		kinds[[2]contact.FeatureKind{c.FeatureA.Kind, c.FeatureB.Kind}]++
		if c.FeatureA.Kind == contact.Edge && c.FeatureB.Kind == contact.Edge {
			edgeEdge++
			ea, eb := ma.Edges[c.FeatureA.Index].V, mb.Edges[c.FeatureB.Index].V
			a0, a1 := pa.Apply(ma.Verts[ea[0]]), pa.Apply(ma.Verts[ea[1]])
			b0, b1 := pb.Apply(mb.Verts[eb[0]]), pb.Apply(mb.Verts[eb[1]])
			if da, db := oSegDist(p, a0, a1), oSegDist(p, b0, b1); confirmed && (da > bound || db > bound) {
				t.Errorf("case %d: %v: the point is %.3g from A's edge and %.3g from B's (bound %.3g)", i, c, da, db, bound)
			}
			u, v := a1.Sub(a0), b1.Sub(b0)
			if u.Cross(v).Norm() < 1e-3*u.Norm()*v.Norm() {
				nearParallel++
			}
		}
	}
	rate := float64(hits) / float64(n)
	t.Logf("feature kinds: %v", kinds)
	t.Logf("%d cases, %d hits (%.0f%%, %d unconfirmed), %d edge-edge (%d of nearly parallel edges); worst reach beyond the contact plane %.3g",
		n, hits, 100*rate, unconfirmed, edgeEdge, nearParallel, worst)
	if unconfirmed > hits/100 {
		t.Errorf("%d of %d hits unconfirmed: the edge tests run out of their budget too often", unconfirmed, hits)
	}
	if rate < 0.3 || rate > 0.7 {
		t.Errorf("hit rate %.2f outside [0.3, 0.7]", rate)
	}
	if edgeEdge < hits/4 || nearParallel < edgeEdge/10 {
		t.Errorf("%d edge-edge contacts (%d nearly parallel) of %d hits: too few to test the edge phase", edgeEdge, nearParallel, hits)
	}
}
