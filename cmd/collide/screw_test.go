package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestScrewCommand(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"screw", "--json", "cube", "cube", "--b0", "3,0.2,0", "--b1", "0.3,0,0,0.9659258,0,0,0.258819"}
	if st := run(args, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	var res struct {
		Theta      float64
		Collisions []struct {
			Kind string  `json:"kind"`
			Time float64 `json:"time"`
		} `json:"collisions"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	if len(res.Collisions) == 0 || res.Theta <= 0 {
		t.Fatalf("no collisions: %s", out.String())
	}
	for _, c := range res.Collisions {
		if c.Time < 0 || c.Time > 1 || (c.Kind != "vf" && c.Kind != "fv" && c.Kind != "ee") {
			t.Errorf("bad collision %+v", c)
		}
	}
	out.Reset()
	if st := run([]string{"screw", "car", "car", "--b0", "0,3,0", "--b1", "0,2.5,0"}, &out, &errb); st != 0 || !strings.Contains(out.String(), "no collision") {
		t.Errorf("miss: status %d, output %q", st, out.String())
	}
	// Usage errors.
	for _, bad := range [][]string{
		{"screw", "cube"},
		{"screw", "cube", "cube", "--b0", "1,2", "--b1", "0,0,0"},
		{"screw", "cube", "nosuchmesh.obj", "--b0", "3,0,0", "--b1", "0,0,0"},
	} {
		if st := run(bad, &out, &errb); st == 0 {
			t.Errorf("%v: status 0", bad)
		}
	}
}

func TestScreenCommand(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.png")
	var out, errb bytes.Buffer
	args := []string{"screen", "torus", "torus", "--a0", "1,-0.3,-2.1,0.7071068,0.7071068,0,0", "--a1", "1.1,0.3,2.1,0.6830127,0.6830127,0.1830127,0.1830127", "--b0", "0,0,0", "--b1", "0,0,0", "--ppe", "6", "-o", path}
	if st := run(args, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 100 || b.Dy() < 100 {
		t.Errorf("picture too small: %v", b)
	}
	if !strings.Contains(out.String(), "collisions marked") {
		t.Errorf("output %q", out.String())
	}
}

// TestScrewCommandReliability runs the reproductions of three defects
// through the command: a contact made by a rotation of 1e-8 rad, two cubes
// touching without moving (resting contacts at time 0), and a cube passing
// through an open plane from its back (two-sided faces).
func TestScrewCommandReliability(t *testing.T) {
	plane := filepath.Join("..", "..", "screw", "testdata", "rigid-ipc", "plane.obj")
	cube := filepath.Join("..", "..", "screw", "testdata", "rigid-ipc", "cube.obj")
	for _, tc := range []struct {
		args   []string
		status string // the status every collision must have ("" any)
	}{
		{[]string{"--properness", "-2", "cube", "cube", "--b0", "3,0.2,0.2", "--b1", "1,0.2,0.2,1,0,0,5e-9"}, "hit"},
		{[]string{"cube", "cube", "--b0", "1,0,0", "--b1", "1,0,0"}, "touching"},
		{[]string{"cube", "cube", "--b0", "0.9,0.3,0", "--b1", "0.9,0.3,0"}, "penetrating"},
		{[]string{cube, plane, "--a0", "0,-2,0", "--a1", "0,2,0", "--b0", "0,0,0", "--b1", "0,0,0"}, ""},
	} {
		var out, errb bytes.Buffer
		if st := run(append([]string{"screw", "--json"}, tc.args...), &out, &errb); st != 0 {
			t.Fatalf("%v: status %d: %s", tc.args, st, errb.String())
		}
		var res struct {
			Collisions []struct {
				Status string  `json:"status"`
				Time   float64 `json:"time"`
			} `json:"collisions"`
		}
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if len(res.Collisions) == 0 {
			t.Errorf("%v: no collision", tc.args)
		}
		for _, c := range res.Collisions {
			if tc.status != "" && c.Status != tc.status {
				t.Errorf("%v: status %q, want %q", tc.args, c.Status, tc.status)
			}
		}
	}
}
