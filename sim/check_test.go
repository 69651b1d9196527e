package sim

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/refgeom"
	"github.com/collide-go/collide/simio"
)

// The checks in this file judge recordings with an oracle that shares no
// code with the simulator or any narrow phase: point-in-solid by ray parity
// over the raw mesh triangles (Möller-Trumbore segment tests written here),
// distances to the surface by brute force over the triangles (closest
// points by internal/refgeom, which no narrow phase uses), and the
// chain's links by the parity of the crossings of one core circle with the
// other's disk.

type oracleSolid struct {
	tris   [][3]geom.Vec3 // fan triangles of the faces, local frame
	verts  []geom.Vec3
	box    geom.AABB
	radius float64
}

func newOracleSolid(m *simio.Mesh) *oracleSolid {
	s := &oracleSolid{verts: m.Mesh.Verts, box: geom.EmptyAABB()}
	for f := 0; f < m.Mesh.NumFaces(); f++ {
		loop := m.Mesh.Face(f)
		for k := 1; k+1 < len(loop); k++ {
			s.tris = append(s.tris, [3]geom.Vec3{m.Mesh.Verts[loop[0]], m.Mesh.Verts[loop[k]], m.Mesh.Verts[loop[k+1]]})
		}
	}
	for _, v := range s.verts {
		s.box = s.box.AddPoint(v)
		s.radius = math.Max(s.radius, v.Norm())
	}
	return s
}

// rayHit reports whether the ray o + t d (t > 0) crosses triangle t, and
// whether the crossing is too close to an edge to trust.
func rayHit(o, d geom.Vec3, tri [3]geom.Vec3) (hit, degenerate bool) {
	e1, e2 := tri[1].Sub(tri[0]), tri[2].Sub(tri[0])
	p := d.Cross(e2)
	det := e1.Dot(p)
	if math.Abs(det) < 1e-14*e1.Norm()*e2.Norm()*d.Norm() {
		return false, false // ray parallel to the triangle's plane
	}
	inv := 1 / det
	s := o.Sub(tri[0])
	u := s.Dot(p) * inv
	q := s.Cross(e1)
	v := d.Dot(q) * inv
	t := e2.Dot(q) * inv
	if t <= 0 {
		return false, false
	}
	const eps = 1e-9
	if u < -eps || v < -eps || u+v > 1+eps {
		return false, false
	}
	if u < eps || v < eps || u+v > 1-eps {
		return false, true
	}
	return true, false
}

var rayDirs = []geom.Vec3{
	{X: 0.5773, Y: 0.3177, Z: 0.7523}, {X: -0.2311, Y: 0.8713, Z: 0.4331},
	{X: 0.6617, Y: -0.7081, Z: 0.2467}, {X: -0.4127, Y: -0.3319, Z: -0.8483},
}

// inside reports whether local point p is inside the solid (ray parity).
func (s *oracleSolid) inside(p geom.Vec3) bool {
	if !s.box.Contains(p) {
		return false
	}
	for _, d := range rayDirs {
		n, bad := 0, false
		for _, t := range s.tris {
			hit, deg := rayHit(p, d, t)
			if deg {
				bad = true
				break
			}
			if hit {
				n++
			}
		}
		if !bad {
			return n%2 == 1
		}
	}
	return false
}

func (s *oracleSolid) surfaceDist(p geom.Vec3) float64 {
	best := math.Inf(1)
	for _, t := range s.tris {
		best = math.Min(best, p.Dist(refgeom.ClosestOnTriangle(p, t[0], t[1], t[2])))
	}
	return best
}

// depth is the deepest vertex of solid a (at pose pa) inside solid b.
func depth(a, b *oracleSolid, pa, pb geom.Pose) float64 {
	inv := pb.Inverse()
	d := 0.0
	for _, v := range a.verts {
		q := inv.Apply(pa.Apply(v))
		if b.inside(q) {
			d = math.Max(d, b.surfaceDist(q))
		}
	}
	return d
}

func worldBox(s *oracleSolid, p geom.Pose) geom.AABB {
	b := geom.EmptyAABB()
	for _, v := range s.verts {
		b = b.AddPoint(p.Apply(v))
	}
	return b
}

// report is what the oracle finds in a recording.
type report struct {
	escaped        int
	maxPenRel      float64
	maxPenAt       [3]int // step, a, b
	energyRise     float64
	finalKERel     float64
	poses          [][]geom.Pose // per frame, per body (statics included)
	recordedFrames []int
}

