package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// cubeSoup is a unit cube [0,1]^3 as an OBJ triangle soup: every triangle
// with its own three corners (as FCL's test meshes store them), two of the
// twelve triangles wound the wrong way.
func cubeSoup() string {
	corners := [8][3]int{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}, {0, 0, 1}, {1, 0, 1}, {1, 1, 1}, {0, 1, 1}}
	quads := [6][4]int{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {1, 2, 6, 5}, {2, 3, 7, 6}, {3, 0, 4, 7}}
	var b strings.Builder
	n := 0
	tri := func(a, c, d int, flip bool) {
		if flip {
			c, d = d, c
		}
		for _, v := range [3]int{a, c, d} {
			p := corners[v]
			b.WriteString("v " + itoa(p[0]) + " " + itoa(p[1]) + " " + itoa(p[2]) + "\n")
		}
		b.WriteString("f " + itoa(n+1) + " " + itoa(n+2) + " " + itoa(n+3) + "\n")
		n += 3
	}
	for i, q := range quads {
		tri(q[0], q[1], q[2], i == 2)
		tri(q[0], q[2], q[3], i == 4)
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

// TestMeshRepairCmd repairs a cube soup: 36 corners weld to 8, two faces
// flip, and the result is a closed outward cube of volume 1; --json says
// the same.
func TestMeshRepairCmd(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "soup.obj")
	if err := os.WriteFile(in, []byte(cubeSoup()), 0o644); err != nil {
		t.Fatal(err)
	}
	// As read, the soup is not a solid.
	st, out, _ := runCmd("mesh", "info", "--json", in)
	var before map[string]any
	if st != 0 || json.Unmarshal([]byte(out), &before) != nil || before["vertices"] != 36.0 || before["closed"] != false {
		t.Fatalf("info before: %d %s", st, out)
	}
	for _, ext := range []string{"obj", "ply", "off", "stl"} {
		outp := filepath.Join(dir, "fixed."+ext)
		st, out, e := runCmd("mesh", "repair", in, "-o", outp, "--json")
		if st != 0 {
			t.Fatalf("%s: status %d: %s", ext, st, e)
		}
		var rec struct {
			Parts []struct {
				Vertices int
				Closed   bool
				Oriented bool
				Volume   float64
			}
			Report struct {
				Welded int `json:"welded"`
				Orient struct {
					Flipped int `json:"flipped"`
					Closed  int `json:"closed"`
				} `json:"orient"`
			}
		}
		if err := json.Unmarshal([]byte(out), &rec); err != nil {
			t.Fatalf("%s: bad JSON %q: %v", ext, out, err)
		}
		if len(rec.Parts) != 1 || rec.Parts[0].Vertices != 8 || !rec.Parts[0].Closed || !rec.Parts[0].Oriented || math.Abs(rec.Parts[0].Volume-1) > 1e-12 ||
			rec.Report.Welded != 28 || rec.Report.Orient.Flipped != 2 || rec.Report.Orient.Closed != 1 {
			t.Fatalf("%s: %s", ext, out)
		}
		// The written file reads back as the cube, with mass properties.
		st, out, e = runCmd("mesh", "info", "--json", "--density", "3", outp)
		var after struct {
			Vertices int
			Closed   bool
			Mass     struct {
				Mass    float64
				Center  [3]float64
				Inertia [9]float64
			}
		}
		if st != 0 || json.Unmarshal([]byte(out), &after) != nil {
			t.Fatalf("%s: info after: %d %s %s", ext, st, out, e)
		}
		// A unit cube of density 3: mass 3, centre (1/2, 1/2, 1/2),
		// moments m (1 + 1)/12 = 0.5 (float32 corners in STL are exact).
		if after.Vertices != 8 || !after.Closed || math.Abs(after.Mass.Mass-3) > 1e-12 || math.Abs(after.Mass.Center[0]-0.5) > 1e-12 ||
			math.Abs(after.Mass.Inertia[0]-0.5) > 1e-12 || math.Abs(after.Mass.Inertia[1]) > 1e-12 {
			t.Fatalf("%s: after repair: %s", ext, out)
		}
	}
	// The text report.
	st, out, _ = runCmd("mesh", "repair", in, "-o", filepath.Join(dir, "t.obj"))
	for _, w := range []string{"welded 28 vertices", "flipped 2 faces", "1 components (1 closed)", "result: 8 vertices, 12 faces, closed, manifold, oriented, convex, volume 1"} {
		if st != 0 || !strings.Contains(out, w) {
			t.Errorf("text report lacks %q:\n%s", w, out)
		}
	}
	// --weld 0 merges identical coordinates only (the same here); a
	// negative --weld does not weld, leaving 12 separate triangles.
	st, out, _ = runCmd("mesh", "repair", in, "-o", filepath.Join(dir, "w.obj"), "--weld", "0", "--json")
	if st != 0 || !strings.Contains(out, `"welded":28`) || !strings.Contains(out, `"weld_tol":0`) {
		t.Errorf("--weld 0: %d %s", st, out)
	}
	st, out, _ = runCmd("mesh", "repair", in, "-o", filepath.Join(dir, "w.obj"), "--weld", "-1", "--json")
	if st != 0 || !strings.Contains(out, `"welded":0`) || !strings.Contains(out, `"components":12`) {
		t.Errorf("--weld -1: %d %s", st, out)
	}
}

