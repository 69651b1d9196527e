package screw

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// Pixel record kinds.
const (
	recEdge uint8 = iota // a real edge of the mesh (sub)segment
	recVert              // a vertex
	recVirt              // a virtual edge: the boundary of a face cut by the azimuth cut
)

// rec is a pixel record (Buss Sec. 9, third step): the part of a projected
// feature in one row of the collision screen, with its h range and its
// time-coordinate range, both widened by the projection margins.
type rec struct {
	hlo, hhi float64
	slo, shi float64
	row      int32
	feat     int32 // edge, vertex or (virtual) face index
	seg      int32 // the projected segment of an edge record
	kind     uint8
}

// segment is a straight piece of a projected edge on the screen, with its
// margin (half a pixel plus the approximation error).
type segment struct {
	r0, h0, r1, h1, m float64
	s0, s1, sm        float64 // time coordinates of the ends, and their margin
	slo, shi          float64 // time range, with margin
	rlo, rhi          float64 // box, with margin
	hlo, hhi          float64
	feat              int32
	kind              uint8
}

// segDist2D returns the distance between the screen segments a and b.
func segDist2D(a, b *segment) float64 {
	// Proper crossing?
	o := func(ax, ay, bx, by, cx, cy float64) float64 { return (bx-ax)*(cy-ay) - (by-ay)*(cx-ax) }
	d1 := o(a.r0, a.h0, a.r1, a.h1, b.r0, b.h0)
	d2 := o(a.r0, a.h0, a.r1, a.h1, b.r1, b.h1)
	d3 := o(b.r0, b.h0, b.r1, b.h1, a.r0, a.h0)
	d4 := o(b.r0, b.h0, b.r1, b.h1, a.r1, a.h1)
	if (d1 > 0) != (d2 > 0) && (d3 > 0) != (d4 > 0) {
		return 0
	}
	pd := func(px, py, x0, y0, x1, y1 float64) float64 {
		dx, dy := x1-x0, y1-y0
		l := dx*dx + dy*dy
		t := 0.0
		if l > 0 {
			t = max(0, min(1, ((px-x0)*dx+(py-y0)*dy)/l))
		}
		ex, ey := x0+t*dx-px, y0+t*dy-py
		return ex*ex + ey*ey
	}
	m := min(pd(a.r0, a.h0, b.r0, b.h0, b.r1, b.h1), pd(a.r1, a.h1, b.r0, b.h0, b.r1, b.h1),
		pd(b.r0, b.h0, a.r0, a.h0, a.r1, a.h1), pd(b.r1, b.h1, a.r0, a.h0, a.r1, a.h1))
	return math.Sqrt(m)
}

const maxDepth = 22

// proj returns the screen coordinates (r, h) and the time coordinate s of a
// screen-frame point with azimuth phi (Sec. 7): h measures position along
// the spiral perpendicular to the flow at radius r, s is the time at which
// the flow carries the point's orbit to h's origin, so the flow adds t to s.
func (d *Detector) proj(p geom.Vec3, phi float64) (r, h, s float64) {
	if d.trans {
		return p.X, p.Z, p.Y / d.g
	}
	if d.small {
		return p.Dot(d.pe1), p.Dot(d.pe2), p.Dot(d.pdir) * d.sinv
	}
	r = math.Sqrt(p.X*p.X + p.Z*p.Z)
	l2 := d.g*d.g + r*r*d.theta*d.theta
	if l2 == 0 {
		return r, p.Y, 0
	}
	h = r * (p.Y*d.theta - phi*d.g) / math.Sqrt(l2)
	s = (p.Y*d.g + phi*r*r*d.theta) / l2
	return r, h, s
}

// piece describes how to assign azimuths along a projected segment.
type piece struct {
	bi   int   // body 0 (A) or 1 (B)
	kind uint8 // record kind
	feat int32
	// With wrap, azimuths are taken on the branch within pi of ref, the
	// azimuth of the piece's midpoint (the piece does not cross the cut,
	// so its azimuths are continuous on that branch).
	wrap   bool
	ref    float64
	shift  float64 // 0 or 2 pi (doppel copy)
	forced bool    // constant azimuth phi (virtual edges on a cut)
	phi    float64
}

