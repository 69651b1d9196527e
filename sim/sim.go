package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/world"
)

// BodyID names a body of a Sim: ids are given in the order of Add, from 0.
type BodyID int32

// BodyDef describes a body to add.
type BodyDef struct {
	// Mesh is the body's closed surface in the body frame, whose origin
	// must be the centre of mass (mesh.MassProperties gives it; Centered moves a
	// mesh there).
	Mesh *mesh.Mesh
	// Static bodies never move and are never moved by contacts; their mass
	// and inertia are ignored.
	Static bool
	// Mass in kg and the inertia tensor about the centre of mass in the
	// body frame, kg m²; both required for dynamic bodies.
	Mass    float64
	Inertia geom.Mat3
	// Pose is the initial placement of the body frame.
	Pose geom.Pose
	// V and W are the initial linear velocity of the centre of mass and
	// angular velocity, world frame.
	V, W geom.Vec3
}

// Options configure a Sim. Zero fields take the defaults given.
type Options struct {
	// Gravity in m/s² (zero is no gravity).
	Gravity geom.Vec3
	// Dt is the fixed step in seconds; default 1/60.
	Dt float64
	// Friction is the Coulomb coefficient and Restitution the coefficient
	// of restitution of every contact (zero is frictionless and inelastic).
	Friction, Restitution float64
	// Substeps is the number of solver substeps per step (default 8):
	// contacts are found once per step, the bodies' positions and the
	// contacts' separations are updated at every substep.
	Substeps int
	// Iterations is the number of solver passes per substep (default 1).
	Iterations int
	// NoSleep keeps every body awake. By default an island of touching
	// bodies that all moved slower than 0.05 m/s for half a second sleeps
	// (held still, not simulated) until an awake body touches it.
	NoSleep bool
	// Workers is the number of goroutines that find contacts (default 1).
	// The result does not depend on it.
	Workers int
	// Margin is the base speculative distance in metres: pairs closer than
	// Margin plus the distance they can travel in the step get contacts with
	// a positive separation. Zero means 2.5% of each dynamic body's
	// bounding radius (5% for a pair of equal bodies).
	Margin float64
	// ContactHertz and DampingRatio make the contacts' position correction
	// a damped spring (Catto's soft step, as in Box2D v3); defaults 60 Hz
	// and 10. PushVelocity caps the velocity at which overlap is undone
	// (default 3 m/s). RestitutionThreshold is the approach speed below
	// which contacts do not bounce (default 1 m/s).
	ContactHertz, DampingRatio, PushVelocity, RestitutionThreshold float64
}

// Contact is one contact of a step as the solver used it: the pair, the
// shared contact record (at the start of the step, Time 0, normal from A to
// B), and the normal impulse the solver applied over the step (N s).
type Contact struct {
	A, B BodyID
	contact.Contact
	Impulse float64
}

// State is a body's pose and velocities (linear of the centre of mass, and
// angular, both in world coordinates).
type State struct {
	Pose geom.Pose
	V, W geom.Vec3
}

// Stats describe the last step.
type Stats struct {
	Pairs    int     // pairs of overlapping swept boxes
	Contacts int     // contact points given to the solver
	MaxDepth float64 // deepest overlap among them, metres (0 when none)
}

// Redone returns how many times, since the simulation began, contacts
// changed a body's velocity by more than its margin covered, a step was
// split in halves, and a step's end poses were checked with fresh contacts.
func (s *Sim) Redone() (outruns, splits, rechecks int) { return s.outruns, s.splits, s.rechecks }

// Sim is a rigid-body simulation: bodies, contacts and a solver. It is not
// safe for concurrent use.
type Sim struct {
	opt    Options
	bodies []body
	world  *world.World
	// per step
	raw        []Contact
	cons       []constraint
	warm       map[warmKey]impulses
	nextWarm   map[warmKey]impulses
	stats      Stats
	steps      int
	saved      [][]State // start states per split depth
	outruns    int
	splits     int
	rechecks   int
	wraw       []world.Contact
	unsure     bool // the step's contacts may have gone stale
	rawKeep    []Contact
	consKeep   []constraint
	engaged    []bool
	spin       []float64 // of a spinning body, faceReach (outran)
	uf         []int32
	islandRest []float64
	rows       []projRow // the position pass's linearized contacts
	// islands (islands.go)
	links  []link
	frozen []int32
	// contact reduction (contacts.go)
	dropped []Contact
	group   []int32
	gap     []float64
	keep    []bool
	near    []bool
	cand    []int32
	pts     []geom.Vec3
	heads   []int32
}

