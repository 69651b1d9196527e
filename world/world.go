package world

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"

	"github.com/collide-go/collide/broad"
	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/hull"
	"github.com/collide-go/collide/internal/enumname"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/meshquery"
	"github.com/collide-go/collide/screw"
	"github.com/collide-go/collide/toc"
)

// BodyKind says how a body's mesh is treated.
type BodyKind uint8

const (
	// Convex is a closed convex polytope (mesh.Mesh.Convex).
	Convex BodyKind = iota
	// Polyhedron is a closed mesh bounding a solid, convex or not.
	Polyhedron
	// Soup is any triangulated surface, closed or not.
	Soup
	numKinds
)

// String returns "convex", "polyhedron" or "soup".
func (k BodyKind) String() string {
	return enumname.Of(bodyKindNames[:], k, "BodyKind")
}

var bodyKindNames = [numKinds]string{"convex", "polyhedron", "soup"}

// Method is a narrow phase.
type Method uint8

const (
	// None skips the pair.
	None Method = iota
	// SeparatingVector is the search of Chung and Wang (package convex) at
	// the end poses of the step, with a per-pair cache. Convex bodies only.
	SeparatingVector
	// GJK is the GJK intersection test (package convex) at the end poses.
	// Convex bodies only.
	GJK
	// ScrewCCD is continuous detection under relative screw motion
	// between the start and end poses (package screw). Closed bodies only.
	ScrewCCD
	// TimeOfContact is the first time of contact along the step's motion
	// (package toc), for any triangulated surface.
	TimeOfContact
	// MeshContacts is the discrete contact query of package meshquery at
	// the end poses (Time 1) on each mesh's bounding-volume hierarchy:
	// penetrating vertices of closed bodies with their depths, features
	// within Options.Margin, crossings of open surfaces. Any kinds; it
	// does not look at the motion, so fast bodies may pass through each
	// other unseen.
	MeshContacts
	// FeatureContacts gives the corners of the contact region of two
	// closed polyhedra, convex or not, at the start poses (Time 0): every
	// vertex of one body in front of a face of the other within the
	// pair's margin, or behind it by at most a tenth of the smaller
	// bounding radius (a twentieth when neither body is convex) (of the faces a vertex is behind, only the nearest:
	// the way out), where the vertex projects inside the face; every
	// vertex behind both faces of a concave edge of the other, projecting
	// onto neither, within that depth of the edge (the edge as feature, the
	// normal along the way out to it); and every pair of sharp edges whose closest points are interior to both edges
	// and whose common normal lies in both edges' normal wedges (the
	// Gauss-map test of the separating-axis theorem), an edge lying on a
	// face taking the face's normal. A feature pair's margin is
	// Options.Margin plus both bodies' margins (SetMargin) plus what the
	// step's motion (each body at constant linear and angular velocity
	// from its pose to the one given to Move) can close between the two
	// features: the bodies' relative velocity at the middle of the region
	// where their boxes meet, plus the difference of their turns times
	// the feature's distance from there, plus a second-order term for the
	// bending of the paths; never more than the relative displacement of
	// the origins plus each body's turn times its radius. A simulator
	// moves each body to the pose its velocities would reach and gets
	// speculative contacts (positive Separation) for every feature pair
	// that may meet. A pair gets none when the bodies' bounding spheres,
	// carried along the step, stay farther apart than the pair's margin,
	// nor when one body is convex and does not move and the other's
	// bounding sphere stays all along its path in front of one of its
	// face planes by more than that margin (a small body flying off a
	// wide plate). A
	// vertex on the rim of a face it lies beside (the face's normal within
	// 60 degrees of the vertex's mean normal, an edge of the vertex running
	// behind the face's plane) is not matched with that face unless no
	// other face holds it, so two boxes stacked flush touch along the
	// vertical; a vertex behind a face whose way to the face enters the
	// body through another face (just past a sharp edge) is outside and
	// gets no record of that face. These
	// passes do not look at the motion and cannot see a vertex deeper than
	// the tolerance, nor two sharp corners meeting tip to tip (the
	// neighbouring edges and faces cover them). Bodies overlapping deeper
	// than the tolerance also get exact records of that overlap, so that a
	// solver can push them apart: two convex bodies one record of their
	// penetration (depth, direction and witness point of the convex signed
	// distance); any other pair a record for every vertex of either body
	// inside the other deeper than the tolerance (its depth, the distance
	// to the other's surface, as a negative separation; the normal along
	// its shortest way out; the vertex and the nearest feature of the
	// other surface as features; meshquery.Scratch.PenetratingVertices).
	// That check runs only when the pair's last one and its relative
	// motion since do not rule such an overlap out. A pair whose
	// bodies moved less than a tenth of its search pad relative to each
	// other since its last step keeps its candidate feature pairs, searched
	// with that much more pad, and reuses them while the relative motion
	// since stays within the spare pad (Stats.Reused): the contacts are
	// the same as a fresh search's, at the cost of the feature tests alone
	// for bodies at rest.
	FeatureContacts
	numMethods
)