func (d *Detector) phiOf(pc *piece, p geom.Vec3) float64 {
	if pc.forced {
		return pc.phi
	}
	// The fast azimuth; its error is in the margins (see setup).
	phi := fastAtan2(p.X, p.Z)
	if pc.wrap {
		// A straight piece that does not cross the cut turns by less
		// than pi about the axis, so each of its points is on the
		// branch within pi of its midpoint. Within the fast azimuth's
		// error of the branch's edge (a piece passing within rounding
		// of the axis), the exact azimuth decides.
		dphi := phi - pc.ref
		if math.Abs(dphi) > math.Pi-azimuthGuard {
			phi = math.Atan2(p.X, p.Z)
			dphi = phi - pc.ref
		}
		if dphi > math.Pi {
			phi -= 2 * math.Pi
		} else if dphi < -math.Pi {
			phi += 2 * math.Pi
		}
	}
	return phi + pc.shift
}

// projectSegment projects the segment p0-p1 by divide and conquer (Sec. 9,
// third step) and emits pixel records for it.
func (d *Detector) projectSegment(pc *piece, p0, p1 geom.Vec3) {
	r0, h0, s0 := d.proj(p0, d.phiOf(pc, p0))
	r1, h1, s1 := d.proj(p1, d.phiOf(pc, p1))
	d.projectProjected(pc, p0, p1, r0, h0, s0, r1, h1, s1)
}

// projectProjected is projectSegment with the end points' projections
// already known.
func (d *Detector) projectProjected(pc *piece, p0, p1 geom.Vec3, r0, h0, s0, r1, h1, s1 float64) {
	if d.ortho {
		d.emit(pc, r0, h0, s0, r1, h1, s1, d.margin, d.smargin)
		return
	}
	d.subdivide(pc, p0, p1, r0, h0, s0, r1, h1, s1, 0)
}

func (d *Detector) subdivide(pc *piece, p0, p1 geom.Vec3, r0, h0, s0, r1, h1, s1 float64, depth int) {
	if d.budget--; d.budget < 0 {
		return
	}
	pm := p0.Add(p1).Scale(0.5)
	phm := d.phiOf(pc, pm)
	rm, hm, sm := d.proj(pm, phm)
	dr := math.Abs(rm - (r0+r1)/2)
	dh := math.Abs(hm - (h0+h1)/2)
	ds := math.Abs(sm - (s0+s1)/2)
	dev := max(dr, dh)
	long := (r1-r0)*(r1-r0)+(h1-h0)*(h1-h0) > 1024*d.pixel*d.pixel
	// The azimuth span of the segment about the screw axis, by its
	// tangent (a bound of the span): where it turns by more than
	// maxSpan the projection is far from a parabola (an edge passing
	// close to the axis) and the midpoint says little.
	cr := math.Abs(p0.X*p1.Z - p0.Z*p1.X)
	dt := p0.X*p1.X + p0.Z*p1.Z
	// A piece with an end on the axis runs along one azimuth.
	ux, uz := p1.X-p0.X, p1.Z-p0.Z
	onAxis := min(p0.X*p0.X+p0.Z*p0.Z, p1.X*p1.X+p1.Z*p1.Z) <= onAxisRel2*(ux*ux+uz*uz)
	wide := !d.trans && !onAxis && (dt <= 0 || cr > maxSpanTan*dt)
	if depth >= maxDepth || (dev <= d.pixel && ds <= d.tres/2 && !long && !wide) {
		// The curve lies within about twice the midpoint deviation of its
		// chord, point by point, once its azimuth span is small (dense
		// sampling of random edges finds none farther,
		// TestProjectionMargins): widen the segment by that much plus an
		// eighth of a pixel. Its time coordinate is within sCurve of the
		// linear interpolation.
		sm := d.smargin
		if !d.trans {
			sm += d.sCurve(p0, p1, r0, r1, phm, cr, dt)
		}
		d.emit(pc, r0, h0, s0, r1, h1, s1, d.margin+2*dev+d.pixel/8, sm)
		return
	}
	d.subdivide(pc, p0, pm, r0, h0, s0, rm, hm, sm, depth+1)
	d.subdivide(pc, pm, p1, rm, hm, sm, r1, h1, s1, depth+1)
}