type body struct {
	radius  float64 // bounding radius about the centre of mass
	mesh    *mesh.Mesh
	static  bool
	fixed   bool // static or asleep: not moved by the solver
	asleep  bool
	slept   bool        // asleep as the world knows it
	frozen  bool        // held still while other islands are redone (islands.go)
	solved  bool        // has a contact in the piece (prepare)
	inner   []faceInner // of each face of the mesh (islands.go)
	mark    uint8       // marks of the step (islands.go)
	sc, se  geom.Vec3   // path of its centre in the piece (islands.go)
	sr      float64     // its reach about that path
	start   geom.Vec3   // centre at the step's start
	far2    float64     // squared farthest distance of the centre from p0 in the piece
	rest    float64     // seconds spent below the sleep velocity
	island  int32       // the island it fell asleep with
	invMass float64
	invIb   geom.Mat3 // inverse inertia, body frame
	Ib      geom.Mat3
	pose    geom.Pose
	v, w    geom.Vec3
	// per step
	pred  geom.Pose // where its start velocities would take it (findContacts)
	invI  geom.Mat3 // world inverse inertia at the piece's start (inertia)
	invOK bool      // invI is that of the current contact search
	p0    geom.Vec3
	q0    geom.Quat
	dp    geom.Vec3 // displacement since the step's start
	dR    geom.Mat3 // rotation since the step's start
	sweep float64   // how far a point of the body can travel in the step
	v0    geom.Vec3 // velocities at the step's start
	w0    geom.Vec3
	// the position pass's correction, not yet applied: displacement and
	// rotation vector
	cp, cr geom.Vec3
}

// MaxDt is the largest step accepted, in seconds.
const MaxDt = 1.0

// ErrDiverged is wrapped by Step's error when a body's state is no longer
// finite or leaves the coordinate range of package geom.
var ErrDiverged = errors.New("simulation diverged")

// ErrBadBody is wrapped by errors about a BodyDef.
var ErrBadBody = errors.New("bad body")

// New returns an empty simulation.
func New(opt *Options) (*Sim, error) {
	s := &Sim{warm: map[warmKey]impulses{}, nextWarm: map[warmKey]impulses{}}
	if opt != nil {
		s.opt = *opt
	}
	o := &s.opt
	def := func(x *float64, d float64) {
		if *x == 0 {
			*x = d
		}
	}
	def(&o.Dt, 1.0/60)
	def(&o.ContactHertz, 60)
	def(&o.DampingRatio, 10)
	def(&o.PushVelocity, 3)
	def(&o.RestitutionThreshold, 1)
	if o.Substeps == 0 {
		o.Substeps = 8
	}
	if o.Iterations == 0 {
		o.Iterations = 1
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	switch {
	case !(o.Dt > 0 && o.Dt <= MaxDt):
		return nil, fmt.Errorf("sim: option Dt %v outside (0, %v] s", o.Dt, MaxDt)
	case !o.Gravity.IsFinite():
		return nil, fmt.Errorf("sim: option Gravity %v not finite", o.Gravity)
	case !(o.Friction >= 0) || math.IsInf(o.Friction, 0):
		return nil, fmt.Errorf("sim: option Friction %v must be finite and >= 0", o.Friction)
	case !(o.Restitution >= 0 && o.Restitution <= 1):
		return nil, fmt.Errorf("sim: option Restitution %v outside [0, 1]", o.Restitution)
	case o.Substeps < 0 || o.Substeps > 64:
		return nil, fmt.Errorf("sim: option Substeps %d outside [1, 64]", o.Substeps)
	case o.Workers < 0:
		return nil, fmt.Errorf("sim: option Workers %d negative", o.Workers)
	case !(o.Margin >= 0) || math.IsInf(o.Margin, 0):
		return nil, fmt.Errorf("sim: option Margin %v must be finite and >= 0", o.Margin)
	}
	for _, x := range []float64{o.ContactHertz, o.DampingRatio, o.PushVelocity, o.RestitutionThreshold} {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("sim: solver options must be positive and finite (got %v)", x)
		}
	}
	var err error
	if s.world, err = newWorld(o); err != nil {
		return nil, err
	}
	return s, nil
}

