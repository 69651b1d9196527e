// Package bullets runs the demonstration of the contact paper ("Precise
// Generalized Contact Point and Normal Determination for Rigid Body
// Simulation", Sec. 4, Fig. 3), behind "collide scene bullets": 100 bullets, convex polyhedra of
// 640 triangles, fired at 1000 m/s under gravity and spinning about their
// axis at 2e-3 rad/s, against a static warped plane of about 2010 triangles
// (a polygon soup) with a hole in its centre. The simulation is explicit
// Euler with a fixed step (0.1 s in the paper). The bullets and the plane
// are bodies of a world (package world, constant linear and angular
// velocity over a step, time of contact of package toc for a bullet and
// the plane): each step the world gives every bullet's first time of
// contact with the plane, the bullet is advanced to it and an impulse is
// applied, and the rest of the step is checked again in another world
// step for the bullets that hit. The paper took 201 s for one simulated
// second.
//
// An audit outside toc's search (brute-force exact segment-triangle tests
// of every bullet centre's displacement over a step against every triangle
// of the plane and of a cap closing the hole; no hierarchy, no trajectory
// bounds) counts bullets that went through the hole and
// bullets that crossed the plane in a step without a reported contact
// (tunnelled); the audit is not part of the timed simulation.
package bullets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"sync"
	"time"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
	"github.com/collide-go/collide/toc"
	"github.com/collide-go/collide/world"
)

// Physical constants of the scene (SI units).
const (
	BulletSpeed  = 1000.0                  // m/s, muzzle speed
	BulletSpin   = 2e-3                    // rad/s about the bullet's axis ("rifling", Sec. 4)
	BulletMass   = 9.5e-3                  // kg, a 7.62 mm rifle bullet
	Gravity      = 9.81                    // m/s^2, along -z
	PlaneSize    = shapes.DefaultPlaneSize // m, side of the plane's square outline
	PlaneHole    = shapes.DefaultPlaneHole // m, radius of the hole
	PlaneWarp    = shapes.DefaultPlaneWarp // m, out-of-plane warp at the corners
	maxResponses = 64                      // contacts resolved per bullet and step before it is stopped
	// maxTurn is the largest rotation of a bullet in one world step, in
	// radians: the world rebuilds a body's constant angular velocity from
	// its two poses, which determine a turn only up to a whole one, so a
	// bullet spun fast by an impact moves in several world steps.
	maxTurn = math.Pi / 4
)

// Config describes a run. The zero value means the documented defaults.
type Config struct {
	// Bullets is the number of bullets (default 100).
	Bullets int
	// Dt is the time step in seconds (default 0.1, the paper's).
	Dt float64
	// Seconds is the simulated time (default 1).
	Seconds float64
	// Algorithm is toc.Boxes (Algorithm 2, default) or toc.Segments
	// (Algorithm 3).
	Algorithm toc.Method
	// Tolerance is the trajectory tolerance in metres (default 1e-5, about
	// 1/1400 of the bullet's size).
	Tolerance float64
	// Restitution is the coefficient of restitution of the impacts
	// (default 0.2; a negative value means 0).
	Restitution float64
	// Seed chooses the bullets' targets and ranges (default 1).
	Seed uint64
}

