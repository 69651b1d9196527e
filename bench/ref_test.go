package bench

import (
	"bytes"
	"math"
	"os"
	"testing"

	"github.com/collide-go/collide/geom"
)

// TestSATMarginMatchesExpected checks the reference against the margins
// shipped with the samples: separated exactly when they say so.
func TestSATMarginMatchesExpected(t *testing.T) {
	for _, d := range sampleDirs(t) {
		w, err := Load(d)
		if err != nil {
			t.Fatal(err)
		}
		if w.Kind != "frames" || len(w.Meshes[0].Verts) > 100 {
			continue
		}
		exp := readExpectedNarrow(t, w)
		n := 0
		for key, m := range exp {
			if n++; n > 100 {
				break
			}
			fr, a, b := key[0], key[1], key[2]
			got := SATMargin(w.Meshes[w.BodyMesh[a]], w.Poses[fr][a].Transform(), w.Meshes[w.BodyMesh[b]], w.Poses[fr][b].Transform())
			// The samples' margins are computed with another scaling, so
			// only the sign (separated or not) is comparable.
			if math.Abs(m) > 1e-9 && (got > 0) != (m > 0) {
				t.Errorf("%s frame %d pair %d,%d: margin %.17g, expected %.17g", w.Name, fr, a, b, got, m)
			}
		}
	}
}

func readExpectedNarrow(t *testing.T, w *Workload) map[[3]int]float64 {
	t.Helper()
	path := w.Dir + "/expected/narrow.csv"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c, err := openCSV(path, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := c.need("frame", "a", "b", "margin")
	if err != nil {
		t.Fatal(err)
	}
	out := map[[3]int]float64{}
	for c.next() {
		var k [3]int
		for i := 0; i < 3; i++ {
			k[i], _ = c.int(idx[i], "")
		}
		out[k], _ = c.float(idx[3], "margin")
	}
	return out
}

// TestGenerateFramesRoundTrip generates a small workload, saves it with
// reference answers, loads it back and checks the reference against an
// independent brute-force direction search.
func TestGenerateFramesRoundTrip(t *testing.T) {
	w, err := GenerateFrames(FramesSpec{Bodies: 30, Verts: 12, Frames: 5, Density: 0.1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Save(w, dir, true, 0); err != nil {
		t.Fatal(err)
	}
	w2, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(w2.BodyMesh) != 30 || w2.Frames != 5 || w2.Meshes[0].NumVerts() != 12 || !w2.Meshes[0].Convex() {
		t.Fatalf("reloaded workload: %d bodies, %d frames, %d verts", len(w2.BodyMesh), w2.Frames, w2.Meshes[0].NumVerts())
	}
	exp := readExpectedNarrow(t, w2)
	if len(exp) == 0 {
		t.Fatal("no AABB-overlapping pairs; make the test denser")
	}
	hits := 0
	for key, m := range exp {
		if m <= 0 {
			hits++
		}
		fr, a, b := key[0], key[1], key[2]
		ta, tb := w2.Poses[fr][a].Transform(), w2.Poses[fr][b].Transform()
		// Brute force: a positive margin is a lower bound on the
		// distance, so no sampled direction may separate by less... and
		// a negative one means no direction separates at all.
		gap := func(n geom.Vec3) float64 {
			n, _ = n.Normalize()
			maxA, minB := math.Inf(-1), math.Inf(1)
			for _, v := range w2.Meshes[w2.BodyMesh[a]].Verts {
				maxA = math.Max(maxA, n.Dot(ta.Apply(v)))
			}
			for _, v := range w2.Meshes[w2.BodyMesh[b]].Verts {
				minB = math.Min(minB, n.Dot(tb.Apply(v)))
			}
			return minB - maxA
		}
		// Brute force: no direction among 1500 spread ones may separate
		// bodies the reference calls intersecting. (A positive margin is
		// its own proof: a gap along an axis.)
		best := math.Inf(-1)
		for i := 0; i < 1500; i++ {
			z := 1 - 2*(float64(i)+0.5)/1500
			phi := float64(i) * math.Pi * (3 - math.Sqrt(5))
			s := math.Sqrt(1 - z*z)
			n := geom.Vec3{X: s * math.Cos(phi), Y: s * math.Sin(phi), Z: z}
			if g := gap(n); g > best {
				best = g
			}
		}
		if m <= 0 && best > 1e-12 {
			t.Errorf("frame %d pair %d,%d: margin %g says intersecting but direction search separates by %g", fr, a, b, m, best)
		}

	}
	if hits == 0 || hits == len(exp) {
		t.Errorf("%d of %d pairs intersect; want a mix", hits, len(exp))
	}
}