// Options returns the options in effect (defaults filled in).
func (s *Sim) Options() Options { return s.opt }

// Add adds a body and returns its id.
func (s *Sim) Add(def BodyDef) (BodyID, error) {
	id := len(s.bodies)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("sim: body %d: %w: %s", id, ErrBadBody, fmt.Sprintf(format, a...))
	}
	if def.Mesh == nil {
		return 0, bad("no mesh")
	}
	if def.Mesh.NumFaces() == 0 || !def.Mesh.Closed() {
		return 0, bad("mesh is not a closed surface")
	}
	if err := def.Pose.Validate(); err != nil {
		return 0, bad("pose: %v", err)
	}
	if !def.V.IsFinite() || !def.W.IsFinite() {
		return 0, bad("velocity not finite")
	}
	b := body{static: def.Static, fixed: def.Static, pose: def.Pose, mesh: def.Mesh}
	if !def.Static {
		if !(def.Mass > 0) || math.IsInf(def.Mass, 0) {
			return 0, bad("mass %v must be positive", def.Mass)
		}
		inv, ok := def.Inertia.Inverse()
		if !ok || !symmetricPositive(def.Inertia) {
			return 0, bad("inertia tensor is not symmetric positive definite")
		}
		b.invMass = 1 / def.Mass
		b.Ib = def.Inertia
		b.invIb = inv
		b.v, b.w = def.V, def.W
	}
	wid, err := s.world.Add(world.BodyDef{Mesh: def.Mesh, Kind: world.Polyhedron, Pose: def.Pose, Static: def.Static})
	if err != nil {
		return 0, bad("%v", err)
	}
	b.radius = def.Mesh.Radius()
	if !def.Static {
		// The body's own speculative distance, for the whole run.
		if err := s.world.SetMargin(wid, s.bodyMargin(b.radius)); err != nil {
			return 0, bad("%v", err)
		}
	}
	b.inner = innerOf(def.Mesh)
	s.bodies = append(s.bodies, b)
	return BodyID(id), nil
}

func symmetricPositive(m geom.Mat3) bool {
	for i := 0; i < 3; i++ {
		for j := 0; j < i; j++ {
			if math.Abs(m[i][j]-m[j][i]) > 1e-9*(math.Abs(m[i][i])+math.Abs(m[j][j])) {
				return false
			}
		}
	}
	// Sylvester's criterion.
	d1 := m[0][0]
	d2 := m[0][0]*m[1][1] - m[0][1]*m[1][0]
	return d1 > 0 && d2 > 0 && m.Det() > 0 && !math.IsInf(d1, 0)
}

// Len returns the number of bodies.
func (s *Sim) Len() int { return len(s.bodies) }

// State returns a body's state.
func (s *Sim) State(id BodyID) State {
	b := &s.bodies[id]
	return State{Pose: b.pose, V: b.v, W: b.w}
}

// Static reports whether a body is static.
func (s *Sim) Static(id BodyID) bool { return s.bodies[id].static }

// Radius returns a body's bounding radius about its centre of mass.
func (s *Sim) Radius(id BodyID) float64 { return s.bodies[id].radius }

// Contacts returns the contacts of the last step, sorted by pair. The slice
// is reused by the next step.
func (s *Sim) Contacts() []Contact { return s.raw }

// Stats returns figures of the last step.
func (s *Sim) Stats() Stats { return s.stats }

// Energy returns the total energy of the dynamic bodies: kinetic plus the
// potential energy in gravity relative to the origin.
func (s *Sim) Energy() float64 {
	e := 0.0
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.static {
			continue
		}
		m := 1 / b.invMass
		R := b.pose.Q.Mat3()
		Iw := R.Mul(b.Ib).Mul(R.Transpose())
		e += 0.5*m*b.v.Norm2() + 0.5*b.w.Dot(Iw.MulVec(b.w)) - m*s.opt.Gravity.Dot(b.pose.P)
	}
	return e
}

