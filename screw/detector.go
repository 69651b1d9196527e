package screw

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
)

// meshInfo is the pose-independent data of a mesh, computed once.
type meshInfo struct {
	center    geom.Vec3 // bounding sphere centre (box centre)
	half      geom.Vec3 // half extents of the bounding box
	radius    float64
	shortEdge float64 // 25th percentile of edge lengths
	// Face bounding spheres (centre, radius), for culling (cull.go).
	fc []geom.Vec3
	fr []float64
	// Neighbourhoods of the faces (CSR): the vertices of face f and those
	// joined to them by an edge, ringV[ringVS[f]:ringVS[f+1]], and the
	// faces around its vertices, ringF[ringFS[f]:ringFS[f+1]].
	ringVS, ringFS []int32
	ringV, ringF   []int32
	// Clusters of nearby faces (cull.go): the faces of cluster c are
	// cfaces[cstart[c]:cstart[c+1]], its bounding sphere (cc[c], cr[c]);
	// fclus[f] is the cluster of face f.
	cstart, cfaces, fclus []int32
	cc                    []geom.Vec3
	cr                    []float64
	// The sphere tree over the clusters (cull.go), root nodes[0], and
	// the leaf node of each cluster.
	nodes []cnode
	cnode []int32
	clusR float64 // median cluster radius
	// Largest absolute vertex coordinate (NaN if a coordinate is NaN).
	maxCoord float64
	// solid: the mesh is closed and consistently oriented, so its faces
	// have an outside (else they are treated as two-sided).
	solid bool
}

func newMeshInfo(m *mesh.Mesh) *meshInfo {
	b := m.Bounds()
	c := b.Center()
	r := 0.0
	for _, v := range m.Verts {
		r = max(r, v.Dist2(c))
	}
	ls := make([]float64, 0, len(m.Edges))
	for _, e := range m.Edges {
		if l := m.Verts[e.V[0]].Dist(m.Verts[e.V[1]]); l > 0 {
			ls = append(ls, l)
		}
	}
	sort.Float64s(ls)
	se := 1.0
	if len(ls) > 0 {
		se = ls[len(ls)/4]
	}
	in := &meshInfo{center: c, half: b.Max.Sub(b.Min).Scale(0.5), radius: math.Sqrt(r), shortEdge: se,
		solid: m.Closed() && m.Oriented()}
	for _, v := range m.Verts {
		for _, x := range [3]float64{v.X, v.Y, v.Z} {
			if !(math.Abs(x) <= in.maxCoord) {
				in.maxCoord = math.Abs(x)
			}
		}
	}
	nf := m.NumFaces()
	in.fc = make([]geom.Vec3, nf)
	in.fr = make([]float64, nf)
	for f := 0; f < nf; f++ {
		var fb geom.AABB
		for k, v := range m.Face(f) {
			if k == 0 {
				fb = geom.AABB{Min: m.Verts[v], Max: m.Verts[v]}
			} else {
				fb = fb.AddPoint(m.Verts[v])
			}
		}
		fc := fb.Center()
		fr := 0.0
		for _, v := range m.Face(f) {
			fr = max(fr, m.Verts[v].Dist2(fc))
		}
		in.fc[f] = fc
		// Widened a little for the rounding of the transforms.
		in.fr[f] = math.Sqrt(fr)*(1+relPad) + sphereAbsPad*in.radius
	}
	in.buildClusters(m)
	seenV := make([]int32, len(m.Verts))
	seenF := make([]int32, nf)
	in.ringVS = append(in.ringVS, 0)
	in.ringFS = append(in.ringFS, 0)
	for f := 0; f < nf; f++ {
		addV := func(v int32) {
			if seenV[v] != int32(f)+1 {
				seenV[v] = int32(f) + 1
				in.ringV = append(in.ringV, v)
			}
		}
		addF := func(g int32) {
			if g >= 0 && seenF[g] != int32(f)+1 {
				seenF[g] = int32(f) + 1
				in.ringF = append(in.ringF, g)
			}
		}
		addF(int32(f))
		for _, v := range m.Face(f) {
			addV(v)
			for _, e := range m.VertexEdges(int(v)) {
				ed := &m.Edges[e]
				addV(ed.Other(v))
				addF(ed.Left)
				addF(ed.Right)
			}
		}
		in.ringVS = append(in.ringVS, int32(len(in.ringV)))
		in.ringFS = append(in.ringFS, int32(len(in.ringF)))
	}
	return in
}

// body is the per-query state of one of the two bodies in the screen
// frame, at time 0.
type body struct {
	m      *mesh.Mesh
	info   *meshInfo
	isA    bool
	center geom.Vec3   // bounding-sphere centre
	pos    []geom.Vec3 // vertex positions
	nrm    []geom.Vec3 // face normals
	off    []float64   // face plane offsets, nrm.x = off
	face   []bool      // face kept (backward for A, forward for B)
	edge   []bool
	vert   []bool
	proj   [][3]float64 // (r, h, s) of kept vertices, when no cut is needed
	vl, fl []int32      // the vertices and faces load transformed
	// two: the faces are two-sided (an open or inconsistently wound
	// mesh, or Options.TwoSided): a vertex may enter a face from either
	// side. keepAll: no face is culled by facing (either body is
	// two-sided: a solid's faces that face away from the motion meet a
	// two-sided surface when the solid leaves it).
	two, keepAll bool
}