var methodNames = [...]string{"none", "separating-vector", "gjk", "screw", "toc", "mesh", "features"}

// String returns the method's name, as ParseMethod accepts it.
func (m Method) String() string {
	return enumname.Of(methodNames[:], m, "Method")
}

// ParseMethod returns the method named s (as printed by String).
func ParseMethod(s string) (Method, error) {
	if i := slices.Index(methodNames[:], s); i >= 0 {
		return Method(i), nil
	}
	return None, fmt.Errorf("world: unknown method %q", s)
}

// continuous reports whether the method looks at the whole step.
func (m Method) continuous() bool { return m == ScrewCCD || m == TimeOfContact }

// Table maps a pair of kinds to a method: Table[a][b] for bodies of kinds
// a and b. It must be symmetric.
type Table [numKinds][numKinds]Method

// DefaultTable is the table used when Options.Table is nil: separating
// vector for two convex bodies, screw-motion CCD for closed bodies when
// one is not convex, time of contact whenever a soup is involved.
var DefaultTable = Table{
	Convex:     {Convex: SeparatingVector, Polyhedron: ScrewCCD, Soup: TimeOfContact},
	Polyhedron: {Convex: ScrewCCD, Polyhedron: ScrewCCD, Soup: TimeOfContact},
	Soup:       {Convex: TimeOfContact, Polyhedron: TimeOfContact, Soup: TimeOfContact},
}

// validate checks that the table is symmetric, every method applies to
// its kinds and answers on the motion model.
func (t *Table) validate(motion geom.MotionModel) error {
	for a := BodyKind(0); a < numKinds; a++ {
		for b := BodyKind(0); b < numKinds; b++ {
			m := t[a][b]
			if m >= numMethods {
				return fmt.Errorf("world: table[%v][%v]: unknown method %d", a, b, m)
			}
			if t[b][a] != m {
				return fmt.Errorf("world: table not symmetric: [%v][%v] = %v, [%v][%v] = %v", a, b, m, b, a, t[b][a])
			}
			if (m == SeparatingVector || m == GJK) && (a != Convex || b != Convex) {
				return fmt.Errorf("world: table[%v][%v]: %v needs two convex bodies", a, b, m)
			}
			if (m == ScrewCCD || m == FeatureContacts) && (a == Soup || b == Soup) {
				return fmt.Errorf("world: table[%v][%v]: %v needs closed bodies", a, b, m)
			}
			if m == ScrewCCD && motion != geom.ScrewMotion {
				return fmt.Errorf("world: table[%v][%v]: %v answers on screw motion, but Options.Motion is %v", a, b, m, motion)
			}
		}
	}
	return nil
}

// BroadKind selects the broad phase.
type BroadKind uint8