func (c *Config) withDefaults() (Config, error) {
	r := Config{Bullets: 100, Dt: 0.1, Seconds: 1, Tolerance: 1e-5, Restitution: 0.2, Seed: 1}
	if c == nil {
		return r, nil
	}
	if c.Bullets < 0 || c.Bullets > 100000 {
		return r, fmt.Errorf("bullets %d out of range [0, 100000]", c.Bullets)
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"dt", c.Dt}, {"seconds", c.Seconds}, {"tolerance", c.Tolerance}, {"restitution", c.Restitution}} {
		if math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return r, fmt.Errorf("%s is not finite", f.name)
		}
	}
	if c.Dt < 0 || c.Seconds < 0 || c.Tolerance < 0 {
		return r, errors.New("dt, seconds and tolerance must not be negative")
	}
	if c.Bullets > 0 {
		r.Bullets = c.Bullets
	}
	if c.Dt > MaxDt {
		return r, fmt.Errorf("dt %g s is longer than %g s", c.Dt, float64(MaxDt))
	}
	if c.Dt > 0 {
		r.Dt = c.Dt
	}
	if c.Seconds > 0 {
		r.Seconds = c.Seconds
	}
	if r.Seconds/r.Dt > 1e7 {
		return r, fmt.Errorf("%g s at step %g s is more than 1e7 steps", r.Seconds, r.Dt)
	}
	if c.Tolerance > 0 {
		r.Tolerance = c.Tolerance
	}
	switch {
	case c.Restitution < 0:
		r.Restitution = 0
	case c.Restitution > 0:
		r.Restitution = math.Min(1, c.Restitution)
	}
	if c.Seed != 0 {
		r.Seed = c.Seed
	}
	if c.Algorithm != toc.Boxes && c.Algorithm != toc.Segments {
		return r, fmt.Errorf("unknown algorithm %d", int(c.Algorithm))
	}
	r.Algorithm = c.Algorithm
	return r, nil
}

// Result summarises a run. The JSON keys are those of "collide scene
// bullets --json".
type Result struct {
	Algorithm string  `json:"algorithm"`
	Bullets   int     `json:"bullets"`
	Dt        float64 `json:"dt"`
	Steps     int     `json:"steps"`
	Tolerance float64 `json:"tolerance"`
	// SimulatedSeconds is the simulated time and WallSeconds the wall time
	// of the simulation (collision detection, response, integration).
	SimulatedSeconds              float64 `json:"simulated_seconds"`
	WallSeconds                   float64 `json:"wall_seconds"`
	WallSecondsPerSimulatedSecond float64 `json:"wall_seconds_per_simulated_second"`
	// Contacts is the number of contacts found (each resolved by an
	// impulse); BulletsHit the number of bullets with at least one.
	Contacts   int `json:"contacts"`
	BulletsHit int `json:"bullets_hit"`
	// PlanePointContacts counts contacts found from the plane's sample
	// points against a bullet (edge of the hole against a bullet's side),
	// the other half of Algorithm 1.
	PlanePointContacts int `json:"plane_point_contacts"`
	// ThroughHole counts bullets whose centre passed through the hole.
	ThroughHole int `json:"through_hole"`
	// Tunneled counts bullet-steps in which a bullet's centre crossed the
	// plane's triangles with no contact reported (must be 0); Penetrated
	// those in which it crossed despite a reported contact (must be 0).
	Tunneled   int `json:"tunneled"`
	Penetrated int `json:"penetrated"`
	// Stopped counts bullets stopped after maxResponses contacts in a step.
	Stopped int `json:"stopped"`
	// NarrowQueries counts pair queries that passed the world's broad
	// phase (swept boxes); EnlargedOBBPairs counts the bullet-steps that the
	// paper's enlarged OBBs (toc.EnlargedOBB, Sec. 3.5) would have passed.
	NarrowQueries    int     `json:"narrow_queries"`
	EnlargedOBBPairs int     `json:"enlarged_obb_pairs"`
	AuditSeconds     float64 `json:"audit_seconds"`
}

type bullet struct {
	s       toc.State
	id      world.BodyID
	rest    float64 // time left in the current step
	move    float64 // time of the current world step's move (at most rest)
	hits    int     // contacts resolved in the current step
	hit     bool
	through bool
	stopped bool
}

// Scene is the bullet scene; build it with New.
type Scene struct {
	cfg          Config
	w            *world.World
	plane        world.BodyID
	planeBox     geom.OBB
	invI         geom.Vec3 // inverse principal moments of the bullet
	bullets      []bullet
	byID         []int // bullet index of each body id (-1: the plane)
	contacts     []world.Contact
	first        []int // per bullet: index in contacts of its first contact, or -1
	planeTris    [][3]geom.Vec3
	capTris      [][3]geom.Vec3
	t            float64
	res          Result
	stepContacts []int // contacts per bullet in the current step
	// paths[i] is bullet i's centre path in the current step: its start,
	// its position at each contact and its end (straight in between).
	paths      [][]geom.Vec3
	contactPts []geom.Vec3 // every contact point found
	holePts    []geom.Vec3 // where bullets crossed the hole's cap
	auditBox   geom.AABB
	bulletBox  geom.OBB // the bullet's local bounding box
	// bulletRadius bounds the distance of the bullet's points from its
	// frame origin; planeAABB is the plane's box.
	bulletRadius float64
	planeAABB    geom.AABB
}

