package convex

import (
	"math"

	"github.com/collide-go/collide/geom"
)

// soaLen is the number of points a soa holds: the vertex count up to which
// a posed polytope's supporting vertices are found by scanning (bruteMax).
const soaLen = bruteMax

// soa holds up to soaLen points as three arrays of coordinates (all x,
// then all y, then all z), each of length soaStride(n) for n points, the
// entries beyond n filled with copies of point 0 so that a scan may read
// whole blocks of four without changing its answer. The layout lets the
// amd64 kernels (soa_amd64.s) handle four points per instruction.
type soa [3 * soaLen]float64

// soaStride returns the length of each coordinate array of a soa of n
// points: n rounded up to a multiple of 4.
func soaStride(n int) int { return (n + 3) &^ 3 }

// at returns point i of a soa of stride st.
func (s *soa) at(st int, i int32) geom.Vec3 {
	return geom.Vec3{X: s[i], Y: s[st+int(i)], Z: s[2*st+int(i)]}
}

// newSoa returns the points vs (at most soaLen) in soa layout, padded with
// copies of vs[0].
func newSoa(vs []geom.Vec3) *soa {
	s := new(soa)
	st := soaStride(len(vs))
	for i := 0; i < st; i++ {
		v := vs[0]
		if i < len(vs) {
			v = vs[i]
		}
		s[i], s[st+i], s[2*st+i] = v.X, v.Y, v.Z
	}
	return s
}

// locMax is the largest vertex count for which a polytope keeps its local
// vertices in blocks of coordinates (Polytope.loc) and the search finds
// its supporting vertices by a vector scan of all of them instead of hill
// climbing: for 100 vertices the scan (25 steps of four points, no
// branches, memory read in order) costs about half a climb, whose steps
// are unpredictable branches and scattered loads.
const locMax = 160

// newLoc returns the points vs in blocks of four points, each block the
// four x, then the four y, then the four z coordinates (12 numbers, 96
// bytes, so that a point's three coordinates share one or two cache lines
// and the queries read a scanned body's vertices from the lines the scan
// brought in), for a number of points rounded up to a multiple of 8 and
// padded with copies of vs[0], or nil when a coordinate is 1e300 or more
// in magnitude (the scan's products could overflow).
func newLoc(vs []geom.Vec3) []float64 {
	n8 := (len(vs) + 7) &^ 7
	loc := make([]float64, 3*n8)
	for i := 0; i < n8; i++ {
		v := vs[0]
		if i < len(vs) {
			v = vs[i]
		}
		if !(math.Abs(v.X) < 1e300 && math.Abs(v.Y) < 1e300 && math.Abs(v.Z) < 1e300) {
			return nil
		}
		b := 12*(i>>2) + i&3
		loc[b], loc[b+4], loc[b+8] = v.X, v.Y, v.Z
	}
	return loc
}

// locAt returns point i of a block layout of newLoc.
func locAt(loc []float64, i int32) geom.Vec3 {
	b := 12*int(i>>2) + int(i&3)
	return geom.Vec3{X: loc[b], Y: loc[b+4], Z: loc[b+8]}
}

// poseGo writes t applied to the n points of src into dst (all
// soaStride(n) entries; the same arithmetic, in the same order, as
// Posed's transform of a large body and as poseVec).
func poseGo(dst, src *soa, n int, t *geom.Transform) {
	m := &t.R
	m00, m01, m02 := m[0][0], m[0][1], m[0][2]
	m10, m11, m12 := m[1][0], m[1][1], m[1][2]
	m20, m21, m22 := m[2][0], m[2][1], m[2][2]
	tx, ty, tz := t.T.X, t.T.Y, t.T.Z
	st := soaStride(n)
	xs, ys, zs := src[:st], src[st:2*st], src[2*st:3*st]
	wx, wy, wz := dst[:st], dst[st:2*st], dst[2*st:3*st]
	for i := range xs {
		x, y, z := xs[i], ys[i], zs[i]
		wx[i] = m00*x + m01*y + m02*z + tx
		wy[i] = m10*x + m11*y + m12*z + ty
		wz[i] = m20*x + m21*y + m22*z + tz
	}
}

// scanSoA returns the index of a point among the first n of s maximising
// d.v, and the maximum (the first such point; products compared as
// integers, see orderKey).
func scanSoA(s *soa, n int, d geom.Vec3) (int32, float64) {
	dx, dy, dz := d.X, d.Y, d.Z
	st := soaStride(n)
	xs, ys, zs := s[:n], s[st:st+n], s[2*st:2*st+n]
	hk, best := int64(math.MinInt64), 0
	for i := range xs {
		k := orderKey(dx*xs[i] + dy*ys[i] + dz*zs[i])
		if k > hk {
			hk, best = k, i
		}
	}
	return int32(best), fromKey(hk)
}

// scanSoA2Go is scanSoA for two bodies at once: a point of a (na points)
// maximising d.v and one of b (nb points) maximising -d.v, with the
// maxima. The two scans are interleaved so that their chains of
// comparisons overlap.
func scanSoA2Go(a *soa, na int, b *soa, nb int, d geom.Vec3) (int32, float64, int32, float64) {
	dx, dy, dz := d.X, d.Y, d.Z
	ka, kb := int64(math.MinInt64), int64(math.MinInt64)
	ba, bb := 0, 0
	n := min(na, nb)
	sa, sb := soaStride(na), soaStride(nb)
	ax, ay, az := a[:n], a[sa:sa+n], a[2*sa:2*sa+n]
	bx, by, bz := b[:n], b[sb:sb+n], b[2*sb:2*sb+n]
	for i := range ax {
		k := orderKey(dx*ax[i] + dy*ay[i] + dz*az[i])
		l := orderKey(-(dx*bx[i] + dy*by[i] + dz*bz[i]))
		if k > ka {
			ka, ba = k, i
		}
		if l > kb {
			kb, bb = l, i
		}
	}
	for i := n; i < na; i++ {
		if k := orderKey(dx*a[i] + dy*a[sa+i] + dz*a[2*sa+i]); k > ka {
			ka, ba = k, i
		}
	}
	for i := n; i < nb; i++ {
		if l := orderKey(-(dx*b[i] + dy*b[sb+i] + dz*b[2*sb+i])); l > kb {
			kb, bb = l, i
		}
	}
	return int32(ba), fromKey(ka), int32(bb), fromKey(kb)
}

// fromKey inverts orderKey.
func fromKey(k int64) float64 {
	return math.Float64frombits(uint64(k ^ int64(uint64(k>>63)>>1)))
}

// orderKey maps a float64 to an int64 with the same order (for numbers;
// -0 sorts just below +0): the bits, with the magnitude bits of negative
// numbers flipped. Comparing keys compiles to conditional moves, so the
// unpredictable comparisons of a scan cost no branch mispredictions.
func orderKey(x float64) int64 {
	b := int64(math.Float64bits(x))
	return b ^ int64(uint64(b>>63)>>1)
}
