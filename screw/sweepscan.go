package screw

import "math"

// Candidate search on a grid (beyond the paper): instead of rasterizing the
// projected segments into rows and scanning each row (Sec. 9, steps four to
// six), the segments of both bodies are put in the cells of a uniform grid
// over the screen (r, h) that their boxes meet, about one typical short
// edge wide, and the pairs of segments of A and B that share a cell are
// tested like scanDirect tests every pair; each pair is tested once, in the
// cell that holds the low corner of the intersection of their boxes.
// Vertices are looked up in the grid of the other body's face boxes the same
// way. It finds the same pairs as scanDirect with less work when the meshes
// have more than a few dozen edges; the candidates are then solved exactly
// either way, so the rows only decide how pairs are found
// (Options.PixelRows keeps the paper's rows of one pixel).

// grid is a uniform grid over the screen with, per cell, the items of each
// body in CSR form.
type grid struct {
	r0, h0, cell float64
	inv          float64 // 1 / cell
	nr, nh       int
	start        [2][]int32 // start[bi][c] .. start[bi][c+1]: items of cell c
	items        [2][]int32
	fill         []int32
}

// maxGridCells bounds the number of cells of the grid.
const maxGridCells = 1 << 14

// setup sizes the grid to cover box b = (rlo, rhi, hlo, hhi) with cells of
// about size cell.
func (g *grid) setup(b [4]float64, cell float64) {
	w, h := b[1]-b[0], b[3]-b[2]
	if !(cell > 0) || !(w >= 0) || !(h >= 0) {
		cell, w, h = 1, 0, 0
	}
	for (w/cell+1)*(h/cell+1) > maxGridCells {
		cell *= 2
	}
	g.r0, g.h0, g.cell, g.inv = b[0], b[2], cell, 1/cell
	g.nr = int(w/cell) + 1
	g.nh = int(h/cell) + 1
}

// cells returns the cell ranges [i0, i1] x [j0, j1] that box b meets.
func (g *grid) cells(rlo, rhi, hlo, hhi float64) (i0, i1, j0, j1 int) {
	i0 = max(0, int(math.Floor((rlo-g.r0)*g.inv)))
	i1 = min(g.nr-1, int(math.Floor((rhi-g.r0)*g.inv)))
	j0 = max(0, int(math.Floor((hlo-g.h0)*g.inv)))
	j1 = min(g.nh-1, int(math.Floor((hhi-g.h0)*g.inv)))
	return
}

// build fills the cells of body bi with the n items whose boxes box(k)
// returns (items with an empty box are left out).
func (g *grid) build(bi, n int, box func(k int) (rlo, rhi, hlo, hhi float64)) {
	nc := g.nr * g.nh
	st := grow(g.start[bi], nc+1)
	clear(st)
	g.eachCell(n, box, func(_, c int) { st[c+1]++ })
	for c := 1; c <= nc; c++ {
		st[c] += st[c-1]
	}
	it := grow(g.items[bi], int(st[nc]))
	fl := grow(g.fill, nc)
	copy(fl, st[:nc])
	g.eachCell(n, box, func(k, c int) {
		it[fl[c]] = int32(k)
		fl[c]++
	})
	g.start[bi], g.items[bi], g.fill = st, it, fl
}

// eachCell calls f(k, c) for every item k < n with a non-empty box and
// every cell c its box covers.
func (g *grid) eachCell(n int, box func(k int) (rlo, rhi, hlo, hhi float64), f func(k, c int)) {
	for k := 0; k < n; k++ {
		rlo, rhi, hlo, hhi := box(k)
		if !(rlo <= rhi) {
			continue
		}
		i0, i1, j0, j1 := g.cells(rlo, rhi, hlo, hhi)
		for i := i0; i <= i1; i++ {
			for j := j0; j <= j1; j++ {
				f(k, i*g.nh+j)
			}
		}
	}
}

// cellOf returns the cell of point (r, h), or -1 outside the grid.
func (g *grid) cellOf(r, h float64) int {
	i := int(math.Floor((r - g.r0) * g.inv))
	j := int(math.Floor((h - g.h0) * g.inv))
	if i < 0 || i >= g.nr || j < 0 || j >= g.nh {
		return -1
	}
	return i*g.nh + j
}

// A grid cell's pairs are found by a sweep over time (cellSweep) when it
// has more than timeSweepPairs of them and the time ranges of its segments
// spread over more than timeSweepSpread in all (otherwise most pairs are
// compatible in time and sorting costs more than it saves: about 0.5 in the
// crowded cells of two tori passing through each other, 10 for wound coils).
const (
	timeSweepPairs  = 64
	timeSweepSpread = 3
)

// timeSpread returns the sum of the spreads of the time ranges of A's
// segments ia and B's segments ib.
func (d *Detector) timeSpread(ia, ib []int32) float64 {
	spread := 0.0
	for bi, items := range [2][]int32{ia, ib} {
		ss := d.segs[bi]
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, i := range items {
			lo, hi = min(lo, ss[i].slo), max(hi, ss[i].shi)
		}
		spread += hi - lo
	}
	return spread
}