// sCurve bounds the distance between the time coordinate s along the
// projection of segment p0-p1 (not crossing the azimuth cut) and its linear
// interpolation: an eighth of a bound of the second derivative S2 of s along
// the segment. With u = p1 - p0 and U = |u_xz|^2, s = A/B for
// A = y g + phi r^2 theta and B = g^2 + r^2 theta^2. Along a line,
// d(phi r^2) = c + phi d(r^2) with c = p_xz x u_xz constant,
// d(r^2) = 2 p_xz.u_xz and dd(r^2) = 2U, so |ddA| <= 2 theta U (1 + |phi|),
// |dA| <= |u_y g| + theta r sqrt(U) (1 + 2|phi|), |dB| <= 2 theta^2 r sqrt(U),
// ddB = 2 theta^2 U, and S2 = (ddA - 2 dA dB/B - s (ddB - 2 dB^2/B)) / B.
// r is at most its larger end value (r is convex along a line), B at least
// its value at the point closest to the axis, and |phi| at most the
// midpoint's plus the span.
func (d *Detector) sCurve(p0, p1 geom.Vec3, r0, r1, phm, cr, dt float64) float64 {
	ux, uy, uz := p1.X-p0.X, p1.Y-p0.Y, p1.Z-p0.Z
	U := ux*ux + uz*uz
	su := math.Sqrt(U)
	rmax := max(r0, r1)
	// Closest approach of the xz segment to the axis.
	rmin := 0.0
	if U > 0 {
		l := max(0, min(1, -(p0.X*ux+p0.Z*uz)/U))
		x, z := p0.X+l*ux, p0.Z+l*uz
		rmin = math.Sqrt(x*x + z*z)
	}
	span := math.Pi
	if dt > 0 {
		span = cr / dt // tan(span) >= span
	}
	ph := math.Abs(phm) + span
	th, g := d.theta, math.Abs(d.g)
	bmin := g*g + rmin*rmin*th*th
	if !(bmin > 0) {
		return math.Inf(1)
	}
	ymax := max(math.Abs(p0.Y), math.Abs(p1.Y))
	smax := (ymax*g + ph*rmax*rmax*th) / bmin
	a1 := math.Abs(uy)*g + th*rmax*su*(1+2*ph)
	a2 := 2 * th * U * (1 + ph)
	b1 := 2 * th * th * rmax * su
	b2 := 2 * th * th * U
	s2 := (a2 + 2*a1*b1/bmin + smax*(b2+2*b1*b1/bmin)) / bmin
	return s2 / 8 * (1 + relPad)
}

// maxSpanTan is the tangent of the largest azimuth span (0.5 radians) of a
// projected segment.
var maxSpanTan = math.Tan(0.5)

// emit rasterizes the straight screen segment (r0,h0,s0)-(r1,h1,s1) into one
// record per row it meets (the rows' Bresenham runs merged, as Sec. 9 does),
// widened by m in position and sm in time.
func (d *Detector) emit(pc *piece, r0, h0, s0, r1, h1, s1, m, sm float64) {
	lo, hi := min(r0, r1), max(r0, r1)
	seg := int32(len(d.segs[pc.bi]))
	d.segs[pc.bi] = append(d.segs[pc.bi], segment{r0: r0, h0: h0, r1: r1, h1: h1, m: m, s0: s0, s1: s1, sm: sm,
		slo: min(s0, s1) - sm, shi: max(s0, s1) + sm, feat: pc.feat, kind: pc.kind,
		rlo: lo - m, rhi: hi + m, hlo: min(h0, h1) - m, hhi: max(h0, h1) + m})
	if d.direct {
		return
	}
	k0 := int(math.Floor((lo - m - d.r0) / d.rowH))
	k1 := int(math.Floor((hi + m - d.r0) / d.rowH))
	if k0 < 0 {
		k0 = 0
	}
	if k1 >= d.nrows {
		k1 = d.nrows - 1
	}
	dr := r1 - r0
	for k := k0; k <= k1; k++ {
		la, lb := 0.0, 1.0
		if dr != 0 {
			bl := d.r0 + float64(k)*d.rowH - m
			bh := bl + d.rowH + 2*m
			la, lb = (bl-r0)/dr, (bh-r0)/dr
			if la > lb {
				la, lb = lb, la
			}
			la = max(la, 0)
			lb = min(lb, 1)
			if la > lb {
				continue
			}
		}
		ha, hb := h0+la*(h1-h0), h0+lb*(h1-h0)
		sa, sb := s0+la*(s1-s0), s0+lb*(s1-s0)
		d.push(pc.bi, rec{
			hlo: min(ha, hb) - m, hhi: max(ha, hb) + m,
			slo: min(sa, sb) - sm, shi: max(sa, sb) + sm,
			row: int32(k), feat: pc.feat, kind: pc.kind, seg: seg,
		})
	}
}

