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
	var split func(fs []int32) int32
	split = func(fs []int32) int32 {
		node := int32(len(in.nodes))
		in.nodes = append(in.nodes, cnode{})
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
			in.cnode = append(in.cnode, node)
			in.nodes[node] = cnode{c: ctr, r: in.cr[c], kid: [2]int32{-1, c}}
			return node
		}
		b := geom.AABB{Min: in.fc[fs[0]], Max: in.fc[fs[0]]}
		for _, f := range fs[1:] {
			b = b.AddPoint(in.fc[f])
		}
		// The node's sphere holds the spheres of its faces.
		ctr := b.Center()
		r := 0.0
		for _, f := range fs {
			r = max(r, in.fc[f].Dist(ctr)+in.fr[f])
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
		l := split(fs[:h])
		rt := split(fs[h:])
		in.nodes[node] = cnode{c: ctr, r: r * (1 + relPad), kid: [2]int32{l, rt}}
		return node
	}
	split(faces)
	rs := slices.Clone(in.cr)
	slices.Sort(rs)
	in.clusR = rs[len(rs)/2]
}

// cnode is a node of the sphere tree over the clusters of a mesh: its
// bounding sphere (c, r) and its children kid, or kid[0] = -1 and kid[1]
// the cluster of a leaf.
type cnode struct {
	c   geom.Vec3
	r   float64
	kid [2]int32
}

// cullK is the number of time intervals of the sweep tests.
const cullK = 16

// allIntervals is the mask of every interval.
const allIntervals = uint32(1)<<cullK - 1

// fineMotion is how far (in cluster radii) B's points move at most in
// the first window in which FirstContact solves contacts on large meshes;
// minWindow is the shortest window (a fraction of the step).
const (
	fineMotion = 3.0
	minWindow  = 1.0 / 4096
)

// treeMinFaces is the smallest total number of faces of the two meshes for
// which FirstContact culls by the two sphere trees, window by window (for
// fewer, one or two passes over the step culled as Detect does cost less:
// the torus sample, 600 faces, 85 against 140 us per query). A variable
// so that tests can lower it.
var treeMinFaces = 2048

// sliceWidth is the number of intervals FirstContact looks at first, on
// meshes below treeMinFaces, when contacts are possible in more than twice
// as many; sliceFaces is the smallest total number of faces for which it
// does (for fewer a second pass costs more than the first one saves).
const (
	sliceWidth = 3
	sliceFaces = 64
)

// cullMinFaces is the smallest total number of faces of the two meshes
// for which the faces are culled per time interval: for fewer (two cubes,
// two cars) every face is kept in every interval, which costs less than the
// sweep tests save (measured: cube FirstContact 8.8 -> 8.2 us per query).
const cullMinFaces = 32

// sweep is the time window of the sweep tests, [t0, t0+dt], cut into
// cullK equal intervals, and the rotation at the ends of the intervals.
type sweep struct {
	t0, dt float64
	c, s   [cullK + 1]float64 // cos and sin of theta at(j)
	half   float64            // sin(theta dt / (2 cullK))
}

// at returns the time of the start of interval j (the end of the window
// for j = cullK).
func (sw *sweep) at(j int) float64 { return sw.t0 + float64(j)*sw.dt/cullK }

// window returns the time window [lo, hi] of the intervals in mask m
// (which must not be 0), widened by a rounding margin.
func (sw *sweep) window(m uint32) (lo, hi float64) {
	lo = sw.at(bits.TrailingZeros32(m)) - maskTimePad
	hi = sw.at(bits.Len32(m)) + maskTimePad
	return max(lo, 0), min(hi, 1)
}

// sweepAt returns the position of p at the start of interval j under the
// screen-frame motion, or under its inverse when inv is set.
func (d *Detector) sweepAt(sw *sweep, p geom.Vec3, j int, inv bool) geom.Vec3 {
	return d.moveSC(p, sw.at(j), sw.s[j], sw.c[j], inv)
}

