package screw

import (
	"math"
	"slices"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// cand is a candidate feature pair found on the screen, with the window of
// collision times its pixel records allow.
type cand struct {
	kind     contact.PairKind
	a, b     int32
	tlo, thi float64
}

// candSet is a hash set of candidates (the paper's hash tables of steps five
// and six), cleared in time proportional to its content.
type candSet struct {
	keys []uint64 // key+1, 0 = empty
	idx  []int32
	list []cand
}

func (cs *candSet) reset() {
	for i := range cs.list {
		c := &cs.list[i]
		k := candKey(c.kind, c.a, c.b)
		for s := cs.slot(k); ; s = (s + 1) & (len(cs.keys) - 1) {
			if cs.keys[s] == 0 {
				break
			}
			cs.keys[s] = 0
		}
	}
	cs.list = cs.list[:0]
	if len(cs.keys) == 0 {
		cs.keys = make([]uint64, 1024)
		cs.idx = make([]int32, 1024)
	}
}

func candKey(k contact.PairKind, a, b int32) uint64 {
	return uint64(k)<<62 | uint64(uint32(a))<<31 | uint64(uint32(b))
}

func (cs *candSet) slot(k uint64) int {
	h := (k + 1) * 0x9E3779B97F4A7C15
	return int(h>>40) & (len(cs.keys) - 1)
}

// find returns the candidate (kind, a, b) or nil.
func (cs *candSet) find(kind contact.PairKind, a, b int32) *cand {
	if len(cs.keys) == 0 {
		return nil
	}
	k := candKey(kind, a, b)
	for s := cs.slot(k); cs.keys[s] != 0; s = (s + 1) & (len(cs.keys) - 1) {
		if cs.keys[s] == k+1 {
			return &cs.list[cs.idx[s]]
		}
	}
	return nil
}

// add inserts (or widens the time window of) a candidate.
func (cs *candSet) add(kind contact.PairKind, a, b int32, tlo, thi float64) {
	if 2*(len(cs.list)+1) > len(cs.keys) {
		cs.rehash()
	}
	k := candKey(kind, a, b)
	s := cs.slot(k)
	for {
		switch cs.keys[s] {
		case 0:
			cs.keys[s] = k + 1
			cs.idx[s] = int32(len(cs.list))
			cs.list = append(cs.list, cand{kind: kind, a: a, b: b, tlo: tlo, thi: thi})
			return
		case k + 1:
			c := &cs.list[cs.idx[s]]
			c.tlo = min(c.tlo, tlo)
			c.thi = max(c.thi, thi)
			return
		}
		s = (s + 1) & (len(cs.keys) - 1)
	}
}

func (cs *candSet) rehash() {
	n := 2 * len(cs.keys)
	cs.keys = make([]uint64, n)
	cs.idx = make([]int32, n)
	for i, c := range cs.list {
		k := candKey(c.kind, c.a, c.b)
		s := cs.slot(k)
		for cs.keys[s] != 0 {
			s = (s + 1) & (n - 1)
		}
		cs.keys[s] = k + 1
		cs.idx[s] = int32(i)
	}
}

// spanSet holds, for the current row, the h and time range of every face
// whose boundary records were seen in that row.
type spanSet struct {
	lo, hi  []float64
	stamp   []int32
	touched []int32
}

func (sp *spanSet) reset(nf int) {
	sp.lo = grow(sp.lo, nf)
	sp.hi = grow(sp.hi, nf)
	sp.stamp = grow(sp.stamp, nf)
	clear(sp.stamp)
	sp.touched = sp.touched[:0]
}

func (sp *spanSet) put(f int32, row int32, r *rec) {
	if sp.stamp[f] != row+1 {
		sp.stamp[f] = row + 1
		sp.lo[f], sp.hi[f] = r.hlo, r.hhi
		sp.touched = append(sp.touched, f)
		return
	}
	sp.lo[f] = min(sp.lo[f], r.hlo)
	sp.hi[f] = max(sp.hi[f], r.hhi)
}

// shellGaps is Ciura's gap sequence for shell sort.
var shellGaps = [...]int{701, 301, 132, 57, 23, 10, 4, 1}

// rowRecords collects body bi's records of row k (Sec. 9 step four
// bucket-sorts by r) and sorts them by h_min.
func (d *Detector) rowRecords(bi, k int) []int32 {
	idx := d.rowIdx[bi][:0]
	rs := d.recs[bi]
	for i := d.rowHead[bi][k]; i >= 0; i = d.next[bi][i] {
		idx = append(idx, i)
	}
	// Shell sort by h_min (Sec. 9 step four shell-sorts the rows).
	for _, gap := range shellGaps {
		if gap >= len(idx) {
			continue
		}
		for i := gap; i < len(idx); i++ {
			x := idx[i]
			h := rs[x].hlo
			j := i
			for ; j >= gap && rs[idx[j-gap]].hlo > h; j -= gap {
				idx[j] = idx[j-gap]
			}
			idx[j] = x
		}
	}
	d.rowIdx[bi] = idx
	return idx
}

// scan finds the candidate pairs: vertices of one body inside the span of a
// face of the other (step five, both ways) and crossing edges (step six).
func (d *Detector) scan() {
	d.cands.reset()
	if d.nrows == 0 {
		return
	}
	if d.direct {
		if d.useGrid || len(d.segs[0])*len(d.segs[1]) > directSegPairs {
			d.scanGrid()
		} else {
			d.scanDirect()
		}
		return
	}
	d.span[0].reset(d.a.m.NumFaces())
	d.span[1].reset(d.b.m.NumFaces())
	edgesA, edgesB := d.a.m.Edges, d.b.m.Edges
	for k := 0; k < d.nrows; k++ {
		if d.rowHead[0][k] < 0 || d.rowHead[1][k] < 0 {
			continue
		}
		ia := d.rowRecords(0, k)
		ib := d.rowRecords(1, k)
		ra, rb := d.recs[0], d.recs[1]
		row := int32(k)
		// Step six: edge crossings, by a merge of the two h_min orders.
		actA, actB := d.active[0][:0], d.active[1][:0]
		i, j := 0, 0
		for i < len(ia) || j < len(ib) {
			if j >= len(ib) || i < len(ia) && ra[ia[i]].hlo <= rb[ib[j]].hlo {
				x := &ra[ia[i]]
				i++
				if x.kind == recEdge {
					actB = d.pairActive(x, actB, rb, true)
					actA = append(actA, ia[i-1])
				}
			} else {
				y := &rb[ib[j]]
				j++
				if y.kind == recEdge {
					actA = d.pairActive(y, actA, ra, false)
					actB = append(actB, ib[j-1])
				}
			}
		}
		d.active[0], d.active[1] = actA, actB
		// Step five: face spans of this row, then vertices inside them.
		for bi, ix := range [2][]int32{ia, ib} {
			if d.rowVerts[1-bi][k] == 0 {
				continue // no vertex of the other body in this row
			}
			rs := d.recs[bi]
			sp := &d.span[bi]
			sp.touched = sp.touched[:0]
			bd := &d.a
			edges := edgesA
			if bi == 1 {
				bd, edges = &d.b, edgesB
			}
			for _, x := range ix {
				r := &rs[x]
				switch r.kind {
				case recEdge:
					e := edges[r.feat]
					if e.Left >= 0 && bd.face[e.Left] {
						sp.put(e.Left, row, r)
					}
					if e.Right >= 0 && bd.face[e.Right] {
						sp.put(e.Right, row, r)
					}
				case recVirt:
					sp.put(r.feat, row, r)
				}
			}
		}
		// Vertices of each body inside the other body's face spans:
		// B's against A's faces (FV), A's against B's (VF).
		for vb, ix := range [2][]int32{ib, ia} {
			bi := 1 - vb // the body of the vertices
			if d.rowVerts[bi][k] == 0 {
				continue
			}
			rs := d.recs[bi]
			sp := &d.span[1-bi]
			for _, x := range ix {
				v := &rs[x]
				if v.kind != recVert {
					continue
				}
				for _, f := range sp.touched {
					if v.hlo >= sp.lo[f] && v.hlo <= sp.hi[f] {
						if bi == 1 {
							d.addVertexCand(contact.FaceVertex, f, v.feat)
						} else {
							d.addVertexCand(contact.VertexFace, v.feat, f)
						}
					}
				}
			}
		}
	}
}

// pairActive pairs edge record r (of A when rIsA, else of B) with the
// other body's active records act (indices into recs) that still reach r's
// h_min, dropping the others from act, and returns act.
func (d *Detector) pairActive(r *rec, act []int32, recs []rec, rIsA bool) []int32 {
	w := 0
	for _, k := range act {
		o := &recs[k]
		if o.hhi < r.hlo {
			continue
		}
		act[w] = k
		w++
		if rIsA {
			d.pairEE(r, o)
		} else {
			d.pairEE(o, r)
		}
	}
	return act[:w]
}

// edgeWindow clips the time window [tlo, thi] that the screen allows edge
// ea of A and edge eb of B to [0, 1] and to the intervals in which both
// edges can touch the other body (cull.go); ok is false when nothing is
// left.
func (d *Detector) edgeWindow(ea, eb int32, tlo, thi float64) (lo, hi float64, ok bool) {
	if thi < 0 || tlo > 1 {
		return 0, 0, false
	}
	m := d.emask[0][ea] & d.emask[1][eb]
	if m == 0 {
		return 0, 0, false
	}
	wlo, whi := d.sw.window(m)
	lo, hi = max(tlo, wlo), min(thi, whi)
	return lo, hi, hi >= lo
}

// pairEE records a potential edge-edge collision of two overlapping edge
// records whose time ranges allow a collision time in [0, 1].
func (d *Detector) pairEE(x, y *rec) {
	tlo, thi, ok := d.edgeWindow(x.feat, y.feat, x.slo-y.shi, x.shi-y.slo)
	if !ok {
		return
	}
	if c := d.cands.find(contact.EdgeEdge, x.feat, y.feat); c != nil {
		c.tlo, c.thi = min(c.tlo, tlo), max(c.thi, thi)
		return
	}
	if d.rowH > d.pixel {
		sa, sb := &d.segs[0][x.seg], &d.segs[1][y.seg]
		if segDist2D(sa, sb) > sa.m+sb.m {
			return
		}
	}
	d.cands.add(contact.EdgeEdge, x.feat, y.feat, tlo, thi)
}

// addVertexCand records a potential vertex-face (VF: vertex a of A, face b
// of B) or face-vertex (FV: face a of A, vertex b of B) collision, in the
// time window in which both features can touch the other body.
func (d *Detector) addVertexCand(kind contact.PairKind, a, b int32) {
	var m uint32
	if kind == contact.VertexFace {
		m = d.vmask[0][a] & d.fmask[1][b]
	} else {
		m = d.fmask[0][a] & d.vmask[1][b]
	}
	if m == 0 {
		return
	}
	lo, hi := d.sw.window(m)
	f0, L := d.vertexPlane(kind, a, b)
	if two := kind == contact.VertexFace && d.b.two || kind == contact.FaceVertex && d.a.two; two {
		// Either side of the plane may be crossed: the distance
		// from it counts.
		f0 = math.Abs(f0)
	}
	if f0 > 0 {
		// The vertex starts in front of the face's plane and its
		// distance from it falls by at most L per unit time: it cannot
		// reach the plane before f0 / L.
		if !(f0 <= hi*L*(1+relPad)) {
			return
		}
		lo = max(lo, f0/L*(1-relPad)-timeAbsPad)
	}
	d.cands.add(kind, a, b, lo, hi)
}

// vertexPlane returns the signed distance f0 at time 0 of the vertex of a VF
// (vertex a of A, face b of B) or FV (face a of A, vertex b of B) pair from
// the face's plane, and L, a bound of how fast it changes: the vertex moves
// on a helix of radius r about the screw axis at speed sqrt(g^2 + theta^2
// r^2) relative to the face.
func (d *Detector) vertexPlane(kind contact.PairKind, a, b int32) (f0, L float64) {
	var x, n geom.Vec3
	var off float64
	if kind == contact.FaceVertex {
		x, n, off = d.b.pos[b], d.a.nrm[a], d.a.off[a]
	} else {
		x, n, off = d.a.pos[a], d.b.nrm[b], d.b.off[b]
	}
	f0 = n.Dot(x) - off
	wx, wz := x.X-d.u.X, x.Z-d.u.Z
	L = math.Abs(d.g*n.Y) + d.theta*hypot(n.X*wx+n.Z*wz, n.X*wz-n.Z*wx)
	return f0, L
}

// segBox returns the (r, h, s) box (rlo, rhi, hlo, hhi, slo, shi) of the
// edge segments in ss.
func segBox(ss []segment) [6]float64 {
	b := [6]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
	for i := range ss {
		s := &ss[i]
		if s.kind != recEdge {
			continue
		}
		b[0], b[1] = min(b[0], s.rlo), max(b[1], s.rhi)
		b[2], b[3] = min(b[2], s.hlo), max(b[3], s.hhi)
		b[4], b[5] = min(b[4], s.slo), max(b[5], s.shi)
	}
	return b
}

// overlaps reports whether the segment's (r, h) box meets box b.
func (s *segment) overlaps(b *[6]float64) bool {
	return s.rhi >= b[0] && s.rlo <= b[1] && s.hhi >= b[2] && s.hlo <= b[3]
}

// directPairs is the largest product of the two bodies' kept edge counts
// for which candidate pairs are found by testing every pair of projected
// segments instead of by the row scan: for small meshes (cubes, the car)
// that is less work than building rows.
const directPairs = 1024

// directSegPairs is the largest product of the two bodies' projected
// segment counts for which scanDirect sweeps the segments instead of
// building the grid of scanGrid (edges near the screw axis are split into
// many segments).
const directSegPairs = 4096

// scanDirect finds the candidates of small meshes: every pair of projected
// edge segments of A and B that come within their margins with compatible
// times, and every vertex inside the screen box of a face of the other body.
func (d *Detector) scanDirect() {
	sa, sb := d.segs[0], d.segs[1]
	// Boxes of each body's edge segments in (r, h, s): a segment of one
	// body can only meet the other body inside the other's (r, h) box, at
	// a time coordinate that puts t = s_A - s_B in [0, 1].
	ba, bb := segBox(sa), segBox(sb)
	// Each body's useful edge segments, sorted by the low end of their r
	// range, then swept together (sweep and prune on r): only pairs whose
	// r ranges overlap are tested.
	d.sorted[0] = sweepList(d.sorted[0][:0], sa, &bb, 0)
	d.sorted[1] = sweepList(d.sorted[1][:0], sb, &ba, 1)
	ka, kb := d.sorted[0], d.sorted[1]
	for i, j := 0, 0; i < len(ka) && j < len(kb); {
		if ka[i].rlo <= kb[j].rlo {
			x := &sa[ka[i].i]
			for k := j; k < len(kb) && kb[k].rlo <= x.rhi; k++ {
				d.segPair(x, &sb[kb[k].i])
			}
			i++
		} else {
			y := &sb[kb[j].i]
			for k := i; k < len(ka) && ka[k].rlo <= y.rhi; k++ {
				d.segPair(&sa[ka[k].i], y)
			}
			j++
		}
	}
	all := d.faceBoxes()
	for bi := 0; bi < 2; bi++ {
		fb := d.fbox[1-bi]
		ab := &all[1-bi]
		for _, v := range d.vpts[bi] {
			if v.r0 < ab[0] || v.r0 > ab[1] || v.h0 < ab[2] || v.h0 > ab[3] {
				continue // outside every face box
			}
			for f := range fb {
				d.vertFace(bi, &v, int32(f))
			}
		}
	}
}

// sweepKey is a segment in a sweep: its index and the low end of its range
// (r in scanDirect, time in cellSweep).
type sweepKey struct {
	rlo float64
	i   int32
}

// sortKeys sorts sweep keys by the low end of their range.
func sortKeys(dst []sweepKey) {
	if len(dst) <= 128 {
		for k := 1; k < len(dst); k++ {
			for j := k; j > 0 && dst[j].rlo < dst[j-1].rlo; j-- {
				dst[j], dst[j-1] = dst[j-1], dst[j]
			}
		}
		return
	}
	slices.SortFunc(dst, func(a, b sweepKey) int {
		if a.rlo < b.rlo {
			return -1
		}
		if a.rlo > b.rlo {
			return 1
		}
		return 0
	})
}

// sweepList appends to dst the edge segments of ss whose (r, h, s) box can
// meet the other body's box ob (bi: 0 when ss is A's, 1 when B's, which
// decides the time condition), sorted by rlo.
func sweepList(dst []sweepKey, ss []segment, ob *[6]float64, bi int) []sweepKey {
	for k := range ss {
		x := &ss[k]
		if x.kind != recEdge || !x.overlaps(ob) {
			continue
		}
		// t = s_A - s_B in [0, 1].
		if bi == 0 && (x.shi < ob[4] || x.slo > ob[5]+1) || bi == 1 && (x.shi < ob[4]-1 || x.slo > ob[5]) {
			continue
		}
		dst = append(dst, sweepKey{x.rlo, int32(k)})
	}
	sortKeys(dst)
	return dst
}

// segPair records the edge pair of segment x of A and segment y of B when
// their screen boxes overlap, their chords come within their margins and
// the time coordinates allow a collision time in [0, 1].
func (d *Detector) segPair(x, y *segment) {
	if y.rhi < x.rlo || y.rlo > x.rhi || y.hhi < x.hlo || y.hlo > x.hhi {
		return
	}
	tlo, thi, ok := d.edgeWindow(x.feat, y.feat, x.slo-y.shi, x.shi-y.slo)
	if !ok {
		return
	}
	plo, phi, ok := pairWindow(x, y)
	tlo, thi = max(tlo, plo), min(thi, phi)
	if !ok || thi < tlo || segDist2D(x, y) > x.m+y.m {
		return
	}
	d.cands.add(contact.EdgeEdge, x.feat, y.feat, tlo, thi)
}

// vertFace records the vertex-face pair of vertex point v of body bi and
// face f of the other body when v lies in the face's screen box.
func (d *Detector) vertFace(bi int, v *segment, f int32) {
	b := &d.fbox[1-bi][f]
	if v.r0 < b[0] || v.r0 > b[1] || v.h0 < b[2] || v.h0 > b[3] {
		return
	}
	if bi == 1 {
		d.addVertexCand(contact.FaceVertex, f, v.feat)
	} else {
		d.addVertexCand(contact.VertexFace, v.feat, f)
	}
}

// faceBoxes computes the screen box (rlo, rhi, hlo, hhi) of every kept
// face of both bodies from the segments of its edges (and virtual edges),
// in d.fbox, and returns the box around each body's face boxes. Faces
// without segments get an empty box.
func (d *Detector) faceBoxes() (all [2][4]float64) {
	for bi, bd := range [2]*body{&d.a, &d.b} {
		fb := grow(d.fbox[bi], len(bd.face))
		for f := range fb {
			fb[f] = [4]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		}
		all[bi] = [4]float64{math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)}
		ab := &all[bi]
		put := func(f int32, s *segment) {
			b := &fb[f]
			b[0] = min(b[0], s.rlo)
			b[1] = max(b[1], s.rhi)
			b[2] = min(b[2], s.hlo)
			b[3] = max(b[3], s.hhi)
			ab[0] = min(ab[0], s.rlo)
			ab[1] = max(ab[1], s.rhi)
			ab[2] = min(ab[2], s.hlo)
			ab[3] = max(ab[3], s.hhi)
		}
		edges := bd.m.Edges
		for i := range d.segs[bi] {
			s := &d.segs[bi][i]
			if s.kind == recVirt {
				put(s.feat, s)
				continue
			}
			e := edges[s.feat]
			if e.Left >= 0 && bd.face[e.Left] {
				put(e.Left, s)
			}
			if e.Right >= 0 && bd.face[e.Right] {
				put(e.Right, s)
			}
		}
		d.fbox[bi] = fb
	}
	return all
}
