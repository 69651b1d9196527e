package main

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestQueryCommands(t *testing.T) {
	var out, errb bytes.Buffer
	if st := run([]string{"query", "intersect", "--json", "car", "torus", "--b", "0.5,0,0"}, &out, &errb); st != 0 {
		t.Fatalf("intersect: status %d: %s", st, errb.String())
	}
	var ir struct {
		Hit   bool       `json:"hit"`
		Pairs [][2]int32 `json:"pairs"`
	}
	if err := json.Unmarshal(out.Bytes(), &ir); err != nil || !ir.Hit || len(ir.Pairs) == 0 {
		t.Fatalf("intersect: %v %s", err, out.String())
	}
	out.Reset()
	// Two unit cubes 1.5 apart along x: distance 0.5 between facing faces.
	if st := run([]string{"query", "distance", "--json", "cube", "cube", "--b", "1.5,0,0"}, &out, &errb); st != 0 {
		t.Fatalf("distance: status %d: %s", st, errb.String())
	}
	var dr struct {
		Hit    bool       `json:"hit"`
		Dist   float64    `json:"dist"`
		PointA [3]float64 `json:"point_a"`
		PointB [3]float64 `json:"point_b"`
	}
	if err := json.Unmarshal(out.Bytes(), &dr); err != nil || dr.Hit || math.Abs(dr.Dist-0.5) > 1e-12 ||
		math.Abs(dr.PointA[0]-0.5) > 1e-12 || math.Abs(dr.PointB[0]-1) > 1e-12 {
		t.Fatalf("distance: %v %s", err, out.String())
	}
	out.Reset()
	if st := run([]string{"query", "contacts", "--json", "--margin", "0.01", "cube", "cube", "--b", "0,0,1.001"}, &out, &errb); st != 0 {
		t.Fatalf("contacts: status %d: %s", st, errb.String())
	}
	var cr struct {
		Contacts []struct {
			Status     string  `json:"status"`
			Separation float64 `json:"separation"`
		} `json:"contacts"`
	}
	if err := json.Unmarshal(out.Bytes(), &cr); err != nil || len(cr.Contacts) != 4 {
		t.Fatalf("contacts: %v %s", err, out.String())
	}
	for _, c := range cr.Contacts {
		if c.Status != "near" || math.Abs(c.Separation-0.001) > 1e-12 {
			t.Fatalf("contacts: %+v", c)
		}
	}
	out.Reset()
	if st := run([]string{"query", "distance", "cube", "cube", "--b", "0.5,0,0"}, &out, &errb); st != 0 || !strings.Contains(out.String(), "intersect") {
		t.Fatalf("overlapping distance: status %d, %q", st, out.String())
	}
	for _, args := range [][]string{
		{"query", "distance", "cube", "cube"},
		{"query", "distance", "cube", "--b", "1,0,0"},
		{"query", "intersect", "cube", "cube", "--b", "1,x,0"},
		{"query", "contacts", "cube", "no-such-file.obj", "--b", "1,0,0"},
		{"query", "contacts", "--margin", "-1", "cube", "cube", "--b", "1,0,0"},
	} {
		errb.Reset()
		if st := run(args, &out, &errb); st == 0 || errb.Len() == 0 {
			t.Errorf("%v: status %d, stderr %q", args, st, errb.String())
		}
	}
}