// halfChord returns half the length of the chord of one interval of the
// helix at distance r from the axis.
func (d *Detector) halfChord(sw *sweep, r float64) float64 {
	a := 2 * r * sw.half
	b := d.g * sw.dt / cullK
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

// cullFaces computes the face masks of both bodies over the whole step
// (for FirstContact on large meshes only the sweep's set up:
// firstContactPaired culls window by window), so faces that cannot touch
// are never transformed. It returns false when nothing can touch.
func (d *Detector) cullFaces() bool {
	d.allFull, d.paired = false, false
	d.sw.t0, d.sw.dt = 0, 1
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
			live := d.live[bi][:0]
			for f := range fm {
				fm[f] = mask
				live = append(live, int32(f))
			}
			d.fall[bi], d.live[bi] = fm, live
			d.fallSparse[bi] = false
		}
		return true
	}
	d.setWindow(0, 1)
	if d.first && d.a.m.NumFaces()+d.b.m.NumFaces() >= treeMinFaces {
		// FirstContact culls window by window with the trees
		// (firstContactPaired).
		d.paired = true
		return true
	}
	return d.cullWhole()
}

// cullWhole computes the face masks of the whole step for Detect: each
// face (after its cluster) of one body is tested against the other body's
// bounding sphere swept over the intervals, in the face's own frame. Over
// the whole step the trees' descent finds many more cluster pairs than
// these cost (tori passing through each other: Detect 2 to 3 times
// slower).
func (d *Detector) cullWhole() bool {
	eps := d.cullEps()
	bds := [2]*body{&d.a, &d.b}
	var mid [cullK]geom.Vec3
	for bi, bd := range bds {
		other := bds[1-bi]
		// A's faces see B moving forward; B's faces see A moving by the
		// inverse motion.
		hc := d.ballsOf(&d.sw, other.center, bi == 1, &mid)
		R := other.info.radius + hc + eps
		tr := &d.tr[bi]
		for k := range mid {
			mid[k] = tr.ApplyInv(mid[k])
		}
		in := bd.info
		fm := grow(d.fall[bi], len(in.fc))
		live := d.live[bi][:0]
		// The whole body first (its bounding sphere, in its frame).
		wb := maskOf(in.center, in.radius+R, &mid, allIntervals)
		for c := range in.cc {
			cm := maskOf(in.cc[c], in.cr[c]+R, &mid, wb)
			for _, f := range in.cfaces[in.cstart[c]:in.cstart[c+1]] {
				fm[f] = 0
				if cm != 0 {
					if fm[f] = maskOf(in.fc[f], in.fr[f]+R, &mid, cm); fm[f] != 0 {
						live = append(live, f)
					}
				}
			}
		}
		d.fall[bi], d.live[bi], d.fallSparse[bi] = fm, live, false
		if len(live) == 0 {
			return false
		}
	}
	return true
}

// setWindow sets the time window of the sweep tests to [t0, t0+dt]
// (within [0, 1]; an interval turns by at most theta/cullK, well below
// pi, as the balls of ballsOf need).
func (d *Detector) setWindow(t0, dt float64) {
	sw := &d.sw
	sw.t0, sw.dt = t0, dt
	if d.trans {
		for j := range sw.c {
			sw.c[j], sw.s[j] = 1, 0
		}
		sw.half = 0
		return
	}
	for j := range sw.c {
		sw.s[j], sw.c[j] = math.Sincos(d.theta * sw.at(j))
	}
	sw.half = math.Sin(d.theta * dt / (2 * cullK))
}

// cullEps is the pad of the sweep tests.
func (d *Detector) cullEps() float64 { return cullPad*d.scale + 2*d.near }

// cullWindow computes the face masks of both bodies restricted to the
// intervals of w from the cluster pairs that can meet in them. It returns
// false when nothing can touch.
func (d *Detector) cullWindow(w uint32) bool {
	return d.cullPairs(w) != 0 && d.pairFaceMasks()
}

// nodeSweep is the sweep of a point over the cullK intervals: the centres
// of the balls that hold its trajectory (in the screen frame) and their
// radius.
type nodeSweep struct {
	mid [cullK]geom.Vec3
	hc  float64
}

// sweepCache holds the sweeps of the nodes a query needed: slot[n] is the
// index of node n's sweep in sweeps plus one, 0 when it is not computed.
type sweepCache struct {
	slot    []int32
	visited []int32
	sweeps  []nodeSweep
}

// reset empties the cache for a tree of n nodes.
func (c *sweepCache) reset(n int) {
	for _, k := range c.visited {
		c.slot[k] = 0
	}
	// Every slot is 0 again (a new slice is zero).
	c.slot = grow(c.slot, n)
	c.visited, c.sweeps = c.visited[:0], c.sweeps[:0]
}