// Step advances the simulation by one step of Options.Dt.
//
// Contacts are found once, at the start of the step, for every pair whose
// bodies can come within the speculative margin during the step given their
// velocities. When a body pushed by a contact would turn by more than
// maxTurn radians, the step is split in halves (up to maxSplit times), so
// that contacts are found again before a spinning body has turned a new face
// towards its neighbour; after a split, or when contacts changed a body's
// velocity by more than its margin covered (a light body struck by a heavy
// one), contacts are found afresh at the end poses for a last position
// pass.
func (s *Sim) Step() error {
	if s.allAsleep() {
		s.steps++
		return nil
	}
	s.unsure = false
	s.links = s.links[:0]
	for i := range s.bodies {
		s.bodies[i].mark = 0
		s.bodies[i].start = s.bodies[i].pose.P
	}
	if err := s.advance(s.opt.Dt, 0); err != nil {
		return err
	}
	if s.unsure {
		if err := s.recheck(); err != nil {
			return err
		}
	}
	if !s.opt.NoSleep {
		s.sleep()
	}
	s.steps++
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed {
			continue
		}
		if diverged(b) {
			return fmt.Errorf("sim: step %d: body %d: %w (position %v, velocity %v)", s.steps, i, ErrDiverged, b.pose.P, b.v)
		}
	}
	return nil
}

// diverged reports whether a body's state is not finite or its position is
// beyond geom.MaxCoord. The sum of the state's components is finite exactly
// when every component is and no two infinities cancel, so the common case
// costs one sum and one subtraction; the components are looked at only when
// that sum is not finite or the position may be out of range.
func diverged(b *body) bool {
	p, q := b.pose.P, b.pose.Q
	sum := p.X + p.Y + p.Z + q.W + q.X + q.Y + q.Z + b.v.X + b.v.Y + b.v.Z + b.w.X + b.w.Y + b.w.Z
	if sum-sum == 0 && math.Abs(p.X) <= geom.MaxCoord && math.Abs(p.Y) <= geom.MaxCoord && math.Abs(p.Z) <= geom.MaxCoord {
		return false
	}
	return !p.IsFinite() || !q.IsFinite() || !b.v.IsFinite() || !b.w.IsFinite() || p.MaxAbs() > geom.MaxCoord
}

// allAsleep reports whether every dynamic body is asleep, and if so makes
// the step's results those of a step in which nothing moves: no contacts,
// no impulses kept for warm starting. Such a step has nothing else to do
// (only an awake body wakes a sleeping one), so a scene at rest costs
// almost nothing per step.
func (s *Sim) allAsleep() bool {
	for i := range s.bodies {
		if b := &s.bodies[i]; !b.static && !b.asleep {
			return false
		}
	}
	s.raw, s.cons = s.raw[:0], s.cons[:0]
	clear(s.warm)
	s.stats = Stats{}
	return true
}

// Sleeping, as in Box2D: bodies touching each other form islands; an island
// whose bodies have all moved slower than SleepVelocity for TimeToSleep
// falls asleep (velocities zero, held in place) until an awake body comes
// within the contact margin of one of them.
const (
	sleepVelocity = 0.05 // m/s, of the body's fastest point
	timeToSleep   = 0.5  // s
)

func (s *Sim) sleep() {
	s.unite(true)
	for i := range s.islandRest {
		s.islandRest[i] = math.Inf(1)
	}
	find := s.find
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed {
			continue
		}
		if b.v.Norm()+b.w.Norm()*b.radius < sleepVelocity {
			b.rest += s.opt.Dt
		} else {
			b.rest = 0
		}
		r := find(int32(i))
		s.islandRest[r] = math.Min(s.islandRest[r], b.rest)
	}
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed {
			continue
		}
		if r := find(int32(i)); s.islandRest[r] >= timeToSleep {
			b.asleep, b.fixed, b.island = true, true, r
			b.v, b.w = geom.Vec3{}, geom.Vec3{}
		}
	}
}

// wake wakes the islands of sleeping bodies that have a contact with an
// awake dynamic body; it reports whether any woke.
func (s *Sim) wake() bool {
	woke := false
	for i := range s.raw {
		c := &s.raw[i]
		a, b := &s.bodies[c.A], &s.bodies[c.B]
		var sleeper *body
		switch {
		case a.asleep && !b.fixed:
			sleeper = a
		case b.asleep && !a.fixed:
			sleeper = b
		default:
			continue
		}
		isl := sleeper.island
		for j := range s.bodies {
			if o := &s.bodies[j]; o.asleep && o.island == isl {
				o.asleep, o.fixed, o.rest = false, false, 0
			}
		}
		woke = true
	}
	return woke
}

