package bench

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestMeshPairsReferenceSample: the reference reproduces the first
// contacts of the benchmark sample of FCL's rob in env, made by the
// format's own generator (a separate implementation): the same hits, and
// times within 1e-12 of the step.
func TestMeshPairsReferenceSample(t *testing.T) {
	if testing.Short() {
		t.Skip("about a second")
	}
	dir := filepath.Join(samples, "meshpairs-env-rob-fcl-q60-s7")
	w, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := MeshPairsReference(w)
	if err != nil {
		t.Fatal(err)
	}
	exp := readExpectedCCD(t, dir, len(w.Queries))
	hits := 0
	for i, r := range ref {
		if r.Hit != exp[i].hit {
			t.Errorf("query %d: hit %v, sample %v", i, r.Hit, exp[i].hit)
			continue
		}
		if r.Hit {
			hits++
			if math.Abs(r.TOC-exp[i].toc) > 1e-12 || !(r.Bracket <= 1e-15) {
				t.Errorf("query %d: toc %v (bracket %g), sample %v", i, r.TOC, r.Bracket, exp[i].toc)
			}
		}
	}
	if hits < 18 || hits > 42 {
		t.Errorf("%d of 60 queries hit: the sample tests little", hits)
	}
}

// TestMeshPairsGenerate: a generated workload loads back, its start poses
// leave the surfaces apart (checked here by brute force over all
// triangle pairs), the surfaces meet at its reference times, a
// reasonable share of its motions touch, and toc's answers are judged
// correct against the reference.
func TestMeshPairsGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("about a second")
	}
	src := filepath.Join(samples, "placements-env-rob-fcl-q60-s7", "meshes")
	for _, sc := range []string{"fcl", "approach"} {
		dir := t.TempDir()
		w, err := GenerateMeshPairs(MeshPairsSpec{A: filepath.Join(src, "env.obj"), B: filepath.Join(src, "rob.obj"), Scenario: sc, Queries: 12, Seed: 5}, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(w.Queries) != 12 || w.Meshes[0].NumFaces() != 2180 || w.Meshes[1].NumFaces() != 216 {
			t.Fatalf("%s: %d queries, %d and %d triangles", sc, len(w.Queries), w.Meshes[0].NumFaces(), w.Meshes[1].NumFaces())
		}
		exp := readExpectedCCD(t, dir, len(w.Queries))
		hits := 0
		for i, q := range w.Queries {
			if bruteSurfacesMeet(w, &q, q.B0) {
				t.Errorf("%s: query %d: the surfaces meet at t = 0", sc, i)
			}
			if exp[i].hit {
				hits++
				// Just after the reference time the surfaces meet; at the
				// lower end of its bracket they do not.
				if !bruteSurfacesMeet(w, &q, geom.ScrewMotion.PoseAt(q.B0, q.B1, exp[i].toc)) {
					t.Errorf("%s: query %d: surfaces apart at the reference time %v", sc, i, exp[i].toc)
				}
			}
		}
		if hits < 2 || hits > 11 {
			t.Errorf("%s: %d of 12 motions touch", sc, hits)
		}
		res, err := Run(w, Options{Algos: []string{"toc"}, MaxPasses: 1})
		if err != nil {
			t.Fatal(err)
		}
		// toc (conservative first contact of the surfaces) against the
		// reference: every contact, none late, none false.
		if v := res[0].Verdict; v == nil || v.Judged != 12 || !v.Correct() {
			t.Errorf("%s: toc against the reference: %v", sc, v)
		}
	}
}

// bruteSurfacesMeet tests every triangle pair of a query's meshes with B
// at pose pb (boxes first, then every side of each triangle against the
// other by geom.SegmentTriangle, enough for triangles not in one plane):
// it checks the generator's start poses without meshquery's trees.
func bruteSurfacesMeet(w *Workload, q *Query, pb geom.Pose) bool {
	world := func(m int, p geom.Pose) (vs [][3]geom.Vec3, bs []geom.AABB) {
		for _, x := range w.Meshes[m].Triangles(nil) {
			var t [3]geom.Vec3
			for k := range 3 {
				t[k] = p.Q.Rotate(w.Meshes[m].Verts[x.V[k]]).Add(p.P)
			}
			vs, bs = append(vs, t), append(bs, geom.AABBOf(t[:]...))
		}
		return vs, bs
	}
	ta, ba := world(q.MeshA, q.A0)
	tb, bb := world(q.MeshB, pb)
	crosses := func(s, t [3]geom.Vec3) bool {
		for k := range 3 {
			if _, hit := geom.SegmentTriangle(s[k], s[(k+1)%3], t[0], t[1], t[2]); hit {
				return true
			}
		}
		return false
	}
	for i := range ta {
		for j := range tb {
			if ba[i].Overlaps(bb[j]) && (crosses(ta[i], tb[j]) || crosses(tb[j], ta[i])) {
				return true
			}
		}
	}
	return false
}

type expCCD struct {
	hit bool
	toc float64
}

func readExpectedCCD(t *testing.T, dir string, n int) []expCCD {
	t.Helper()
	path := filepath.Join(dir, "expected", "ccd.csv")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c, err := openCSV(path, f)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := c.need("id", "hit", "toc")
	if err != nil {
		t.Fatal(err)
	}
	out := make([]expCCD, n)
	for c.next() {
		id, err := c.int(idx[0], "id")
		if err != nil {
			t.Fatal(err)
		}
		h, err := c.bit(idx[1], "hit")
		if err != nil {
			t.Fatal(err)
		}
		out[id].hit = h
		if h {
			if out[id].toc, err = c.float(idx[2], "toc"); err != nil {
				t.Fatal(err)
			}
		}
	}
	return out
}

// TestScrewSpeedBound: no point within the radius moves faster than the
// bound, by finite differences over random screw motions (most of
// the sampled speeds come within half of it, so the bound is not loose
// enough to make the reference's skipping useless).
func TestScrewSpeedBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	near, total := 0, 0
	for range 300 {
		b0 := geom.Pose{P: geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()), Q: randomQuat(rng)}
		b1 := geom.Pose{P: b0.P.Add(geom.V(rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()).Scale(3 * rng.Float64())), Q: geom.QuatAxisAngle(randomDir(rng), rng.Float64()*math.Pi).Mul(b0.Q)}
		r := 2 * rng.Float64()
		v := screwSpeedBound(b0, b1, r)
		x := randomDir(rng).Scale(r)
		for k := range 50 {
			t0 := float64(k) / 50
			const h = 1e-6
			p := geom.ScrewMotion.PoseAt(b0, b1, t0)
			q := geom.ScrewMotion.PoseAt(b0, b1, t0+h)
			s := q.Q.Rotate(x).Add(q.P).Sub(p.Q.Rotate(x).Add(p.P)).Norm() / h
			total++
			if s > v*(1+1e-5) {
				t.Fatalf("speed %v above the bound %v", s, v)
			}
			if s > 0.5*v {
				near++
			}
		}
	}
	if near < total/5 {
		t.Errorf("only %d of %d speeds above half the bound: the bound is loose", near, total)
	}
}
