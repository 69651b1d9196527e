package meshquery

import (
	"fmt"
	"math"

	"github.com/collide-go/collide/geom"
)

// Proximity is the answer of Separation: how near two placed surfaces
// are, measured against a padding distance. The zero value is
// ProximityUnknown.
type Proximity uint8

const (
	// ProximityUnknown is the zero value, never returned without an error.
	ProximityUnknown Proximity = iota
	// Apart: every pair of triangles is more than the pad apart.
	Apart
	// Within: some pair of triangles may be within the pad (a lower bound
	// of their distance is at most the pad), and no two triangles
	// intersect.
	Within
	// Crossing: some triangle of one surface intersects some triangle of
	// the other (as Intersect).
	Crossing
)

// String names the value.
func (p Proximity) String() string {
	switch p {
	case Apart:
		return "apart"
	case Within:
		return "within"
	case Crossing:
		return "crossing"
	}
	return "unknown"
}

// SeparationOptions tune Separation. The zero value asks for the
// cheapest answer: Within as soon as a pair may be within the pad.
type SeparationOptions struct {
	// Cross: once a pair within the pad is found, go on looking for an
	// intersecting pair, so that Within also says that the surfaces do
	// not intersect.
	Cross bool
	// Exact: a triangle pair that the axis gaps leave within the pad gets
	// its exact distance (PQP's triangle distance, after the exact
	// intersection test) before it counts as within; Apart then holds
	// whenever the surfaces are more than the pad apart, up to rounding.
	Exact bool
}

// Separation classifies the surfaces of a (placed by ta) and b (placed by
// tb) against the distance pad in one descent of both trees: Apart when
// lower bounds of the distance prove every triangle pair more than pad
// apart, then with the smallest of the bounds that proved it (a lower
// bound of the surfaces' distance, above pad); Crossing when two
// triangles intersect (Intersect's exact test); Within otherwise: some
// pair may be within pad (with opt.Exact, is, up to rounding) and, with
// opt.Cross, no two triangles intersect. opt may be nil (the zero
// SeparationOptions).
//
// The bounds are gaps along single unit axes, each below the distance of
// what it separates: node pairs on the axes of Intersect's box test,
// triangle pairs on the coordinate axes and the two triangles' normals
// (and, with opt.Exact, their distance), less the rounding allowance of
// the box tests. Once a pair within pad is found, the query ends, or with
// opt.Cross only pairs that may intersect are descended: a query that is
// not Apart then costs about an Intersect more than the pairs within pad.
// This is the discrete test of conservative advancement (B. Mirtich,
// "Impulse-based Dynamic Simulation of Rigid Body Systems", PhD thesis,
// 1996, Sec. 2.3): a point moving at most L a unit of time stays clear of
// the other surface for bound / L either side of the tested instant.
//
// It returns an error wrapping ErrInput when a tree or transform is nil,
// a transform is not finite or not a rotation, or pad is negative or not
// finite.
func (q *Scratch) Separation(a *Tree, ta *geom.Transform, b *Tree, tb *geom.Transform, pad float64, opt *SeparationOptions) (Proximity, float64, error) {
	if opt == nil {
		opt = &SeparationOptions{}
	}
	if !(pad >= 0 && pad <= math.MaxFloat64) {
		return ProximityUnknown, 0, fmt.Errorf("%w: pad %v", ErrInput, pad)
	}
	if err := q.setup(a, ta, b, tb); err != nil {
		return ProximityUnknown, 0, err
	}
	if n := len(b.nodes); len(q.sb) < n {
		q.sb = make([]sepBox, n)
		q.sstamp = make([]uint32, n)
	}
	if q.gen == 1 {
		// First query, or the generation counter wrapped.
		clear(q.sstamp)
	}
	st := append(q.stack[:0], pairItem{0, 0, 0})
	defer func() { q.stack = st[:0] }()
	bound := math.Inf(1) // smallest gap above pad seen
	within := false      // some pair may be within pad: only crossings are sought
	for len(st) > 0 {
		it := st[len(st)-1]
		st = st[:len(st)-1]
		na, nb := &a.nodes[it.a], &b.nodes[it.b]
		lim := pad
		if within {
			lim = 0
		}
		if g := q.nodeGap(na, nb, it.b, lim); g > lim {
			bound = min(bound, g)
			continue
		}
		if na.left >= 0 || nb.left >= 0 {
			st = q.pushChildren(st, it, na, nb)
			continue
		}
		for i := na.start; i < na.start+na.count; i++ {
			t := &a.tris[i]
			for j := nb.start; j < nb.start+nb.count; j++ {
				x := q.btri(j)
				g := q.triGap(t, x, &q.bx[j], lim)
				if g > lim {
					bound = min(bound, g)
					continue
				}
				if g <= 0 && triTriIntersect(t.a, t.b, t.c, x[0], x[1], x[2]) {
					return Crossing, 0, nil
				}
				if !within && opt.Exact {
					// The triangles do not intersect: their distance.
					r := triTriClosest(&[3]geom.Vec3{t.a, t.b, t.c}, x, math.Inf(1))
					if d := math.Sqrt(r.d2) - q.pad; d > lim {
						bound = min(bound, d)
						continue
					}
				}
				if !opt.Cross {
					return Within, 0, nil
				}
				within, lim = true, 0
			}
		}
	}
	if within {
		return Within, 0, nil
	}
	return Apart, bound, nil
}