// New builds the scene: the plane at x = 0 spanning y and z in
// [-1, 1] m, bullets along +x starting 150 to 850 m before it (so each
// reaches it within the first simulated second), aimed with the explicit
// Euler drop for the chosen step at targets of which about 20% lie in the
// hole, 10% on its rim and 70% on the plane.
func New(cfg *Config) (*Scene, error) {
	c, err := cfg.withDefaults()
	if err != nil {
		return nil, err
	}
	g, err := sceneGeometry()
	if err != nil {
		return nil, err
	}
	bm, pm := g.bulletMesh, g.planeMesh
	s := &Scene{cfg: c}
	s.planeBox = geom.OBBFromAABB(pm.Bounds())
	s.bulletBox = geom.OBBFromAABB(bm.Bounds())
	for _, v := range bm.Verts {
		s.bulletRadius = math.Max(s.bulletRadius, v.Norm())
	}
	s.planeAABB = pm.Bounds()
	// The bullets collide with the plane only (category 2, mask 1). Screw
	// motion CCD does not answer on constant linear and angular velocity:
	// time of contact replaces it in the table.
	table := world.DefaultTable
	for a := range table {
		for b, m := range table[a] {
			if m == world.ScrewCCD {
				table[a][b] = world.TimeOfContact
			}
		}
	}
	s.w, err = world.New(&world.Options{
		Table:  &table,
		Motion: geom.LinearAngular,
		// The rim is sampled densely (rimRefined) instead of an edge phase.
		TOC: &toc.Options{Method: c.Algorithm, Tolerance: c.Tolerance, SkipSeparating: true, PointsOnly: true},
	})
	if err != nil {
		return nil, err
	}
	if s.plane, err = s.w.Add(world.BodyDef{Mesh: g.rimPlane, Kind: world.Soup, Pose: geom.PoseIdentity(), Static: true, Filter: world.Filter{Category: 1}}); err != nil {
		return nil, err
	}
	// Solid cylinder moments about the centre (axis x).
	r, l := shapes.DefaultBulletRadius, shapes.DefaultBulletLength
	ix := BulletMass * r * r / 2
	iy := BulletMass * (3*r*r + l*l) / 12
	s.invI = geom.V(1/ix, 1/iy, 1/iy)
	s.res = Result{Algorithm: c.Algorithm.String(), Bullets: c.Bullets, Dt: c.Dt, Tolerance: c.Tolerance}

	rng := rand.New(rand.NewPCG(c.Seed, 2))
	h := PlaneSize/2 - 0.05
	for i := 0; i < c.Bullets; i++ {
		var y, z float64
		switch k := i % 10; {
		case k < 2: // through the hole
			rr, th := 0.25*math.Sqrt(rng.Float64()), 2*math.Pi*rng.Float64()
			y, z = rr*math.Cos(th), rr*math.Sin(th)
		case k < 3: // grazing the rim: the bullet's side overlaps the hole's edge
			rr, th := PlaneHole+(rng.Float64()-0.5)*2*shapes.DefaultBulletRadius, 2*math.Pi*rng.Float64()
			y, z = rr*math.Cos(th), rr*math.Sin(th)
		default: // on the plane
			for {
				y, z = h*(2*rng.Float64()-1), h*(2*rng.Float64()-1)
				if math.Hypot(y, z) > PlaneHole+0.04 {
					break
				}
			}
		}
		dist := 150 + 700*float64(i)/math.Max(1, float64(c.Bullets-1)) + rng.Float64()
		tHit := dist / BulletSpeed
		vz := (Gravity * eulerDrop(tHit, c.Dt)) / tHit
		b := bullet{s: toc.State{
			Pose: geom.Pose{P: geom.V(-dist, y, z), Q: geom.QuatIdentity()},
			V:    geom.V(BulletSpeed, 0, vz),
			W:    geom.V(BulletSpin, 0, 0),
		}}
		if b.id, err = s.w.Add(world.BodyDef{Mesh: bm, Kind: world.Convex, Pose: b.s.Pose, Filter: world.Filter{Category: 2, Mask: 1}}); err != nil {
			return nil, err
		}
		for len(s.byID) <= int(b.id) {
			s.byID = append(s.byID, -1)
		}
		s.byID[b.id] = len(s.bullets)
		s.bullets = append(s.bullets, b)
	}
	s.first = make([]int, len(s.bullets))
	s.stepContacts = make([]int, len(s.bullets))
	s.paths = make([][]geom.Vec3, len(s.bullets))
	s.planeTris = g.planeTris
	s.capTris = g.capTris
	s.auditBox = pm.Bounds()
	return s, nil
}

