package main

import (
	"math"
	"strings"
	"testing"
)

func TestQueryCommands(t *testing.T) {
	var ir struct {
		Hit   bool       `json:"hit"`
		Pairs [][2]int32 `json:"pairs"`
	}
	if out := runJSON(t, &ir, "query", "intersect", "--json", "car", "torus", "--b", "0.5,0,0"); !ir.Hit || len(ir.Pairs) == 0 {
		t.Fatalf("intersect: %s", out)
	}
	// Two unit cubes 1.5 apart along x: distance 0.5 between facing faces.
	var dr struct {
		Hit    bool       `json:"hit"`
		Dist   float64    `json:"dist"`
		PointA [3]float64 `json:"point_a"`
		PointB [3]float64 `json:"point_b"`
	}
	if out := runJSON(t, &dr, "query", "distance", "--json", "cube", "cube", "--b", "1.5,0,0"); dr.Hit || math.Abs(dr.Dist-0.5) > 1e-12 ||
		math.Abs(dr.PointA[0]-0.5) > 1e-12 || math.Abs(dr.PointB[0]-1) > 1e-12 {
		t.Fatalf("distance: %s", out)
	}
	var cr struct {
		Contacts []struct {
			Status     string  `json:"status"`
			Separation float64 `json:"separation"`
		} `json:"contacts"`
	}
	if out := runJSON(t, &cr, "query", "contacts", "--json", "--margin", "0.01", "cube", "cube", "--b", "0,0,1.001"); len(cr.Contacts) != 4 {
		t.Fatalf("contacts: %s", out)
	}
	for _, c := range cr.Contacts {
		if c.Status != "near" || math.Abs(c.Separation-0.001) > 1e-12 {
			t.Fatalf("contacts: %+v", c)
		}
	}
	if out := runOK(t, "query", "distance", "cube", "cube", "--b", "0.5,0,0"); !strings.Contains(out, "intersect") {
		t.Fatalf("overlapping distance: %q", out)
	}
	for _, args := range [][]string{
		{"query", "distance", "cube", "cube"},
		{"query", "distance", "cube", "--b", "1,0,0"},
		{"query", "intersect", "cube", "cube", "--b", "1,x,0"},
		{"query", "contacts", "cube", "no-such-file.obj", "--b", "1,0,0"},
		{"query", "contacts", "--margin", "-1", "cube", "cube", "--b", "1,0,0"},
	} {
		if st, _, errs := runCmd(args...); st == 0 || errs == "" {
			t.Errorf("%v: status %d, stderr %q", args, st, errs)
		}
	}
}
