package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func ccdFiles(t *testing.T) []string {
	files, err := filepath.Glob("../../testdata/ccd-queries/*/*/*.csv")
	if err != nil || len(files) == 0 {
		t.Skip("no ccd-queries test data")
	}
	return files
}

func TestCCDQueriesJSON(t *testing.T) {
	files := ccdFiles(t)
	var out, errb bytes.Buffer
	if st := run(append([]string{"ccd-queries", "--json"}, files...), &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	var res struct {
		Method string
		Files  []ccdSummary
		Total  ccdSummary
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if res.Method != "inclusion" || len(res.Files) != len(files) {
		t.Fatalf("method %q, %d files", res.Method, len(res.Files))
	}
	q, fn, fp := 0, 0, 0
	for _, f := range res.Files {
		q += f.Queries
		fn += f.FN
		fp += f.FP
		if f.MedianNS <= 0 || f.MeanNS <= 0 || (f.Kind != "vf" && f.Kind != "ee") {
			t.Errorf("%+v", f)
		}
	}
	if res.Total.Queries != q || res.Total.FN != fn || res.Total.FP != fp || fn != 0 {
		t.Errorf("total %+v, sums %d %d %d", res.Total, q, fn, fp)
	}
	if 100*fp > q-res.Total.Positives {
		t.Errorf("%d false positives", fp)
	}
}

func TestCCDQueriesTableAndAnswers(t *testing.T) {
	file := "../../testdata/ccd-queries/unit-tests/edge-edge/data_0_0.csv"
	if _, err := os.Stat(file); err != nil {
		t.Skip("no ccd-queries test data")
	}
	var out, errb bytes.Buffer
	if st := run([]string{"ccd-queries", file, "--method", "cubic"}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	if s := out.String(); !strings.Contains(s, "method cubic") || !strings.Contains(s, "total") || !strings.Contains(s, "median_ns") {
		t.Errorf("table:\n%s", s)
	}
	out.Reset()
	if st := run([]string{"ccd-queries", "--answers", file}, &out, &errb); st != 0 {
		t.Fatalf("status %d: %s", st, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if lines[0] != "file,query,hit,toi" || len(lines) != 55 {
		t.Fatalf("%d lines, header %q", len(lines), lines[0])
	}
	hits := 0
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		if len(f) != 4 || f[0] != file || f[1] != strconv.Itoa(i) || (f[2] == "1") == (f[3] == "") {
			t.Fatalf("line %q", l)
		}
		if f[2] == "1" {
			hits++
		}
	}
	if hits != 21 {
		t.Errorf("%d hits, want the 21 positives", hits)
	}
}

func TestCCDQueriesKindAndErrors(t *testing.T) {
	src := "../../testdata/ccd-queries/unit-tests/vertex-face/data_0_0.csv"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Skip("no ccd-queries test data")
	}
	dir := t.TempDir()
	plain := filepath.Join(dir, "q.csv")
	if err := os.WriteFile(plain, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	if st := run([]string{"ccd-queries", plain}, &out, &errb); st != 2 || !strings.Contains(errb.String(), "--kind") {
		t.Errorf("no kind: status %d, %q", st, errb.String())
	}
	out.Reset()
	if st := run([]string{"ccd-queries", "--kind", "vf", "--json", plain}, &out, &errb); st != 0 || !strings.Contains(out.String(), `"fn": 0`) {
		t.Errorf("--kind vf: status %d\n%s", st, out.String())
	}
	bad := filepath.Join(dir, "bad.csv")
	os.WriteFile(bad, []byte("1,2,3\n"), 0o644)
	errb.Reset()
	if st := run([]string{"ccd-queries", "--kind", "ee", bad}, &out, &errb); st != 1 || !strings.Contains(errb.String(), "bad.csv:1") {
		t.Errorf("bad file: status %d, %q", st, errb.String())
	}
	if st := run([]string{"ccd-queries", "--method", "nope", src}, &out, &errb); st != 2 {
		t.Errorf("bad method: status %d", st)
	}
	if st := run([]string{"ccd-queries"}, &out, &errb); st != 2 {
		t.Errorf("no files: status %d", st)
	}
}

func TestCCDDemo(t *testing.T) {
	s, dir := runSection(t, demoCCD)
	if !strings.Contains(s, "vertex slides in the face's plane into it  separated  hit") {
		t.Errorf("demo output:\n%s", s)
	}
	if _, err := os.Stat(filepath.Join(dir, "ccd_sliding.svg")); err != nil {
		t.Error(err)
	}
}

// TestCCDQueriesHugeDenominator: a coordinate whose denominator is so
// large that it underflows is an error naming file, line and column, as an
// overflowing numerator is; a huge numerator over a huge denominator that
// is representable is read.
func TestCCDQueriesHugeDenominator(t *testing.T) {
	huge := "1" + strings.Repeat("0", 400)
	rows := func(num, den string) string {
		var b strings.Builder
		for i := 0; i < 8; i++ {
			if i == 2 {
				fmt.Fprintf(&b, "%s,%s,0,1,0,1,0\n", num, den)
			} else {
				fmt.Fprintf(&b, "%d,1,0,1,0,1,0\n", i%2)
			}
		}
		return b.String()
	}
	dir := t.TempDir()
	for _, c := range []struct {
		num, den string
		want     string // "" means accepted
	}{
		{"1", huge, "q.csv:3: column 1"},
		{"-7", huge, "q.csv:3: column 1"},
		{huge, "1", "q.csv:3: column 1"},
		{huge, huge, ""},
		{"0", huge, ""},
	} {
		path := filepath.Join(dir, "q.csv")
		if err := os.WriteFile(path, []byte(rows(c.num, c.den)), 0o644); err != nil {
			t.Fatal(err)
		}
		var out, errb bytes.Buffer
		st := run([]string{"ccd-queries", "--kind", "vf", path}, &out, &errb)
		switch {
		case c.want == "" && st != 0:
			t.Errorf("%.5s.../%.5s...: status %d, %s", c.num, c.den, st, errb.String())
		case c.want != "" && (st != 1 || !strings.Contains(errb.String(), c.want)):
			t.Errorf("%.5s.../%.5s...: status %d, %q; want an error naming %s", c.num, c.den, st, errb.String(), c.want)
		}
	}
}