const (
	// BroadSweep is broad.Sweep (the default).
	BroadSweep BroadKind = iota
	// BroadSAP is broad.SAP, three-axis sweep and prune.
	BroadSAP
	// BroadTree is broad.Tree.
	BroadTree
	// BroadBrute is broad.Brute.
	BroadBrute
)

// Options configure a World. The zero value is the default.
type Options struct {
	// Table chooses the narrow phase per pair of kinds; nil means
	// DefaultTable.
	Table *Table
	// Broad chooses the broad phase; zero means BroadSweep.
	Broad BroadKind
	// Workers is the number of goroutines for the pair work; zero means
	// runtime.GOMAXPROCS(0). The contacts do not depend on it.
	Workers int
	// Convex, Screw and TOC are passed to the narrow phases; nil or
	// zero means their defaults. For TOC only the first contact is used
	// (Within is ignored), and its Motion is replaced by Options.Motion.
	Convex convex.Options
	Screw  *screw.Options
	TOC    *toc.Options
	// Swept tunes the swept boxes of moving bodies.
	Swept broad.SweptOptions
	// Motion is how every body moves from its start pose to its end pose
	// over a step; every continuous method answers on it, so
	// Contact.Time means the same trajectory whichever method found the
	// contact. The zero value is geom.ScrewMotion: each pair is then
	// tested on the relative screw motion of B with respect to A (Buss,
	// Collision Detection with Relative Screw Motion, eq. 1), which is
	// the body's own screw motion when the other body is static. With
	// geom.LinearAngular each body moves with constant linear and
	// angular velocity; ScrewCCD does not answer on that model and New
	// refuses a table that uses it.
	Motion geom.MotionModel
	// Margin is the speculative distance, in length units: pairs that
	// come within Margin of each other without touching get Near
	// contacts with a positive Separation where the pair's method
	// measures distance (convex pairs; closed polyhedra at rest). Zero
	// means no speculative contacts.
	Margin float64
}

// BodyID names a body of a world. Ids of removed bodies are reused.
type BodyID int32

// Filter decides which bodies may collide, as in Box2D: two bodies in the
// same non-zero Group collide always if the group is positive and never if
// it is negative; otherwise they collide when each one's Category has a
// bit in the other's Mask. The zero value collides with everything.
type Filter struct {
	// Category bits of the body; zero means 1.
	Category uint32
	// Mask of the categories the body collides with; zero means all.
	Mask uint32
	// Group overrides the bits for two bodies of the same group.
	Group int32
}

func (f Filter) bits() (cat, mask uint32) {
	cat, mask = f.Category, f.Mask
	if cat == 0 {
		cat = 1
	}
	if mask == 0 {
		mask = ^uint32(0)
	}
	return cat, mask
}

// collide reports whether bodies with filters f and g may collide.
func collide(f, g Filter) bool {
	if f.Group != 0 && f.Group == g.Group {
		return f.Group > 0
	}
	cf, mf := f.bits()
	cg, mg := g.bits()
	return cf&mg != 0 && cg&mf != 0
}

// BodyDef describes a body to add.
type BodyDef struct {
	Mesh *mesh.Mesh
	Kind BodyKind
	// Pose is the body's pose; a zero quaternion is an error.
	Pose geom.Pose
	// Static bodies never move and are never tested against each other.
	Static bool
	Filter Filter
	// Margin is the body's own speculative distance (see SetMargin).
	Margin float64
}

// shape is the prepared geometry of a mesh for a kind, built when the
// first body of that mesh and kind is added and released when the last
// one is removed. The mesh must not be changed while a body uses it.
type shape struct {
	mesh   *mesh.Mesh
	kind   BodyKind
	users  int
	poly   *convex.Polytope // Convex
	screw  *screw.Prepared  // ScrewCCD
	toc    *toc.Shape       // TimeOfContact
	tree   *meshquery.Tree  // MeshContacts
	feat   *features        // FeatureContacts
	tris   []mesh.Tri       // scene queries, built on first use
	extent broad.Extent
	box    boxPoints // broad-phase box, built for the first moving body
	boxOK  bool
}

