package world

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/mesh"
	"github.com/collide-go/collide/shapes"
)

// solidOracle is the test's own model of a closed mesh placed in the world:
// its faces as planar polygons (world coordinates, outward normals by
// Newell's method), with point-in-solid by ray parity and the distance to
// the surface by brute force over the polygons. It shares no code with the
// world or meshquery (no triangulation, no trees).
type solidOracle struct {
	faces [][]geom.Vec3
	norms []geom.Vec3
}

func newSolidOracle(m *mesh.Mesh, p geom.Pose) *solidOracle {
	s := &solidOracle{}
	t := p.Transform()
	for f := 0; f < m.NumFaces(); f++ {
		var poly []geom.Vec3
		for _, v := range m.Face(f) {
			poly = append(poly, t.Apply(m.Verts[v]))
		}
		var n geom.Vec3
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			n = n.Add(geom.V((a.Y-b.Y)*(a.Z+b.Z), (a.Z-b.Z)*(a.X+b.X), (a.X-b.X)*(a.Y+b.Y)))
		}
		s.faces = append(s.faces, poly)
		s.norms = append(s.norms, n.Scale(1/n.Norm()))
	}
	return s
}

// inPolygon reports whether q, a point on face f's plane, lies inside the
// face: the crossing number in the projection that drops the normal's
// largest axis.
func (s *solidOracle) inPolygon(f int, q geom.Vec3) bool {
	n := s.norms[f]
	ax := 0
	for k := 1; k < 3; k++ {
		if math.Abs(n.Get(k)) > math.Abs(n.Get(ax)) {
			ax = k
		}
	}
	u, v := (ax+1)%3, (ax+2)%3
	poly := s.faces[f]
	in := false
	for i := range poly {
		a, b := poly[i], poly[(i+1)%len(poly)]
		au, av, bu, bv := a.Get(u), a.Get(v), b.Get(u), b.Get(v)
		qu, qv := q.Get(u), q.Get(v)
		if (av > qv) != (bv > qv) && qu < au+(qv-av)*(bu-au)/(bv-av) {
			in = !in
		}
	}
	return in
}

// inside reports whether p is inside the solid: the parity of a ray's
// crossings with the faces, by majority over three skew directions.
func (s *solidOracle) inside(p geom.Vec3) bool {
	votes := 0
	for _, d := range []geom.Vec3{geom.V(0.5773, 0.2113, 0.7887), geom.V(-0.3141, 0.8660, 0.3894), geom.V(0.1234, -0.6180, -0.7764)} {
		n := 0
		for f, poly := range s.faces {
			den := s.norms[f].Dot(d)
			if den == 0 {
				continue
			}
			tt := s.norms[f].Dot(poly[0].Sub(p)) / den
			if tt > 0 && s.inPolygon(f, p.AddScaled(tt, d)) {
				n++
			}
		}
		votes += n % 2
	}
	return votes >= 2
}

// nearest returns the point of the surface nearest p and its distance.
func (s *solidOracle) nearest(p geom.Vec3) (geom.Vec3, float64) {
	best, bd := geom.Vec3{}, math.Inf(1)
	try := func(q geom.Vec3) {
		if d := q.Sub(p).Norm(); d < bd {
			best, bd = q, d
		}
	}
	for f, poly := range s.faces {
		n := s.norms[f]
		if q := p.AddScaled(-n.Dot(p.Sub(poly[0])), n); s.inPolygon(f, q) {
			try(q)
		}
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			ab := b.Sub(a)
			u := math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/ab.Dot(ab)))
			try(a.AddScaled(u, ab))
		}
	}
	return best, bd
}

// deepVertex is a vertex of one body inside the other: its position, depth
// and nearest point of the other's surface.
type deepVertex struct {
	ofB   bool
	v     int
	p, c  geom.Vec3
	depth float64
}

