package cable

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/collide-go/collide/ccd"
	"github.com/collide-go/collide/geom"
)

// Defaults of Options, in SI units.
const (
	// DefaultDt is the time step, in seconds.
	DefaultDt = 1.0 / 500
	// DefaultThickness is the contact distance d, in metres: pairs closer
	// than this are pushed apart.
	DefaultThickness = 1e-3
	// DefaultMaxIterations is the number of contact rounds before the
	// fail-safe (Jansen's iteration limit k).
	DefaultMaxIterations = 16
	// DefaultMaxSubsteps is the largest number of substeps a step may
	// take to stay within the stability bound of its springs.
	DefaultMaxSubsteps = 100
)

// DefaultGravity is the gravitational acceleration, in m/s^2 (z up).
var DefaultGravity = geom.V(0, 0, -9.81)

// Options configures a System. The zero value is the default.
type Options struct {
	// Dt is the time step in seconds; zero means DefaultDt.
	Dt float64
	// Gravity in m/s^2; the zero vector means DefaultGravity unless
	// NoGravity is set.
	Gravity geom.Vec3
	// NoGravity turns gravity off.
	NoGravity bool
	// Thickness is the contact distance d in metres (ccd MinDistance);
	// zero means DefaultThickness.
	Thickness float64
	// SeparationSpeed, in m/s, is the relative normal speed at which a
	// contact pair leaves after its impulse; zero means Thickness/(10 Dt),
	// so a pair closer than d separates within a few steps.
	SeparationSpeed float64
	// Restitution is the coefficient of restitution e of eq. 29; zero
	// means plastic contact (the pair then leaves at SeparationSpeed).
	Restitution float64
	// Friction is the Coulomb friction coefficient of contacts; zero
	// means frictionless (as in Jansen's paper).
	Friction float64
	// MaxIterations is the number of contact rounds per step before the
	// fail-safe freezes what still collides; zero means
	// DefaultMaxIterations.
	MaxIterations int
	// Drag is a linear air damping rate in 1/s; zero means none.
	Drag float64
	// Method is the ccd method; zero means ccd.Inclusion (conservative).
	// ccd.Cubic is Jansen's closed form, which can miss contacts.
	Method ccd.Method
	// NoCollisions turns collision processing off (to show what the
	// independent check catches).
	NoCollisions bool
	// MaxSubsteps is the largest number of substeps Step may divide Dt
	// into to keep the springs stable (see System.Substeps); zero means
	// DefaultMaxSubsteps. A spring that would need more is refused by
	// AddSpring and AddCable.
	MaxSubsteps int
	// Verify runs the independent crossing check after every substep and
	// adds its findings to StepStats.Penetrations (the check's time,
	// StepStats.VerifySeconds, is not part of the step's work, but it is
	// spent inside Step).
	Verify bool
}

func (o Options) resolve() (Options, error) {
	if o.Dt == 0 {
		o.Dt = DefaultDt
	}
	if o.Gravity == (geom.Vec3{}) && !o.NoGravity {
		o.Gravity = DefaultGravity
	}
	if o.NoGravity {
		o.Gravity = geom.Vec3{}
	}
	if o.Thickness == 0 {
		o.Thickness = DefaultThickness
	}
	if o.SeparationSpeed == 0 {
		o.SeparationSpeed = o.Thickness / (10 * o.Dt)
	}
	if o.MaxIterations == 0 {
		o.MaxIterations = DefaultMaxIterations
	}
	if o.MaxSubsteps == 0 {
		o.MaxSubsteps = DefaultMaxSubsteps
	}
	switch {
	case !(o.Dt > 0) || math.IsInf(o.Dt, 0):
		return o, fmt.Errorf("cable: options: Dt %v must be positive and finite", o.Dt)
	case !o.Gravity.IsFinite():
		return o, fmt.Errorf("cable: options: Gravity %v must be finite", o.Gravity)
	case !(o.Thickness > 0) || math.IsInf(o.Thickness, 0):
		return o, fmt.Errorf("cable: options: Thickness %v must be positive and finite", o.Thickness)
	case !(o.SeparationSpeed > 0) || math.IsInf(o.SeparationSpeed, 0):
		return o, fmt.Errorf("cable: options: SeparationSpeed %v must be positive and finite", o.SeparationSpeed)
	case !(o.Restitution >= 0 && o.Restitution <= 1):
		return o, fmt.Errorf("cable: options: Restitution %v must be in [0, 1]", o.Restitution)
	case !(o.Friction >= 0) || math.IsInf(o.Friction, 0):
		return o, fmt.Errorf("cable: options: Friction %v must be finite and >= 0", o.Friction)
	case o.MaxIterations < 0:
		return o, fmt.Errorf("cable: options: MaxIterations %d must be >= 0", o.MaxIterations)
	case o.MaxSubsteps < 0 || o.MaxSubsteps > 1e6:
		return o, fmt.Errorf("cable: options: MaxSubsteps %d must be in [0, 1e6]", o.MaxSubsteps)
	case !(o.Drag >= 0) || math.IsInf(o.Drag, 0):
		return o, fmt.Errorf("cable: options: Drag %v must be finite and >= 0", o.Drag)
	}
	if err := (ccd.Options{Method: o.Method}).Validate(); err != nil {
		return o, fmt.Errorf("cable: options: %v", err)
	}
	return o, nil
}

