package screw

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// Culling before projection (beyond the paper; its Sec. 10 suggests
// hierarchical methods). The step [0, 1] is cut into cullK equal time
// intervals. Over one interval a point moving on a helix about the screw
// axis stays inside the ball whose centre is the midpoint of the chord
// joining its two ends and whose radius is half the chord (the arc turns by
// at most pi/cullK, and the arc of a circle over an angle below pi lies in
// the ball on its chord; the glide is linear). A sphere of radius rho around
// that point then stays inside the ball enlarged by rho. Every face of each
// body has a bounding sphere (computed once per mesh); a face of A is
// tested against the swept bounding sphere of B interval by interval, and a
// face of B against the bounding sphere of A swept by the inverse motion.
// For small meshes the surviving faces are then tested pairwise. Each face
// keeps the set of intervals in which it can touch the other body (a bit
// mask); a vertex or edge lies in the sphere of every face around it, so its
// mask is the intersection of theirs. Features whose mask is empty cannot
// touch the other body during the step; the masks of the two features of a
// candidate pair bound its collision time.

// clusterSize is the largest number of faces in a cluster.
const clusterSize = 12

// buildClusters groups the faces of m into clusters of at most clusterSize
// faces by recursive median splits of their centres along the longest axis
// of their box, and bounds each cluster by a sphere.
func (in *meshInfo) buildClusters(m *mesh.Mesh) {
	nf := m.NumFaces()
	faces := make([]int32, nf)
	for f := range faces {
		faces[f] = int32(f)
	}
	in.fclus = make([]int32, nf)
	in.cstart = append(in.cstart[:0], 0)
	var split func(fs []int32)
	split = func(fs []int32) {
		if len(fs) <= clusterSize {
			c := int32(len(in.cstart) - 1)
			var b geom.AABB
			for i, f := range fs {
				in.fclus[f] = c
				for k, v := range m.Face(int(f)) {
					if i == 0 && k == 0 {
						b = geom.AABB{Min: m.Verts[v], Max: m.Verts[v]}
					} else {
						b = b.AddPoint(m.Verts[v])
					}
				}
			}
			ctr := b.Center()
			r := 0.0
			for _, f := range fs {
				for _, v := range m.Face(int(f)) {
					r = max(r, m.Verts[v].Dist2(ctr))
				}
			}
			in.cfaces = append(in.cfaces, fs...)
			in.cstart = append(in.cstart, int32(len(in.cfaces)))
			in.cc = append(in.cc, ctr)
			in.cr = append(in.cr, math.Sqrt(r)*(1+relPad)+sphereAbsPad*in.radius)
			return
		}
		b := geom.AABB{Min: in.fc[fs[0]], Max: in.fc[fs[0]]}
		for _, f := range fs[1:] {
			b = b.AddPoint(in.fc[f])
		}
		ext := b.Max.Sub(b.Min)
		axis := func(p geom.Vec3) float64 { return p.X }
		if ext.Y >= ext.X && ext.Y >= ext.Z {
			axis = func(p geom.Vec3) float64 { return p.Y }
		} else if ext.Z >= ext.X && ext.Z >= ext.Y {
			axis = func(p geom.Vec3) float64 { return p.Z }
		}
		slices.SortFunc(fs, func(x, y int32) int {
			if c := cmp.Compare(axis(in.fc[x]), axis(in.fc[y])); c != 0 {
				return c
			}
			return int(x - y)
		})
		h := len(fs) / 2
		split(fs[:h])
		split(fs[h:])
	}
	split(faces)
}

// cullK is the number of time intervals of the sweep tests.
const cullK = 16

// allIntervals is the mask of every interval.
const allIntervals = uint32(1)<<cullK - 1

// sliceWidth is the number of intervals FirstContact looks at first when
// contacts are possible in more than twice as many.
const sliceWidth = 3

// sliceFaces is the smallest total number of faces of the two meshes for
// which FirstContact slices the step (for smaller meshes a second pass
// costs more than the first one saves).
const sliceFaces = 64

// cullMinFaces is the smallest total number of faces of the two meshes
// for which the faces are culled per time interval: for fewer (two cubes,
// two cars) every face is kept in every interval, which costs less than the
// sweep tests save (measured: cube FirstContact 8.8 -> 8.2 us per query).
const cullMinFaces = 32

type sweep struct {
	c, s [cullK + 1]float64 // cos and sin of j theta / cullK
	half float64            // sin(theta / (2 cullK))
}

// at returns the position of p at time j/cullK under the screen-frame
// motion, or under its inverse when inv is set.
func (d *Detector) sweepAt(sw *sweep, p geom.Vec3, j int, inv bool) geom.Vec3 {
	return d.moveSC(p, float64(j)/cullK, sw.s[j], sw.c[j], inv)
}

// halfChord returns half the length of the chord of one interval of the
// helix at distance r from the axis.
func (d *Detector) halfChord(sw *sweep, r float64) float64 {
	a := 2 * r * sw.half
	b := d.g / cullK
	return 0.5 * math.Sqrt(a*a+b*b)
}

// ballsOf returns the cullK balls (centre, radius minus the sphere's own
// radius) that contain the trajectory of point p over the intervals.
func (d *Detector) ballsOf(sw *sweep, p geom.Vec3, inv bool, mid *[cullK]geom.Vec3) float64 {
	prev := d.sweepAt(sw, p, 0, inv)
	for j := 1; j <= cullK; j++ {
		cur := d.sweepAt(sw, p, j, inv)
		mid[j-1] = prev.Add(cur).Scale(0.5)
		prev = cur
	}
	return d.halfChord(sw, hypot(p.X-d.u.X, p.Z-d.u.Z))
}

