package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMeshInfoTorus is the done-when check: a 20 x 15 quad torus
// has 300 vertices, 600 edges, 300 faces, is closed, not convex, Euler 0.
func TestMeshInfoTorus(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "torus.obj")
	if st, _, e := runCmd("mesh", "gen", "torus", "--m", "20", "--n", "15", "-o", p); st != 0 {
		t.Fatalf("gen: status %d: %s", st, e)
	}
	st, out, e := runCmd("mesh", "info", "--json", p)
	if st != 0 {
		t.Fatalf("info: status %d: %s", st, e)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("bad JSON %q: %v", out, err)
	}
	want := map[string]any{"vertices": 300.0, "edges": 600.0, "faces": 300.0, "closed": true, "manifold": true, "oriented": true, "convex": false, "euler": 0.0, "file": p, "format": "obj"}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %v, want %v", k, got[k], v)
		}
	}
	// The same on the bench-sample torus committed in the repository
	// (written by the benchmark generator, not by meshio).
	sample := "../../testdata/bench-samples/screwpairs-torus-q200-s6/meshes/torus.obj"
	if _, err := os.Stat(sample); err == nil {
		st, out, e := runCmd("mesh", "info", "--json", sample)
		var rec map[string]any
		if st != 0 || json.Unmarshal([]byte(out), &rec) != nil {
			t.Fatalf("sample: status %d %s %s", st, out, e)
		}
		for _, k := range []string{"vertices", "edges", "faces", "closed", "convex", "euler"} {
			if rec[k] != want[k] {
				t.Errorf("sample %s = %v, want %v", k, rec[k], want[k])
			}
		}
	}
	// The text form says the same.
	st, out, _ = runCmd("mesh", "info", p)
	if st != 0 || !strings.Contains(out, "vertices 300, edges 600, faces 300") || !strings.Contains(out, "closed, manifold, oriented, not convex") || !strings.Contains(out, "euler characteristic 0") {
		t.Errorf("text output:\n%s", out)
	}
}

// TestMeshInfoErrors checks that bad files exit non-zero with a message
// naming the file and line.
func TestMeshInfoErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nan := write("nan.obj", "v 0 0 0\nv 1 0 0\nv 0 NaN 0\nf 1 2 3\n")
	oor := write("oor.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\n# comment\nf 1 2 3\nf 1 2 400\n")
	inf := write("inf.off", "OFF\n3 1 0\n0 0 0\n1 0 inf\n0 1 0\n3 0 1 2\n")
	good := write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
	for _, c := range []struct {
		file, want string
	}{
		{nan, nan + ":3:"},
		{oor, oor + ":6:"},
		{inf, inf + ":4:"},
		{filepath.Join(dir, "missing.obj"), "no such file"},
	} {
		st, out, e := runCmd("mesh", "info", "--json", c.file)
		if st == 0 || !strings.Contains(e, c.want) || out != "" {
			t.Errorf("%s: status %d, stdout %q, stderr %q; want failure naming %q", c.file, st, out, e, c.want)
		}
		if strings.Contains(e, "internal error") {
			t.Errorf("%s: panic reached the user: %s", c.file, e)
		}
	}
	// Several files: the good ones are reported, the bad ones named, status 1.
	st, out, e := runCmd("mesh", "info", "--json", good, nan, oor)
	if st != 1 || !strings.Contains(e, nan+":3:") || !strings.Contains(e, oor+":6:") || !strings.Contains(e, "2 of 3 files") {
		t.Errorf("mixed files: status %d stderr %q", st, e)
	}
	sc := bufio.NewScanner(strings.NewReader(out))
	n := 0
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("bad JSON line %q", sc.Text())
		}
		if rec["vertices"] != 3.0 || rec["closed"] != false || rec["euler"] != 1.0 {
			t.Errorf("triangle: %v", rec)
		}
		n++
	}
	if n != 1 {
		t.Errorf("%d JSON lines, want 1", n)
	}
	// A zero-area face fails, unless dropped.
	deg := write("deg.obj", "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 1 0\nf 1 2 4\nf 1 2 3\n")
	if st, _, e := runCmd("mesh", "info", deg); st != 1 || !strings.Contains(e, deg+":6: face 1: has zero area") {
		t.Errorf("degenerate: status %d stderr %q", st, e)
	}
	st, out, e = runCmd("mesh", "info", "--json", "--drop-degenerate", deg)
	if st != 0 || !strings.Contains(out, `"faces":1,`) || !strings.Contains(out, `"dropped_degenerate":1`) {
		t.Errorf("--drop-degenerate: status %d %s %s", st, out, e)
	}
	if st, _, _ := runCmd("mesh", "info"); st != 2 {
		t.Errorf("no files: status %d, want 2 (usage)", st)
	}
}

