//go:build amd64 && !purego

package convex

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// haveVec reports whether the AVX2 kernels of soa_amd64.s may run: the
// processor has AVX2 and the operating system saves the YMM registers.
var haveVec = detectAVX2()

func detectAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, c1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if c1&osxsave == 0 || c1&avx == 0 {
		return false
	}
	if xgetbv0()&6 != 6 { // XMM and YMM state enabled
		return false
	}
	_, b7, _, _ := cpuid(7, 0)
	return b7&(1<<5) != 0
}

// cpuid executes CPUID with EAX = leaf, ECX = sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// xgetbv0 returns the low half of XCR0.
func xgetbv0() uint32

// poseVec is poseGo with AVX instructions for nblk = soaStride(n)/4
// blocks (the same products and sums in the same order, so the same
// results bit for bit). It reports whether every coordinate written is
// finite and below 1e300 in magnitude.
//
//go:noescape
func poseVec(dst, src *soa, t *geom.Transform, nblk int) (ok bool)

// scan2Vec is scanSoA2Go with AVX2 over the nblkA and nblkB blocks of four
// entries of a and b (1 to 4 each): the first entry of a maximising d.v
// and the first entry of b minimising d.v, with max d.v over a and
// -min d.v over b (bit for bit the values of scanSoA2Go for finite data).
// d points to the three components. An index is -1 when no value equals
// the extremum (NaN).
//
//go:noescape
func scan2Vec(a, b *soa, d *geom.Vec3, nblkA, nblkB int) (ia, ib int64, ha, hb float64)

// minDirsVec sets, for each of the nd directions d (three float64 at
// dirs, each dstride bytes after the last), vals[k] to the minimum of d.v
// over the nblk blocks of four points of s and idx[k] to its first entry
// (-1 for NaN), with AVX2: the products and sums of scanSoA2Go in the same
// order, so the same values bit for bit.
//
//go:noescape
func minDirsVec(s *soa, nblk int, dirs *float64, dstride, nd int, vals *float64, idx *int32)

// minFirst returns the first of the n (at least 1) numbers at xs equal to
// their minimum, or -1 when that minimum is +Inf, with AVX (the numbers
// hold no NaN).
//
//go:noescape
func minFirst(xs *float64, n int) (idx int64)

// poseSoA writes t applied to src into dst, with the vector kernel when
// the processor has it. It reports whether the vector scans may run on
// dst: the kernels exist and every coordinate is finite and below 1e300
// in magnitude, so that dot products with directions of length about 1
// are finite (the vector maximum would skip a NaN).
func poseSoA(dst, src *soa, n int, t *geom.Transform) bool {
	if haveVec {
		return poseVec(dst, src, t, soaStride(n)>>2)
	}
	poseGo(dst, src, n, t)
	return false
}

// scanMaxVec returns the first of the 4 nblk points (nblk even) stored in
// blocks of four points (newLoc: the block's x, then y, then z, 96 bytes
// per block) from xs maximising d.v, and the maximum, with AVX2; idx is
// -1 when no value equals the maximum (NaN). The same products and sums
// as Polytope.SupportBrute.
//
//go:noescape
func scanMaxVec(xs *float64, nblk int, d *geom.Vec3) (idx int64, h float64)

// scanMax2Vec is scanMaxVec for two polytopes' blocks (xa, na blocks,
// direction da; xb, nb, db) in one call.
//
//go:noescape
func scanMax2Vec(xa *float64, na int, da *geom.Vec3, xb *float64, nb int, db *geom.Vec3) (ia int64, ha float64, ib int64, hb float64)

// supportLoc2 is supportLoc for a along da and b along db at once; ok is
// false when the scan does not apply to either.
func supportLoc2(a *Polytope, da geom.Vec3, b *Polytope, db geom.Vec3) (ia int32, ha float64, ib int32, hb float64, ok bool) {
	if !haveVec || a.loc == nil || b.loc == nil || !scanDir(da) || !scanDir(db) {
		return 0, 0, 0, 0, false
	}
	i, hA, j, hB := scanMax2Vec(&a.loc[0], len(a.loc)/12, &da, &b.loc[0], len(b.loc)/12, &db)
	return int32(i), hA, int32(j), hB, i >= 0 && int(i) < len(a.verts) && j >= 0 && int(j) < len(b.verts)
}

// scanDir reports whether the vector scan's products stay finite along d
// (every component at most 1e6 in magnitude; false for NaN).
func scanDir(d geom.Vec3) bool {
	return math.Abs(d.X) <= 1e6 && math.Abs(d.Y) <= 1e6 && math.Abs(d.Z) <= 1e6
}

// supportLoc returns a vertex of p maximising d.v (local direction d) and
// the maximum by the vector scan of p.loc, or ok = false when the scan does
// not apply (no kernels, no p.loc, |d| too large for the scan to stay
// finite, NaN).
func (p *Polytope) supportLoc(d geom.Vec3) (int32, float64, bool) {
	if !haveVec || p.loc == nil || !scanDir(d) {
		return 0, 0, false
	}
	i, h := scanMaxVec(&p.loc[0], len(p.loc)/12, &d)
	return int32(i), h, i >= 0 && int(i) < len(p.verts)
}