// pushVert records the projection (r, h, s) of vertex v of body bi.
func (d *Detector) pushVert(bi int, v int32, r, h, s float64) {
	k := int(math.Floor((r - d.r0) / d.rowH))
	if k < 0 || k >= d.nrows {
		return
	}
	if d.direct {
		d.vpts[bi] = append(d.vpts[bi], segment{r0: r, h0: h, r1: r, h1: h, s0: s, s1: s, slo: s, shi: s, feat: v, kind: recVert})
		return
	}
	d.push(bi, rec{hlo: h, hhi: h, slo: s, shi: s, row: int32(k), feat: v, kind: recVert})
}

// push appends a record to body bi's list of row k.
func (d *Detector) push(bi int, r rec) {
	d.next[bi] = append(d.next[bi], d.rowHead[bi][r.row])
	d.rowHead[bi][r.row] = int32(len(d.recs[bi]))
	if r.kind == recVert {
		d.rowVerts[bi][r.row]++
	}
	d.recs[bi] = append(d.recs[bi], r)
}

// halfPlane is {p : e.p = 0, dd.p >= 0}, a half-plane bounded by the screw
// axis at azimuth phi.
type halfPlane struct {
	e, dd geom.Vec3
}

func halfPlaneAt(phi float64) halfPlane {
	s, c := math.Sincos(phi)
	return halfPlane{e: geom.Vec3{X: c, Z: -s}, dd: geom.Vec3{X: s, Z: c}}
}