// Particle is a point mass. Mass zero means a static (immovable) particle,
// whose velocity must be zero.
type Particle struct {
	X, V geom.Vec3 // position (m) and velocity (m/s)
	Mass float64   // kg; zero: static
}

type spring struct {
	a, b     int32
	rest     float64 // m
	k, c     float64 // N/m, N s/m
	hasForce bool
}

// System is a set of particles, springs, collision edges and static
// triangles. Build it with New and the Add methods, then call Step.
type System struct {
	opt     Options
	x, v    []geom.Vec3
	invMass []float64
	springs []spring
	edges   [][2]int32
	tris    [][3]int32

	// Stability bound of the springs (see Substeps): per particle, the
	// Gershgorin row sums of the mass-normalised stiffness and damping
	// matrices, and the largest rate sqrt(stiffness) + damping over all
	// particles, in 1/s.
	stiffRow, dampRow []float64
	rate              float64
	h                 float64 // the substep of the current step, in s

	// Built lazily by prepare when the topology changed.
	built     bool
	dynEdges  []int32 // edges with a moving particle
	statEdges []int32 // edges of static particles only
	dynVerts  []int32 // particles with mass
	static    grid    // static edges (ids < len(statEdges)) and triangles
	// staticBoxes are the boxes of the static grid's items.
	staticBoxes []geom.AABB

	// Per step scratch.
	end       []geom.Vec3 // x + dt v
	changed   []int32     // iteration of the last velocity change
	force     []geom.Vec3
	edgeBoxes []geom.AABB
	vertBoxes []geom.AABB
	dyn       grid
	cell      float64 // cell size of the grids
	stampE    []int32
	stampS    []int32
	prev      []geom.Vec3 // positions at the start of the last substep
	checker   checker
	query     *ccd.Query

	stats Stats
}

// StepStats describes one step.
type StepStats struct {
	// Candidates is the number of pairs the broad phase passed to ccd
	// (over all rounds); Queries the number of ccd queries.
	Candidates, Queries int
	// Hits is the number of ccd hits; Contacts the number of impulses
	// applied.
	Hits, Contacts int
	// Proximity is the number of pairs found closer than the thickness
	// at the start of the step (contact frame from the closest points,
	// without a ccd query at distance d; the zero-distance ccd query
	// still decides whether they touch in the step).
	Proximity int
	// Rounds is the number of contact rounds used.
	Rounds int
	// Frozen is the number of particles the fail-safe froze.
	Frozen int
	// Penetrations is the number of crossings found by the independent
	// check (with Options.Verify), which must be zero.
	Penetrations int
	// Overflowed counts particles whose velocity or new position was not
	// finite (coordinates near the float64 limit): they were stopped.
	Overflowed int
	// Substeps is the number of substeps the step took (see
	// System.Substeps).
	Substeps int
	// VerifySeconds is the time spent in the independent check (with
	// Options.Verify), in seconds of wall time.
	VerifySeconds float64
}

// Stats accumulates StepStats over all steps.
type Stats struct {
	Steps int
	StepStats
	// MaxRounds is the largest Rounds of any step.
	MaxRounds int
}