func judge(t *testing.T, sc *simio.Scene, rec *simio.Recording) report {
	t.Helper()
	solids := make([]*oracleSolid, len(sc.Meshes))
	for i := range sc.Meshes {
		solids[i] = newOracleSolid(&sc.Meshes[i])
	}
	g := sc.Gravity
	// Heights from the corner of the bounds lowest along gravity.
	low := math.Inf(1)
	for i := 0; i < 8; i++ {
		c := sc.Bounds.Min
		if i&1 != 0 {
			c.X = sc.Bounds.Max.X
		}
		if i&2 != 0 {
			c.Y = sc.Bounds.Max.Y
		}
		if i&4 != 0 {
			c.Z = sc.Bounds.Max.Z
		}
		low = math.Min(low, -g.Dot(c))
	}
	energy := func(states []simio.State, ids []int) (ke, pe float64) {
		for j, id := range ids {
			b := sc.Bodies[id]
			st := states[j]
			R := st.Pose.Q.Mat3()
			Iw := R.Mul(b.Inertia).Mul(R.Transpose())
			ke += 0.5*b.Mass*st.V.Norm2() + 0.5*st.W.Dot(Iw.MulVec(st.W))
			pe += b.Mass * (-g.Dot(st.Pose.P) - low)
		}
		return
	}
	var r report
	ke0, pe0 := energy(rec.Frames[0].States, rec.Bodies)
	e0 := ke0 + pe0
	lowest := math.Inf(1)
	for j := range rec.Bodies {
		lowest = math.Min(lowest, -g.Dot(rec.Frames[0].States[j].Pose.P))
	}
	peAbove := 0.0
	for j, id := range rec.Bodies {
		peAbove += sc.Bodies[id].Mass * (-g.Dot(rec.Frames[0].States[j].Pose.P) - lowest)
	}
	escaped := map[int]bool{}
	for fi, fr := range rec.Frames {
		poses := make([]geom.Pose, len(sc.Bodies))
		for i := range sc.Bodies {
			poses[i] = sc.Initial[i].Pose
		}
		for j, id := range rec.Bodies {
			poses[id] = fr.States[j].Pose
			if !sc.Bounds.Contains(fr.States[j].Pose.P) {
				escaped[id] = true
			}
		}
		r.poses = append(r.poses, poses)
		r.recordedFrames = append(r.recordedFrames, fr.Step)
		ke, pe := energy(fr.States, rec.Bodies)
		if rise := (ke + pe - e0) / e0; rise > r.energyRise {
			r.energyRise = rise
		}
		if fi == len(rec.Frames)-1 && peAbove > 0 {
			r.finalKERel = ke / peAbove
		}
		boxes := make([]geom.AABB, len(sc.Bodies))
		for i := range sc.Bodies {
			boxes[i] = worldBox(solids[sc.Bodies[i].Mesh], poses[i])
		}
		for a := range sc.Bodies {
			for b := a + 1; b < len(sc.Bodies); b++ {
				if sc.Bodies[a].Static && sc.Bodies[b].Static || !boxes[a].Overlaps(boxes[b]) {
					continue
				}
				sa, sb := solids[sc.Bodies[a].Mesh], solids[sc.Bodies[b].Mesh]
				d := math.Max(depth(sa, sb, poses[a], poses[b]), depth(sb, sa, poses[b], poses[a]))
				if rel := d / math.Min(sa.radius, sb.radius); rel > r.maxPenRel {
					r.maxPenRel = rel
					r.maxPenAt = [3]int{fr.Step, a, b}
				}
			}
		}
	}
	r.escaped = len(escaped)
	return r
}

func runSample(t *testing.T, name string, every int) (*simio.Scene, report) {
	t.Helper()
	sc, err := simio.ReadScene(filepath.Join("..", "testdata", "sim-samples", name))
	if err != nil {
		t.Fatal(err)
	}
	return sc, runJudged(t, sc, every)
}

// runJudged simulates a scene and judges the recording with the oracle: no
// escape, overlap within 1% of the smaller bounding radius, energy rise
// within 1%.
func runJudged(t *testing.T, sc *simio.Scene, every int) report {
	t.Helper()
	name := sc.Name
	rec, _, err := Run(sc, nil, &RunOptions{RecordEvery: every})
	if err != nil {
		t.Fatal(err)
	}
	r := judge(t, sc, rec)
	t.Logf("%s: escaped %d, deepest %.4f of the smaller radius (step %d, bodies %d-%d), energy rise %.4f, final kinetic/potential %.2e",
		name, r.escaped, r.maxPenRel, r.maxPenAt[0], r.maxPenAt[1], r.maxPenAt[2], r.energyRise, r.finalKERel)
	if r.escaped != 0 {
		t.Errorf("%s: %d bodies escaped", name, r.escaped)
	}
	if r.maxPenRel > 0.01 {
		t.Errorf("%s: deepest interpenetration %.4f of the smaller bounding radius > 1%%", name, r.maxPenRel)
	}
	if r.energyRise > 0.01 {
		t.Errorf("%s: energy rose by %.4f > 1%%", name, r.energyRise)
	}
	return r
}

func TestSamplePile(t *testing.T) {
	_, r := runSample(t, "pile-b24-k180-s1", 1)
	if r.finalKERel > 0.01 {
		t.Errorf("pile not at rest: final kinetic energy %.3g of the potential", r.finalKERel)
	}
}

func TestSampleShoot(t *testing.T) { runSample(t, "shoot-b12-k60-s4", 1) }