// rasterize builds the pixel records of both bodies. It returns false when
// the projection exceeded its budget of subdivision steps (the records are
// then incomplete).
func (d *Detector) rasterize() bool {
	d.recs[0] = d.recs[0][:0]
	d.recs[1] = d.recs[1][:0]
	d.next[0] = d.next[0][:0]
	d.next[1] = d.next[1][:0]
	d.segs[0] = d.segs[0][:0]
	d.segs[1] = d.segs[1][:0]
	d.vpts[0] = d.vpts[0][:0]
	d.vpts[1] = d.vpts[1][:0]
	ne := [2]int{}
	for bi, bd := range [2]*body{&d.a, &d.b} {
		for _, k := range bd.edge {
			if k {
				ne[bi]++
			}
		}
	}
	d.direct = !d.pixelRows
	d.useGrid = ne[0]*ne[1] > directPairs
	d.budget = maxProjectionSteps + projectionStepsPerEdge*(ne[0]+ne[1])
	// Row range: the overlap of the bodies' r ranges (r is invariant under
	// the motion).
	loA, hiA := d.rRange(&d.a)
	loB, hiB := d.rRange(&d.b)
	lo, hi := max(loA, loB)-d.margin, min(hiA, hiB)+d.margin
	if hi < lo {
		d.nrows = 0
		return true
	}
	d.r0 = lo
	d.nrows = int((hi-lo)/d.rowH) + 1
	for bi := range d.rowHead {
		if d.direct {
			break // no rows
		}
		d.rowHead[bi] = grow(d.rowHead[bi], d.nrows)
		for k := range d.rowHead[bi] {
			d.rowHead[bi][k] = -1
		}
		d.rowVerts[bi] = grow(d.rowVerts[bi], d.nrows)
		clear(d.rowVerts[bi])
	}
	d.stamp++
	if d.stamp == 0 { // wrapped around: forget every stamp
		d.stamp = 1
		clear(d.projDone[0])
		clear(d.projDone[1])
	}
	needCut := !d.ortho && d.cutNeeded()
	cut := halfPlaneAt(math.Pi)
	dop := halfPlaneAt(-math.Pi + d.theta)
	for bi, bd := range [2]*body{&d.a, &d.b} {
		m := bd.m
		if !needCut {
			// Project every kept vertex and every end of a kept edge
			// once; edges reuse the projections.
			bd.proj = grow(bd.proj, len(bd.pos))
			done := d.projDone[bi]
			if cap(done) < len(bd.pos) {
				done = make([]uint32, len(bd.pos), len(bd.pos)*3/2)
			}
			done = done[:len(bd.pos)]
			d.projDone[bi] = done
			for vi := range bd.pos {
				if !bd.vert[vi] {
					continue
				}
				pr := d.projVert(bd, done, vi)
				d.pushVert(bi, int32(vi), pr[0], pr[1], pr[2])
			}
			for ei, e := range m.Edges {
				if !bd.edge[ei] {
					continue
				}
				pc := piece{bi: bi, kind: recEdge, feat: int32(ei)}
				a, b := d.projVert(bd, done, int(e.V[0])), d.projVert(bd, done, int(e.V[1]))
				d.projectProjected(&pc, bd.pos[e.V[0]], bd.pos[e.V[1]], a[0], a[1], a[2], b[0], b[1], b[2])
			}
			continue
		}
		for ei, e := range m.Edges {
			if !bd.edge[ei] {
				continue
			}
			p0, p1 := bd.pos[e.V[0]], bd.pos[e.V[1]]
			pc := piece{bi: bi, kind: recEdge, feat: int32(ei)}
			d.edgePieces(&pc, p0, p1, cut, dop, bi == 0)
		}
		for vi, p := range bd.pos {
			if !bd.vert[vi] {
				continue
			}
			d.vertexRecords(bi, int32(vi), p, needCut)
		}
		if needCut {
			for f := range bd.face {
				if !bd.face[f] {
					continue
				}
				if bi == 0 {
					d.virtualEdges(bd, 0, f, cut, -math.Pi)
					d.virtualEdges(bd, 0, f, dop, math.Pi+d.theta)
				} else {
					d.virtualEdges(bd, 1, f, cut, math.Pi)
					d.virtualEdges(bd, 1, f, cut, -math.Pi)
				}
			}
		}
	}
	return d.budget >= 0
}

// projVert returns the projection of vertex vi of bd when no cut is
// needed, computing it on first use in the current query.
func (d *Detector) projVert(bd *body, done []uint32, vi int) *[3]float64 {
	pr := &bd.proj[vi]
	if done[vi] == d.stamp {
		return pr
	}
	done[vi] = d.stamp
	p := bd.pos[vi]
	phi := 0.0
	if !d.ortho {
		phi = fastAtan2(p.X, p.Z)
	}
	r, h, s := d.proj(p, phi)
	*pr = [3]float64{r, h, s}
	return pr
}

// rRange returns the r range of a body (r is invariant under the motion),
// from its bounding sphere.
func (d *Detector) rRange(bd *body) (lo, hi float64) {
	c := bd.center
	R := bd.info.radius * (1 + relPad)
	if d.trans {
		return c.X - R, c.X + R
	}
	if d.small {
		r := c.Dot(d.pe1)
		return r - R, r + R
	}
	rc := hypot(c.X, c.Z)
	return max(0, rc-R), rc + R
}

// cutNeeded reports whether any part of the bodies may lie on the azimuth
// cut or (for A) in the doppel wedge [-pi, -pi+theta], judged from bounding
// spheres (Sec. 9 places the frame so this is rarely needed).
func (d *Detector) cutNeeded() bool {
	check := func(bd *body, lo float64) bool {
		c := d.screenCenter(bd)
		rc := hypot(c.X, c.Z)
		R := bd.info.radius * 1.000001
		if rc <= R {
			return true
		}
		// The fast azimuth, with its error added to the sphere's
		// angular radius.
		w := math.Asin(R/rc) + 2*atanErr
		phi := fastAtan2(c.X, c.Z)
		return phi-w <= lo || phi+w >= math.Pi
	}
	return check(&d.a, -math.Pi+d.theta) || check(&d.b, -math.Pi)
}