// geometry is the scene's fixed geometry, shared (read only) by every
// scene.
type geometry struct {
	bulletMesh, planeMesh *mesh.Mesh
	// rimPlane is planeMesh with the hole's edge split every
	// RimSampleSpacing (rimRefined): the same surface, sampled there.
	rimPlane           *mesh.Mesh
	planeTris, capTris [][3]geom.Vec3
}

// sceneGeometry builds the geometry once.
var sceneGeometry = sync.OnceValues(func() (*geometry, error) {
	g := &geometry{
		bulletMesh: shapes.Bullet(shapes.DefaultBulletRadius, shapes.DefaultBulletLength),
		planeMesh:  shapes.WarpedPlane(PlaneSize, PlaneHole, PlaneWarp),
	}
	var err error
	if g.rimPlane, err = rimRefined(g.planeMesh); err != nil {
		return nil, err
	}
	g.planeTris = trianglesOf(g.planeMesh)
	g.capTris = holeCap(g.planeMesh)
	return g, nil
})

// MaxDt is the longest time step in seconds: the scene's bullets reach
// the plane within 0.85 s, so a longer step only makes one step's search
// longer.
const MaxDt = 1

// RimSampleSpacing is the spacing of the plane's vertices along the hole's
// edge, in metres (a tenth of the bullet's radius), so that the rim cannot
// slice into a bullet's side between two sample points (Algorithm 1 with a
// given sampling).
const RimSampleSpacing = shapes.DefaultBulletRadius / 10

// rimRefined returns m with every inner boundary edge (the hole's rim)
// split every RimSampleSpacing: its triangle becomes a fan from the
// opposite vertex over the pieces, so the surface is the same and its
// vertices, the time-of-contact sample points, lie densely along the rim.
func rimRefined(m *mesh.Mesh) (*mesh.Mesh, error) {
	verts := append([]geom.Vec3(nil), m.Verts...)
	c := m.Bounds().Center()
	rim := map[[2]int32]bool{}
	for _, e := range m.Edges {
		a := m.Verts[e.V[0]]
		if e.NumFaces == 1 && math.Hypot(a.Y-c.Y, a.Z-c.Z) <= PlaneSize/4 {
			rim[e.V] = true
			rim[[2]int32{e.V[1], e.V[0]}] = true
		}
	}
	var faces [][]int
	for _, loop := range m.Loops() {
		split := -1
		for k := range loop {
			if rim[[2]int32{int32(loop[k]), int32(loop[(k+1)%len(loop)])}] {
				split = k
			}
		}
		if split < 0 || len(loop) != 3 {
			faces = append(faces, loop)
			continue
		}
		u, v, w := loop[split], loop[(split+1)%3], loop[(split+2)%3]
		n := int(math.Ceil(verts[u].Dist(verts[v]) / RimSampleSpacing))
		prev := u
		for k := 1; k <= n; k++ {
			next := v
			if k < n {
				next = len(verts)
				verts = append(verts, m.Verts[u].Lerp(m.Verts[v], float64(k)/float64(n)))
			}
			faces = append(faces, []int{prev, next, w})
			prev = next
		}
	}
	return mesh.New(verts, faces, nil)
}