func (s *Stats) add(st StepStats) {
	s.Steps++
	s.Candidates += st.Candidates
	s.Queries += st.Queries
	s.Hits += st.Hits
	s.Contacts += st.Contacts
	s.Proximity += st.Proximity
	s.Rounds += st.Rounds
	s.Frozen += st.Frozen
	s.Penetrations += st.Penetrations
	s.Overflowed += st.Overflowed
	s.Substeps += st.Substeps
	s.VerifySeconds += st.VerifySeconds
	if st.Rounds > s.MaxRounds {
		s.MaxRounds = st.Rounds
	}
}

// New returns an empty system.
func New(opt Options) (*System, error) {
	o, err := opt.resolve()
	if err != nil {
		return nil, err
	}
	return &System{opt: o, query: new(ccd.Query)}, nil
}

// Options returns the options with defaults filled in.
func (s *System) Options() Options { return s.opt }

// AddParticle adds a particle and returns its index.
func (s *System) AddParticle(p Particle) (int, error) {
	i := len(s.x)
	switch {
	case !p.X.IsFinite():
		return -1, fmt.Errorf("cable: particle %d: position %v is not finite", i, p.X)
	case !p.V.IsFinite():
		return -1, fmt.Errorf("cable: particle %d: velocity %v is not finite", i, p.V)
	case !(p.Mass >= 0) || math.IsInf(p.Mass, 0):
		return -1, fmt.Errorf("cable: particle %d: mass %v must be finite and >= 0", i, p.Mass)
	case p.Mass == 0 && p.V != (geom.Vec3{}):
		return -1, fmt.Errorf("cable: particle %d: static particle (mass 0) has velocity %v", i, p.V)
	case i >= math.MaxInt32:
		return -1, fmt.Errorf("cable: particle %d: too many particles", i)
	}
	im := 0.0
	if p.Mass > 0 {
		im = 1 / p.Mass
		if math.IsInf(im, 0) {
			return -1, fmt.Errorf("cable: particle %d: mass %v is too small", i, p.Mass)
		}
	}
	s.x = append(s.x, p.X)
	s.v = append(s.v, p.V)
	s.invMass = append(s.invMass, im)
	s.stiffRow = append(s.stiffRow, 0)
	s.dampRow = append(s.dampRow, 0)
	s.built = false
	return i, nil
}

func (s *System) checkIndex(what string, n int, ids ...int) error {
	for k, i := range ids {
		if i < 0 || i >= len(s.x) {
			return fmt.Errorf("cable: %s %d: particle index %d (#%d) out of range [0, %d)", what, n, i, k, len(s.x))
		}
		for _, j := range ids[:k] {
			if i == j {
				return fmt.Errorf("cable: %s %d: particle %d repeated", what, n, i)
			}
		}
	}
	return nil
}

// AddEdge adds a collision edge between particles a and b (no spring).
func (s *System) AddEdge(a, b int) error {
	if err := s.checkIndex("edge", len(s.edges), a, b); err != nil {
		return err
	}
	if s.x[a] == s.x[b] {
		return fmt.Errorf("cable: edge %d: particles %d and %d coincide at %v", len(s.edges), a, b, s.x[a])
	}
	s.edges = append(s.edges, [2]int32{int32(a), int32(b)})
	s.built = false
	return nil
}

// AddSpring joins particles a and b by a spring of the given stiffness
// (N/m) and damping (N s/m) whose rest length is their current distance,
// and adds the collision edge between them.
func (s *System) AddSpring(a, b int, stiffness, damping float64) error {
	if err := s.checkIndex("spring", len(s.springs), a, b); err != nil {
		return err
	}
	if !(stiffness >= 0) || math.IsInf(stiffness, 0) || !(damping >= 0) || math.IsInf(damping, 0) {
		return fmt.Errorf("cable: spring %d: stiffness %v and damping %v must be finite and >= 0", len(s.springs), stiffness, damping)
	}
	if err := s.admitSpring(a, b, stiffness, damping); err != nil {
		return err
	}
	if err := s.AddEdge(a, b); err != nil {
		return err
	}
	s.springs = append(s.springs, spring{a: int32(a), b: int32(b), rest: s.x[a].Dist(s.x[b]), k: stiffness, c: damping,
		hasForce: s.invMass[a] > 0 || s.invMass[b] > 0})
	return nil
}