// get returns the sweep of node n and whether it is new (to be computed
// by the caller).
func (c *sweepCache) get(n int32) (sw *nodeSweep, fresh bool) {
	if k := c.slot[n]; k > 0 {
		return &c.sweeps[k-1], false
	}
	c.sweeps = append(c.sweeps, nodeSweep{})
	c.slot[n] = int32(len(c.sweeps))
	c.visited = append(c.visited, n)
	return &c.sweeps[len(c.sweeps)-1], true
}

// cpair is a pair of nodes or clusters (a of A, b of B) that may meet in
// the intervals of mask m.
type cpair struct {
	a, b int32
	m    uint32
}

// cullState is the scratch space of the culling descent: the forward
// sweeps of B's tree nodes, the inverse sweeps of A's clusters, the stack
// of node pairs and the cluster pairs found.
type cullState struct {
	sb, sa sweepCache
	stack  []cpair
	pairs  []cpair
	bucket [cullK][]cpair // the stacks of earliest
}

// cullPairs descends the sphere trees of A and B together over the
// intervals of w (Buss's Sec. 10 suggests hierarchical culling; the
// bounds are those of the face culling): a pair of nodes is kept in the
// intervals where A's node sphere, which does not move in the screen
// frame, meets the ball that holds B's node sphere over the interval, and
// the larger of the two is split, until pairs of clusters are left
// (d.cs.pairs). It returns the union of the masks of those pairs.
func (d *Detector) cullPairs(w uint32) uint32 {
	cs := &d.cs
	d.resetCull()
	all := uint32(0)
	cs.stack = append(cs.stack[:0], cpair{0, 0, w})
	for len(cs.stack) > 0 {
		p := cs.stack[len(cs.stack)-1]
		cs.stack = cs.stack[:len(cs.stack)-1]
		m, leaf, kids := d.nodePair(p)
		switch {
		case m == 0:
		case leaf:
			cs.pairs = append(cs.pairs, cpair{d.a.info.nodes[p.a].kid[1], d.b.info.nodes[p.b].kid[1], m})
			all |= m
		default:
			cs.stack = append(cs.stack, kids[0], kids[1])
		}
	}
	return all
}

// earliest returns the bit of the earliest interval of w in which a pair
// of clusters can meet (0 when none can). It descends the trees best
// first: pairs wait in one stack per interval, the earliest in which they
// may meet, and the earliest stack is served first, so the first pair of
// clusters that meets in its stack's interval meets first.
func (d *Detector) earliest(w uint32) uint32 {
	cs := &d.cs
	d.resetCull()
	for k := range cs.bucket {
		cs.bucket[k] = cs.bucket[k][:0]
	}
	cs.bucket[bits.TrailingZeros32(w)] = append(cs.bucket[bits.TrailingZeros32(w)], cpair{0, 0, w})
	for k := 0; k < cullK; {
		bk := cs.bucket[k]
		if len(bk) == 0 {
			k++
			continue
		}
		p := bk[len(bk)-1]
		cs.bucket[k] = bk[:len(bk)-1]
		m := p.m
		if m&tested == 0 {
			var leaf bool
			var kids [2]cpair
			if m, leaf, kids = d.nodePair(p); m == 0 {
				continue
			}
			if k0 := bits.TrailingZeros32(m); k0 > k {
				// Later than this stack: wait in its own, tested.
				cs.bucket[k0] = append(cs.bucket[k0], cpair{p.a, p.b, m | tested})
				continue
			}
			if leaf {
				return 1 << k
			}
			cs.bucket[k] = append(cs.bucket[k], kids[0], kids[1])
			continue
		}
		// Tested before: its earliest interval is k.
		m &^= tested
		leaf, kids := d.split(p.a, p.b, m)
		if leaf {
			return 1 << k
		}
		cs.bucket[k] = append(cs.bucket[k], kids[0], kids[1])
	}
	return 0
}

// tested marks a pair of the earliest descent whose mask is its nodes'
// own (not the parent's).
const tested = uint32(1) << 31

// resetCull empties the scratch space of a descent.
func (d *Detector) resetCull() {
	cs := &d.cs
	cs.sb.reset(len(d.b.info.nodes))
	cs.sa.reset(len(d.a.info.cc))
	cs.pairs = cs.pairs[:0]
}