// Asleep reports whether a body is asleep.
func (s *Sim) Asleep(id BodyID) bool { return s.bodies[id].asleep }

// recheck runs after a step whose contacts may have gone stale (a body
// outran its margin, the step was split, or its position pass left an
// overlap): contacts are found
// afresh at the end poses and the position pass runs on them, so that an
// overlap the step's contacts did not see is undone before the step ends.
// Velocities are not changed; the step's own contacts stay the ones
// reported.
func (s *Sim) recheck() error {
	s.raw, s.rawKeep = s.rawKeep[:0], s.raw
	s.cons, s.consKeep = s.consKeep[:0], s.cons
	stats := s.stats
	defer func() {
		s.raw, s.rawKeep = s.rawKeep, s.raw
		s.cons, s.consKeep = s.consKeep, s.cons
		s.stats = stats
	}()
	// Every body that touched anything in the step (its position pass may
	// have pushed it into a neighbour), and the bodies whose paths in the
	// step came near those whose contacts may have gone stale; a body that
	// had no contact all step and did not outran its margin is where its
	// contact search left it clear of everything else.
	s.unite(false)
	for i := range s.bodies {
		b := &s.bodies[i]
		b.sc, b.se = b.start, b.pose.P
		b.sr = b.radius + 2*s.bodyMargin(b.radius) + b.v.Norm()*s.opt.Dt
	}
	s.linkNear(markUnsure)
	s.activate(markUnsure | markTouched)
	mark, err := s.freeze()
	if err != nil {
		return err
	}
	// Contacts at the end poses only (no motion ahead, the base margin):
	// the position pass acts on overlaps, and the next step searches its
	// own motion. Its pushes can move a body farther than that margin
	// (a corner pushed out of one neighbour turns another corner towards
	// a second, which the search saw beyond the margin): then the bodies
	// are searched again where the pass left them, up to recheckSearches
	// times.
	for search := 1; ; search++ {
		s.startPiece()
		if err := s.findContacts(0); err != nil {
			return err
		}
		s.prepare(s.opt.Dt / float64(s.opt.Substeps))
		// A stack pressed by a heavy body (a car between two boxes under
		// a body six times its mass, landing) converges slowly: the pass
		// goes on, up to recheckRounds times its rounds, while a contact
		// is left more than twice the slop deep.
		for r := 0; r < recheckRounds && s.project(4*projectIters, recheckBeta, recheckAim); r++ {
		}
		if s.promote() {
			s.project(4*projectIters, recheckBeta, recheckAim)
		}
		if search == recheckSearches || !s.strayed() {
			break
		}
	}
	s.rechecks++
	return s.thaw(mark)
}

// startPiece makes the bodies' poses the start of a piece without motion
// (the recheck's): no displacement or turn yet, no sweep, and the world
// inverse inertia of every dynamic body at its pose.
func (s *Sim) startPiece() {
	for i := range s.bodies {
		b := &s.bodies[i]
		b.p0, b.q0 = b.pose.P, b.pose.Q
		b.dp, b.dR = geom.Vec3{}, geom.Identity()
		b.far2 = 0
		b.sweep = 0
		b.v0, b.w0 = b.v, b.w
	}
}

// strayed reports whether the recheck's position pass moved a body's
// points farther from where its contacts were searched than the body's
// base margin: the pair margins of that search no longer cover where it is.
func (s *Sim) strayed() bool {
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed {
			continue
		}
		_, turn := b.pose.Q.Mul(b.q0.Conj()).AxisAngle()
		if b.dp.Norm()+turn*b.radius > max(s.bodyMargin(b.radius), s.opt.Margin/2) {
			return true
		}
	}
	return false
}

// recheckSearches bounds the contact searches of one recheck.
const recheckSearches = 3

const (
	projectIters  = 16   // rounds of the position pass
	recheckRounds = 4    // passes of the recheck's position pass while overlaps are left
	maxSplit      = 3    // halvings of a step
	maxTurn       = 0.25 // radians a body may turn within one contact search
)