func TestSampleTower(t *testing.T) {
	sc, r := runSample(t, "tower-b8-k240-s2", 1)
	last := r.poses[len(r.poses)-1]
	for i, b := range sc.Bodies {
		if b.Static {
			continue
		}
		p0, p1 := sc.Initial[i].Pose.P, last[i].P
		// Standing: every box at its height, none slid off the one below.
		if d := p1.Sub(p0); math.Hypot(d.X, d.Y) > 0.1 || math.Abs(d.Z) > 0.01 {
			t.Errorf("tower: box %d moved from %v to %v", i, p0, p1)
		}
	}
	if r.finalKERel > 1e-3 {
		t.Errorf("tower not at rest: final kinetic energy %.3g of the potential", r.finalKERel)
	}
}

func TestSampleChain(t *testing.T) {
	sc, r := runSample(t, "chain-b6-k240-s3", 2)
	checkLinked(t, sc, r)
}

// checkLinked fails unless neighbouring tori of a chain scene stay linked
// at every recorded step: the core circle of one crosses the disk spanned
// by the other's an odd number of times.
func checkLinked(t *testing.T, sc *simio.Scene, r report) {
	t.Helper()
	// Core circles of the tori: the axis of the largest principal moment,
	// the radius halfway between the hole's and the rim's.
	type circle struct {
		c, axis geom.Vec3
		R       float64
	}
	core := func(i int, p geom.Pose) circle {
		b := sc.Bodies[i]
		ax := 0
		for k := 1; k < 3; k++ {
			if b.Inertia[k][k] > b.Inertia[ax][ax] {
				ax = k
			}
		}
		axis := geom.Vec3{}.Set(ax, 1)
		lo, hi := math.Inf(1), 0.0
		for _, v := range sc.Meshes[b.Mesh].Mesh.Verts {
			rr := v.Sub(axis.Scale(v.Dot(axis))).Norm()
			lo, hi = math.Min(lo, rr), math.Max(hi, rr)
		}
		return circle{c: p.P, axis: p.ApplyDir(axis), R: (lo + hi) / 2}
	}
	// links counts the crossings of circle b's polygon through circle a's disk.
	links := func(a, b circle) int {
		u, w := b.axis.Orthonormal()
		const n = 256
		prev := b.c.AddScaled(b.R, u)
		count := 0
		for k := 1; k <= n; k++ {
			th := 2 * math.Pi * float64(k) / n
			cur := b.c.AddScaled(b.R*math.Cos(th), u).AddScaled(b.R*math.Sin(th), w)
			s0, s1 := prev.Sub(a.c).Dot(a.axis), cur.Sub(a.c).Dot(a.axis)
			if (s0 < 0) != (s1 < 0) {
				x := prev.Lerp(cur, s0/(s0-s1))
				if x.Dist(a.c) < a.R {
					count++
				}
			}
			prev = cur
		}
		return count
	}
	var dyn []int
	for i, b := range sc.Bodies {
		if !b.Static && !sc.Meshes[b.Mesh].Convex {
			dyn = append(dyn, i)
		}
	}
	if len(dyn) < 2 {
		t.Fatalf("chain: %d tori", len(dyn))
	}
	for fi, poses := range r.poses {
		for k := 0; k+1 < len(dyn); k++ {
			a, b := core(dyn[k], poses[dyn[k]]), core(dyn[k+1], poses[dyn[k+1]])
			if links(a, b)%2 != 1 {
				t.Errorf("chain: tori %d and %d unlinked at step %d", dyn[k], dyn[k+1], r.recordedFrames[fi])
				return
			}
		}
	}
}

// TestBuiltinScenes checks the built-in scenes: written and read back in the
// format, no overlap at the start, and simulated within the oracle's bounds.
func TestBuiltinScenes(t *testing.T) {
	pile, err := PileScene(24, 120, 3)
	if err != nil {
		t.Fatal(err)
	}
	chain, err := ChainScene(5, 90)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []*simio.Scene{pile, chain} {
		dir := t.TempDir()
		if err := simio.WriteScene(dir, sc); err != nil {
			t.Fatal(err)
		}
		back, err := simio.ReadScene(dir)
		if err != nil {
			t.Fatal(err)
		}
		// The initial state: no vertex of one solid inside another, every
		// dynamic centre of mass inside the bounds.
		rec := &simio.Recording{Frames: []simio.Frame{{}}}
		for i, b := range back.Bodies {
			if !b.Static {
				rec.Bodies = append(rec.Bodies, i)
				rec.Frames[0].States = append(rec.Frames[0].States, back.Initial[i])
			}
		}
		r0 := judge(t, back, rec)
		if r0.maxPenRel > 0 || r0.escaped > 0 {
			t.Fatalf("%s: initial state overlaps (%.3g) or has %d bodies outside the bounds", sc.Name, r0.maxPenRel, r0.escaped)
		}
		r := runJudged(t, back, 1)
		if sc.Kind == "chain" {
			checkLinked(t, back, r)
		}
	}
}