type shapeKey struct {
	m *mesh.Mesh
	k BodyKind
}

type body struct {
	live   bool
	kind   BodyKind
	static bool
	asleep bool    // tested only against awake moving bodies
	margin float64 // added to the pair's speculative distance
	filter Filter
	sh     *shape
	p0, p1 geom.Pose // pose at the start and the end of the next step
	// t1 is p1's transform and box the broad-phase box, computed once per
	// step (once for static bodies, whose box never changes).
	t1    geom.Transform
	box   geom.AABB
	boxOK bool
	sup   [6]int32 // convex: supporting vertices along +x, +y, +z, -x, -y, -z
	supOK bool
}

// World is a scene of rigid bodies. It is not safe for concurrent use;
// Step itself uses Options.Workers goroutines.
type World struct {
	opt    Options
	table  Table
	bodies []body
	free   []BodyID
	n      int
	// Bodies per kind: a body's box covers the motions of the methods
	// that pair it with the kinds present.
	kindCount [numKinds]int
	shapes    map[shapeKey]*shape
	phase     broad.Phase
	workers   []*worker
	caches    pairCaches
	tocOpt    *toc.Options   // Options.TOC with Within = 0 and the world's motion
	screwOpt  *screw.Options // Options.Screw with RestMargin = Options.Margin
	mqOpt     meshquery.ContactOptions
	step      uint32
	stats     Stats
	// Scene queries run on a tree of the bodies' boxes at their current
	// poses, brought up to date when a query follows a change.
	qtree   broad.Tree
	qbounds geom.AABB
	qdirty  bool

	// Step scratch.
	boxes []geom.AABB
	pairs []broad.Pair
	tasks []task
	res   []result
}

// New returns an empty world. It returns an error when the options are
// invalid (an asymmetric table, a method on kinds it does not apply to).
func New(opt *Options) (*World, error) {
	w := &World{shapes: map[shapeKey]*shape{}}
	if opt != nil {
		w.opt = *opt
	}
	w.table = DefaultTable
	if w.opt.Table != nil {
		w.table = *w.opt.Table
	}
	if w.opt.Motion > geom.LinearAngular {
		return nil, fmt.Errorf("world: Options.Motion: unknown motion model %d", w.opt.Motion)
	}
	if err := w.table.validate(w.opt.Motion); err != nil {
		return nil, err
	}
	if err := checkMargin(w.opt.Margin); err != nil {
		return nil, fmt.Errorf("world: Options.Margin: %w", err)
	}
	if w.opt.Broad > BroadBrute {
		return nil, fmt.Errorf("world: unknown broad phase %d", w.opt.Broad)
	}
	if w.opt.Workers < 0 {
		return nil, fmt.Errorf("world: Workers = %d, want >= 0", w.opt.Workers)
	}
	w.mqOpt.Margin = w.opt.Margin
	if w.opt.Screw != nil || w.opt.Margin > 0 {
		var o screw.Options
		if w.opt.Screw != nil {
			o = *w.opt.Screw
		}
		if w.opt.Margin > 0 {
			o.RestMargin = w.opt.Margin
		}
		w.screwOpt = &o
	}
	{
		var o toc.Options
		if w.opt.TOC != nil {
			o = *w.opt.TOC
		}
		o.Within = 0
		o.Motion = w.opt.Motion
		w.tocOpt = &o
	}
	switch w.opt.Broad {
	case BroadSAP:
		w.phase = new(broad.SAP)
	case BroadTree:
		w.phase = new(broad.Tree)
	case BroadBrute:
		w.phase = new(broad.Brute)
	default:
		w.phase = new(broad.Sweep)
	}
	nw := w.opt.Workers
	if nw == 0 {
		nw = runtime.GOMAXPROCS(0)
	}
	for i := 0; i < nw; i++ {
		w.workers = append(w.workers, &worker{det: screw.NewDetector()})
	}
	return w, nil
}