func (s *Sim) advance(dt float64, depth int) error {
	o := &s.opt
	g := o.Gravity.Norm()
	saved := s.saveStates(depth)
	for i := range s.bodies {
		b := &s.bodies[i]
		b.p0, b.q0 = b.pose.P, b.pose.Q
		b.dp, b.dR = geom.Vec3{}, geom.Identity()
		b.far2 = 0
		if b.fixed {
			b.sweep = 0
			continue
		}
		b.v0, b.w0 = b.v, b.w
		b.sweep = (b.v.Norm()+g*dt)*dt + b.w.Norm()*dt*b.radius
	}
	if err := s.findContacts(dt); err != nil {
		return err
	}
	if s.wake() {
		// Woken bodies' pairs with their sleeping neighbours were
		// skipped: search again.
		for i := range s.bodies {
			b := &s.bodies[i]
			if !b.fixed && b.sweep == 0 {
				b.v0, b.w0 = b.v, b.w
				b.sweep = (g * dt) * dt
			}
		}
		if err := s.findContacts(dt); err != nil {
			return err
		}
	}
	h := dt / float64(o.Substeps)
	s.prepare(h)
	// Without contacts no body is solved: every dynamic body drifts.
	for sub := 0; sub < o.Substeps && len(s.cons) > 0; sub++ {
		for i := range s.bodies {
			b := &s.bodies[i]
			if !b.fixed && b.solved {
				b.v = b.v.AddScaled(h, o.Gravity)
			}
		}
		s.warmStart()
		for it := 0; it < o.Iterations; it++ {
			s.solve(h, true)
		}
		s.integrate(h)
		s.solve(h, false)
	}
	s.drift(dt, h)
	s.restitution()
	left := s.project(projectIters, projectBeta, 1)
	if s.promote() {
		left = s.project(projectIters, projectBeta, 1)
	}
	outran, turned := s.outran(dt)
	if turned && depth < maxSplit {
		return s.split(dt, depth, saved)
	}
	if outran {
		s.outruns++
		s.unsure = true
	}
	if left {
		// The position pass left an overlap: every body of the piece.
		s.unsure = true
		for i := range s.bodies {
			if b := &s.bodies[i]; !b.fixed {
				b.mark |= markUnsure
			}
		}
	}
	s.addLinks()
	s.store(dt)
	for i := range s.bodies {
		if b := &s.bodies[i]; !b.fixed {
			b.finish()
		}
	}
	return nil
}

// split redoes the piece of length dt in halves for every body: a body
// that turned too far needs fresh contacts, and so may any other, whose
// contacts found at the piece's start can miss a feature that a shorter
// motion finds (redoing only the islands of the turned bodies let a body
// falling onto another sink 40% of its radius into it in a 200-body pile).
func (s *Sim) split(dt float64, depth int, saved []State) error {
	for i := range s.bodies {
		b := &s.bodies[i]
		if !b.fixed {
			b.pose, b.v, b.w = saved[i].Pose, saved[i].V, saved[i].W
			b.mark |= markUnsure
		}
	}
	s.splits++
	s.unsure = true
	if err := s.advance(dt/2, depth+1); err != nil {
		return err
	}
	return s.advance(dt/2, depth+1)
}

// saveStates copies the bodies' states into the buffer of a split depth.
func (s *Sim) saveStates(depth int) []State {
	for len(s.saved) <= depth {
		s.saved = append(s.saved, nil)
	}
	buf := s.saved[depth][:0]
	for i := range s.bodies {
		b := &s.bodies[i]
		buf = append(buf, State{Pose: b.pose, V: b.v, W: b.w})
	}
	s.saved[depth] = buf
	return buf
}

