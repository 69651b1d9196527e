package bench

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/collide-go/collide/geom"
)

const samples = "../testdata/bench-samples"

const placementsSample = samples + "/placements-env-rob-fcl-q60-s7"

// fileLines returns the lines of the text file at path (the final newline
// dropped).
func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimRight(string(data), "\n"), "\n")
}

// writeLines writes lines to the file at path, each ended by a newline.
func writeLines(t *testing.T, path string, lines []string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sampleDirs(t *testing.T) []string {
	ents, err := os.ReadDir(samples)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(samples, e.Name()))
		}
	}
	return dirs
}

// frameSamples loads the sample workloads of kind "frames".
func frameSamples(t *testing.T) []*Workload {
	var ws []*Workload
	for _, d := range sampleDirs(t) {
		w, err := Load(d)
		if err != nil {
			t.Fatal(err)
		}
		if w.Kind == "frames" {
			ws = append(ws, w)
		}
	}
	return ws
}

// bruteBroad is an independent reference broad phase for testing the
// runner: all pairs, closed-interval overlap written out per axis.
type bruteBroad struct{}

func (bruteBroad) Reset() {}
func (bruteBroad) Frame(bx []geom.AABB, dst []Pair) []Pair {
	for a := range bx {
		for b := a + 1; b < len(bx); b++ {
			x, y := bx[a], bx[b]
			if x.Min.X <= y.Max.X && y.Min.X <= x.Max.X && x.Min.Y <= y.Max.Y && y.Min.Y <= x.Max.Y && x.Min.Z <= y.Max.Z && y.Min.Z <= x.Max.Z {
				dst = append(dst, Pair{A: int32(a), B: int32(b)})
			}
		}
	}
	return dst
}

// constCCD answers every query with a fixed answer, to check the judge.
type constCCD struct{}

func (constCCD) Query(*Query) (bool, float64) { return false, 0 }

func init() {
	RegisterBroad("test-brute", func(*Workload) (BroadAlgo, error) { return bruteBroad{}, nil })
	RegisterCCD("test-never", func(*Workload) (CCDAlgo, error) { return constCCD{}, nil })
}

func TestLoadSamples(t *testing.T) {
	for _, d := range sampleDirs(t) {
		w, err := Load(d)
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		switch w.Kind {
		case "frames":
			if w.Frames != len(w.Poses) || len(w.Poses[0]) != len(w.BodyMesh) {
				t.Errorf("%s: frames %d poses %d bodies %d", d, w.Frames, len(w.Poses), len(w.BodyMesh))
			}
		case "motions":
			// The sample's directory name says how many queries it holds
			// (-q200-, -q60-).
			var want int
			for _, part := range strings.Split(filepath.Base(d), "-") {
				if n, err := strconv.Atoi(strings.TrimPrefix(part, "q")); err == nil && strings.HasPrefix(part, "q") {
					want = n
				}
			}
			if want == 0 || len(w.Queries) != want {
				t.Errorf("%s: %d queries, want %d (from the name)", d, len(w.Queries), want)
			}
			for _, q := range w.Queries {
				if math.Abs(q.B0.Q.Norm()-1) > 1e-12 {
					t.Fatalf("%s: query %d: quaternion not unit", d, q.ID)
				}
			}
		}
	}
}

func TestRunBroadMatchesExpected(t *testing.T) {
	out := t.TempDir()
	for _, w := range frameSamples(t) {
		res, err := Run(w, Options{Task: "broad", Algos: []string{"test-brute"}, OutDir: out, MaxPasses: 1})
		if err != nil {
			t.Fatal(err)
		}
		v := res[0].Verdict
		if v == nil || !v.Correct() || v.Judged != w.Frames {
			t.Errorf("%s: brute-force broad phase judged %v", w.Dir, v)
		}
		data, err := os.ReadFile(filepath.Join(out, "test-brute", "timing.json"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(data), `"task":"broad"`) || !strings.HasSuffix(string(data), "}\n") {
			t.Errorf("timing.json: %s", data)
		}
	}
}

func TestJudgeCountsFalseNegatives(t *testing.T) {
	w, err := Load(filepath.Join(samples, "screwpairs-cube-q200-s4"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(w, Options{Algos: []string{"test-never"}, MaxPasses: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := res[0].Verdict
	// Count the expected hits independently.
	hits := 0
	for _, line := range fileLines(t, filepath.Join(w.Dir, "expected", "ccd.csv"))[1:] {
		if f := strings.Split(line, ","); len(f) > 1 && f[1] == "1" {
			hits++
		}
	}
	if v.FN != hits || v.FP != 0 || v.Judged != 200 || v.Correct() {
		t.Errorf("never-hit algorithm judged %+v, want fn %d", v, hits)
	}
}

// offsetAlgo answers from the expected file shifted: never a hit, and the
// reference distance plus off (NaN: no distance).
type offsetAlgo struct {
	dist []float64
	off  float64
}

func (a *offsetAlgo) Query(i int, _, _ *geom.Transform) (bool, float64) {
	return false, a.dist[i] + a.off
}

func init() {
	for name, off := range map[string]float64{"test-md-far": 1e-3, "test-md-nan": math.NaN()} {
		RegisterMeshDist(name, func(w *Workload) (MeshDistAlgo, error) {
			a := &offsetAlgo{off: off, dist: make([]float64, len(w.Placements))}
			data, err := os.ReadFile(filepath.Join(w.Dir, "expected", "meshdist.csv"))
			if err != nil {
				return nil, err
			}
			for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
				if f := strings.Split(l, ","); f[1] == "0" {
					a.dist[i], _ = strconv.ParseFloat(f[2], 64)
				}
			}
			return a, nil
		})
	}
}

func TestMeshdistSample(t *testing.T) {
	w, err := Load(placementsSample)
	if err != nil {
		t.Fatal(err)
	}
	if w.Kind != "placements" || len(w.Placements) != 60 || w.Placements[0].MeshA == w.Placements[0].MeshB {
		t.Fatalf("loaded %q with %d placements", w.Kind, len(w.Placements))
	}
	out := t.TempDir()
	res, err := Run(w, Options{Algos: []string{"meshquery", "test-md-far", "test-md-nan"}, OutDir: out, MaxPasses: 1})
	if err != nil {
		t.Fatal(err)
	}
	if v := res[0].Verdict; v == nil || !v.Correct() || v.Judged != 60 || v.MeshDist.Compared != 42 {
		t.Errorf("meshquery: %v", v)
	}
	// 18 hits missed by both; every distance off by 1e-3 (relative
	// 3.7e-7 > 1e-9) or missing.
	if v := res[1].Verdict; v.Correct() || v.FN != 18 || v.MeshDist.Inexact != 42 {
		t.Errorf("test-md-far: %v", v)
	}
	if v := res[2].Verdict; v.Correct() || v.FN != 18 || v.MeshDist.DistMissing != 42 {
		t.Errorf("test-md-nan: %v", v)
	}
	lines := fileLines(t, filepath.Join(out, "meshquery", "results.csv"))
	if lines[0] != "id,hit,dist" || len(lines) != 61 {
		t.Errorf("results.csv: header %q, %d lines", lines[0], len(lines))
	}
	if _, err := Run(w, Options{Task: "ccd"}); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("ccd on placements: %v", err)
	}
}