// maskOf returns the intervals k of mask w in which the sphere (c, rho)
// meets ball k.
func maskOf(c geom.Vec3, rho float64, mid *[cullK]geom.Vec3, w uint32) uint32 {
	var m uint32
	r2 := rho * rho
	for ; w != 0; w &= w - 1 {
		k := bits.TrailingZeros32(w)
		if c.Dist2(mid[k&(cullK-1)]) <= r2 {
			m |= 1 << k
		}
	}
	return m
}

// maskWindow returns the time window [lo, hi] of the intervals in mask m
// (which must not be 0), widened by a rounding margin.
func maskWindow(m uint32) (lo, hi float64) {
	lo = float64(bits.TrailingZeros32(m))/cullK - maskTimePad
	hi = float64(bits.Len32(m))/cullK + maskTimePad
	return max(lo, 0), min(hi, 1)
}

// cullFaces computes the face masks of both bodies from their face spheres
// in their local frames (the other body's swept balls are moved there), so
// faces that cannot touch are never transformed. It returns false when
// nothing can touch.
func (d *Detector) cullFaces() bool {
	d.allFull = false
	if d.noCull || d.a.m.NumFaces()+d.b.m.NumFaces() < cullMinFaces {
		// Small meshes: one mask for every face, from the bodies'
		// bounding boxes (boxcull.go).
		mask := allIntervals
		if !d.noCull {
			if mask = d.boxMask(cullPad*d.scale + 2*d.near); mask == 0 {
				return false
			}
		}
		d.allFull = mask == allIntervals
		for bi, bd := range [2]*body{&d.a, &d.b} {
			fm := grow(d.fall[bi], bd.m.NumFaces())
			for f := range fm {
				fm[f] = mask
			}
			d.fall[bi] = fm
		}
		return true
	}
	sw := &d.sw
	if d.trans {
		for j := range sw.c {
			sw.c[j], sw.s[j] = 1, 0
		}
		sw.half = 0
	} else {
		// Powers of the rotation by theta / cullK (the rounding, about
		// cullK ulps, is far inside eps).
		s1, c1 := math.Sincos(d.theta / cullK)
		sw.c[0], sw.s[0] = 1, 0
		for j := 1; j <= cullK; j++ {
			sw.c[j] = sw.c[j-1]*c1 - sw.s[j-1]*s1
			sw.s[j] = sw.s[j-1]*c1 + sw.c[j-1]*s1
		}
		sw.half = math.Sin(d.theta / (2 * cullK))
	}
	eps := cullPad*d.scale + 2*d.near
	bds := [2]*body{&d.a, &d.b}
	var mid [cullK]geom.Vec3
	for bi, bd := range bds {
		other := bds[1-bi]
		// A's faces see B moving forward; B's faces see A moving by the
		// inverse motion.
		hc := d.ballsOf(sw, other.center, bi == 1, &mid)
		R := other.info.radius + hc + eps
		tr := &d.tr[bi]
		for k := range mid {
			mid[k] = tr.ApplyInv(mid[k])
		}
		in := bd.info
		fm := grow(d.fall[bi], len(in.fc))
		cm := grow(d.cmask[bi], len(in.cc))
		alive := 0
		// The whole body first (its bounding sphere, in its frame).
		wb := maskOf(in.center, in.radius+R, &mid, allIntervals)
		for c := range cm {
			cm[c] = maskOf(in.cc[c], in.cr[c]+R, &mid, wb)
			fs := in.cfaces[in.cstart[c]:in.cstart[c+1]]
			if cm[c] == 0 {
				for _, f := range fs {
					fm[f] = 0
				}
				continue
			}
			for _, f := range fs {
				fm[f] = maskOf(in.fc[f], in.fr[f]+R, &mid, cm[c])
				if fm[f] != 0 {
					alive++
				}
			}
		}
		d.fall[bi], d.cmask[bi] = fm, cm
		if alive == 0 {
			return false
		}
	}
	return true
}

// cullFeatures clears the keep flags of the faces, edges and vertices that
// cannot touch the other body and computes the edge and vertex masks. It
// returns false when no face is left.
func (d *Detector) cullFeatures() bool {
	const all = allIntervals
	for bi, bd := range [2]*body{&d.a, &d.b} {
		m := bd.m
		fm := d.fmask[bi]
		em := grow(d.emask[bi], len(m.Edges))
		vm := grow(d.vmask[bi], len(m.Verts))
		if d.sliceFull {
			// Every face mask is full: so are the masks of the kept
			// edges and of every vertex.
			for v := range vm {
				vm[v] = all
			}
			alive := false
			for _, k := range bd.face {
				alive = alive || k
			}
			if !alive {
				return false
			}
			for e, k := range bd.edge {
				em[e] = 0
				if k {
					em[e] = all
				}
			}
			d.emask[bi], d.vmask[bi] = em, vm
			continue
		}
		for v := range vm {
			vm[v] = all
		}
		alive := 0
		for f := range fm {
			if !bd.face[f] {
				continue
			}
			alive++
			for _, v := range m.Face(f) {
				vm[v] &= fm[f]
			}
		}
		if alive == 0 {
			return false
		}
		for e, ed := range m.Edges {
			if !bd.edge[e] {
				em[e] = 0
				continue
			}
			k := all
			for _, f := range [2]int32{ed.Left, ed.Right} {
				if f >= 0 && bd.face[f] {
					k &= fm[f]
				}
			}
			em[e] = k
		}
		for v := range vm {
			if bd.vert[v] && vm[v] == 0 {
				bd.vert[v] = false
			}
		}
		d.emask[bi], d.vmask[bi] = em, vm
	}
	return true
}