// outran reports whether contacts changed a body's velocity by more than its
// margin allowed for, and whether a body pushed by a contact turns by more
// than maxTurn in the step.
func (s *Sim) outran(dt float64) (out, turned bool) {
	// Only a body pushed by a contact in this step can turn a new face
	// into a neighbour; one spinning in free flight is left alone.
	if cap(s.engaged) < len(s.bodies) {
		s.engaged = make([]bool, len(s.bodies))
		s.spin = make([]float64, len(s.bodies))
	}
	s.engaged, s.spin = s.engaged[:len(s.bodies)], s.spin[:len(s.bodies)]
	clear(s.engaged)
	for i := range s.spin {
		s.spin[i] = -1
	}
	for i := range s.cons {
		if k := &s.cons[i]; k.imp.n > 0 || k.maxImp > 0 {
			s.engaged[k.a], s.engaged[k.b] = true, true
		}
	}
	spinning := false
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed || !b.solved {
			continue // a body without contacts ends at its prediction (drift)
		}
		// The pair margins covered the motion the start velocities and
		// gravity predicted plus the body's base margin: how far its
		// points ended from their predicted places.
		r := b.radius
		_, turn := b.pose.Q.Mul(b.pred.Q.Conj()).AxisAngle()
		if b.pose.P.Sub(b.pred.P).Norm()+turn*r > s.bodyMargin(r) && !s.covered(i) {
			out = true
			b.mark |= markUnsure
		}
		if s.engaged[i] && b.w.Norm()*dt > maxTurn && !turned {
			if s.spin[i] = s.faceReach(i); s.spin[i] < 0 {
				turned = true
			}
			spinning = true
		}
	}
	if spinning && !turned {
		turned = s.offFaces()
	}
	return out, turned
}

// covered reports whether body i, though it ended farther from its
// predicted pose than its margin allows for, stayed within what its contact
// search covered: no point of it went farther from its start than the
// predicted motion and its margin (a body stopped or slowed by a contact),
// so its pairs with static and held bodies, whose margins are that motion,
// saw everything it could reach; and every other dynamic body whose path
// came near its own kept pace with it (paced).
func (s *Sim) covered(i int) bool {
	return s.withinPredicted(&s.bodies[i]) && s.paced(i)
}

// paced reports whether every other dynamic body whose path in the piece
// came near body i's ended, relative to body i, within the pair's base
// margin of where the two predicted motions put it, and neither body of
// such a pair is convex. The pair's contacts were searched for those
// motions: a feature pair left out was farther apart than the predicted
// motions close plus that margin, so at the end poses it is still apart.
// Two linked tori held up by a bar both fall less than predicted, and by
// nearly the same: each outruns its own margin, but not the other. Pairs
// with a convex body keep the recheck: in piles, a box or polytope turned
// hard by an impact ends a few tenths of a percent of its radius inside a
// neighbour it had a contact with (the contact's separation is tracked
// along the normal it was found with), which the recheck's pass undoes.
func (s *Sim) paced(i int) bool {
	b := &s.bodies[i]
	for j := range s.bodies {
		o := &s.bodies[j]
		if j == i || o.fixed || !s.pathsNear(b, o) {
			continue
		}
		if b.mesh.Convex() || o.mesh.Convex() {
			return false
		}
		if min(relDeviation(b, o), relDeviation(o, b)) > s.opt.Margin+s.bodyMargin(b.radius)+s.bodyMargin(o.radius) {
			return false
		}
	}
	return true
}

// relDeviation bounds how far any point of body a ended, in body b's
// frame, from where the predicted poses of both put it: a point x of a
// (from its centre, |x| <= a.radius) is at R x + t in b's frame and at
// R' x + t' when predicted, and |(R - R') x| is at most the angle of
// R R'ᵀ times |x|.
func relDeviation(a, b *body) float64 {
	qb, qp := b.pose.Q.Conj(), b.pred.Q.Conj()
	t := qb.Rotate(a.pose.P.Sub(b.pose.P))
	tp := qp.Rotate(a.pred.P.Sub(b.pred.P))
	_, turn := qb.Mul(a.pose.Q).Mul(qp.Mul(a.pred.Q).Conj()).AxisAngle()
	return t.Sub(tp).Norm() + turn*a.radius
}

// pathsNear reports whether the paths of the centres of bodies b and o in
// the piece came within reach of each other: their bounding spheres grown
// by twice their margins, about the segments from start to end, which a
// path strays from by at most how much farther it went than its end.
func (s *Sim) pathsNear(b, o *body) bool {
	d := b.radius + 2*s.bodyMargin(b.radius) + b.far() - b.pose.P.Sub(b.p0).Norm() +
		o.radius + 2*s.bodyMargin(o.radius) + o.far() - o.pose.P.Sub(o.p0).Norm()
	_, _, pa, pb := geom.ClosestSegmentPoints(b.p0, b.pose.P, o.p0, o.pose.P)
	return pa.Sub(pb).Norm2() <= d*d
}