// Detector finds the collisions of two polyhedra under relative screw
// motion. It keeps its buffers between queries, so repeated queries allocate
// nothing once the buffers have grown. A Detector is not safe for
// concurrent use; use one per goroutine.
//
// The pose-independent data of a mesh (Prepared) is computed on its first
// query and kept in a cache keyed by the mesh pointer, bounded to
// maxCachedMeshes (64) meshes; a mesh must not change after a Detector has
// seen it. Callers with many bodies (package world) should Prepare each
// body's mesh once and use the *Prepared methods, which bypass the cache.
type Detector struct {
	// cache holds the data of the meshes of recent queries (at most
	// maxCachedMeshes); pre, while a *Prepared method runs, its meshes'.
	cache map[*mesh.Mesh]*meshInfo
	pre   [2]*Prepared
	cbuf  []Collision // Contacts' collisions
	// The mesh of the last lookup in cache and its info.
	lastMesh *mesh.Mesh
	lastInfo *meshInfo
	a, b     body

	// Screen frame in A's local coordinates: origin o, axes x, y, z
	// (y is the screw axis). The motion in the screen frame is rotation
	// by t*theta about y plus glide t*g along y.
	o, ax, ay, az geom.Vec3
	theta, g      float64
	trans         bool // pure translation: orthogonal projection
	// small is set for rotations below smallTheta: the screen frame's
	// origin is then near the bodies instead of on the screw axis, whose
	// point u (u.Y = 0) is far away, and the screen is an orthogonal
	// projection along pdir (ortho) whose records are widened by the
	// deviation of the screw from the translation (smallMargins). The
	// motion itself is exact: p moves to p + C pj(p-u) + S jj(p-u) + t g y.
	small bool
	ortho bool // orthogonal projection (trans or small)
	u     geom.Vec3
	// Projection of the small mode: screen coordinates r = p.pe1,
	// h = p.pe2, time coordinate s = p.pdir * sinv.
	pe1, pe2, pdir geom.Vec3
	sinv           float64
	// Motion of A in the world, for reporting.
	a0, a1 geom.Pose
	aMoves bool

	pixel, tres float64 // pixel size, time resolution
	ppe         float64 // pixels per short edge, when the pixel size is automatic
	autoPixel   bool    // large meshes take the pixel size from regionPixel
	lens        []float64
	rowH        float64 // height of a screen row (a pixel, or coarser)
	segs        [2][]segment
	vpts        [2][]segment // vertex points (direct mode)
	direct      bool         // no rows: test segment pairs directly (scanDirect, scanGrid)
	useGrid     bool         // find the pairs through a grid (scanGrid)
	pixelRows   bool
	fbox        [2][][4]float64 // face boxes on the screen (direct mode)
	margin      float64         // positional margin of records
	smargin     float64         // time margin of records
	r0          float64         // r of row 0
	nrows       int
	scale       float64 // length scale of the problem
	cons        bool
	near        float64 // conservative distance (one pixel), else 0
	thresh      float64

	recs     [2][]rec
	next     [2][]int32 // next record of the same row, -1 at the end
	rowHead  [2][]int32 // first record of each row, -1 if none
	rowVerts [2][]int32 // number of vertex records of each row
	rowIdx   [2][]int32 // the current row's record indices, sorted by h_min
	span     [2]spanSet
	cands    candSet
	active   [2][]int32
	grid     grid // cells of scanGrid
	order    []int32
	// nearStack is nearEE's stack of time intervals.
	nearStack [][2]float64
	sorted    [2][]sweepKey // sorted segments of scanDirect
	hits      []Collision
	vbuf      []geom.Vec3

	// Contacts of the start poses (rest.go): the contacts found (world),
	// the pairs tested, B's vertices and planes in A's frame, and the
	// clusters of each body near the other.
	rest       []Collision
	restSet    candSet
	rpos, rnrm []geom.Vec3
	roff       []float64
	rca, rcb   []int32
	rfc, rcc   []geom.Vec3 // B's face and cluster centres in A's frame
	rsa, rsb   []float64   // distances of a face pair's vertices from the other's plane

	// Culling (cull.go): screen transforms of the bodies, face sphere
	// centres, and the masks of time intervals in which each face, edge
	// and vertex can touch the other body.
	tr           [2]geom.Transform
	sw           sweep
	fall         [2][]uint32 // face masks of the whole step
	fmask        [2][]uint32 // face masks of the current slice
	cs           cullState   // the descent of the two sphere trees
	live         [2][]int32  // the faces whose mask of the step (fall) may not be 0
	fallSparse   [2]bool     // fall's backing array is 0 beyond the faces of live
	noCull       bool        // every face can touch in every interval (pictures)
	first        bool        // setup for FirstContact
	allFull      bool        // every face mask of the step is allIntervals
	paired       bool        // faces culled by the descent of the two sphere trees
	sliceFull    bool        // every face mask of the current slice is allIntervals
	emask, vmask [2][]uint32
	projDone     [2][]uint32 // stamp of the query that projected a vertex
	stamp        uint32
	budget       int // subdivision steps left in this projection
}

// NewDetector returns a detector with empty buffers.
func NewDetector() *Detector {
	return &Detector{cache: map[*mesh.Mesh]*meshInfo{}}
}