// cellPair tests segments x of A and y of B, which share grid cell c and
// whose time ranges allow a collision time in [0, 1].
func (d *Detector) cellPair(c int, x, y *segment) {
	if y.rhi < x.rlo || y.rlo > x.rhi || y.hhi < x.hlo || y.hlo > x.hhi {
		return // boxes apart
	}
	// Once per pair: in the cell of the low corner of the boxes'
	// intersection.
	if d.grid.cellOf(max(x.rlo, y.rlo), max(x.hlo, y.hlo)) != c {
		return
	}
	d.segPair(x, y)
}

// cellSweep finds the pairs of grid cell c (A's segments ia, B's ib) whose
// time ranges allow a collision time in [0, 1] by sorting both on time
// (Sec. 9.1 suggests sorting by time as well for highly non-convex shapes,
// such as screw threads, where many segments of both bodies project to the
// same place at different times): t = s_A - s_B is in [0, 1] when A's range
// [slo, shi] meets B's range [slo, shi + 1]; the two sorted lists are swept
// together and only those pairs are tested.
func (d *Detector) cellSweep(c int, ia, ib []int32) {
	sa, sb := d.segs[0], d.segs[1]
	xs, ys := d.sorted[0][:0], d.sorted[1][:0]
	for _, i := range ia {
		xs = append(xs, sweepKey{sa[i].slo, i})
	}
	for _, j := range ib {
		ys = append(ys, sweepKey{sb[j].slo, j})
	}
	sortKeys(xs)
	sortKeys(ys)
	d.sorted[0], d.sorted[1] = xs, ys
	for i, j := 0, 0; i < len(xs) && j < len(ys); {
		if xs[i].rlo <= ys[j].rlo {
			x := &sa[xs[i].i]
			for k := j; k < len(ys) && ys[k].rlo <= x.shi; k++ {
				d.cellPair(c, x, &sb[ys[k].i])
			}
			i++
		} else {
			y := &sb[ys[j].i]
			for k := i; k < len(xs) && xs[k].rlo <= y.shi+1; k++ {
				d.cellPair(c, &sa[xs[k].i], y)
			}
			j++
		}
	}
}

// scanGrid finds the same candidates as scanDirect through the grid.
func (d *Detector) scanGrid() {
	sa, sb := d.segs[0], d.segs[1]
	ba, bb := segBox(sa), segBox(sb)
	// Pairs can only be where both bodies' segments are.
	box := [4]float64{max(ba[0], bb[0]), min(ba[1], bb[1]), max(ba[2], bb[2]), min(ba[3], bb[3])}
	g := &d.grid
	cell := 2 * d.rowH
	if box[0] <= box[1] && box[2] <= box[3] {
		g.setup(box, cell)
		for bi, ss := range [2][]segment{sa, sb} {
			g.build(bi, len(ss), func(k int) (float64, float64, float64, float64) {
				s := &ss[k]
				if s.kind != recEdge {
					return 1, 0, 0, 0
				}
				return s.rlo, s.rhi, s.hlo, s.hhi
			})
		}
		for c := 0; c < g.nr*g.nh; c++ {
			ia := g.items[0][g.start[0][c]:g.start[0][c+1]]
			ib := g.items[1][g.start[1][c]:g.start[1][c+1]]
			if len(ia) == 0 || len(ib) == 0 {
				continue
			}
			if len(ia)*len(ib) > timeSweepPairs && d.timeSpread(ia, ib) > timeSweepSpread {
				d.cellSweep(c, ia, ib)
				continue
			}
			for _, i := range ia {
				x := &sa[i]
				for _, j := range ib {
					y := &sb[j]
					if x.shi < y.slo || x.slo-y.shi > 1 {
						continue // no time in [0, 1]
					}
					d.cellPair(c, x, y)
				}
			}
		}
	}
	// Vertices of each body against the face boxes of the other.
	all := d.faceBoxes()
	for bi := 0; bi < 2; bi++ {
		fb := d.fbox[1-bi]
		ab := all[1-bi]
		if !(ab[0] <= ab[1]) {
			continue
		}
		// The faces with a box (kept faces with projected edges).
		fl := d.order[:0]
		for f := range fb {
			if fb[f][0] <= fb[f][1] {
				fl = append(fl, int32(f))
			}
		}
		d.order = fl
		g.setup(ab, cell)
		g.build(0, len(fl), func(k int) (float64, float64, float64, float64) {
			b := &fb[fl[k]]
			return b[0], b[1], b[2], b[3]
		})
		for i := range d.vpts[bi] {
			v := &d.vpts[bi][i]
			c := g.cellOf(v.r0, v.h0)
			if c < 0 {
				continue
			}
			for _, k := range g.items[0][g.start[0][c]:g.start[0][c+1]] {
				d.vertFace(bi, v, fl[k])
			}
		}
	}
}