// alone reports whether no other dynamic body's path in the piece came
// near body i's.
func (s *Sim) alone(i int) bool {
	b := &s.bodies[i]
	for j := range s.bodies {
		if o := &s.bodies[j]; j != i && !o.fixed && s.pathsNear(b, o) {
			return false
		}
	}
	return true
}

// withinPredicted reports whether no point of body b went farther from its
// start in the piece than the predicted motion and its margin, for which
// its contacts were searched.
func (s *Sim) withinPredicted(b *body) bool {
	r := b.radius
	_, act := b.pose.Q.Mul(b.q0.Conj()).AxisAngle()
	_, pred := b.pred.Q.Mul(b.q0.Conj()).AxisAngle()
	return b.far()+act*r <= b.pred.P.Sub(b.p0).Norm()+pred*r+s.bodyMargin(r)
}

// far is how far the body's centre went from its start in the piece: the
// farthest point of its substeps, or its end if the position pass moved it
// farther.
func (b *body) far() float64 {
	return math.Max(math.Sqrt(b.far2), b.pose.P.Sub(b.p0).Norm())
}

// integrate moves the dynamic bodies that have a contact in the piece
// over a substep of length h with their current velocities: the centre of
// mass along v, the orientation about ω (constant linear and angular
// velocity over the substep, the linear-angular motion model with the body
// frame at the centre of mass).
func (s *Sim) integrate(h float64) {
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed || !b.solved {
			continue
		}
		b.substep(h, geom.QuatRotationVector(b.w.Scale(h)))
		b.dR = b.pose.Q.Mul(b.q0.Conj()).Mat3()
	}
}

// drift moves the dynamic bodies that have no contact in the piece of
// length dt, after the solver's substeps: nothing but gravity acts on
// them, so their substeps (each adds h g to the velocity, then moves by it
// and turns by the same rotation) sum to the pose findContacts predicted
// for them, the turn by w dt and the centre moved by dt v + g dt² (n+1)/(2n),
// which is where they end. Their centre's farthest distance from its start
// is taken over the substeps' ends, k h v + g h² k(k+1)/2 for k = 1 ... n.
func (s *Sim) drift(dt, h float64) {
	g := s.opt.Gravity
	n := s.opt.Substeps
	for i := range s.bodies {
		b := &s.bodies[i]
		if b.fixed || b.solved {
			continue
		}
		for k := 1; k <= n; k++ {
			t := float64(k) * h
			d := b.v.Scale(t).AddScaled(0.5*t*(t+h), g)
			b.far2 = max(b.far2, d.Norm2())
		}
		b.pose.P = b.pred.P
		if q, ok := b.pred.Q.Normalize(); ok {
			b.pose.Q = q
		}
		b.v = b.v.AddScaled(dt, g)
		b.dp = b.pose.P.Sub(b.p0)
		b.dR = b.pose.Q.Mul(b.q0.Conj()).Mat3()
	}
}

// substep moves the body along its velocity v for h and turns it by dq.
func (b *body) substep(h float64, dq geom.Quat) {
	b.pose.P = b.pose.P.AddScaled(h, b.v)
	b.dp = b.dp.AddScaled(h, b.v)
	if d := b.dp.Norm2(); d > b.far2 {
		b.far2 = d
	}
	q := dq.Mul(b.pose.Q)
	if qn, ok := q.Normalize(); ok {
		q = qn
	}
	b.pose.Q = q
}

// finish applies the change of the world inertia tensor over the
// piece of a step to a dynamic body: the angular momentum is kept (free
// rotation) and the rotational energy is never allowed to grow.
func (b *body) finish() {
	if q, ok := b.pose.Q.Normalize(); ok {
		b.pose.Q = q
	}
	R0 := b.q0.Mat3()
	R1 := b.pose.Q.Mat3()
	L := R0.MulVec(b.Ib.MulVec(R0.MulVecT(b.w)))
	e0 := 0.5 * b.w.Dot(L)
	w1 := R1.MulVec(b.invIb.MulVec(R1.MulVecT(L)))
	e1 := 0.5 * w1.Dot(L)
	if e1 > e0 && e1 > 0 {
		w1 = w1.Scale(math.Sqrt(e0 / e1))
	}
	if w1.IsFinite() {
		b.w = w1
	}
}