func (d *Detector) info(m *mesh.Mesh) *meshInfo {
	for _, p := range d.pre {
		if p != nil && p.m == m {
			return p.info
		}
	}
	if m == d.lastMesh && m != nil {
		return d.lastInfo
	}
	if d.cache == nil {
		d.cache = map[*mesh.Mesh]*meshInfo{}
	}
	in := d.cache[m]
	if in == nil {
		if len(d.cache) >= maxCachedMeshes {
			// Bounded: forget every mesh (they are prepared again on
			// their next query).
			clear(d.cache)
		}
		in = newMeshInfo(m)
		d.cache[m] = in
	}
	d.lastMesh, d.lastInfo = m, in
	return in
}

// ErrBadInput is wrapped by the errors of Detect for unusable input.
var ErrBadInput = errors.New("screw: bad input")

func checkInput(a, b *mesh.Mesh, poses [4]geom.Pose) error {
	names := [4]string{"a0", "a1", "b0", "b1"}
	for i, p := range poses {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("%w: pose %s: %v", ErrBadInput, names[i], err)
		}
	}
	for i, m := range []*mesh.Mesh{a, b} {
		name := "A"
		if i == 1 {
			name = "B"
		}
		if m == nil || m.NumFaces() == 0 || len(m.Verts) == 0 {
			return fmt.Errorf("%w: mesh %s is empty", ErrBadInput, name)
		}
	}
	return nil
}

// MaxScaleRatio bounds the ratio of the largest coordinate of a query (pose
// translations, mesh vertex coordinates) to the bounding radius of the
// smaller body: beyond it float64 positions cannot resolve the bodies.
const MaxScaleRatio = 1e13

// maxProjectionSteps bounds the divide-and-conquer projection steps of a
// query beyond a per-edge allowance (a safety net: input within the
// ranges above needs far fewer). A variable so that tests can lower it.
var maxProjectionSteps = 1 << 22

// projectionStepsPerEdge is the per-edge allowance of projection steps.
var projectionStepsPerEdge = 4096

// checkRange rejects queries whose coordinates are too large, absolutely or
// relative to the bodies' sizes, for the projection to resolve them.
func (d *Detector) checkRange(a, b *mesh.Mesh, poses [4]geom.Pose) error {
	names := [4]string{"a0", "a1", "b0", "b1"}
	ia, ib := d.info(a), d.info(b)
	lim := min(geom.MaxCoord, MaxScaleRatio*min(ia.radius, ib.radius))
	for i, in := range [2]*meshInfo{ia, ib} {
		if !(in.maxCoord <= lim) {
			return fmt.Errorf("%w: mesh %s has a vertex coordinate %g beyond the usable range %g (at most %g, and %g times the smaller body's radius %g)",
				ErrBadInput, [2]string{"A", "B"}[i], in.maxCoord, lim, geom.MaxCoord, MaxScaleRatio, min(ia.radius, ib.radius))
		}
	}
	for i, p := range poses {
		for _, x := range [3]float64{p.P.X, p.P.Y, p.P.Z} {
			if !(math.Abs(x) <= lim) {
				return fmt.Errorf("%w: pose %s translation %v has a coordinate beyond the usable range %g (at most %g, and %g times the smaller body's radius %g)",
					ErrBadInput, names[i], p.P, lim, geom.MaxCoord, MaxScaleRatio, min(ia.radius, ib.radius))
			}
		}
	}
	return nil
}

// errProjection is returned when the projection exceeds its step budget.
func errProjection() error {
	return fmt.Errorf("%w: the projection of the motion did not converge within %d subdivision steps (coordinates too large or too small for the motion)", ErrBadInput, maxProjectionSteps)
}

// Detect appends to dst every collision of body A (mesh a, moving from pose
// a0 to a1) and body B (mesh b, from b0 to b1) during the step, assuming
// the relative motion is a screw motion (Buss Sec. 4), sorted by time, and
// returns the extended slice. Collisions whose properness is below the
// threshold are dropped. opt may be nil.
//
// Bodies that already touch or overlap at the start poses, or lie within
// Options.RestMargin of each other, first get their resting contacts (Time
// 0, Resting set, with Separation: 0 touching, negative overlapping,
// positive within the margin) whatever their properness, whether or not
// they move; see rest.go for the feature pairs. A body entirely inside
// the other, with no edge piercing a face, has no resting contact. The
// contacts of the motion follow; a motion without relative movement has
// none.
//
// VF and FV collisions are reported when a vertex enters the other body
// through a face (the face is backward facing there, Sec. 4.2); EE
// collisions whenever two edges cross.
//
// Unusable input is an error wrapping ErrBadInput that names the pose or
// mesh: non-finite or non-unit poses, empty meshes, coordinates beyond
// geom.MaxCoord or MaxScaleRatio times the smaller body's bounding radius,
// and (a safety net) projections that exceed their subdivision budget.
func (d *Detector) Detect(a, b *mesh.Mesh, a0, a1, b0, b1 geom.Pose, opt *Options, dst []Collision) ([]Collision, error) {
	if err := checkInput(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return dst, err
	}
	if err := d.checkRange(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return dst, err
	}
	d.startContacts(a, b, a0, b0, opt)
	d.hits = d.hits[:0]
	if !d.setup(a, b, a0, a1, b0, b1, opt) || !d.slice(allIntervals) {
		return d.report(dst), nil
	}
	if !d.rasterize() {
		return dst, errProjection()
	}
	d.scan()
	d.hits = d.hits[:0]
	d.solveAll(math.Inf(1), false)
	return d.report(dst), nil
}