// insideVertices lists the vertices of each body inside the other.
func insideVertices(ma, mb *mesh.Mesh, pa, pb geom.Pose) []deepVertex {
	var out []deepVertex
	for side, m := range []*mesh.Mesh{ma, mb} {
		self, other := pa, pb
		om := mb
		if side == 1 {
			self, other, om = pb, pa, ma
		}
		o := newSolidOracle(om, other)
		t := self.Transform()
		for v, x := range m.Verts {
			p := t.Apply(x)
			if o.inside(p) {
				c, d := o.nearest(p)
				out = append(out, deepVertex{ofB: side == 1, v: v, p: p, c: c, depth: d})
			}
		}
	}
	return out
}

func maxDepth(vs []deepVertex) float64 {
	d := 0.0
	for _, v := range vs {
		d = math.Max(d, v.depth)
	}
	return d
}

func meshRadius(m *mesh.Mesh) float64 {
	r := 0.0
	for _, v := range m.Verts {
		r = math.Max(r, v.Norm())
	}
	return r
}

// TestFeatureContactsDeepNonConvex drives a car into a box and a torus
// into a torus, at seeded random orientations and directions, to a random
// overlap (the deepest vertex of either body inside the other between 0.2
// and 2.5 times the window of the feature passes), and checks FeatureContacts
// against the brute-force oracle: every vertex deeper inside the other body
// than the feature passes see (depthWindow) has a record of
// that vertex with its exact depth as the negative separation, the normal
// from A to B along its shortest way out (the point that far from the
// vertex along the normal lies on the other's surface) and the point
// halfway; and no record is deeper than the window unless it is such a
// vertex's. Without the deep-overlap records the pair has nothing beyond
// the window and the test fails on every case deeper than it.
func TestFeatureContactsDeepNonConvex(t *testing.T) {
	cases := []struct {
		name   string
		a, b   *mesh.Mesh
		ka, kb BodyKind
		lo, hi float64   // range of the deepest vertex's depth, in windows
		core   geom.Vec3 // a point deep inside b (b's frame)
	}{
		{"car-box", shapes.Car(), shapes.Box(geom.V(0.4, 0.35, 0.3)), Polyhedron, Convex, 0.2, 2.5, geom.Vec3{}},
		{"torus-torus", shapes.Torus(1, 0.4, 12, 8), shapes.Torus(1, 0.4, 12, 8), Polyhedron, Polyhedron, 0.2, 2.2, geom.V(0, 1, 0)},
		{"box-car", shapes.Box(geom.V(0.5, 0.3, 0.25)), shapes.Car(), Convex, Polyhedron, 0.2, 2, geom.V(0, 0, -0.1)},
	}
	for ci, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(ci)+5, 29))
			ra, rb := meshRadius(tc.a), meshRadius(tc.b)
			window := depthWindow(newFeatures(tc.a), newFeatures(tc.b))
			const n = 40
			deep, done := 0, 0
			for i := 0; i < n; i++ {
				qa, qb := randQuat(rng), randQuat(rng)
				u := randUnit(rng)
				target := (tc.lo + rng.Float64()*(tc.hi-tc.lo)) * window
				pb := geom.Pose{Q: qb}
				// From a random vertex of a at b's core point, move a away
				// along u, bisecting for the target depth: the deepest
				// vertex's depth is continuous in the distance.
				p0 := pb.Apply(tc.core).Sub(qa.Rotate(tc.a.Verts[rng.IntN(len(tc.a.Verts))]))
				at := func(s float64) geom.Pose { return geom.Pose{P: p0.AddScaled(s, u), Q: qa} }
				lo, hi := 0.0, 2*(ra+rb)+tc.core.Norm()
				if maxDepth(insideVertices(tc.a, tc.b, at(lo), pb)) < target {
					continue
				}
				for k := 0; k < 16; k++ {
					if mid := (lo + hi) / 2; maxDepth(insideVertices(tc.a, tc.b, at(mid), pb)) >= target {
						lo = mid
					} else {
						hi = mid
					}
				}
				pa := at(lo)
				vs := insideVertices(tc.a, tc.b, pa, pb)
				if maxDepth(vs) > window*(1+1e-6) {
					deep++
				}
				done++
				w := mustNew(t, &Options{Table: featureTable(), Workers: 1})
				if _, err := w.Add(BodyDef{Mesh: tc.a, Kind: tc.ka, Pose: pa}); err != nil {
					t.Fatal(err)
				}
				if _, err := w.Add(BodyDef{Mesh: tc.b, Kind: tc.kb, Pose: pb}); err != nil {
					t.Fatal(err)
				}
				cs, err := w.Step(nil)
				if err != nil {
					t.Fatal(err)
				}
				if err := checkDeepRecords(cs, vs, window, newSolidOracle(tc.a, pa), newSolidOracle(tc.b, pb)); err != nil {
					t.Fatalf("case %d (deepest %.4f, window %.4f): %v", i, maxDepth(vs), window, err)
				}
			}
			t.Logf("%d of %d cases set up, %d deeper than the window", done, n, deep)
			if done < n*3/4 || deep*10 < done*3 || deep*10 > done*7 {
				t.Fatalf("%d of %d cases set up, %d deeper than the window: want most set up and 30-70%% deep", done, n, deep)
			}
		})
	}
}