func (d *Detector) screenCenter(bd *body) geom.Vec3 { return bd.center }

// edgePieces splits an edge where it crosses the cut half-plane, the doppel
// half-plane (A only) or the axis, and projects each piece, twice when it
// lies in A's doppel wedge (Sec. 8).
func (d *Detector) edgePieces(pc *piece, p0, p1 geom.Vec3, cut, dop halfPlane, isA bool) {
	var br [5]float64
	n := 0
	br[n] = 0
	n++
	add := func(hp halfPlane) {
		e0, e1 := hp.e.Dot(p0), hp.e.Dot(p1)
		if (e0 < 0) != (e1 < 0) && e0 != e1 {
			l := e0 / (e0 - e1)
			if l > 0 && l < 1 && hp.dd.Dot(p0.Lerp(p1, l)) > 0 {
				br[n] = l
				n++
			}
		}
	}
	add(cut)
	if isA {
		add(dop)
	}
	// Exact passage through the axis.
	dx, dz := p1.X-p0.X, p1.Z-p0.Z
	if l := dx*dx + dz*dz; l > 0 {
		t := -(p0.X*dx + p0.Z*dz) / l
		if t > 0 && t < 1 {
			x, z := p0.X+t*dx, p0.Z+t*dz
			if x*x+z*z <= onAxisRel2*l {
				br[n] = t
				n++
			}
		}
	}
	br[n] = 1
	n++
	// Sort the (at most 5) breakpoints.
	for i := 1; i < n; i++ {
		for j := i; j > 0 && br[j] < br[j-1]; j-- {
			br[j], br[j-1] = br[j-1], br[j]
		}
	}
	for i := 0; i+1 < n; i++ {
		la, lb := br[i], br[i+1]
		if lb <= la {
			continue
		}
		qa, qb := p0.Lerp(p1, la), p0.Lerp(p1, lb)
		d.projectPiece(pc, qa, qb, isA)
	}
}

// projectPiece projects a piece that does not cross the cut, choosing the
// side of the cut from its midpoint, plus its doppel copy when it lies in
// A's doppel wedge.
func (d *Detector) projectPiece(pc *piece, qa, qb geom.Vec3, isA bool) {
	pm := qa.Add(qb).Scale(0.5)
	refs := [2]float64{math.Atan2(pm.X, pm.Z)}
	ns := 1
	if pm.X == 0 && pm.Z < 0 { // lies on the cut itself: both sides
		refs = [2]float64{math.Pi, -math.Pi}
		ns = 2
	}
	pc.wrap = true
	for _, ref := range refs[:ns] {
		pc.ref, pc.shift = ref, 0
		d.projectSegment(pc, qa, qb)
		if isA && ref <= -math.Pi+d.theta+cutAngleTol {
			pc.shift = 2 * math.Pi
			d.projectSegment(pc, qa, qb)
			pc.shift = 0
		}
	}
}

// vertexRecords emits the records of a vertex (two when it lies on the cut
// or, for A, in the doppel wedge).
func (d *Detector) vertexRecords(bi int, v int32, p geom.Vec3, needCut bool) {
	put := func(phi float64) {
		r, h, s := d.proj(p, phi)
		d.pushVert(bi, v, r, h, s)
	}
	if d.ortho {
		put(0)
		return
	}
	phi := math.Atan2(p.X, p.Z)
	put(phi)
	if !needCut {
		return
	}
	if p.Z < 0 && math.Abs(p.X) <= cutAngleTol*math.Abs(p.Z) {
		put(-phi) // on the cut: both +pi and -pi
		if bi == 0 && -math.Abs(phi) <= -math.Pi+d.theta {
			put(math.Pi + math.Abs(phi))
		}
		return
	}
	if bi == 0 && phi <= -math.Pi+d.theta {
		put(phi + 2*math.Pi)
	}
}

