package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSceneHoopCLI(t *testing.T) {
	var m map[string]any
	out := runJSON(t, &m, "scene", "hoop", "--steps", "250", "--cables", "3", "--segments", "12", "--json")
	for _, k := range []string{"frames_per_second", "frames", "contacts", "penetrations", "edges", "contacts_per_frame"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing in %s", k, out)
		}
	}
	if m["penetrations"].(float64) != 0 || m["contacts"].(float64) == 0 || m["frames"].(float64) != 250 || m["edges"].(float64) < 500 {
		t.Errorf("unexpected result: %s", out)
	}
	svg := filepath.Join(t.TempDir(), "hoop.svg")
	if out := runOK(t, "scene", "hoop", "--steps", "50", "--cables", "2", "--svg", svg); !strings.Contains(out, "frames per second") || !strings.Contains(out, "independent check: 0") {
		t.Errorf("text output: %s", out)
	}
	if b, err := os.ReadFile(svg); err != nil || !bytes.HasPrefix(b, []byte("<svg")) {
		t.Errorf("svg: %v %.40q", err, b)
	}
	for _, bad := range [][]string{{"--dt", "-1"}, {"--steps", "-3"}, {"--cables", "0"}, {"--method", "nope"}, {"--segments", "-2"}, {"extra"}} {
		if st, _, _ := runCmd(append([]string{"scene", "hoop"}, bad...)...); st != 2 {
			t.Errorf("%v: status %d, want 2", bad, st)
		}
	}
}

func TestDemoHoop(t *testing.T) {
	out, dir := runSection(t, demoHoop)
	for _, f := range []string{"cable_hoop.svg", "cable_hoop_net.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(out, "independent check: 0") {
		t.Errorf("demo output: %s", out)
	}
}

// TestSceneHoopLongStep: a step of 0.02 s (ten times the default) runs in
// substeps with no crossing; a step of 1 s is refused with the stable
// step in the message.
func TestSceneHoopLongStep(t *testing.T) {
	var r struct {
		Penetrations, Substeps, Frames int
		EnergyStart                    float64 `json:"energy_start"`
		EnergyMax                      float64 `json:"energy_max"`
	}
	out := runJSON(t, &r, "scene", "hoop", "--dt", "0.02", "--steps", "50", "--json")
	if r.Penetrations != 0 || r.Frames != 50 || r.Substeps < 5*50 || r.EnergyMax > r.EnergyStart+0.05 {
		t.Errorf("dt 0.02: %s", out)
	}
	if st, _, errs := runCmd("scene", "hoop", "--dt", "1", "--steps", "5"); st != 2 || !strings.Contains(errs, "stable only with steps of at most") {
		t.Errorf("dt 1: status %d, %s", st, errs)
	}
}