// checkDeepRecords matches the records deeper than the window with the
// oracle's vertices deeper than it, one to one.
func checkDeepRecords(cs []Contact, vs []deepVertex, window float64, oa, ob *solidOracle) error {
	const tol = 1e-9
	used := make([]bool, len(cs))
	for _, v := range vs {
		if v.depth <= window*(1+1e-6) {
			continue
		}
		f := contact.V(int32(v.v))
		found := false
		for i, c := range cs {
			own := c.FeatureA
			if v.ofB {
				own = c.FeatureB
			}
			if own != f || math.Abs(c.Separation+v.depth) > tol {
				continue
			}
			// B moves along the normal to separate: a vertex of A gets
			// out of B against it, a vertex of B along it.
			out, o := c.Normal.Neg(), ob
			if v.ofB {
				out, o = c.Normal, oa
			}
			exit := v.p.AddScaled(v.depth, out)
			if _, d := o.nearest(exit); d > tol {
				return fmt.Errorf("vertex %d (of B: %v, depth %v): record %v leaves %v from the surface along its normal", v.v, v.ofB, v.depth, c, d)
			}
			if c.Point.Sub(v.p.Add(exit).Scale(0.5)).Norm() > tol || c.Time != 0 || c.Status != contact.Penetrating || c.Validate() != nil {
				return fmt.Errorf("vertex %d: record %v: want point %v, time 0, penetrating, valid", v.v, c, v.p.Add(exit).Scale(0.5))
			}
			used[i], found = true, true
		}
		if !found {
			return fmt.Errorf("vertex %d (of B: %v) at depth %v (nearest surface point %v): no record among %v", v.v, v.ofB, v.depth, v.c, cs)
		}
	}
	for i, c := range cs {
		if !used[i] && c.Separation < -window*(1+1e-6) {
			return fmt.Errorf("record %v deeper than the window matches no vertex of the oracle's", c)
		}
	}
	return nil
}

func randUnit(rng *rand.Rand) geom.Vec3 {
	for {
		v := geom.V(rng.Float64()*2-1, rng.Float64()*2-1, rng.Float64()*2-1)
		if n := v.Norm(); n > 0.1 && n <= 1 {
			return v.Scale(1 / n)
		}
	}
}

func randQuat(rng *rand.Rand) geom.Quat {
	return geom.QuatAxisAngle(randUnit(rng), rng.Float64()*2*math.Pi)
}