// admitSpring adds a spring of stiffness k and damping c between a and b
// to the stability bound, or refuses it when the bound would need more
// than MaxSubsteps substeps of Dt.
//
// Semi-implicit Euler with step h is stable for an oscillator of angular
// frequency w and damping rate g when h (w + g) <= 1 (the update matrix
// has determinant 1 - hg and trace 2 - h^2 w^2 - hg, both within the
// Jury bounds; for undamped springs the limit is h w < 2). The largest
// frequency of the system is bounded by Gershgorin's theorem on the
// mass-normalised stiffness matrix M^-1/2 K M^-1/2: row i sums
// k (1/m_i + 1/sqrt(m_i m_j)) over the springs at particle i, and the
// same for the damping matrix.
func (s *System) admitSpring(a, b int, k, c float64) error {
	ia, ib := s.invMass[a], s.invMass[b]
	cross := math.Sqrt(ia) * math.Sqrt(ib)
	ka, kb := s.stiffRow[a]+k*(ia+cross), s.stiffRow[b]+k*(ib+cross)
	ca, cb := s.dampRow[a]+c*(ia+cross), s.dampRow[b]+c*(ib+cross)
	rate := math.Max(s.rate, math.Max(math.Sqrt(ka)+ca, math.Sqrt(kb)+cb))
	if n := substeps(s.opt.Dt, rate); !(n <= float64(s.opt.MaxSubsteps)) {
		return fmt.Errorf("cable: spring %d (stiffness %v N/m, damping %v N s/m, particles %d and %d): "+
			"with it the springs are stable only with steps of at most %.3g s; Dt %v s would need %.0f substeps, more than MaxSubsteps %d "+
			"(lower Dt, the stiffness or the damping, or raise MaxSubsteps)",
			len(s.springs), k, c, a, b, 1/rate, s.opt.Dt, n, s.opt.MaxSubsteps)
	}
	s.stiffRow[a], s.stiffRow[b] = ka, kb
	s.dampRow[a], s.dampRow[b] = ca, cb
	s.rate = rate
	return nil
}

// substeps is the number of substeps of dt that keeps dt/n * rate <= 1.
func substeps(dt, rate float64) float64 {
	return math.Max(1, math.Ceil(dt*rate))
}

// Substeps returns the number of substeps Step divides Options.Dt into:
// the fewest whose length h keeps every spring stable, h (w + g) <= 1,
// where w bounds the system's largest angular frequency and g its largest
// damping rate. A system without springs takes one step.
func (s *System) Substeps() int { return int(substeps(s.opt.Dt, s.rate)) }

// StableStep returns the longest substep, in seconds, at which the
// springs are stable (+Inf without springs).
func (s *System) StableStep() float64 { return 1 / s.rate }

// AddTriangle adds a static collision triangle; its particles must be
// static (mass zero) and not collinear.
func (s *System) AddTriangle(a, b, c int) error {
	n := len(s.tris)
	if err := s.checkIndex("triangle", n, a, b, c); err != nil {
		return err
	}
	for _, i := range []int{a, b, c} {
		if s.invMass[i] != 0 {
			return fmt.Errorf("cable: triangle %d: particle %d is not static (triangles must be static)", n, i)
		}
	}
	if s.x[b].Sub(s.x[a]).Cross(s.x[c].Sub(s.x[a])).Norm2() == 0 {
		return fmt.Errorf("cable: triangle %d: particles %d, %d, %d are collinear", n, a, b, c)
	}
	s.tris = append(s.tris, [3]int32{int32(a), int32(b), int32(c)})
	s.built = false
	return nil
}

// within puts the context ctx between the package prefix and the rest of
// err, one of the package's own errors: "cable: ctx: ...".
func within(ctx string, err error) error {
	return fmt.Errorf("cable: %s: %s", ctx, strings.TrimPrefix(err.Error(), "cable: "))
}

// AddStaticMesh adds static particles at verts, the collision edges
// (pairs of indices into verts) and triangles, and returns the index of
// the first particle. Add the triangles' edges to edges as well for
// edge-edge contacts with them.
func (s *System) AddStaticMesh(verts []geom.Vec3, edges [][2]int, tris [][3]int) (int, error) {
	first := len(s.x)
	for i, p := range verts {
		if _, err := s.AddParticle(Particle{X: p}); err != nil {
			return first, within(fmt.Sprintf("static mesh vertex %d", i), err)
		}
	}
	for i, e := range edges {
		if e[0] < 0 || e[0] >= len(verts) || e[1] < 0 || e[1] >= len(verts) {
			return first, fmt.Errorf("cable: static mesh edge %d: index out of range [0, %d): %v", i, len(verts), e)
		}
		if err := s.AddEdge(first+e[0], first+e[1]); err != nil {
			return first, within(fmt.Sprintf("static mesh edge %d", i), err)
		}
	}
	for i, t := range tris {
		for _, k := range t {
			if k < 0 || k >= len(verts) {
				return first, fmt.Errorf("cable: static mesh triangle %d: index out of range [0, %d): %v", i, len(verts), t)
			}
		}
		if err := s.AddTriangle(first+t[0], first+t[1], first+t[2]); err != nil {
			return first, within(fmt.Sprintf("static mesh triangle %d", i), err)
		}
	}
	return first, nil
}