// TestMeshSplitCmd splits an OBJ with two objects, a convex
// decomposition's layout: each part is a closed convex mesh, and repair
// --split keeps them as objects.
func TestMeshSplitCmd(t *testing.T) {
	dir := t.TempDir()
	src := "o left\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n" +
		"o right\nv 1 0 0\nv 2 0 0\nv 1 1 0\nv 1 0 1\nf 5 7 6\nf 5 6 8\nf 5 8 7\nf 6 7 8\n"
	in := filepath.Join(dir, "two.obj")
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	st, out, e := runCmd("mesh", "info", "--split", "o", "--json", in)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if st != 0 || len(lines) != 2 {
		t.Fatalf("info --split: %d %q %s", st, out, e)
	}
	for i, name := range []string{"left", "right"} {
		var rec map[string]any
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil || rec["part"] != name || rec["convex"] != true || rec["vertices"] != 4.0 {
			t.Fatalf("part %d: %s", i, lines[i])
		}
	}
	// Without --split the two tetrahedra share the vertex (1,0,0) once
	// welded; repaired per part they stay apart.
	outp := filepath.Join(dir, "parts.obj")
	if st, _, e := runCmd("mesh", "repair", "--split", "o", in, "-o", outp); st != 0 {
		t.Fatalf("repair --split: %s", e)
	}
	st, out, _ = runCmd("mesh", "info", "--split", "o", outp)
	if st != 0 || !strings.Contains(out, `object "left"`) || !strings.Contains(out, `object "right"`) || strings.Count(out, "closed, manifold, oriented, convex") != 2 {
		t.Fatalf("after repair --split:\n%s", out)
	}
	// --convex accepts the two tetrahedra and names the part that is not
	// convex in a file with a dented piece.
	if st, _, e := runCmd("mesh", "info", "--split", "o", "--convex", in); st != 0 {
		t.Fatalf("--convex on convex parts: %s", e)
	}
	dent := filepath.Join(dir, "dent.obj")
	// An octahedron whose top apex is pushed below its equator: closed,
	// outward, not convex.
	os.WriteFile(dent, []byte(src+"o dented\nv 1 0 5\nv 0 1 5\nv -1 0 5\nv 0 -1 5\nv 0 0 4.5\nv 0 0 4\n"+
		"f 9 10 13\nf 10 11 13\nf 11 12 13\nf 12 9 13\nf 10 9 14\nf 11 10 14\nf 12 11 14\nf 9 12 14\n"), 0o644)
	st, _, e = runCmd("mesh", "info", "--split", "o", "--convex", dent)
	if st != 1 || !strings.Contains(e, `object "dented"`) {
		t.Errorf("--convex on a non-convex part: %d %s", st, e)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"mesh", "repair", in, "-o", filepath.Join(dir, "x.stl"), "--split", "o"},
		{"mesh", "repair", in, "-o", filepath.Join(dir, "x.obj"), "--split", "z"},
		{"mesh", "repair", in},
		{"mesh", "repair", in, "-o", filepath.Join(dir, "x.obj"), "--weld", "NaN"},
		{"mesh", "info", "--density", "-1", in},
	} {
		if st, _, e := runCmd(args...); st != 2 || e == "" {
			t.Errorf("%v: status %d, stderr %q", args, st, e)
		}
	}
	// Mass properties of an open mesh: an error that says what to do.
	open := filepath.Join(dir, "open.obj")
	os.WriteFile(open, []byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n"), 0o644)
	if st, _, e := runCmd("mesh", "info", "--density", "1", open); st != 1 || !strings.Contains(e, "not closed") || !strings.Contains(e, "mesh repair") {
		t.Errorf("open mesh density: %d %s", st, e)
	}
}