// report appends to dst the collisions found (d.hits) whose properness
// reaches the threshold, in world space, sorted by time and without
// repeats.
func (d *Detector) report(dst []Collision) []Collision {
	// The contacts of the start poses first (Time 0), then those of the
	// motion, without repeating a resting pair at t = 0.
	dst = append(dst, d.rest...)
	start := len(dst)
	for _, c := range d.hits {
		if c.Properness >= d.thresh {
			if len(d.rest) > 0 && c.Time < dupTime && d.restSet.find(c.Kind, c.FeatureA, c.FeatureB) != nil {
				continue
			}
			dst = append(dst, d.toWorld(c))
		}
	}
	sortByTime(dst[start:])
	kept, scratch := dedupe(dst[start:], d.order)
	d.order = scratch
	return dst[:start+len(kept)]
}

// dedupe removes repeated reports of the same contact (a vertex-edge touch
// found through two edge pairs: same kind and features within 1e-9 in time)
// from a time-sorted slice, keeping the first. scratch is reusable index
// space; dedupe returns it (grown) with the shortened slice. Long lists
// (a coil touching along its whole length has hundreds of contacts at
// nearly the same time) are deduplicated through an order by features, in
// O(n log n).
func dedupe(out []Collision, scratch []int32) ([]Collision, []int32) {
	if len(out) <= 32 {
		w := 0
		for i := range out {
			dup := false
			for j := w - 1; j >= 0 && out[i].Time-out[j].Time < dupTime; j-- {
				if sameFeatures(&out[i], &out[j]) {
					dup = true
					break
				}
			}
			if !dup {
				out[w] = out[i]
				w++
			}
		}
		return out[:w], scratch
	}
	// Indices ordered by features, then by position (time order); within
	// a run of equal features, an entry within 1e-9 of the last one kept
	// is a repeat. Repeats are marked by a negative index.
	idx := grow(scratch, len(out))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(x, y int32) int {
		if c := featureOrder(&out[x], &out[y]); c != 0 {
			return c
		}
		return int(x) - int(y)
	})
	keep := int32(-1)
	for k, i := range idx {
		if keep >= 0 && sameFeatures(&out[i], &out[keep]) && out[i].Time-out[keep].Time < dupTime {
			idx[k] = -1
			continue
		}
		keep = i
	}
	// Back to time order: the kept indices, sorted.
	w := 0
	for _, i := range idx {
		if i >= 0 {
			idx[w] = i
			w++
		}
	}
	kept := idx[:w]
	slices.Sort(kept)
	for k, i := range kept {
		out[k] = out[i]
	}
	return out[:w], idx
}

// sameFeatures reports whether two collisions are of the same kind between
// the same features.
func sameFeatures(a, b *Collision) bool {
	return a.Kind == b.Kind && a.FeatureA == b.FeatureA && a.FeatureB == b.FeatureB
}

// featureOrder orders collisions by kind, then A's feature, then B's.
func featureOrder(x, y *Collision) int {
	switch {
	case x.Kind != y.Kind:
		return int(x.Kind) - int(y.Kind)
	case x.FeatureA != y.FeatureA:
		return int(x.FeatureA) - int(y.FeatureA)
	}
	return int(x.FeatureB) - int(y.FeatureB)
}

// sortByTime sorts collisions by time, ties by kind, features and real
// contacts before near misses, so the order does not depend on the order in
// which candidates were found.
func sortByTime(out []Collision) {
	slices.SortFunc(out, func(x, y Collision) int {
		switch {
		case x.Time < y.Time:
			return -1
		case x.Time > y.Time:
			return 1
		case !sameFeatures(&x, &y):
			return featureOrder(&x, &y)
		case x.Near != y.Near:
			// A real contact before a near miss of the same pair, so
			// dedupe keeps the real one.
			if y.Near {
				return -1
			}
			return 1
		}
		return 0
	})
}

// startContacts finds the contacts of the start poses (rest.go) into
// d.rest.
func (d *Detector) startContacts(a, b *mesh.Mesh, a0, b0 geom.Pose, opt *Options) {
	var o Options
	if opt != nil {
		o = *opt
	}
	ia, ib := d.info(a), d.info(b)
	touch := restTouchRel * max(ia.radius, ib.radius)
	margin := touch
	if o.RestMargin > 0 {
		margin = max(o.RestMargin, touch)
	}
	thresh := o.Properness
	if thresh == 0 {
		thresh = DefaultProperness
	}
	d.restContacts(a, b, a0, b0, margin, touch, thresh, o.TwoSided || !ia.solid, o.TwoSided || !ib.solid)
}

