package main

import (
	"bytes"
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExperimentPolytopesQuick runs the Sec. 6 experiment with tiny
// settings: every plot is written and well-formed, the four methods agree
// on every test, and the JSON statistics are consistent.
func TestExperimentPolytopesQuick(t *testing.T) {
	dir := t.TempDir()
	var rep expReport
	runJSON(t, &rep, "experiment", "polytopes", "--quick", "--frames", "4", "--out", dir, "--json")
	if len(rep.Shapes) != 6 || len(rep.Speed) != 2 || len(rep.Rotation) != 2 || len(rep.Density) != 2 {
		t.Fatalf("unexpected runs: %d shapes, %d speed, %d rotation, %d density", len(rep.Shapes), len(rep.Speed), len(rep.Rotation), len(rep.Density))
	}
	for _, s := range rep.Shapes {
		sum := 0
		for _, c := range s.KAll {
			sum += c
		}
		if s.Tests == 0 || sum != s.Tests || s.Disagreements != 0 || s.MaxK < 1 {
			t.Errorf("%s n=%d: %d tests, histogram sum %d, %d disagreements, max k %d", s.Config.Shape, s.Config.N, s.Tests, sum, s.Disagreements, s.MaxK)
		}
	}
	for _, name := range []string{"convex-k-noncolliding.svg", "convex-k-all.svg", "convex-maxk.svg", "convex-time-speed.svg", "convex-time-rotation.svg", "convex-time-density.svg"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		d := xml.NewDecoder(bytes.NewReader(data))
		for {
			_, err := d.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: %v", name, err)
				}
				break
			}
		}
	}
	table, err := os.ReadFile(filepath.Join(dir, "convex-table.md"))
	if err != nil || !strings.Contains(string(table), "Disagreements between the four methods: 0.") {
		t.Errorf("table: %v\n%s", err, table)
	}
	// Bad flags are usage errors.
	if st, _, _ := runCmd("experiment", "polytopes", "--n", "3", "--out", dir); st != 2 {
		t.Errorf("--n 3: status %d, want 2", st)
	}
	if st, _, _ := runCmd("experiment", "polytopes", "--speeds", "-1", "--out", dir); st != 2 {
		t.Errorf("--speeds -1: status %d, want 2", st)
	}
}
