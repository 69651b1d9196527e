package main

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestWorldCommand(t *testing.T) {
	var res struct {
		Summary worldSummary `json:"summary"`
		Steps   []worldStep  `json:"steps"`
	}
	runJSON(t, &res, "world", "--bodies", "40", "--steps", "3", "--kind", "mixed", "--contacts", "--json")
	if len(res.Steps) != 3 {
		t.Fatalf("%d steps, want 3", len(res.Steps))
	}
	for _, s := range res.Steps {
		if len(s.List) != s.Contacts || s.Tests > s.BroadPairs || s.Contacts > s.Tests {
			t.Errorf("inconsistent step %+v", s)
		}
		for _, c := range s.List {
			if c.A >= c.B || c.Time < 0 || c.Time > 1 {
				t.Errorf("bad contact %+v", c)
			}
		}
	}
	if out := runOK(t, "world", "--bodies", "30", "--steps", "2", "--broad", "sap", "--workers", "1"); !strings.Contains(out, "mean per step") {
		t.Errorf("text output without summary:\n%s", out)
	}
	for _, bad := range [][]string{
		{"world", "--kind", "jelly"},
		{"world", "--broad", "octree"},
		{"world", "--bodies", "0"},
		{"world", "--density", "2"},
		{"world", "extra"},
	} {
		if st, _, errs := runCmd(bad...); st != 2 {
			t.Errorf("%v: status %d, want 2 (usage); stderr %s", bad, st, errs)
		}
	}
}

// TestWorldFlagErrorsNameTheFlag: an absurd or invalid size is refused
// with a message naming that flag alone.
func TestWorldFlagErrorsNameTheFlag(t *testing.T) {
	flags := []string{"--bodies", "--steps", "--verts", "--workers", "--density", "--speed", "--rot"}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"--bodies", "2000000000"}, "--bodies"},
		{[]string{"--bodies", "0"}, "--bodies"},
		{[]string{"--workers", "100000"}, "--workers"},
		{[]string{"--workers", "-1"}, "--workers"},
		{[]string{"--steps", "0"}, "--steps"},
		{[]string{"--verts", "3"}, "--verts"},
		{[]string{"--bodies", "100000", "--verts", "1000"}, "--verts"},
		{[]string{"--density", "2"}, "--density"},
		{[]string{"--speed", "NaN"}, "--speed"},
		{[]string{"--rot", "-1"}, "--rot"},
	} {
		var out, errb bytes.Buffer
		if st := run(append([]string{"world"}, c.args...), &out, &errb); st != 2 {
			t.Errorf("%v: status %d, want 2", c.args, st)
		}
		msg, _, _ := strings.Cut(errb.String(), "\n")
		if !strings.Contains(msg, c.flag+" ") {
			t.Errorf("%v: message %q does not name %s", c.args, msg, c.flag)
		}
		for _, f := range flags {
			if f != c.flag && strings.Contains(msg, f) && !strings.Contains(strings.Join(c.args, " "), f) {
				t.Errorf("%v: message %q names %s as well", c.args, msg, f)
			}
		}
	}
}

// TestWorldStreamsReports: each step's report is written before the next
// step runs, and a long run keeps neither its reports nor its poses.
func TestWorldStreamsReports(t *testing.T) {
	var seen []int
	c := worldConfig{Bodies: 20, Steps: 20000, Verts: 10, Kind: "convex", Broad: "sweep", Speed: 0.05, RotDeg: 10, Density: 0.05, Seed: 1}
	s, err := newWorldScene(c)
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peak uint64
	err = runWorldSteps(s, c.Steps, true, func(done, total int) {
		if done != emitted {
			t.Fatalf("progress at step %d after %d reports: reports are not handed out as they are made", done, emitted)
		}
		if done%5000 == 0 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			seen = append(seen, done)
		}
	}, func(st *worldStep) error {
		if st.Step != emitted {
			t.Fatalf("report of step %d, want %d", st.Step, emitted)
		}
		emitted++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// 20 001 frames of 20 poses alone would be 22 MB.
	if grow := int64(peak) - int64(before.HeapAlloc); grow > 4<<20 || len(seen) != 4 {
		t.Errorf("the heap grew by %d bytes over %d steps", grow, c.Steps)
	}
}