// FirstContact returns the earliest time in [0, 1] at which the two bodies
// touch (hit true), for the same input as Detect, ignoring properness (the
// first contact of two disjoint solids is always proper). Bodies that
// touch or overlap at the start poses (a resting contact of Detect with
// Separation <= 0) touch at time 0. It is faster than
// Detect: candidate pairs that cannot be earlier than the best found so far
// are skipped.
func (d *Detector) FirstContact(a, b *mesh.Mesh, a0, a1, b0, b1 geom.Pose, opt *Options) (hit bool, toc float64, err error) {
	if err := checkInput(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return false, 0, err
	}
	if err := d.checkRange(a, b, [4]geom.Pose{a0, a1, b0, b1}); err != nil {
		return false, 0, err
	}
	d.startContacts(a, b, a0, b0, opt)
	for i := range d.rest {
		if d.rest[i].Separation <= 0 {
			return true, 0, nil // touching or overlapping at the start
		}
	}
	d.first = true
	ok := d.setup(a, b, a0, a1, b0, b1, opt)
	d.first = false
	if !ok {
		return false, 0, nil
	}
	if d.paired {
		return d.firstContactPaired()
	}
	// Contacts can only happen in the intervals where faces of both
	// bodies can. When there are many, look first at the earliest few:
	// a contact found there is the first one, and it is found with less
	// work; otherwise look at the rest.
	var or [2]uint32
	for bi := range or {
		for _, f := range d.live[bi] {
			or[bi] |= d.fall[bi][f]
		}
	}
	common := or[0] & or[1]
	if common == 0 {
		return false, 0, nil
	}
	passes := [2]uint32{allIntervals, 0}
	if len(d.fall[0])+len(d.fall[1]) >= sliceFaces && bits.OnesCount32(common) > 2*sliceWidth {
		k0 := bits.TrailingZeros32(common)
		first := uint32(1)<<(k0+sliceWidth) - 1 // intervals up to k0+sliceWidth-1
		passes = [2]uint32{first, allIntervals &^ first}
	}
	for _, w := range passes {
		if w&common == 0 || !d.slice(w) {
			continue
		}
		if hit, toc, err := d.firstInSlice(); hit || err != nil {
			return hit, toc, err
		}
	}
	return false, 0, nil
}

// firstContactPaired is FirstContact for meshes culled by their sphere
// trees (cull.go). It finds the earliest interval of the rest of the step
// in which a pair of clusters can meet, then, in a window from there short
// enough that B's points move about fineMotion cluster radii in all, the
// earliest interval again, and solves the contacts of the window from
// there: a contact found there is the first one, found with the work of
// the features near it. When there is none, it goes on after the window
// with one twice as long (so a long approach costs a few windows).
func (d *Detector) firstContactPaired() (hit bool, toc float64, err error) {
	ia, ib := d.a.info, d.b.info
	// The fastest a point of B moves (in the screen frame, A is still).
	rb := hypot(d.b.center.X-d.u.X, d.b.center.Z-d.u.Z) + ib.radius
	speed := math.Hypot(d.theta*rb, d.g)
	span := 1.0
	if step := fineMotion * min(ia.clusR, ib.clusR); step < speed {
		span = max(step/speed, minWindow)
	}
	t := 0.0
	for t < 1 {
		// The rest of the step.
		d.setWindow(t, 1-t)
		k := d.earliest(allIntervals)
		if k == 0 {
			return false, 0, nil
		}
		t = d.sw.at(bits.TrailingZeros32(k))
		if t+span < 1 {
			// Zoom in: the window of the next span.
			d.setWindow(t, span)
			if k = d.earliest(allIntervals); k == 0 {
				t = d.sw.at(cullK)
				continue
			}
			t = d.sw.at(cullK)
		} else {
			t = 1
		}
		if !d.cullWindow(allIntervals&^(k-1)) || !d.slice(allIntervals&^(k-1)) {
			continue
		}
		d.regionPixel()
		if hit, toc, err := d.firstInSlice(); hit || err != nil {
			return hit, toc, err
		}
		span *= 2
	}
	return false, 0, nil
}

// firstInSlice projects and scans the current slice and returns its
// earliest contact.
func (d *Detector) firstInSlice() (hit bool, toc float64, err error) {
	if !d.rasterize() {
		return false, 0, errProjection()
	}
	d.scan()
	d.hits = d.hits[:0]
	if best := d.solveAll(math.Inf(1), true); !math.IsInf(best, 1) {
		return true, best, nil
	}
	return false, 0, nil
}

