package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchCommandErrors(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"bench", "../../testdata/bench-samples/screwpairs-cube-q200-s4"}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "--out") {
		t.Errorf("missing --out: status %d, stderr %q", st, errb.String())
	}
	errb.Reset()
	if st := run([]string{"bench", "no-such-dir", "--out", t.TempDir()}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "no-such-dir") {
		t.Errorf("missing dir: status %d, stderr %q", st, errb.String())
	}
	errb.Reset()
	if st := run([]string{"bench", "../../testdata/bench-samples/screwpairs-cube-q200-s4", "--out", t.TempDir(), "--task", "broad"}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "does not apply") {
		t.Errorf("wrong task: status %d, stderr %q", st, errb.String())
	}
}

func TestBenchCommandWritesResults(t *testing.T) {
	dir := t.TempDir()
	var out, errb bytes.Buffer
	if st := run([]string{"bench", "../../testdata/bench-samples/polytopes-mixed-n10-b50-f40-s1", "--out", dir, "--passes", "1"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) == 0 {
		t.Fatalf("no result directories written; stdout %q", out.String())
	}
	for _, e := range ents {
		for _, f := range []string{"results.csv", "timing.json"} {
			if _, err := os.Stat(filepath.Join(dir, e.Name(), f)); err != nil {
				t.Error(err)
			}
		}
	}
}
