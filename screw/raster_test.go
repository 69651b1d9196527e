package screw

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestProjectionMargins checks the margins the projection gives its
// segments (subdivide) against dense sampling of the exact projection
// (math.Atan2, no subdivision): along each segment, the projection of the
// edge at a parameter lies within the segment's margin of the chord at the
// same parameter, and its time coordinate within the segment's time margin
// of the linear interpolation (the correspondence pairWindow relies on).
// The edges are random, many of them close
// to the screw axis, where the projection bends most.
func TestProjectionMargins(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	bad, checked := 0, 0
	for it := 0; it < 20000; it++ {
		d := &Detector{theta: 3 * r.Float64(), g: r.NormFloat64()}
		d.pixel = 0.005 + 0.1*r.Float64()
		d.tres = DefaultTimeResolution
		d.budget = 1 << 20
		d.direct = true
		sc := []float64{0.05, 0.5, 3}[it%3]
		c := geom.Vec3{X: r.NormFloat64() * sc, Y: r.NormFloat64(), Z: r.NormFloat64() * sc}
		dir, _ := geom.Vec3{X: r.NormFloat64(), Y: r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		L := d.pixel * 40 * r.Float64()
		p0, p1 := c.AddScaled(-L/2, dir), c.AddScaled(L/2, dir)
		if p0.Z < 0 && p1.Z < 0 && (p0.X < 0) != (p1.X < 0) || (p0.Z < 0) != (p1.Z < 0) && (p0.X < 0) != (p1.X < 0) {
			continue // may cross the azimuth cut, which edgePieces splits first
		}
		// The margins setup gives for the fast azimuth (the exact one is
		// used below).
		rmax := max(math.Hypot(p0.X, p0.Z), math.Hypot(p1.X, p1.Z)) * (1 + 1e-9)
		d.margin = 2 * atanErr * rmax
		d.smargin = 1e-9 + 2*atanErr*min(1/d.theta, rmax/(2*math.Abs(d.g)))
		exact := func(p geom.Vec3) (float64, float64, float64) { return d.proj(p, math.Atan2(p.X, p.Z)) }
		d.segs[0] = d.segs[0][:0]
		pc := piece{kind: recEdge}
		d.projectSegment(&pc, p0, p1)
		segs := d.segs[0]
		// The parameter range of each segment along the edge: segments
		// are dyadic pieces, emitted in order.
		lo := 0.0
		for i := range segs {
			sg := &segs[i]
			hi := -1.0
			for k := 0; k <= maxDepth; k++ {
				w := math.Ldexp(1, -k)
				if math.Mod(lo, w) != 0 || lo+w > 1 {
					continue
				}
				q := p0.Lerp(p1, lo+w)
				rr, hh, _ := exact(q)
				if math.Abs(rr-sg.r1)+math.Abs(hh-sg.h1) <= 1e-6*(1+math.Abs(rr)+math.Abs(hh)) {
					hi = lo + w
					break
				}
			}
			if hi < 0 {
				t.Fatalf("case %d: segment %d does not end at a dyadic point of the edge", it, i)
			}
			for k := 0; k <= 64; k++ {
				mu := float64(k) / 64
				rr, hh, ss := exact(p0.Lerp(p1, lo+mu*(hi-lo)))
				dist := math.Hypot(sg.r0+mu*(sg.r1-sg.r0)-rr, sg.h0+mu*(sg.h1-sg.h0)-hh)
				ds := math.Abs(sg.s0 + mu*(sg.s1-sg.s0) - ss)
				checked++
				if dist > sg.m || ds > sg.sm {
					bad++
					if bad <= 3 {
						t.Errorf("theta %v g %v pixel %v edge %v-%v, segment %d [%v, %v] at %v: %v from the chord (margin %v), time %v from the interpolation (margin %v)",
							d.theta, d.g, d.pixel, p0, p1, i, lo, hi, mu, dist, sg.m, ds, sg.sm)
					}
				}
			}
			lo = hi
		}
		if lo != 1 {
			t.Fatalf("case %d: the segments end at %v, not at the end of the edge", it, lo)
		}
	}
	if checked < 1000000 {
		t.Errorf("only %d points checked", checked)
	}
	if bad > 0 {
		t.Errorf("%d sampled points outside the margins", bad)
	}
}

// TestProjectAxisEdges projects edges that lie on the screw axis or end on
// it: they run along one azimuth, so they need no splitting for their span
// (an edge on the axis used to be split until the step budget ran out).
func TestProjectAxisEdges(t *testing.T) {
	for _, e := range [][2]geom.Vec3{
		{{Y: -1}, {Y: 1}},                          // on the axis
		{{Y: 0.3}, {X: 0.4, Y: 0.1}},               // one end on the axis
		{{X: -0.2, Z: 0.1}, {Y: 0.5}},              // the other end on it
		{{X: 1e-30, Y: 2}, {Y: -2}},                // within rounding of it
		{{X: 0.5, Z: 0.5}, {X: 0.5, Z: 0.5, Y: 1}}, // parallel to it
	} {
		d := &Detector{theta: 1, g: 0.3}
		d.pixel, d.tres = 0.01, DefaultTimeResolution
		d.budget = 1 << 20
		d.direct = true
		pc := piece{kind: recEdge}
		d.projectSegment(&pc, e[0], e[1])
		if used := 1<<20 - d.budget; used > 4096 {
			t.Errorf("edge %v-%v: %d subdivision steps", e[0], e[1], used)
		}
		if len(d.segs[0]) == 0 {
			t.Errorf("edge %v-%v: no segment", e[0], e[1])
		}
	}
}

// TestProjectionCoversCutEdges projects random edges with the azimuth cut
// in use (edgePieces: split at the cut, the doppel line and the axis, each
// piece on its side of the cut), many passing close to the screw axis so
// that their azimuth sweeps far, and checks that every sampled point of
// the edge, projected with its own azimuth atan2 in (-pi, pi], lies within
// the margins of some emitted segment. A piece whose azimuths jumped by 2 pi
// part of the way along would leave that part on the wrong sheet of the
// screen, where the other body's points never are.
func TestProjectionCoversCutEdges(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	cut := halfPlaneAt(math.Pi)
	bad := 0
	for it := 0; it < 4000; it++ {
		d := &Detector{theta: 0.1 + 2*r.Float64(), g: r.NormFloat64()}
		d.pixel = 0.005 + 0.05*r.Float64()
		d.tres = DefaultTimeResolution
		d.budget = 1 << 20
		d.direct = true
		rmax := 3.0
		d.margin = 1e-9 + 2*atanErr*rmax
		d.smargin = 1e-9 + 2*atanErr*min(1/d.theta, rmax/(2*math.Abs(d.g)))
		// An edge through a point at distance off from the axis.
		off := []float64{1e-6, 1e-3, 0.05, 0.3}[it%4]
		a := 2 * math.Pi * r.Float64()
		c := geom.Vec3{X: off * math.Sin(a), Y: r.NormFloat64(), Z: off * math.Cos(a)}
		dir, _ := geom.Vec3{X: r.NormFloat64(), Y: 0.3 * r.NormFloat64(), Z: r.NormFloat64()}.Normalize()
		l0, l1 := -r.Float64(), r.Float64()
		p0, p1 := c.AddScaled(l0, dir), c.AddScaled(l1, dir)
		d.segs[1] = d.segs[1][:0]
		pc := piece{bi: 1, kind: recEdge}
		d.edgePieces(&pc, p0, p1, cut, halfPlane{}, false)
		segs := d.segs[1]
		for k := 0; k <= 200; k++ {
			q := p0.Lerp(p1, float64(k)/200)
			rr, hh, ss := d.proj(q, math.Atan2(q.X, q.Z))
			if rr < 1e-9 {
				continue // on the axis: every azimuth
			}
			ok := false
			for i := range segs {
				sg := &segs[i]
				dx, dh := sg.r1-sg.r0, sg.h1-sg.h0
				l := dx*dx + dh*dh
				u := 0.0
				if l > 0 {
					u = max(0, min(1, ((rr-sg.r0)*dx+(hh-sg.h0)*dh)/l))
				}
				dist := math.Hypot(sg.r0+u*dx-rr, sg.h0+u*dh-hh)
				if dist <= sg.m+1e-9 && ss >= sg.slo-1e-9 && ss <= sg.shi+1e-9 {
					ok = true
					break
				}
			}
			if !ok {
				bad++
				if bad <= 3 {
					t.Errorf("theta %v g %v edge %v-%v: point %d/200 (azimuth %v) is in no segment", d.theta, d.g, p0, p1, k, math.Atan2(q.X, q.Z))
				}
				break
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of 4000 edges not covered", bad)
	}
}
