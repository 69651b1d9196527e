package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadRefusesPathsOutside: workload.json may only name files inside
// its directory.
func TestLoadRefusesPathsOutside(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.obj")
	cube, err := os.ReadFile(filepath.Join(samples, "screwpairs-cube-q200-s4", "meshes", "cube.obj"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(outside, cube, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ field, file string }{
		{"mesh", "../secret.obj"},
		{"mesh", "../../../etc/passwd"},
		{"mesh", outside},
		{"mesh", "meshes/../../x.obj"},
		{"mesh", "link.obj"},
		{"queries", "../queries.csv"},
		{"queries", "/etc/passwd"},
	} {
		dir := copySample(t, "screwpairs-cube-q200-s4")
		if err := os.Symlink(outside, filepath.Join(dir, "link.obj")); err != nil {
			t.Fatal(err)
		}
		mesh, queries := "meshes/cube.obj", "queries.csv"
		if c.field == "mesh" {
			mesh = c.file
		} else {
			queries = c.file
		}
		wj := fmt.Sprintf(`{"format":"bench-workload/1","kind":"motions","meshes":[{"name":"cube","file":%q}],"queries":%q}`, mesh, queries)
		if err := os.WriteFile(filepath.Join(dir, "workload.json"), []byte(wj), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir)
		if err == nil || !strings.Contains(err.Error(), "outside the workload directory") && !strings.Contains(err.Error(), "not a relative path inside") {
			t.Errorf("%s %q: error %v, want a refusal", c.field, c.file, err)
		}
	}
	// A path inside the directory through a subdirectory still loads.
	dir := copySample(t, "screwpairs-cube-q200-s4")
	wj := `{"format":"bench-workload/1","kind":"motions","meshes":[{"name":"cube","file":"meshes/./cube.obj"}]}`
	if err := os.WriteFile(filepath.Join(dir, "workload.json"), []byte(wj), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Errorf("mesh inside the directory: %v", err)
	}
}

// TestLoadJSONErrorPosition: syntax errors in workload.json say the line
// and column of the offending byte, type errors a position in the
// offending value.
func TestLoadJSONErrorPosition(t *testing.T) {
	for _, c := range []struct {
		text              string
		line, col, colMax int
	}{
		{"{\"format\":\"bench-workload/1\",\n \"kind\": \"motions\",\n \"meshes\": [{\"name\":\"c\" \"file\":\"x\"}]}", 3, 25, 25},
		{"{\n\n   ]", 3, 4, 4},
		{"{\"format\": 7}", 1, 12, 12},
		{"{\"format\":\"bench-workload/1\",\n\"frames\": \"ten\"}", 2, 11, 15},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "workload.json"), []byte(c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(dir)
		ok := false
		for col := c.col; col <= c.colMax; col++ {
			ok = ok || err != nil && strings.Contains(err.Error(), fmt.Sprintf("workload.json:%d:%d: ", c.line, col))
		}
		if !ok {
			t.Errorf("%q: error %v, want line %d, column %d to %d", c.text, err, c.line, c.col, c.colMax)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(samples, "screwpairs-cube-q200-s4")
	for _, f := range []string{"workload.json", "meshes/cube.obj"} {
		data, _ := os.ReadFile(filepath.Join(src, f))
		os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755)
		os.WriteFile(filepath.Join(dir, f), data, 0o644)
	}
	q, _ := os.ReadFile(filepath.Join(src, "queries.csv"))
	lines := strings.Split(string(q), "\n")
	lines[3] = strings.Replace(lines[3], ",cube,", ",nope,", 1)
	os.WriteFile(filepath.Join(dir, "queries.csv"), []byte(strings.Join(lines, "\n")), 0o644)
	_, err := Load(dir)
	if err == nil || !strings.Contains(err.Error(), "queries.csv:4:") || !strings.Contains(err.Error(), "nope") {
		t.Errorf("bad mesh name: got %v, want error naming queries.csv:4 and the mesh", err)
	}
	lines = strings.Split(string(q), "\n")
	lines[2] = strings.Replace(lines[2], ",0.", ",NaN", 1)
	os.WriteFile(filepath.Join(dir, "queries.csv"), []byte(strings.Join(lines, "\n")), 0o644)
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "queries.csv:3:") {
		t.Errorf("NaN: got %v, want error naming queries.csv:3", err)
	}
}
