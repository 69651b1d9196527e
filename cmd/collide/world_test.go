package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestWorldCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"world", "--bodies", "40", "--steps", "3", "--kind", "mixed", "--contacts", "--json"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	var res struct {
		Summary worldSummary `json:"summary"`
		Steps   []worldStep  `json:"steps"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
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
	out.Reset()
	if st := run([]string{"world", "--bodies", "30", "--steps", "2", "--broad", "sap", "--workers", "1"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	if !strings.Contains(out.String(), "mean per step") {
		t.Errorf("text output without summary:\n%s", out.String())
	}
	for _, bad := range [][]string{
		{"world", "--kind", "jelly"},
		{"world", "--broad", "octree"},
		{"world", "--bodies", "0"},
		{"world", "--density", "2"},
		{"world", "extra"},
	} {
		errb.Reset()
		if st := run(bad, &out, &errb); st != 2 {
			t.Errorf("%v: status %d, want 2 (usage); stderr %s", bad, st, errb.String())
		}
	}
}