// Cable describes a straight cable of Segments springs from From to To.
type Cable struct {
	From, To geom.Vec3
	// Segments is the number of springs (and edges); the cable has
	// Segments+1 particles.
	Segments int
	// Mass is the cable's total mass in kg, spread evenly over its
	// particles.
	Mass float64
	// Stiffness (N/m) and Damping (N s/m) of each spring.
	Stiffness, Damping float64
	// Velocity is the initial velocity of every particle, in m/s.
	Velocity geom.Vec3
}

// AddCable adds a cable and returns the index of its first particle; the
// particles are consecutive.
func (s *System) AddCable(c Cable) (int, error) {
	if c.Segments < 1 || c.Segments > 1<<20 {
		return -1, fmt.Errorf("cable: Cable.Segments %d must be in [1, 2^20]", c.Segments)
	}
	if !(c.Mass > 0) || math.IsInf(c.Mass, 0) {
		return -1, fmt.Errorf("cable: Cable.Mass %v must be positive and finite", c.Mass)
	}
	if !c.From.IsFinite() || !c.To.IsFinite() || c.From == c.To {
		return -1, fmt.Errorf("cable: Cable.From %v and To %v must be finite and distinct", c.From, c.To)
	}
	m := c.Mass / float64(c.Segments+1)
	first := len(s.x)
	for i := 0; i <= c.Segments; i++ {
		p := c.From.Lerp(c.To, float64(i)/float64(c.Segments))
		if _, err := s.AddParticle(Particle{X: p, V: c.Velocity, Mass: m}); err != nil {
			return -1, err
		}
		if i > 0 {
			if err := s.AddSpring(first+i-1, first+i, c.Stiffness, c.Damping); err != nil {
				return -1, err
			}
		}
	}
	return first, nil
}

// NumParticles returns the number of particles.
func (s *System) NumParticles() int { return len(s.x) }

// Position returns the position of particle i.
func (s *System) Position(i int) geom.Vec3 { return s.x[i] }

// Velocity returns the velocity of particle i.
func (s *System) Velocity(i int) geom.Vec3 { return s.v[i] }

// Static reports whether particle i is static.
func (s *System) Static(i int) bool { return s.invMass[i] == 0 }

// Edges returns the collision edges as particle index pairs (a copy).
func (s *System) Edges() [][2]int {
	out := make([][2]int, len(s.edges))
	for i, e := range s.edges {
		out[i] = [2]int{int(e[0]), int(e[1])}
	}
	return out
}

// Triangles returns the static triangles as particle indices (a copy).
func (s *System) Triangles() [][3]int {
	out := make([][3]int, len(s.tris))
	for i, t := range s.tris {
		out[i] = [3]int{int(t[0]), int(t[1]), int(t[2])}
	}
	return out
}

// Stats returns the statistics accumulated over all steps.
func (s *System) Stats() Stats { return s.stats }

// Energy is the mechanical energy of a system, in joules.
type Energy struct {
	Kinetic, Gravity, Spring float64
}

// Total returns the sum of the three energies.
func (e Energy) Total() float64 { return e.Kinetic + e.Gravity + e.Spring }

// Energy returns the kinetic, gravitational (zero at the origin) and
// spring energy.
func (s *System) Energy() Energy {
	var e Energy
	for i, im := range s.invMass {
		if im == 0 {
			continue
		}
		m := 1 / im
		e.Kinetic += 0.5 * m * s.v[i].Norm2()
		e.Gravity -= m * s.opt.Gravity.Dot(s.x[i])
	}
	for _, sp := range s.springs {
		d := s.x[sp.a].Dist(s.x[sp.b]) - sp.rest
		e.Spring += 0.5 * sp.k * d * d
	}
	return e
}