// nodePair tests the pair of nodes p over the intervals of p.m and returns
// the intervals in which they may meet, whether both are leaves, and
// otherwise the pairs of the split (with those intervals).
func (d *Detector) nodePair(p cpair) (m uint32, leaf bool, kids [2]cpair) {
	na, nb := &d.a.info.nodes[p.a], &d.b.info.nodes[p.b]
	sw := d.sweepB(p.b)
	m = maskOf(d.tr[0].Apply(na.c), na.r+nb.r+sw.hc+d.cullEps(), &sw.mid, p.m)
	if m == 0 {
		return 0, false, kids
	}
	leaf, kids = d.split(p.a, p.b, m)
	return m, leaf, kids
}

// split returns the pairs of children of the pair of nodes (a, b) with
// mask m, splitting the larger node, or leaf when both are leaves.
func (d *Detector) split(a, b int32, m uint32) (leaf bool, kids [2]cpair) {
	na, nb := &d.a.info.nodes[a], &d.b.info.nodes[b]
	leafA, leafB := na.kid[0] < 0, nb.kid[0] < 0
	switch {
	case leafA && leafB:
		return true, kids
	case leafB || !leafA && na.r >= nb.r+d.sweepB(b).hc:
		return false, [2]cpair{{na.kid[0], b, m}, {na.kid[1], b, m}}
	default:
		return false, [2]cpair{{a, nb.kid[0], m}, {a, nb.kid[1], m}}
	}
}

// sweepB returns the forward sweep of the centre of node n of B's tree.
func (d *Detector) sweepB(n int32) *nodeSweep {
	sw, fresh := d.cs.sb.get(n)
	if fresh {
		sw.hc = d.ballsOf(&d.sw, d.tr[1].Apply(d.b.info.nodes[n].c), false, &sw.mid)
	}
	return sw
}

// sweepA returns the sweep of the centre of cluster c of A under the
// inverse motion (A seen from B's faces, in the screen frame at time 0).
func (d *Detector) sweepA(c int32) *nodeSweep {
	sw, fresh := d.cs.sa.get(c)
	if fresh {
		sw.hc = d.ballsOf(&d.sw, d.tr[0].Apply(d.a.info.cc[c]), true, &sw.mid)
	}
	return sw
}

// pairFaceMasks computes the face masks of both bodies from the cluster
// pairs of cullPairs: each face of A's cluster of a pair is tested
// against B's cluster swept over the pair's intervals, and each face of
// B's cluster, at its place at time 0, against A's cluster swept by the
// inverse motion. It returns false when no face of either body can touch
// the other.
func (d *Detector) pairFaceMasks() bool {
	cs := &d.cs
	ia, ib := d.a.info, d.b.info
	eps := d.cullEps()
	for bi, in := range [2]*meshInfo{ia, ib} {
		// Zero again, by the faces set last time when only they are
		// set (the whole backing array, which a query on other
		// meshes may have filled, otherwise).
		fm := grow(d.fall[bi], len(in.fc))
		if all := fm[:cap(fm)]; d.fallSparse[bi] {
			for _, f := range d.live[bi] {
				all[f] = 0
			}
		} else {
			clear(all)
		}
		d.fall[bi], d.live[bi], d.fallSparse[bi] = fm, d.live[bi][:0], true
	}
	for _, q := range cs.pairs {
		sw := d.sweepB(ib.cnode[q.b])
		d.clusterFaceMasks(0, q.a, ib.cr[q.b]+sw.hc+eps, sw, q.m)
		sw = d.sweepA(q.a)
		d.clusterFaceMasks(1, q.b, ia.cr[q.a]+sw.hc+eps, sw, q.m)
	}
	return len(d.live[0]) > 0 && len(d.live[1]) > 0
}

// clusterFaceMasks adds to the masks of the faces of cluster c of body bi
// (at their places at time 0) the intervals of m in which they meet the
// balls of sweep sw enlarged by r (the other cluster's, swept), and lists
// the faces whose mask was 0.
func (d *Detector) clusterFaceMasks(bi int, c int32, r float64, sw *nodeSweep, m uint32) {
	in := [2]*meshInfo{d.a.info, d.b.info}[bi]
	fm := d.fall[bi]
	for _, f := range in.cfaces[in.cstart[c]:in.cstart[c+1]] {
		if w := m &^ fm[f]; w != 0 {
			k := maskOf(d.tr[bi].Apply(in.fc[f]), in.fr[f]+r, &sw.mid, w)
			if fm[f] == 0 && k != 0 {
				d.live[bi] = append(d.live[bi], f)
			}
			fm[f] |= k
		}
	}
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
		for _, f := range d.live[bi] {
			if !bd.face[f] {
				continue
			}
			alive++
			for _, v := range m.Face(int(f)) {
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
