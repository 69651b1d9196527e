package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSceneHoopCLI(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"scene", "hoop", "--steps", "250", "--cables", "3", "--segments", "12", "--json"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	var m map[string]any
	if err := json.Unmarshal(out.Bytes(), &m); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	for _, k := range []string{"frames_per_second", "frames", "contacts", "penetrations", "edges", "contacts_per_frame"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing in %s", k, out.String())
		}
	}
	if m["penetrations"].(float64) != 0 || m["contacts"].(float64) == 0 || m["frames"].(float64) != 250 || m["edges"].(float64) < 500 {
		t.Errorf("unexpected result: %s", out.String())
	}
	out.Reset()
	svg := filepath.Join(t.TempDir(), "hoop.svg")
	if st := run([]string{"scene", "hoop", "--steps", "50", "--cables", "2", "--svg", svg}, &out, &errb); st != 0 ||
		!strings.Contains(out.String(), "frames per second") || !strings.Contains(out.String(), "independent check: 0") {
		t.Errorf("text output (status %d): %s %s", st, out.String(), errb.String())
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("svg: %v %.40q", err, b)
	}
	for _, bad := range [][]string{{"--dt", "-1"}, {"--steps", "-3"}, {"--cables", "0"}, {"--method", "nope"}, {"--segments", "-2"}, {"extra"}} {
		if st := run(append([]string{"scene", "hoop"}, bad...), &out, &errb); st != 2 {
			t.Errorf("%v: status %d, want 2", bad, st)
		}
	}
}

func TestDemoHoop(t *testing.T) {
	var out bytes.Buffer
	dir := t.TempDir()
	if err := demoHoop(&env{stdout: &out, stderr: &out}, dir); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"cable_hoop.svg", "cable_hoop_net.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(out.String(), "independent check: 0") {
		t.Errorf("demo output: %s", out.String())
	}
}

// TestSceneHoopLongStep: a step of 0.02 s (ten times the default) runs in
// substeps with no crossing; a step of 1 s is refused with the stable
// step in the message.
func TestSceneHoopLongStep(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"scene", "hoop", "--dt", "0.02", "--steps", "50", "--json"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	var r struct {
		Penetrations, Substeps, Frames int
		EnergyStart                    float64 `json:"energy_start"`
		EnergyMax                      float64 `json:"energy_max"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.Penetrations != 0 || r.Frames != 50 || r.Substeps < 5*50 || r.EnergyMax > r.EnergyStart+0.05 {
		t.Errorf("dt 0.02: %s", out.String())
	}
	errb.Reset()
	if st := run([]string{"scene", "hoop", "--dt", "1", "--steps", "5"}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "stable only with steps of at most") {
		t.Errorf("dt 1: status %d, %s", st, errb.String())
	}
}