// prepare builds the static structures after the topology changed.
func (s *System) prepare() {
	n := len(s.x)
	if len(s.end) != n {
		s.end = make([]geom.Vec3, n)
		s.changed = make([]int32, n)
		s.force = make([]geom.Vec3, n)
		s.prev = make([]geom.Vec3, n)
	}
	if s.built {
		return
	}
	s.built = true
	s.dynEdges, s.statEdges, s.dynVerts = s.dynEdges[:0], s.statEdges[:0], s.dynVerts[:0]
	for i, e := range s.edges {
		if s.invMass[e[0]] == 0 && s.invMass[e[1]] == 0 {
			s.statEdges = append(s.statEdges, int32(i))
		} else {
			s.dynEdges = append(s.dynEdges, int32(i))
		}
	}
	for i, im := range s.invMass {
		if im > 0 {
			s.dynVerts = append(s.dynVerts, int32(i))
		}
	}
	boxes := make([]geom.AABB, 0, len(s.statEdges)+len(s.tris))
	for _, ei := range s.statEdges {
		e := s.edges[ei]
		boxes = append(boxes, geom.AABBOf(s.x[e[0]], s.x[e[1]]))
	}
	for _, t := range s.tris {
		boxes = append(boxes, geom.AABBOf(s.x[t[0]], s.x[t[1]], s.x[t[2]]))
	}
	s.cell = s.cellSize()
	s.static.build(boxes, s.cell, 96)
	s.staticBoxes = boxes
	s.stampE = make([]int32, len(s.dynEdges))
	s.stampS = make([]int32, len(boxes))
	s.edgeBoxes = make([]geom.AABB, len(s.dynEdges))
	s.vertBoxes = make([]geom.AABB, len(s.dynVerts))
}

// cellSize is about twice the mean length of the moving edges (at
// least 8 thicknesses).
func (s *System) cellSize() float64 {
	c := 8 * s.opt.Thickness
	if len(s.dynEdges) > 0 {
		sum := 0.0
		for _, ei := range s.dynEdges {
			e := s.edges[ei]
			sum += s.x[e[0]].Dist(s.x[e[1]])
		}
		c = math.Max(c, 2*sum/float64(len(s.dynEdges)))
	}
	return c
}

// Step advances the system by Options.Dt and returns what happened. It
// takes Substeps() substeps of equal length, each integrated and checked
// for contacts as described in the package documentation.
func (s *System) Step() StepStats {
	s.prepare()
	n := s.Substeps()
	s.h = s.opt.Dt / float64(n)
	var st StepStats
	for range n {
		s.substep(&st)
	}
	st.Substeps = n
	s.stats.add(st)
	return st
}

// substep advances the system by s.h.
func (s *System) substep(st *StepStats) {
	o := &s.opt
	dt := s.h
	copy(s.prev, s.x)
	for i := range s.force {
		s.force[i] = geom.Vec3{}
	}
	for _, sp := range s.springs {
		if !sp.hasForce {
			continue
		}
		d := s.x[sp.b].Sub(s.x[sp.a])
		l := d.Norm()
		if !(l > 0) {
			continue
		}
		n := d.Scale(1 / l)
		f := sp.k*(l-sp.rest) + sp.c*s.v[sp.b].Sub(s.v[sp.a]).Dot(n)
		s.force[sp.a] = s.force[sp.a].AddScaled(f, n)
		s.force[sp.b] = s.force[sp.b].AddScaled(-f, n)
	}
	damp := 1 / (1 + o.Drag*dt)
	for i, im := range s.invMass {
		if im == 0 {
			s.end[i] = s.x[i]
			continue
		}
		s.v[i] = s.v[i].Add(o.Gravity.Add(s.force[i].Scale(im)).Scale(dt)).Scale(damp)
		s.end[i] = s.x[i].Add(s.v[i].Scale(dt))
		if !s.end[i].IsFinite() || !s.v[i].IsFinite() {
			// The motion overflows: the particle stays where it is.
			s.v[i] = geom.Vec3{}
			s.end[i] = s.x[i]
			st.Overflowed++
		}
	}
	if !o.NoCollisions {
		s.collide(st)
	}
	copy(s.x, s.end)
	if o.Verify {
		t0 := time.Now()
		st.Penetrations += s.Verify(s.prev)
		st.VerifySeconds += time.Since(t0).Seconds()
	}
}
