package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchContactTask: "collide bench --task contact" writes the contact
// format (header and one row per pair) and judges the signed-distance
// algorithm correct on the sample.
func TestBenchContactTask(t *testing.T) {
	dir := t.TempDir()
	var res []struct {
		Task    string
		Queries int
		Verdict struct {
			FN, FP, Inexact int
			SDMissing       int `json:"sd_missing"`
		}
	}
	runJSON(t, &res, "bench", "../../testdata/bench-samples/polytopes-mixed-n10-b50-f40-s1", "--task", "contact", "--algo", "signed-distance", "--out", dir, "--passes", "1", "--json")
	if len(res) != 1 || res[0].Task != "contact" || res[0].Verdict.FN+res[0].Verdict.FP+res[0].Verdict.Inexact+res[0].Verdict.SDMissing != 0 {
		t.Fatalf("results %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(dir, "signed-distance", "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[0] != "frame,a,b,hit,sd,nx,ny,nz" || len(lines) != res[0].Queries+1 {
		t.Fatalf("results.csv: header %q, %d rows for %d queries", lines[0], len(lines)-1, res[0].Queries)
	}
	if f := strings.Split(lines[1], ","); len(f) != 8 || f[4] == "" || f[5] == "" {
		t.Fatalf("row %q", lines[1])
	}
}