// eulerDrop returns the fall per unit gravity at time t of explicit Euler
// with step h (x += h v; v += h g): h^2 n (n-1) / 2 + n h (t - n h) with
// n = floor(t / h).
func eulerDrop(t, h float64) float64 {
	n := math.Floor(t / h)
	return h*h*n*(n-1)/2 + n*h*(t-n*h)
}

func trianglesOf(m *mesh.Mesh) [][3]geom.Vec3 {
	var ts [][3]geom.Vec3
	for _, t := range m.Triangles(nil) {
		a, b, c := m.TriangleVerts(t)
		ts = append(ts, [3]geom.Vec3{a, b, c})
	}
	return ts
}

// holeCap returns a fan of triangles closing the plane's inner boundary
// loop (the hole), for the audit: the boundary vertices nearest the
// centre, ordered by angle about their centroid.
func holeCap(m *mesh.Mesh) [][3]geom.Vec3 {
	c := m.Bounds().Center()
	var loop []geom.Vec3
	for _, e := range m.Edges {
		if e.NumFaces != 1 {
			continue
		}
		for _, v := range e.V {
			p := m.Verts[v]
			if math.Hypot(p.Y-c.Y, p.Z-c.Z) < PlaneSize/4 {
				loop = append(loop, p)
			}
		}
	}
	if len(loop) == 0 {
		return nil
	}
	var cen geom.Vec3
	for _, p := range loop {
		cen = cen.Add(p)
	}
	cen = cen.Scale(1 / float64(len(loop)))
	sort.Slice(loop, func(i, j int) bool {
		return math.Atan2(loop[i].Z-cen.Z, loop[i].Y-cen.Y) < math.Atan2(loop[j].Z-cen.Z, loop[j].Y-cen.Y)
	})
	var ts [][3]geom.Vec3
	for i := range loop {
		a, b := loop[i], loop[(i+1)%len(loop)]
		if a != b {
			ts = append(ts, [3]geom.Vec3{cen, a, b})
		}
	}
	return ts
}

// Run simulates the configured time and returns the summary.
func (s *Scene) Run() (Result, error) {
	steps := int(math.Round(s.cfg.Seconds / s.cfg.Dt))
	for i := 0; i < steps; i++ {
		if err := s.Step(); err != nil {
			return s.Result(), err
		}
	}
	return s.Result(), nil
}

// Result returns the summary so far.
func (s *Scene) Result() Result {
	r := s.res
	r.SimulatedSeconds = s.t
	if s.t > 0 {
		r.WallSecondsPerSimulatedSecond = r.WallSeconds / s.t
	}
	r.BulletsHit, r.ThroughHole, r.Stopped = 0, 0, 0
	for _, b := range s.bullets {
		if b.hit {
			r.BulletsHit++
		}
		if b.through {
			r.ThroughHole++
		}
		if b.stopped {
			r.Stopped++
		}
	}
	return r
}

// Time returns the simulated time.
func (s *Scene) Time() float64 { return s.t }

// Positions appends the bullets' centres to dst.
func (s *Scene) Positions(dst []geom.Vec3) []geom.Vec3 {
	for _, b := range s.bullets {
		dst = append(dst, b.s.Pose.P)
	}
	return dst
}

// Step advances the scene by one time step and audits it.
func (s *Scene) Step() error {
	dt := s.cfg.Dt
	for i := range s.bullets {
		b := &s.bullets[i]
		s.paths[i] = append(s.paths[i][:0], b.s.Pose.P)
		// Statistic only (not timed): would the paper's broad phase have
		// passed this bullet-step?
		if !b.stopped && toc.EnlargedOBB(s.bulletBox, b.s, dt).Overlaps(s.planeBox) {
			s.res.EnlargedOBBPairs++
		}
		s.stepContacts[i] = 0
		b.rest, b.hits = dt, 0
		if b.stopped {
			b.rest = 0
		}
	}
	t0 := time.Now()
	for more := true; more; {
		var err error
		if more, err = s.advance(); err != nil {
			return err
		}
	}
	for i := range s.bullets {
		b := &s.bullets[i]
		if !b.stopped {
			b.s.V = b.s.V.Add(geom.V(0, 0, -Gravity*dt))
		}
	}
	s.res.WallSeconds += time.Since(t0).Seconds()
	s.res.Steps++
	s.t += dt
	t1 := time.Now()
	for i := range s.bullets {
		s.paths[i] = append(s.paths[i], s.bullets[i].s.Pose.P)
	}
	s.audit()
	s.res.AuditSeconds += time.Since(t1).Seconds()
	return nil
}