// sepBox is B's node box in A's frame: the centre and the half extents
// of the axis-aligned box around B's (rotated) box.
type sepBox struct {
	c, e geom.Vec3
}

// sepBox returns B's node ib in A's frame, computed on first use in a
// query.
func (q *Scratch) sepBox(ib int32, nb *node) *sepBox {
	sb := &q.sb[ib]
	if q.sstamp[ib] != q.gen {
		R, A := &q.r, &q.absR
		c, h := &nb.c, &nb.h
		sb.c = geom.Vec3{
			X: R[0][0]*c.X + R[0][1]*c.Y + R[0][2]*c.Z + q.t.X,
			Y: R[1][0]*c.X + R[1][1]*c.Y + R[1][2]*c.Z + q.t.Y,
			Z: R[2][0]*c.X + R[2][1]*c.Y + R[2][2]*c.Z + q.t.Z,
		}
		sb.e = geom.Vec3{
			X: A[0][0]*h.X + A[0][1]*h.Y + A[0][2]*h.Z,
			Y: A[1][0]*h.X + A[1][1]*h.Y + A[1][2]*h.Z,
			Z: A[2][0]*h.X + A[2][1]*h.Y + A[2][2]*h.Z,
		}
		q.sstamp[ib] = q.gen
	}
	return sb
}

// nodeGap returns a lower bound of the distance between the triangles of
// A's node na and B's node nb (position ib): the largest gap along the
// axes of overlap (A's coordinate axes, B's, the two slabs' normals) less
// the rounding allowance, or the first gap above lim found.
func (q *Scratch) nodeGap(na, nb *node, ib int32, lim float64) float64 {
	sb := q.sepBox(ib, nb)
	ha, hb := &na.h, &nb.h
	p := q.pad
	// c: B's centre minus A's, in A's frame.
	cx, cy, cz := sb.c.X-na.c.X, sb.c.Y-na.c.Y, sb.c.Z-na.c.Z
	g := abs(cx) - ha.X - sb.e.X
	if gy := abs(cy) - ha.Y - sb.e.Y; gy > g {
		g = gy
	}
	if gz := abs(cz) - ha.Z - sb.e.Z; gz > g {
		g = gz
	}
	if g -= p; g > lim {
		return g
	}
	// B's three axes, written out (a loop keeps hb.Get's switch and the
	// bounds checks in the hottest test of the walk).
	R, A := &q.r, &q.absR
	if gk := abs(R[0][0]*cx+R[1][0]*cy+R[2][0]*cz) - (A[0][0]*ha.X + A[1][0]*ha.Y + A[2][0]*ha.Z + hb.X) - p; gk > g {
		if g = gk; g > lim {
			return g
		}
	}
	if gk := abs(R[0][1]*cx+R[1][1]*cy+R[2][1]*cz) - (A[0][1]*ha.X + A[1][1]*ha.Y + A[2][1]*ha.Z + hb.Y) - p; gk > g {
		if g = gk; g > lim {
			return g
		}
	}
	if gk := abs(R[0][2]*cx+R[1][2]*cy+R[2][2]*cz) - (A[0][2]*ha.X + A[1][2]*ha.Y + A[2][2]*ha.Z + hb.Z) - p; gk > g {
		if g = gk; g > lim {
			return g
		}
	}
	if na.thin {
		if gk := q.slabGapA(na, nb, cx, cy, cz) - p; gk > g {
			if g = gk; g > lim {
				return g
			}
		}
	}
	if nb.thin {
		g = max(g, q.slabGapB(na, nb)-p)
	}
	return g
}

// triGap returns a lower bound of the distance between A's triangle t
// and B's triangle x (A's frame, with its normal and box bi): the largest
// gap along the coordinate axes and the two normals, less the rounding
// allowance.
func (q *Scratch) triGap(t *tri, x *[3]geom.Vec3, bi *bInfo, lim float64) float64 {
	g := bi.lo.X - t.hi.X
	if gk := t.lo.X - bi.hi.X; gk > g {
		g = gk
	}
	if gk := bi.lo.Y - t.hi.Y; gk > g {
		g = gk
	}
	if gk := t.lo.Y - bi.hi.Y; gk > g {
		g = gk
	}
	if gk := bi.lo.Z - t.hi.Z; gk > g {
		g = gk
	}
	if gk := t.lo.Z - bi.hi.Z; gk > g {
		g = gk
	}
	if g -= q.pad; g > lim {
		return g
	}
	n := &t.n
	s0, s1, s2 := n.Dot(x[0]), n.Dot(x[1]), n.Dot(x[2])
	g = max(g, min(s0, s1, s2)-t.d-q.pad, t.d-max(s0, s1, s2)-q.pad)
	if g > lim {
		return g
	}
	m := &bi.n
	s0, s1, s2 = m.Dot(t.a), m.Dot(t.b), m.Dot(t.c)
	return max(g, min(s0, s1, s2)-bi.e-q.pad, bi.e-max(s0, s1, s2)-q.pad)
}