// virtualEdges emits the virtual edges of face f of body bi where it meets
// the half-plane hp, projected at the fixed azimuth phi (Figs. 10, 11).
func (d *Detector) virtualEdges(bd *body, bi, f int, hp halfPlane, phi float64) {
	loop := bd.m.Face(f)
	neg, pos := false, false
	for _, v := range loop {
		x := hp.e.Dot(bd.pos[v])
		if x < 0 {
			neg = true
		} else if x > 0 {
			pos = true
		}
	}
	if !neg || !pos {
		return
	}
	dir := hp.e.Cross(bd.nrm[f])
	pts := d.vbuf[:0]
	n := len(loop)
	for i := range loop {
		a, b := bd.pos[loop[i]], bd.pos[loop[(i+1)%n]]
		ea, eb := hp.e.Dot(a), hp.e.Dot(b)
		if (ea < 0) != (eb < 0) {
			pts = append(pts, a.Lerp(b, ea/(ea-eb)))
		}
	}
	for i := 1; i < len(pts); i++ {
		for j := i; j > 0 && pts[j].Dot(dir) < pts[j-1].Dot(dir); j-- {
			pts[j], pts[j-1] = pts[j-1], pts[j]
		}
	}
	pc := piece{bi: bi, kind: recVirt, feat: int32(f), forced: true, phi: phi}
	for i := 0; i+1 < len(pts); i += 2 {
		a, b := pts[i], pts[i+1]
		da, db := hp.dd.Dot(a), hp.dd.Dot(b)
		if da < 0 && db < 0 {
			continue
		}
		if da < 0 {
			a = a.Lerp(b, da/(da-db))
		} else if db < 0 {
			b = a.Lerp(b, da/(da-db))
		}
		d.projectSegment(&pc, a, b)
	}
	d.vbuf = pts[:0]
}

// pairWindow returns the window of collision times t = s_A - s_B that two
// projected edge segments a (of A) and b (of B) allow, and false when they
// cannot meet. The projected curves lie within a.m and b.m of their chords,
// point by point along the edges' parameters, and their time coordinates
// within a.sm and b.sm of the linear interpolation (the margins of
// subdivide). Where the curves meet, the chords come within M = a.m + b.m of
// each other; for chords at an angle phi that confines the parameter on
// each chord to within M / (|chord| sin phi) of the crossing of their
// lines, and the time to the interpolated times there.
func pairWindow(a, b *segment) (tlo, thi float64, ok bool) {
	dax, dah := a.r1-a.r0, a.h1-a.h0
	dbx, dbh := b.r1-b.r0, b.h1-b.h0
	cr := dax*dbh - dah*dbx
	la, lb := hypot(dax, dah), hypot(dbx, dbh)
	l0, l1, u0, u1 := 0.0, 1.0, 0.0, 1.0
	M := a.m + b.m
	if math.Abs(cr) > crossSinMin*la*lb {
		// Crossing of the lines: a(l) = b(u).
		qx, qh := b.r0-a.r0, b.h0-a.h0
		ls := (qx*dbh - qh*dbx) / cr
		us := (qx*dah - qh*dax) / cr
		dl := M * lb / math.Abs(cr)
		du := M * la / math.Abs(cr)
		l0, l1 = max(l0, ls-dl), min(l1, ls+dl)
		u0, u1 = max(u0, us-du), min(u1, us+du)
		if l0 > l1 || u0 > u1 {
			return 0, 0, false
		}
	}
	sa0, sa1 := a.s0+l0*(a.s1-a.s0), a.s0+l1*(a.s1-a.s0)
	sb0, sb1 := b.s0+u0*(b.s1-b.s0), b.s0+u1*(b.s1-b.s0)
	sm := a.sm + b.sm
	tlo = min(sa0, sa1) - max(sb0, sb1) - sm
	thi = max(sa0, sa1) - min(sb0, sb1) + sm
	return tlo, thi, true
}

// hypot is sqrt(x^2 + y^2) without math.Hypot's care for overflow, which
// the coordinates here (at most geom.MaxCoord) cannot reach.
func hypot(x, y float64) float64 { return math.Sqrt(x*x + y*y) }