// advance runs one world step that moves every bullet with time left in
// the step through that time, or through maxTurn; a bullet that touches the
// plane is moved back to its first contact, the impulse is applied, and its
// remaining time waits for the next call. It reports whether some bullet
// has time left.
func (s *Scene) advance() (bool, error) {
	for i := range s.bullets {
		if b := &s.bullets[i]; b.rest > 0 {
			b.move = b.rest
			if w := b.s.W.Norm(); w*b.move > maxTurn {
				// A fast spin is followed in turns of maxTurn where the
				// bullet may reach the plane: its centre's straight path
				// grown by its radius meets the plane's box.
				sw := geom.AABBOf(b.s.Pose.P, b.s.Pose.P.AddScaled(b.rest, b.s.V)).Expand(s.bulletRadius)
				if !sw.Overlaps(s.planeAABB) {
					b.s.Pose, b.rest = b.s.At(b.rest), 0
					if err := s.w.SetPose(b.id, b.s.Pose); err != nil {
						return false, fmt.Errorf("bullet %d: %w", i, err)
					}
					continue
				}
				b.move = maxTurn / w
			}
			if err := s.w.Move(b.id, b.s.At(b.move)); err != nil {
				return false, fmt.Errorf("bullet %d: %w", i, err)
			}
		}
	}
	var err error
	if s.contacts, err = s.w.Step(s.contacts[:0]); err != nil {
		return false, err
	}
	s.res.NarrowQueries += s.w.Stats().Tests
	// The first contact of each bullet (the plane has the smaller id, so
	// it is body A and the normal points from the plane to the bullet).
	for i := range s.first {
		s.first[i] = -1
	}
	for j, c := range s.contacts {
		i := s.byID[c.B]
		if c.A != s.plane || i < 0 {
			return false, fmt.Errorf("contact between bodies %d and %d, not the plane and a bullet", c.A, c.B)
		}
		if f := s.first[i]; f < 0 || c.Time < s.contacts[f].Time {
			s.first[i] = j
		}
	}
	more := false
	for i := range s.bullets {
		b := &s.bullets[i]
		if b.rest <= 0 {
			continue
		}
		if s.first[i] < 0 { // the world moved the bullet through its move
			b.s.Pose = b.s.At(b.move)
			b.rest -= b.move
			more = more || b.rest > 0
			continue
		}
		c := s.contacts[s.first[i]]
		tc := c.Time * b.move // the world's time is a fraction of the bullet's move
		if b.hits == maxResponses {
			b.s.Pose = b.s.At(tc)
			b.s.V, b.s.W, b.stopped, b.rest = geom.Vec3{}, geom.Vec3{}, true, 0
			if err := s.w.SetPose(b.id, b.s.Pose); err != nil {
				return false, err
			}
			continue
		}
		// Stop short of the contact by the time the point needs to
		// approach by one tolerance (Box2D's target separation), so that
		// the next query starts with the bodies apart.
		r := c.Point.Sub(b.s.Pose.P.AddScaled(tc, b.s.V))
		if vin := -b.s.V.Add(b.s.W.Cross(r)).Dot(c.Normal); vin > 0 {
			tc = math.Max(0, tc-s.cfg.Tolerance/vin)
		}
		b.s.Pose = b.s.At(tc)
		if err := s.w.SetPose(b.id, b.s.Pose); err != nil {
			return false, err
		}
		s.paths[i] = append(s.paths[i], b.s.Pose.P)
		b.rest -= tc
		b.hits++
		s.res.Contacts++
		s.contactPts = append(s.contactPts, c.Point)
		if c.FeatureB.Kind == contact.Face { // a plane point on a bullet face
			s.res.PlanePointContacts++
		}
		s.stepContacts[i]++
		b.hit = true
		s.impulse(b, b.s.Pose.P.Add(r), c.Normal)
		more = more || b.rest > 0
	}
	return more, nil
}

