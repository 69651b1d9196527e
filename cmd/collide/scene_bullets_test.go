package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSceneBulletsCLI(t *testing.T) {
	var m map[string]any
	out := runJSON(t, &m, "scene", "bullets", "--bullets", "10", "--seconds", "0.5", "--json")
	for _, k := range []string{"wall_seconds_per_simulated_second", "simulated_seconds", "contacts", "through_hole", "tunneled"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing in %s", k, out)
		}
	}
	if m["tunneled"].(float64) != 0 {
		t.Errorf("tunnelled: %s", out)
	}
	if out := runOK(t, "scene", "bullets", "--bullets", "5", "--alg", "3", "--dt", "0.05", "--seconds", "0.3"); !strings.Contains(out, "tunnelled 0") {
		t.Errorf("text output: %s", out)
	}
	for _, bad := range [][]string{{"--alg", "4"}, {"--dt", "-1"}, {"--bullets", "0"}, {"extra"}} {
		if st, _, _ := runCmd(append([]string{"scene", "bullets"}, bad...)...); st != 2 {
			t.Errorf("%v: status %d, want 2", bad, st)
		}
	}
}

func TestDemoBulletsSVG(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the full scene twice")
	}
	out, dir := runSection(t, demoBullets)
	b, err := os.ReadFile(filepath.Join(dir, "toc-bullets.svg"))
	if err != nil || !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte("#2ca02c")) || !bytes.Contains(b, []byte("#d62728")) {
		t.Errorf("svg: %v %.200s", err, b)
	}
	if !strings.Contains(out, "tunnelled 0") {
		t.Errorf("demo output: %s", out)
	}
}

// TestSceneBulletsFlagErrors: each bad flag is named alone in its error.
func TestSceneBulletsFlagErrors(t *testing.T) {
	for _, c := range []struct{ flag, value string }{
		{"--dt", "-1"}, {"--dt", "50"}, {"--seconds", "0"}, {"--bullets", "0"}, {"--tol", "NaN"},
	} {
		var out, errb bytes.Buffer
		if st := run([]string{"scene", "bullets", c.flag, c.value}, &out, &errb); st != 2 {
			t.Errorf("%s %s: status %d, want 2", c.flag, c.value, st)
		}
		msg, _, _ := strings.Cut(errb.String(), "\n")
		for _, f := range []string{"--dt", "--seconds", "--bullets", "--tol"} {
			if strings.Contains(msg, f) != (f == c.flag) {
				t.Errorf("%s %s: message %q", c.flag, c.value, msg)
			}
		}
	}
}