// setup computes the relative screw, the screen frame, the bodies'
// screen-frame geometry and the facing flags. It returns false when no
// collision is possible (no relative motion, or the swept bounding spheres
// do not meet).
func (d *Detector) setup(a, b *mesh.Mesh, a0, a1, b0, b1 geom.Pose, opt *Options) bool {
	var o Options
	if opt != nil {
		o = *opt
	}
	d.a0, d.a1 = a0, a1
	d.aMoves = a0 != a1
	tba := a0.Inverse().Mul(b0) // B local -> A local at time 0
	// Omega = a1^-1 b1 b0^-1 a0 = (a1^-1 b1) (a0^-1 b0)^-1 (Relative).
	om := a1.Inverse().Mul(b1).Mul(tba.Inverse())
	mot := MotionFromTransform(om.Q, om.P)
	ia, ib := d.info(a), d.info(b)
	cA := ia.center
	cB := tba.Apply(ib.center)
	d.scale = max(ia.radius, ib.radius) + minScale
	d.small, d.u = false, geom.Vec3{}
	switch {
	case mot.Theta == 0:
		if !(mot.G > 0) {
			return false
		}
		d.trans = true
		d.theta, d.g = 0, mot.G
		d.ay = mot.Axis
		// Right-handed (x = y cross z): the edge-edge normal's sign is
		// chosen by formula (7), a triple product that a mirrored frame
		// would reverse.
		d.az, _ = mot.Axis.Orthonormal()
		d.ax = d.ay.Cross(d.az)
		d.o = cA
	case mot.Theta < smallTheta:
		// The screw axis is about |displacement| / theta away: keep the
		// origin at B's centre, where coordinates stay small, and carry
		// the axis point u.
		d.trans, d.small = false, true
		d.theta, d.g = mot.Theta, mot.G
		d.ay = mot.Axis
		// Right-handed (x = y cross z), so the rotation formulas hold.
		d.az, _ = mot.Axis.Orthonormal()
		d.ax = d.ay.Cross(d.az)
		d.o = cB
		w := mot.U.Sub(d.o)
		d.u = geom.Vec3{X: w.Dot(d.ax), Z: w.Dot(d.az)}
	default:
		d.trans = false
		d.theta, d.g = mot.Theta, mot.G
		d.ay = mot.Axis
		d.o = mot.U
		cBm := mot.Apply(cB, 0.5)
		// Unit direction from the axis to p, or 0 when p is on the axis
		// (within rounding: the residue of removing the axial part has
		// no direction).
		perp := func(p geom.Vec3) geom.Vec3 {
			w := p.Sub(d.o)
			lim := lenTol * (w.Norm() + d.scale)
			w = w.AddScaled(-w.Dot(d.ay), d.ay)
			if w.Norm() <= lim {
				return geom.Vec3{}
			}
			n, _ := w.Normalize()
			return n
		}
		z, ok := perp(cA).Add(perp(cBm)).Normalize()
		if !ok {
			if z, ok = perp(cA).Normalize(); !ok {
				z, _ = d.ay.Orthonormal()
			}
		}
		// Exactly perpendicular to the axis, up to rounding.
		z, _ = z.AddScaled(-z.Dot(d.ay), d.ay).Normalize()
		d.az = z
		d.ax = d.ay.Cross(d.az)
	}
	d.ortho = d.trans || d.small
	// Screen transforms.
	rs := geom.MatRows(d.ax, d.ay, d.az)
	ta := geom.Transform{R: rs, T: rs.MulVec(d.o).Neg()}
	tb := ta.Mul(tba.Transform())
	d.tr = [2]geom.Transform{ta, tb}
	d.a.m, d.a.info, d.a.isA, d.a.center = a, ia, true, ta.Apply(ia.center)
	d.b.m, d.b.info, d.b.isA, d.b.center = b, ib, false, tb.Apply(ib.center)
	d.a.two = o.TwoSided || !ia.solid
	d.b.two = o.TwoSided || !ib.solid
	d.a.keepAll = d.a.two || d.b.two
	d.b.keepAll = d.a.keepAll

	// Swept bounding sphere test (Sec. 9, first step).
	ca := ta.Apply(ia.center)
	cb := tb.Apply(ib.center)
	cb1 := d.move(cb, 1)
	rc := hypot(cb.X-d.u.X, cb.Z-d.u.Z)
	sag := rc * d.theta * d.theta / 8 * 1.01
	dist := segPointDist(cb, cb1, ca)
	if dist-sag > ia.radius+ib.radius+lenTol*d.scale {
		return false
	}
	if d.theta > 0 && !d.small {
		ra, rb := hypot(ca.X, ca.Z), rc
		if math.Abs(ra-rb) > ia.radius+ib.radius+lenTol*d.scale {
			return false
		}
	}

	// Options.
	d.thresh = o.Properness
	if d.thresh == 0 {
		d.thresh = DefaultProperness
	}
	d.pixel = o.PixelSize
	if !(d.pixel > 0) {
		d.pixel = o.Accuracy
	}
	d.ppe, d.autoPixel = 0, false
	if !(d.pixel > 0) {
		d.ppe = o.PixelsPerEdge
		if !(d.ppe > 0) {
			d.ppe = DefaultPixelsPerEdge
		}
		// Large meshes set it again from the edges near the contact
		// (regionPixel) when nothing else depends on it.
		d.autoPixel = !o.Conservative && !o.PixelRows
	}
	d.pixelRows = o.PixelRows
	d.setPixel(d.pixel, min(ia.shortEdge, ib.shortEdge))
	d.tres = o.TimeResolution
	if !(d.tres > 0) {
		d.tres = DefaultTimeResolution
	}
	d.cons = o.Conservative
	d.near = 0
	if d.cons {
		d.near = d.pixel
	}
	// Records of one-pixel rows are widened by half a pixel for the
	// rasterization; without rows the segments are the chords themselves,
	// whose own deviation is added where they are made (subdivide).
	d.margin = d.near + lenTol*d.scale
	if o.PixelRows {
		d.margin += d.pixel / 2
	}
	d.smargin = timePad
	if d.small {
		d.smallMargins(cb, ib.radius)
	}
	if !d.ortho {
		// The azimuths of the projection come from fastAtan2, within
		// atanErr of the true ones: that moves h by at most r*atanErr and
		// s by at most r^2 theta/(g^2 + r^2 theta^2)*atanErr, which is at
		// most atanErr/theta and r*atanErr/(2|g|). Records of both bodies
		// are widened by twice that (a vertex record has no margin).
		rmax := (max(hypot(ca.X, ca.Z)+ia.radius, rc+ib.radius)) * (1 + relPad)
		d.margin += 2 * atanErr * rmax
		d.smargin += 2 * atanErr * min(1/d.theta, rmax/(2*math.Abs(d.g)))
	}

	// Culling of faces by their bounding spheres (cull.go), then the
	// geometry of the faces left and of their neighbourhoods.
	return d.cullFaces()
}