// impulse applies the frictionless impulse of restitution e at world
// point p with unit normal n (from the plane towards the bullet) against
// the immovable plane.
func (s *Scene) impulse(b *bullet, p, n geom.Vec3) {
	r := p.Sub(b.s.Pose.P)
	vn := b.s.V.Add(b.s.W.Cross(r)).Dot(n)
	if vn >= 0 {
		return
	}
	rot := b.s.Pose.Q.Mat3()
	invIw := func(v geom.Vec3) geom.Vec3 { // R diag(invI) R^T v
		return rot.MulVec(rot.MulVecT(v).Mul(s.invI))
	}
	rn := r.Cross(n)
	k := 1/BulletMass + n.Dot(invIw(rn).Cross(r))
	j := -(1 + s.cfg.Restitution) * vn / k
	b.s.V = b.s.V.AddScaled(j/BulletMass, n)
	b.s.W = b.s.W.Add(invIw(rn.Scale(j)))
}

// audit checks, for each bullet, whether its centre's path in the step
// just taken (straight between the contacts) crosses a triangle of the
// plane, i.e. the bullet ended up on the far side of the plane, or of the
// cap closing the hole; brute force with exact signs.
func (s *Scene) audit() {
	for i := range s.bullets {
		b := &s.bullets[i]
		path := s.paths[i]
		crossPlane := false
		for k := 0; k+1 < len(path); k++ {
			p, q := path[k], path[k+1]
			seg := geom.AABBOf(p, q)
			if !seg.Overlaps(s.auditBox) {
				continue
			}
			if crosses(p, q, seg, s.planeTris) {
				crossPlane = true
			}
			if !b.through {
				if x, ok := crossing(p, q, seg, s.capTris); ok {
					b.through = true
					s.holePts = append(s.holePts, x)
				}
			}
		}
		if crossPlane {
			if s.stepContacts[i] == 0 {
				s.res.Tunneled++
			} else {
				s.res.Penetrated++
			}
		}
	}
}

func crosses(p, q geom.Vec3, seg geom.AABB, tris [][3]geom.Vec3) bool {
	_, ok := crossing(p, q, seg, tris)
	return ok
}

// crossing returns a point where segment p-q crosses one of tris.
func crossing(p, q geom.Vec3, seg geom.AABB, tris [][3]geom.Vec3) (geom.Vec3, bool) {
	for _, t := range tris {
		if t[0].X < seg.Min.X && t[1].X < seg.Min.X && t[2].X < seg.Min.X ||
			t[0].X > seg.Max.X && t[1].X > seg.Max.X && t[2].X > seg.Max.X ||
			t[0].Y < seg.Min.Y && t[1].Y < seg.Min.Y && t[2].Y < seg.Min.Y ||
			t[0].Y > seg.Max.Y && t[1].Y > seg.Max.Y && t[2].Y > seg.Max.Y ||
			t[0].Z < seg.Min.Z && t[1].Z < seg.Min.Z && t[2].Z < seg.Min.Z ||
			t[0].Z > seg.Max.Z && t[1].Z > seg.Max.Z && t[2].Z > seg.Max.Z {
			continue
		}
		if u, ok := geom.SegmentTriangle(p, q, t[0], t[1], t[2]); ok {
			return p.Lerp(q, u), true
		}
	}
	return geom.Vec3{}, false
}

// ContactPoints returns the world positions of every contact found so far
// (do not modify).
func (s *Scene) ContactPoints() []geom.Vec3 { return s.contactPts }

// HolePoints returns where bullets passed through the hole (do not
// modify).
func (s *Scene) HolePoints() []geom.Vec3 { return s.holePts }

// Outline returns the plane's triangles (world frame), for drawing.
func (s *Scene) Outline() [][3]geom.Vec3 { return s.planeTris }