// Len returns the number of bodies.
func (w *World) Len() int { return w.n }

// ErrNoBody is returned for an id that names no body.
var ErrNoBody = errors.New("world: no such body")

func (w *World) get(id BodyID) (*body, error) {
	if id < 0 || int(id) >= len(w.bodies) || !w.bodies[id].live {
		return nil, fmt.Errorf("%w: %d", ErrNoBody, id)
	}
	return &w.bodies[id], nil
}

// Add adds a body and returns its id. The body's prepared geometry (the
// convex polytope and its tables, the time-of-contact shape and, with the
// first body that is not static, the convex hull whose vertices give the
// broad-phase box, exactly the box of all vertices, from a few hull
// vertices per pose; a body whose step reaches farther than its radius
// under FeatureContacts gets its local box turned instead) is built here
// once per mesh and kind and shared by the bodies of that mesh; it is
// released when the last of them is removed. The mesh must not be changed
// while a body uses it. Add returns an error when the mesh is nil or unfit
// for the kind (not convex for Convex, not closed for Polyhedron) or for a
// method of the kind's table row, or the pose is not finite, beyond
// geom.MaxCoord, or its quaternion is zero.
func (w *World) Add(def BodyDef) (BodyID, error) {
	if def.Mesh == nil {
		return -1, errors.New("world: body has no mesh")
	}
	if def.Kind >= numKinds {
		return -1, fmt.Errorf("world: unknown kind %d", def.Kind)
	}
	pose, err := checkPose(def.Pose)
	if err != nil {
		return -1, fmt.Errorf("world: %w", err)
	}
	if err := checkMargin(def.Margin); err != nil {
		return -1, fmt.Errorf("world: body margin: %w", err)
	}
	sh, err := w.shape(def.Mesh, def.Kind)
	if err != nil {
		return -1, err
	}
	if !def.Static && !sh.boxOK {
		// A static body's box is taken once, from all vertices.
		sh.box, sh.boxOK = newBoxPoints(def.Mesh, sh.poly), true
	}
	var id BodyID
	if k := len(w.free); k > 0 {
		id = w.free[k-1]
		w.free = w.free[:k-1]
	} else {
		id = BodyID(len(w.bodies))
		w.bodies = append(w.bodies, body{})
	}
	sh.users++
	w.bodies[id] = body{live: true, kind: def.Kind, static: def.Static, margin: def.Margin, filter: def.Filter, sh: sh, p0: pose, p1: pose}
	w.kindCount[def.Kind]++
	w.n++
	w.qdirty = true
	return id, nil
}

// checkPose validates a pose and normalizes its quaternion. Its errors do
// not name the package; callers add it once.
func checkPose(p geom.Pose) (geom.Pose, error) {
	// The sum of the components is finite exactly when each is and no
	// two infinities cancel: one test for the common case.
	if sum := p.P.X + p.P.Y + p.P.Z + p.Q.W + p.Q.X + p.Q.Y + p.Q.Z; sum-sum == 0 &&
		math.Abs(p.P.X) <= geom.MaxCoord && math.Abs(p.P.Y) <= geom.MaxCoord && math.Abs(p.P.Z) <= geom.MaxCoord {
		if q, ok := p.Q.Normalize(); ok {
			p.Q = q
			return p, nil
		}
	}
	if !p.P.IsFinite() || !p.Q.IsFinite() {
		return p, fmt.Errorf("pose %v is not finite", p)
	}
	if p.P.Abs().MaxAbs() > geom.MaxCoord {
		return p, fmt.Errorf("pose %v: translation beyond geom.MaxCoord = %g", p, geom.MaxCoord)
	}
	q, ok := p.Q.Normalize()
	if !ok {
		return p, fmt.Errorf("pose %v has a zero quaternion", p)
	}
	p.Q = q
	return p, nil
}