// slice restricts the query to the time intervals of mask w (cull.go):
// it keeps the faces that can touch the other body in one of them, computes
// their geometry and facing (Sec. 4.2) and the edge and vertex masks. It
// returns false when nothing is left.
func (d *Detector) slice(w uint32) bool {
	for bi := range d.fmask {
		fa := d.fall[bi]
		if d.paired {
			// cullWindow's masks are those of the slice already.
			d.fmask[bi] = fa
			continue
		}
		fm := grow(d.fmask[bi], len(fa))
		for f := range fa {
			fm[f] = fa[f] & w
		}
		d.fmask[bi] = fm
	}
	d.sliceFull = d.allFull && w == allIntervals
	d.a.load(d.tr[0], d.fmask[0], d.live[0])
	d.b.load(d.tr[1], d.fmask[1], d.live[1])
	d.a.facing(d.theta, d.g, d.u, true, d.fmask[0], d.live[0])
	d.b.facing(d.theta, d.g, d.u, false, d.fmask[1], d.live[1])
	return d.cullFeatures()
}

// setPixel sets the pixel size to pixel, or with automatic pixels (d.ppe
// > 0) to a short edge se over the pixels per edge, and the row height.
func (d *Detector) setPixel(pixel, se float64) {
	if d.ppe > 0 {
		pixel = se / d.ppe
	}
	// Keep the screen below 1<<16 rows.
	lo := 2 * (d.a.info.radius + d.b.info.radius) / (1 << 16)
	d.pixel = max(pixel, lo)
	d.rowH = d.pixel
	if !d.pixelRows {
		// Rows about half a typical short edge high: fewer records, and
		// candidate pairs are checked against the projected segments at
		// pixel accuracy.
		d.rowH = max(d.pixel, se/2, lo)
	}
}

// regionPixel sets the automatic pixel size of large meshes from the
// edges kept for the current slice (those near the contact) instead of
// the whole meshes: the regionQuantile quantile of their lengths. Thin
// walls of CAD meshes (many very short edges elsewhere) then no longer
// make the pixel, and the projection work of long edges, needlessly fine.
func (d *Detector) regionPixel() {
	if !d.autoPixel {
		return
	}
	ls := d.lens[:0]
	for _, bd := range [2]*body{&d.a, &d.b} {
		m := bd.m
		for e, k := range bd.edge {
			if k {
				ed := &m.Edges[e]
				if l := m.Verts[ed.V[0]].Dist(m.Verts[ed.V[1]]); l > 0 {
					ls = append(ls, l)
				}
			}
		}
	}
	d.lens = ls
	if len(ls) == 0 {
		return
	}
	d.setPixel(0, selectKth(ls, int(regionQuantile*float64(len(ls)-1))))
}

// selectKth returns the k-th smallest element of a (0-based), reordering
// it (Hoare's selection, with the middle element as pivot).
func selectKth(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[lo+(hi-lo)/2]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}

// regionQuantile is the quantile of the lengths of the edges near the
// contact that sets the automatic pixel size of large meshes.
const regionQuantile = 0.5

// move applies the screen-frame motion to p at time t.
func (d *Detector) move(p geom.Vec3, t float64) geom.Vec3 {
	if d.trans {
		return geom.Vec3{X: p.X, Y: p.Y + t*d.g, Z: p.Z}
	}
	s, c := math.Sincos(t * d.theta)
	return d.moveSC(p, t, s, c, false)
}

// moveSC applies the screen-frame motion at time t, whose rotation angle
// has sine sn and cosine cs, to p; with inv its inverse (B's time-0 frame
// seen moving back). In the small mode the rotation is about the axis
// through u, written as an increment so that the far axis costs no
// accuracy.
func (d *Detector) moveSC(p geom.Vec3, t, sn, cs float64, inv bool) geom.Vec3 {
	g := t * d.g
	if inv {
		sn, g = -sn, -g
	}
	if !d.small {
		return geom.Vec3{X: p.X*cs + p.Z*sn, Y: p.Y + g, Z: -p.X*sn + p.Z*cs}
	}
	wx, wz := p.X-d.u.X, p.Z-d.u.Z
	c := cosm1(sn, cs)
	return geom.Vec3{X: p.X + c*wx + sn*wz, Y: p.Y + g, Z: p.Z + c*wz - sn*wx}
}

// cosm1 returns cos(a) - 1 for the angle a with sine sn and cosine cs,
// accurately for small angles.
func cosm1(sn, cs float64) float64 {
	if cs > 0 {
		return -sn * sn / (1 + cs)
	}
	return cs - 1
}

// smallMargins sets the projection of the small mode (see Detector.small)
// and widens the records' margins by the deviation of the screw from the
// translation by the displacement p of the screen origin: a point at
// distance rho from the origin deviates from x + t p by at most
// 2 sin(t theta/2) rho <= theta rho (its turn about the origin) plus the
// sagitta |u| (1 - cos(theta/2)) of the origin's own helix. cb and rb are
// B's bounding sphere in the screen frame (only B moves in it).
func (d *Detector) smallMargins(cb geom.Vec3, rb float64) {
	sn, cs := math.Sincos(d.theta)
	p := d.moveSC(geom.Vec3{}, 1, sn, cs, false)
	h := math.Sin(d.theta / 4)
	dev := (d.theta*(cb.Norm()+rb) + 2*h*h*hypot(d.u.X, d.u.Z)) * (1 + smallDevPad)
	d.margin += dev
	pl := p.Norm()
	d.pdir = d.ay
	d.sinv = 0
	if pl > 0 && dev < pl {
		d.pdir = p.Scale(1 / pl)
		d.sinv = 1 / pl
		d.smargin += dev / pl * (1 + smallDevPad)
	} else {
		// The displacement is within the deviation: the time
		// coordinate says nothing, every window is the whole step.
		d.smargin += 2
	}
	d.pe1, d.pe2 = d.pdir.Orthonormal()
}