// TestMeshGen writes every shape in every format and reads it back.
func TestMeshGen(t *testing.T) {
	dir := t.TempDir()
	type topo struct {
		v, e, f, euler int
		closed, convex bool
	}
	want := map[string]topo{
		"cube":   {8, 12, 6, 2, true, true},
		"box":    {8, 12, 6, 2, true, true},
		"car":    {16, 26, 12, 2, true, false},
		"torus":  {300, 600, 300, 0, true, false},
		"coil":   {582, 1734, 1154, 2, true, false},
		"bullet": {322, 960, 640, 2, true, true},
		"warped": {1092, 3108, 2016, 0, false, false},
		// Random polytopes, default --n 100: a triangulated sphere.
		"ellipsoid": {100, 294, 196, 2, true, true},
		"rod":       {100, 294, 196, 2, true, true},
		"plate":     {100, 294, 196, 2, true, true},
	}
	for _, shape := range genShapeNames() {
		w, ok := want[shape]
		for _, ext := range []string{"obj", "off", "ply", "stl"} {
			p := filepath.Join(dir, shape+"."+ext)
			st, out, e := runCmd("mesh", "gen", shape, "-o", p)
			if st != 0 || !strings.Contains(out, "wrote "+p) {
				t.Fatalf("gen %s: status %d: %s%s", p, st, out, e)
			}
			st, out, e = runCmd("mesh", "info", "--json", p)
			if st != 0 {
				t.Fatalf("info %s: status %d: %s", p, st, e)
			}
			var got struct {
				Vertices, Edges, Faces, Euler int
				Closed, Convex                bool
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatal(err)
			}
			if !ok {
				continue // a shape added since this table was written
			}
			g := topo{got.Vertices, got.Edges, got.Faces, got.Euler, got.Closed, got.Convex}
			if ext == "stl" {
				// STL splits faces into triangles, and its float32
				// rounding can exceed the convexity tolerance (1e-9).
				tw := w
				tw.convex = g.convex
				tw.e += got.Faces - w.f
				tw.f = got.Faces
				if g != tw {
					t.Errorf("%s: got %+v, want %+v", p, g, tw)
				}
				continue
			}
			if g != w {
				t.Errorf("%s: got %+v, want %+v", p, g, w)
			}
		}
	}
	// OBJ on stdout.
	st, out, _ := runCmd("mesh", "gen", "cube", "--size", "2", "-o", "-")
	if st != 0 || !strings.Contains(out, "\nv -1 -1 -1\n") || strings.Count(out, "\nf ") != 6 {
		t.Errorf("cube to stdout: status %d:\n%s", st, out)
	}
	// Seeds are deterministic and matter.
	_, a1, _ := runCmd("mesh", "gen", "rod", "--n", "30", "--seed", "5", "-o", "-")
	_, a2, _ := runCmd("mesh", "gen", "rod", "--n", "30", "--seed", "5", "-o", "-")
	_, b1, _ := runCmd("mesh", "gen", "rod", "--n", "30", "--seed", "6", "-o", "-")
	if a1 != a2 || a1 == b1 || strings.Count(a1, "\nv ") != 30 {
		t.Errorf("rod --seed: same seed equal %v, different seeds differ %v, %d vertices", a1 == a2, a1 != b1, strings.Count(a1, "\nv "))
	}
	// --help lists the shape's flags.
	if st, out, _ := runCmd("mesh", "gen", "torus", "--help"); st != 0 || !strings.Contains(out, "-m int") {
		t.Errorf("torus --help: status %d:\n%s", st, out)
	}
	// Usage errors exit 2 without a panic.
	for _, args := range [][]string{
		{"mesh", "gen"},
		{"mesh", "gen", "sphere", "-o", "x.obj"},
		{"mesh", "gen", "cube"},
		{"mesh", "gen", "cube", "-o", filepath.Join(dir, "x.xyz")},
		{"mesh", "gen", "cube", "-o", "-", "--format", "dxf"},
		{"mesh", "gen", "cube", "--size", "-1", "-o", "-"},
		{"mesh", "gen", "box", "--hx", "NaN", "-o", "-"},
		{"mesh", "gen", "torus", "--R", "1", "--r", "2", "-o", "-"},
		{"mesh", "gen", "torus", "--m", "2", "-o", "-"},
		{"mesh", "gen", "coil", "--r", "0.3", "-o", "-"},
		{"mesh", "gen", "coil", "--turns", "1e9", "-o", "-"},
		{"mesh", "gen", "bullet", "--length", "0.001", "-o", "-"},
		{"mesh", "gen", "warped", "--hole", "5", "-o", "-"},
		{"mesh", "gen", "torus", "extra", "-o", "-"},
		{"mesh", "gen", "ellipsoid", "--n", "3", "-o", "-"},
		{"mesh", "gen", "plate", "--n", "50000", "-o", "-"},
		{"mesh", "gen", "rod", "--radius", "0", "-o", "-"},
	} {
		st, _, e := runCmd(args...)
		if st != 2 || strings.Contains(e, "internal error") {
			t.Errorf("%q: status %d, stderr %q; want usage error", args, st, e)
		}
	}
}

// TestDemoMeshFiles runs the mesh-files demo section.
func TestDemoMeshFiles(t *testing.T) {
	s, dir := runSection(t, demoMeshFiles)
	for _, w := range []string{"torus.obj       obj", "car-damaged.obj:18: face 0: vertex index 99 out of range"} {
		if !strings.Contains(s, w) {
			t.Errorf("demo output lacks %q:\n%s", w, s)
		}
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasSuffix(line, "false") { // the "same mesh" column
			t.Errorf("round trip not exact: %s", line)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "meshes", "bullet.ply")); err != nil {
		t.Error(err)
	}
}