// shape returns the prepared geometry of mesh m for kind k.
func (w *World) shape(m *mesh.Mesh, k BodyKind) (*shape, error) {
	key := shapeKey{m, k}
	if s := w.shapes[key]; s != nil {
		return s, nil
	}
	if m.NumVerts() == 0 {
		return nil, errors.New("world: mesh has no vertices")
	}
	s := &shape{mesh: m, kind: k, extent: broad.ExtentOf(m.Verts)}
	if !s.extent.Box.Min.IsFinite() || !s.extent.Box.Max.IsFinite() || !(s.extent.Radius <= geom.MaxCoord) {
		return nil, fmt.Errorf("world: mesh has a vertex that is not finite or beyond geom.MaxCoord = %g", geom.MaxCoord)
	}
	need := [numMethods]bool{}
	for j := BodyKind(0); j < numKinds; j++ {
		need[w.table[k][j]] = true
	}
	var err error
	switch k {
	case Convex:
		if s.poly, err = convex.New(m); err != nil {
			return nil, fmt.Errorf("world: convex body: %w", err)
		}
	case Polyhedron:
		if err = m.RequireSolid(); err != nil {
			return nil, fmt.Errorf("world: polyhedron body: %w", err)
		}
	}
	if need[ScrewCCD] {
		s.screw = screw.Prepare(m)
	}
	if need[MeshContacts] {
		if s.tree, err = meshquery.New(m); err != nil {
			return nil, fmt.Errorf("world: mesh-query tree: %w", err)
		}
	}
	if need[FeatureContacts] {
		s.feat = newFeatures(m)
	}
	if need[TimeOfContact] {
		if s.toc, err = toc.ShapeOf(m); err != nil {
			return nil, fmt.Errorf("world: time-of-contact shape: %w", err)
		}
	}
	w.shapes[key] = s
	return s, nil
}

// Hill climbing for the box beats transforming every candidate vertex
// above about this many vertices.
const climbVerts = 32

// boxPoints is the subset of a mesh's vertices whose box at every pose is
// the box of all of them, bit for bit (shape.box).
type boxPoints struct {
	// poly's vertices are boxed by hill climbing (more than climbVerts).
	poly *convex.Polytope
	// verts are transformed at every pose.
	verts []geom.Vec3
	// faces hold the vertices that lie in a hull face, off its boundary:
	// they can reach the box only when the face is almost square to a
	// world axis.
	faces []boxFace
}

// boxFace is a group of vertices in the hull face of unit normal n: they
// reach the box along a unit direction d only when (d.n)^2 >= cos2.
type boxFace struct {
	n     geom.Vec3
	cos2  float64
	verts []geom.Vec3
}

// Tolerances of the box points, as fractions of the mesh's radius about its
// origin: boxSlack is how deep inside the hull a vertex off the hull is
// still taken as on a face (far above the hull's merge tolerance,
// hull.DefaultTol), boxRound bounds the rounding of a transform's
// rotation (a few units in the last place) with a wide margin. minSine is
// the smallest sine of the angle between a face's normal and an axis for
// which the face's inner vertices are skipped.
const (
	boxSlack = 1e-6
	boxRound = 1e-12
	minSine  = 1e-6
)

