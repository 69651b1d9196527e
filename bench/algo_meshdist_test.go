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

const placementsSample = samples + "/placements-env-rob-fcl-q60-s7"

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