func segPointDist(a, b, p geom.Vec3) float64 {
	ab := b.Sub(a)
	l := ab.Norm2()
	t := 0.0
	if l > 0 {
		t = max(0, min(1, p.Sub(a).Dot(ab)/l))
	}
	return a.AddScaled(t, ab).Dist(p)
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/2)
	}
	return s[:n]
}

// load computes the screen-frame positions and planes the query needs:
// those of the faces whose mask fm is not empty, of the faces around their
// vertices (edge-edge properness and vertex resolution use them) and of the
// vertices joined to theirs by an edge (vertex properness).
func (bd *body) load(t geom.Transform, fm []uint32, live []int32) {
	m := bd.m
	nv, nf, ne := len(m.Verts), m.NumFaces(), len(m.Edges)
	bd.pos = grow(bd.pos, nv)
	bd.nrm = grow(bd.nrm, nf)
	bd.off = grow(bd.off, nf)
	bd.face = grow(bd.face, nf)
	bd.edge = grow(bd.edge, ne)
	bd.vert = grow(bd.vert, nv)
	if nv <= smallLoad && nf <= smallLoad {
		// Small meshes: transforming everything costs less than
		// marking the neighbourhoods.
		for i, v := range m.Verts {
			bd.pos[i] = t.Apply(v)
		}
		for f, pl := range m.Planes[:nf] {
			n := t.ApplyDir(pl.N)
			bd.nrm[f] = n
			bd.off[f] = pl.D + n.Dot(t.T)
		}
		return
	}
	// Marks, in the vert and face flags (facing resets them).
	clear(bd.vert)
	clear(bd.face)
	in := bd.info
	vl, fl := bd.vl[:0], bd.fl[:0]
	for _, f := range live {
		if fm[f] == 0 {
			continue
		}
		for _, v := range in.ringV[in.ringVS[f]:in.ringVS[f+1]] {
			if !bd.vert[v] {
				bd.vert[v] = true
				vl = append(vl, v)
			}
		}
		for _, g := range in.ringF[in.ringFS[f]:in.ringFS[f+1]] {
			if !bd.face[g] {
				bd.face[g] = true
				fl = append(fl, g)
			}
		}
	}
	bd.vl, bd.fl = vl, fl
	for _, i := range vl {
		bd.pos[i] = t.Apply(m.Verts[i])
	}
	for _, f := range fl {
		pl := m.Planes[f]
		n := t.ApplyDir(pl.N)
		bd.nrm[f] = n
		bd.off[f] = pl.D + n.Dot(t.T)
	}
}

// smallLoad is the largest vertex and face count for which load transforms
// the whole mesh.
const smallLoad = 64

// facing marks the faces that are (at least partly) backward facing for A
// or forward facing for B under the flow omega(x) = theta y x x + g y, and
// the edges and vertices on them.
func (bd *body) facing(theta, g float64, u geom.Vec3, backward bool, fm []uint32, live []int32) {
	m := bd.m
	clear(bd.edge)
	clear(bd.vert)
	clear(bd.face)
	if bd.keepAll {
		// Two-sided faces face every way: keep every face that can
		// touch, with its edges and vertices.
		for _, f32 := range live {
			f := int(f32)
			bd.face[f] = fm[f] != 0
			if !bd.face[f] {
				continue
			}
			for _, v := range m.Face(f) {
				bd.vert[v] = true
			}
			for _, e := range m.FaceEdgeLoop(f) {
				bd.edge[e] = true
			}
		}
		return
	}
	// A bound of |x| + |z| over the body, measured from the axis.
	rmax := math.Abs(bd.center.X-u.X) + math.Abs(bd.center.Z-u.Z) + 1.5*bd.info.radius
	eps := facingRel * (math.Abs(g) + theta*rmax)
	for _, f32 := range live {
		f := int(f32)
		if fm[f] == 0 {
			continue
		}
		n := bd.nrm[f]
		loop := m.Face(f)
		el := m.FaceEdgeLoop(f)
		keep := false
		// An edge (or vertex) of the face is kept when the face faces
		// the right way at one of its ends: omega(x).n is linear in x,
		// so this is the part of the face that survives clipping by the
		// plane Q (Sec. 4.2).
		var okPrev, ok0 bool
		for k, v := range loop {
			p := bd.pos[v]
			w := theta*((p.Z-u.Z)*n.X-(p.X-u.X)*n.Z) + g*n.Y
			ok := backward && w <= eps || !backward && w >= -eps
			if ok {
				keep = true
				bd.vert[v] = true
			}
			if k == 0 {
				ok0 = ok
			} else if ok || okPrev {
				bd.edge[el[k-1]] = true
			}
			okPrev = ok
		}
		if okPrev || ok0 {
			bd.edge[el[len(el)-1]] = true
		}
		bd.face[f] = keep
	}
}

// Prepare computes the pose-independent data of mesh m (bounding sphere,
// typical edge length, face and face-cluster bounding spheres for culling,
// face neighbourhoods) into the Detector's cache ahead of the first query
// that uses it. Queries do it on demand otherwise. The package function
// Prepare builds the same data for callers to keep.
func (d *Detector) Prepare(m *mesh.Mesh) { d.info(m) }