// TestDeepCheckCache moves cars, tori, boxes and polytopes through each
// other on seeded smooth paths, in and out of deep overlap, and compares
// every step's contacts with those of a fresh world at the same poses
// (no pair cache): the deep-overlap check skipped by the cache must never
// have found anything. The run must skip a good part of the checks and
// meet deep overlaps (records beyond the window) in some steps.
func TestDeepCheckCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 11))
	ms := []*mesh.Mesh{shapes.Car(), shapes.Torus(1, 0.4, 12, 8), shapes.Box(geom.V(0.4, 0.3, 0.2)), shapes.RandomPolytope(shapes.Ellipsoid, 12, 0.5, 4)}
	kinds := []BodyKind{Polyhedron, Polyhedron, Convex, Convex}
	type path struct {
		c, amp, axis geom.Vec3
		freq, spin   float64
		q0           geom.Quat
	}
	var paths []path
	var defs []BodyDef
	for i := 0; i < 8; i++ {
		k := i % len(ms)
		paths = append(paths, path{c: randUnit(rng).Scale(2 * rng.Float64()), amp: randUnit(rng).Scale(0.6), axis: randUnit(rng), freq: 0.02 + 0.1*rng.Float64(), spin: 0.05 * rng.Float64(), q0: randQuat(rng)})
		defs = append(defs, BodyDef{Mesh: ms[k], Kind: kinds[k]})
	}
	pose := func(i, step int) geom.Pose {
		p := &paths[i]
		s := float64(step)
		return geom.Pose{P: p.c.AddScaled(math.Sin(p.freq*s), p.amp), Q: geom.QuatAxisAngle(p.axis, p.spin*s).Mul(p.q0)}
	}
	opt := &Options{Table: featureTable(), Workers: 1, Margin: 0.01}
	w := mustNew(t, opt)
	for i, d := range defs {
		d.Pose = pose(i, 0)
		if _, err := w.Add(d); err != nil {
			t.Fatal(err)
		}
	}
	checked, skipped, deepSteps := 0, 0, 0
	var got []Contact
	for step := 0; step < 150; step++ {
		fresh := mustNew(t, opt)
		for i, d := range defs {
			d.Pose = pose(i, step)
			if _, err := fresh.Add(d); err != nil {
				t.Fatal(err)
			}
			if err := fresh.Move(BodyID(i), pose(i, step+1)); err != nil {
				t.Fatal(err)
			}
			if err := w.Move(BodyID(i), pose(i, step+1)); err != nil {
				t.Fatal(err)
			}
		}
		want, err := fresh.Step(nil)
		if err != nil {
			t.Fatal(err)
		}
		got, err = w.Step(got[:0])
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("step %d: %d contacts, fresh world %d", step, len(got), len(want))
		}
		deep := false
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("step %d: contact %d is %v, fresh world %v", step, i, got[i], want[i])
			}
			fa, fb := w.bodies[got[i].A].sh.feat, w.bodies[got[i].B].sh.feat
			deep = deep || got[i].Separation < -depthWindow(fa, fb)
		}
		if deep {
			deepSteps++
		}
		// A pair whose cache holds another relative pose than the step's
		// start skipped its check.
		for _, pc := range w.caches.list {
			a, b := int32(pc.key>>32), int32(uint32(pc.key))
			if !pc.deep.ok {
				continue
			}
			tt, q, _ := relPose(pose(int(a), step), pose(int(b), step), w.bodies[a].sh.feat.radius, w.bodies[b].sh.feat.radius)
			if tt == pc.deep.t && q == pc.deep.q {
				checked++
			} else {
				skipped++
			}
		}
	}
	t.Logf("%d checks, %d skipped, %d steps with deep records", checked, skipped, deepSteps)
	if skipped*10 < (checked+skipped)*3 || deepSteps < 10 {
		t.Fatalf("%d checks run, %d skipped, %d steps with deep records: want at least 30%% skipped and 10 deep steps", checked, skipped, deepSteps)
	}
}
