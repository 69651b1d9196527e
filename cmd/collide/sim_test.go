package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/collide-go/collide/simio"
)

// TestSimCommand writes a built-in scene, simulates it and reads the
// recording back: every dynamic body at every recorded step, the summary
// consistent with it.
func TestSimCommand(t *testing.T) {
	dir := t.TempDir()
	scene, rec := filepath.Join(dir, "scene"), filepath.Join(dir, "rec")
	var out, errb bytes.Buffer
	if st := run([]string{"sim", "builtin", "pile", "--bodies", "6", "--steps", "12", "--out", scene}, &out, &errb); st != 0 {
		t.Fatalf("builtin: status %d: %s", st, errb.String())
	}
	out.Reset()
	if st := run([]string{"sim", scene, "--out", rec, "--record-every", "5", "--contacts", "--json", "--threads", "2"}, &out, &errb); st != 0 {
		t.Fatalf("sim: status %d: %s", st, errb.String())
	}
	var sum simSummary
	if err := json.Unmarshal(out.Bytes(), &sum); err != nil {
		t.Fatal(err)
	}
	r, err := simio.ReadRecording(rec)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Steps != 12 || r.Steps != 12 || r.Threads != 2 || len(r.Bodies) != 6 || r.RecordEvery != 5 {
		t.Fatalf("summary %+v, recording steps %d threads %d bodies %d every %d", sum, r.Steps, r.Threads, len(r.Bodies), r.RecordEvery)
	}
	want := []int{0, 5, 10, 12}
	if len(r.Frames) != len(want) {
		t.Fatalf("%d frames, want %d", len(r.Frames), len(want))
	}
	for i, f := range r.Frames {
		if f.Step != want[i] || len(f.States) != 6 {
			t.Errorf("frame %d: step %d with %d states", i, f.Step, len(f.States))
		}
	}
	if !(sum.NsPerStep > 0) || sum.NsPerStep != r.NsPerStep {
		t.Errorf("ns per step %v, recording %v", sum.NsPerStep, r.NsPerStep)
	}
	// Usage errors name the problem.
	if st := run([]string{"sim", scene}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "--out") {
		t.Errorf("missing --out: status %d, %q", st, errb.String())
	}
	errb.Reset()
	if st := run([]string{"sim", "builtin", "heap", "--out", scene}, &out, &errb); st == 0 || !strings.Contains(errb.String(), "heap") {
		t.Errorf("unknown scene: status %d, %q", st, errb.String())
	}
}