// newBoxPoints returns the box points of m: the vertices of its convex hull
// (along any direction a point set's extreme is reached at a hull vertex),
// and the vertices off the hull but within boxSlack of a hull face's plane,
// so that the box stays bit for bit the box of all vertices whatever the
// rounding of the transform and the hull's merge of nearly coplanar faces.
// A vertex deeper inside lies below some hull vertex along every direction
// by far more than rounding. A vertex inside a face, at in-plane distance
// rho from its boundary, is below the face's vertices along a unit
// direction d by at least sin(d, n) rho less its off-plane gaps, so it is
// transformed only when d is that close to the face normal. Convex bodies
// use their polytope (all of m's vertices). The zero value (no hull, or no
// fewer points) means all of m's vertices.
func newBoxPoints(m *mesh.Mesh, poly *convex.Polytope) boxPoints {
	n := len(m.Verts)
	if n <= climbVerts {
		return boxPoints{}
	}
	if poly != nil {
		return boxPoints{poly: poly}
	}
	hm, idx, err := hull.NewIndexed(m.Verts, nil)
	if err != nil {
		return boxPoints{} // flat or degenerate: all vertices
	}
	onHull := make([]bool, n)
	for _, i := range idx {
		onHull[i] = true
	}
	scale := 0.0
	for _, v := range m.Verts {
		scale = max(scale, v.Norm())
	}
	span := make([]faceSpan, hm.NumFaces())
	for g, pl := range hm.Planes {
		span[g] = faceSpan{math.Inf(1), math.Inf(-1)}
		for _, j := range hm.Face(g) {
			d := pl.N.Dot(hm.Verts[j])
			span[g] = faceSpan{min(span[g].lo, d), max(span[g].hi, d)}
		}
	}
	var bp boxPoints
	faceOf := make([]int, n) // hull face of a face group vertex, -1 none, -2 deep inside
	sine := make([]float64, hm.NumFaces())
	count, always := 0, 0
	for i, v := range m.Verts {
		faceOf[i] = -2
		if onHull[i] {
			continue
		}
		f, s := nearestFace(hm, span, v, scale)
		if s < 0 {
			continue
		}
		count++
		if faceOf[i] = f; f < 0 {
			always++
			continue
		}
		sine[f] = max(sine[f], s)
	}
	if len(hm.Verts)+count >= n {
		return boxPoints{}
	}
	if len(hm.Verts) > climbVerts {
		if bp.poly, err = convex.New(hm); err != nil {
			bp.poly = nil
		}
	}
	if bp.poly == nil {
		bp.verts = append(bp.verts, hm.Verts...)
	}
	group := make([]int, hm.NumFaces())
	for i, f := range faceOf {
		switch {
		case f == -1:
			bp.verts = append(bp.verts, m.Verts[i])
		case f >= 0:
			if group[f] == 0 {
				bp.faces = append(bp.faces, boxFace{n: hm.Planes[f].N, cos2: 1 - sine[f]*sine[f]})
				group[f] = len(bp.faces)
			}
			g := &bp.faces[group[f]-1]
			g.verts = append(g.verts, m.Verts[i])
		}
	}
	bp.verts = slices.Clip(bp.verts)
	return bp
}

// faceSpan is the range [lo, hi] of N . x over a hull face's vertices x.
type faceSpan struct{ lo, hi float64 }

// nearestFace classifies a vertex v off the convex mesh hm for the box
// (span[f] is face f's faceSpan): s < 0 when v is deeper than boxSlack
// below every face plane (it never reaches the box); otherwise the face f
// whose polygon v lies inside, in projection, farthest from the boundary,
// and the sine s in (0, 1) of the angle to the face normal beyond which v
// is below the face's vertices by more than rounding; f = -1 when there is
// no such face (v is always transformed). Planes are taken through each
// face's innermost vertex and the off-plane gaps of the face's vertices
// are counted.
func nearestFace(hm *mesh.Mesh, span []faceSpan, v geom.Vec3, scale float64) (f int, s float64) {
	f, s = -2, -1
	best := 0.0
	for g, pl := range hm.Planes {
		lo, hi := span[g].lo, span[g].hi
		h := pl.N.Dot(v)
		if h <= lo-boxSlack*scale {
			continue
		}
		if f == -2 {
			f, s = -1, 1
		}
		rho := math.Inf(1) // in-plane distance to the polygon's boundary
		loop := hm.Face(g)
		for k, j := range loop {
			p, q := hm.Verts[j], hm.Verts[loop[(k+1)%len(loop)]]
			in, ok := pl.N.Cross(q.Sub(p)).Normalize()
			if !ok {
				rho = 0
				break
			}
			rho = min(rho, in.Dot(v.Sub(p)))
		}
		gap := (hi - lo) + max(hi-h, h-lo) + boxRound*scale
		if rho > best && 2*gap < rho {
			f, best, s = g, rho, max(2*gap/rho, minSine)
		}
	}
	return f, s
}

