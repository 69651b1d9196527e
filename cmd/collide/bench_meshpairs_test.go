package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchMeshPairsCommand: the command writes a workload that `collide
// bench` loads and judges (its reference in expected/ccd.csv), the same
// seed gives the same queries, and bad usage is an error that names the
// flag or file.
func TestBenchMeshPairsCommand(t *testing.T) {
	meshes := "../../testdata/bench-samples/placements-env-rob-fcl-q60-s7/meshes"
	gen := func(dir string) string {
		var out, errb bytes.Buffer
		args := []string{"bench", "meshpairs", "--out", dir, "--a", filepath.Join(meshes, "env.obj"), "--b", filepath.Join(meshes, "rob.obj"), "--scenario", "fcl", "--queries", "6", "--seed", "3"}
		if st := run(args, &out, &errb); st != 0 {
			t.Fatalf("status %d: %s", st, errb.String())
		}
		if !strings.Contains(out.String(), "6 motions of rob (216 triangles) against env (2180 triangles)") {
			t.Errorf("output %q", out.String())
		}
		q, err := os.ReadFile(filepath.Join(dir, "queries.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return string(q)
	}
	d1, d2 := t.TempDir(), t.TempDir()
	if gen(d1) != gen(d2) {
		t.Error("the same seed gave different queries")
	}
	var out, errb bytes.Buffer
	if st := run([]string{"bench", d1, "--out", t.TempDir(), "--algo", "toc", "--passes", "1", "--json"}, &out, &errb); st != 0 || !strings.Contains(out.String(), `"fn":0`) || !strings.Contains(out.String(), `"fp":0`) {
		t.Errorf("bench on the generated workload: status %d, stdout %q, stderr %q", st, out.String(), errb.String())
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "meshpairs", "--a", "x.obj", "--b", "y.obj"}, "--out"},
		{[]string{"bench", "meshpairs", "--out", t.TempDir(), "--a", "no-such.obj", "--b", "y.obj"}, "no-such.obj"},
		{[]string{"bench", "meshpairs", "--out", t.TempDir(), "--a", filepath.Join(meshes, "env.obj"), "--b", filepath.Join(meshes, "rob.obj"), "--scenario", "orbit"}, "orbit"},
		{[]string{"bench", "meshpairs", "--out", t.TempDir(), "--a", "x.obj", "--b", "y.obj", "--rot", "200"}, "rot"},
	} {
		errb.Reset()
		if st := run(c.args, &out, &errb); st == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: status %d, stderr %q, want it to name %q", c.args, st, errb.String(), c.want)
		}
	}
}
