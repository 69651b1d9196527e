package bench

import (
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/convex"
	"github.com/collide-go/collide/geom"
)

// replayAlgo answers contact queries from a table read from
// expected/contact.csv (hit, sd, n per frame and pair), with sd shifted by
// shift and the hits dropped when never is set.
type replayAlgo struct {
	ans   map[[3]int]ContactAnswer
	shift float64
	never bool
}

func (r *replayAlgo) Reset() {}

func (r *replayAlgo) Contact(frame, a, b int, _, _ *geom.Transform, out *ContactAnswer) {
	*out = r.ans[[3]int{frame, a, b}]
	out.SD += r.shift
	if r.never {
		out.Hit = false
	}
}

func readContactCSV(t *testing.T, dir string) map[[3]int]ContactAnswer {
	m := map[[3]int]ContactAnswer{}
	for _, line := range fileLines(t, filepath.Join(dir, "expected", "contact.csv"))[1:] {
		f := strings.Split(line, ",")
		var k [3]int
		for i := range k {
			k[i], _ = strconv.Atoi(f[i])
		}
		var x [4]float64
		for i := range x {
			x[i], _ = strconv.ParseFloat(f[4+i], 64)
		}
		m[k] = ContactAnswer{Hit: f[3] == "1", SD: x[0], N: geom.Vec3{X: x[1], Y: x[2], Z: x[3]}, HasSD: true, HasN: true}
	}
	return m
}

// TestJudgeContact: the expected answers replayed are judged correct with
// zero errors; shifted by 2e-6 times the largest bounding radius every
// pair is inexact; without hits, every pair with sd below -epsilon is a
// false negative; and the signed-distance algorithm is correct on the
// sample.
func TestJudgeContact(t *testing.T) {
	dir := filepath.Join(samples, "polytopes-mixed-n10-b50-f40-s1")
	w, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	ans := readContactCSV(t, dir)
	maxR, sumR := 0.0, 0.0
	for _, m := range w.BodyMesh {
		maxR = max(maxR, w.Meshes[m].Radius())
		sumR += w.Meshes[m].Radius()
	}
	eps := 1e-9 * sumR / float64(len(w.BodyMesh))
	neg := 0
	for _, a := range ans {
		if a.SD < -eps {
			neg++
		}
	}
	for name, alg := range map[string]*replayAlgo{
		"test-contact-replay":  {ans: ans},
		"test-contact-shifted": {ans: ans, shift: 2e-6 * maxR},
		"test-contact-never":   {ans: ans, never: true},
	} {
		RegisterContact(name, func(*Workload) (ContactAlgo, error) { return alg, nil })
		defer delete(registry, name)
	}
	run := func(name string) *Verdict {
		res, err := Run(w, Options{Task: "contact", Algos: []string{name}, MaxPasses: 1, OutDir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		return res[0].Verdict
	}
	if v := run("test-contact-replay"); !v.Correct() || v.SDMax != 0 || v.AngMax > 1e-7 || v.Judged != len(ans) {
		t.Errorf("replayed reference judged %v", v)
	}
	if v := run("test-contact-shifted"); v.Inexact != len(ans) || v.Correct() {
		t.Errorf("shifted reference judged %v, want %d inexact", v, len(ans))
	}
	if v := run("test-contact-never"); v.FN != neg || v.FP != 0 || v.Correct() {
		t.Errorf("never-hit judged %v, want fn %d", v, neg)
	}
	if v := run("signed-distance"); !v.Correct() || v.SDMissing != 0 || v.Inexact != 0 {
		t.Errorf("signed-distance judged %v", v)
	}
}

// TestContactReferenceMatchesSample: ContactReference reproduces the
// sample's expected/contact.csv (every 5th pair): the same hit, sd within
// 1e-12 of the mean bounding radius, the same direction where unique.
func TestContactReferenceMatchesSample(t *testing.T) {
	for _, name := range []string{"polytopes-mixed-n10-b50-f40-s1", "polytopes-mixed-n100-b40-f40-s2"} {
		dir := filepath.Join(samples, name)
		w, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		fd := prepareFrames(w)
		rad := 0.0
		for _, m := range w.BodyMesh {
			rad += w.Meshes[m].Radius()
		}
		rad /= float64(len(w.BodyMesh))
		k := 0
		checked := 0
		for key, want := range readContactCSV(t, dir) {
			if k++; k%5 != 0 {
				continue
			}
			f, a, b := key[0], key[1], key[2]
			sd, n, _ := ContactReference(w.Meshes[w.BodyMesh[a]], fd.tf[f][a], w.Meshes[w.BodyMesh[b]], fd.tf[f][b], 1e-9*rad)
			if (sd <= 0) != want.Hit || math.Abs(sd-want.SD) > 1e-12*rad {
				t.Errorf("%s frame %d pair %d,%d: sd %.17g, expected %.17g", name, f, a, b, sd, want.SD)
			}
			if math.Abs(want.SD) > 1e-6*rad && n.Sub(want.N).Norm() > 1e-6 {
				t.Errorf("%s frame %d pair %d,%d: n %v, expected %v", name, f, a, b, n, want.N)
			}
			checked++
		}
		if checked < 100 {
			t.Fatalf("%s: only %d pairs checked", name, checked)
		}
	}
}

// TestSignedDistanceFrame: the "signed-distance" algorithm (a frame's pairs
// in one SignedDistances call) gives the answers of "signed-distance-pair"
// (one call per pair) bit for bit over two passes of the n10 sample, with
// its caches in the flat table and, given more than slotMax bodies, in the
// hash map.
func TestSignedDistanceFrame(t *testing.T) {
	w, err := Load(filepath.Join(samples, "polytopes-mixed-n10-b50-f40-s1"))
	if err != nil {
		t.Fatal(err)
	}
	fd := prepareFrames(w)
	pass := func(alg ContactAlgo) []ContactAnswer {
		out := make([]ContactAnswer, 2*fd.npair)
		alg.Reset()
		contactPass(alg, fd, out[:fd.npair])
		contactPass(alg, fd, out[fd.npair:]) // the caches warm
		return out
	}
	ps, err := convexBodies(w)
	if err != nil {
		t.Fatal(err)
	}
	want := pass(&sdAlgo{polys: ps, warm: true})
	many := append(slices.Clone(ps), make([]*convex.Polytope, slotMax)...)
	for name, alg := range map[string]*sdFrameAlgo{
		"flat table": {sdAlgo: sdAlgo{polys: ps, warm: true}},
		"hash map":   {sdAlgo: sdAlgo{polys: many, warm: true}},
	} {
		got := pass(alg)
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("%s: answer %d: %+v, per pair %+v", name, k, got[k], want[k])
			}
		}
		if (alg.caches.slot == nil) != (name == "hash map") {
			t.Errorf("%s: caches not where expected", name)
		}
	}
}