// Remove deletes a body; its id may be reused by a later Add. The prepared
// geometry of its mesh is released when no other body uses it.
func (w *World) Remove(id BodyID) error {
	b, err := w.get(id)
	if err != nil {
		return err
	}
	if b.sh.users--; b.sh.users == 0 {
		delete(w.shapes, shapeKey{b.sh.mesh, b.sh.kind})
	}
	w.kindCount[b.kind]--
	w.bodies[id] = body{}
	w.free = append(w.free, id)
	w.phase.Remove(int(id))
	w.qtree.Remove(int(id))
	w.n--
	return nil
}

// Move sets the pose body id reaches at the end of the next step (it
// starts from its current pose). Static bodies cannot move.
func (w *World) Move(id BodyID, pose geom.Pose) error {
	b, err := w.get(id)
	if err != nil {
		return err
	}
	if b.static {
		return fmt.Errorf("world: body %d is static", id)
	}
	p, err := checkPose(pose)
	if err != nil {
		return fmt.Errorf("world: body %d: %w", id, err)
	}
	b.p1 = p
	return nil
}

// SetPose places body id at pose without motion: the next step starts and
// ends there unless Move is called after SetPose (a teleport). A static
// body may be placed anew this way.
func (w *World) SetPose(id BodyID, pose geom.Pose) error {
	b, err := w.get(id)
	if err != nil {
		return err
	}
	p, err := checkPose(pose)
	if err != nil {
		return fmt.Errorf("world: body %d: %w", id, err)
	}
	b.p0, b.p1 = p, p
	b.boxOK = false
	w.qdirty = true
	return nil
}

// checkMargin validates a speculative distance. Its errors do not name the
// package.
func checkMargin(m float64) error {
	if !(m >= 0 && m <= geom.MaxCoord) {
		return fmt.Errorf("%v, want a length in [0, %g]", m, geom.MaxCoord)
	}
	return nil
}

// SetMargin sets body id's own speculative distance: a pair's margin is
// Options.Margin plus both bodies' margins, and the body's broad-phase box
// grows by its margin. The margin-aware methods (SeparatingVector, GJK,
// MeshContacts, FeatureContacts) give Near contacts within the pair's
// margin; ScrewCCD's resting margin stays Options.Margin.
func (w *World) SetMargin(id BodyID, m float64) error {
	b, err := w.get(id)
	if err != nil {
		return err
	}
	if err := checkMargin(m); err != nil {
		return fmt.Errorf("world: body %d: margin %w", id, err)
	}
	if b.margin != m {
		b.margin, b.boxOK = m, false
	}
	return nil
}

// SetAsleep marks body id asleep or awake. A pair is tested only when one
// of its bodies is neither static nor asleep, so a resting pile whose
// bodies a simulator puts to sleep costs only the broad phase. An asleep
// body should not move: its box is computed once, as a static body's.
func (w *World) SetAsleep(id BodyID, asleep bool) error {
	b, err := w.get(id)
	if err != nil {
		return err
	}
	if b.asleep != asleep {
		b.asleep, b.boxOK = asleep, false
	}
	return nil
}

// Pose returns the current pose of body id (the start of the next step).
func (w *World) Pose(id BodyID) (geom.Pose, error) {
	b, err := w.get(id)
	if err != nil {
		return geom.Pose{}, err
	}
	return b.p0, nil
}
