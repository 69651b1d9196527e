package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copySample copies a sample workload to a temporary directory whose
// expected/<task>.csv the test may rewrite.
func copySample(t *testing.T, name string) string {
	dir := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dir, os.DirFS(filepath.Join(samples, name))); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestJudgeRefusesBadReferences: a reference the judge cannot use is an
// error naming the file (and the line where there is one), never a
// verdict.
func TestJudgeRefusesBadReferences(t *testing.T) {
	cases := []struct {
		sample, task, algo string
		edit               func(lines []string) []string
		want               string // regexp on the error
	}{
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { return l[:1] }, `ccd\.csv: no rows after the header`},
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { l[3] = setField(l[3], 1, "5"); return l }, `ccd\.csv:4: column "hit": "5" is not 0 or 1`},
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { return append(l, l[7]) }, `ccd\.csv:\d+: query id \d+: second row \(first at line 8\)`},
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { return l[:150] }, `ccd\.csv: rows for 149 of 200 queries; no row for query id`},
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { return append(l, "9999,0,") }, `ccd\.csv:\d+: query id 9999 is not in the workload`},
		{"screwpairs-cube-q200-s4", "ccd", "test-never", func(l []string) []string { l[1] = "0,1,2,0,0"; return l }, `ccd\.csv:2: column "toc": 2 is outside \[0, 1\]`},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec", func(l []string) []string { return l[:1] }, `narrow\.csv: no rows after the header`},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec", func(l []string) []string { l[2] = setField(l[2], 3, "5"); return l }, `narrow\.csv:3: column "hit": "5" is not 0 or 1`},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec", func(l []string) []string { return append(l, l[9]) }, `narrow\.csv:\d+: frame \d+ pair \d+,\d+: second row \(first at line 10\)`},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec", func(l []string) []string { return l[:len(l)-2] }, `narrow\.csv: rows for \d+ of \d+ queries; no row for frame`},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec", func(l []string) []string { l[1] = "0,7,3,0,1"; return l }, `narrow\.csv:2: pair 7,3: want 0 <= a < b < 50`},
		{"polytopes-mixed-n10-b50-f40-s1", "broad", "test-brute", func(l []string) []string { return l[:1] }, `broad\.csv: no rows after the header`},
		{"polytopes-mixed-n10-b50-f40-s1", "broad", "test-brute", func(l []string) []string { return append(l, l[4]) }, `broad\.csv:\d+: frame \d+ pair \d+,\d+: second row \(first at line 5\)`},
		{"polytopes-mixed-n10-b50-f40-s1", "broad", "test-brute", func(l []string) []string { l[1] = "40,0,1"; return l }, `broad\.csv:2: frame 40 out of range \[0, 40\)`},
	}
	for _, c := range cases {
		dir := copySample(t, c.sample)
		path := filepath.Join(dir, "expected", c.task+".csv")
		writeLines(t, path, c.edit(fileLines(t, path)))
		w, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(w, Options{Task: c.task, Algos: []string{c.algo}, MaxPasses: 1})
		if err == nil {
			t.Errorf("%s %s: no error, verdict %v", c.sample, c.want, res[0].Verdict)
			continue
		}
		if !regexp.MustCompile(c.want).MatchString(err.Error()) || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: error %q, want %s naming %s", c.sample, err, c.want, path)
		}
	}
}

// setField replaces the i-th comma-separated field of line.
func setField(line string, i int, v string) string {
	f := strings.Split(line, ",")
	f[i] = v
	return strings.Join(f, ",")
}

// TestJudgeCountsEveryQuery: on the untouched samples every query is
// judged, once.
func TestJudgeCountsEveryQuery(t *testing.T) {
	for _, c := range []struct{ sample, task, algo string }{
		{"screwpairs-cube-q200-s4", "ccd", "test-never"},
		{"polytopes-mixed-n10-b50-f40-s1", "narrow", "sepvec"},
	} {
		w, err := Load(filepath.Join(samples, c.sample))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(w, Options{Task: c.task, Algos: []string{c.algo}, MaxPasses: 1})
		if err != nil {
			t.Fatal(err)
		}
		rows := len(fileLines(t, filepath.Join(w.Dir, "expected", c.task+".csv"))) - 1
		if v := res[0].Verdict; v == nil || v.Judged != rows || res[0].Queries != rows {
			t.Errorf("%s: verdict %v, %d queries, want %d judged", c.sample, v, res[0].Queries, rows)
		}
	}
}

// TestJudgeNarrowSample: for bodies of more than 100 vertices the narrow
// reference may cover a sample of the pairs (the format's Sec. 8); the
// verdict says how many of how many were judged. With 10-vertex bodies
// the same gap is an error (TestJudgeRefusesBadReferences).
func TestJudgeNarrowSample(t *testing.T) {
	dir := copySample(t, "polytopes-mixed-n1000-b10-f20-s3")
	path := filepath.Join(dir, "expected", "narrow.csv")
	lines := fileLines(t, path)
	keep := lines[:1+(len(lines)-1)/2]
	writeLines(t, path, keep)
	w, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(w, Options{Task: "narrow", Algos: []string{"sepvec"}, MaxPasses: 1})
	if err != nil {
		t.Fatal(err)
	}
	v := res[0].Verdict
	want := fmt.Sprintf("judged %d of %d queries (a sample)", len(keep)-1, len(lines)-1)
	if v == nil || v.Judged != len(keep)-1 || v.Queries != len(lines)-1 || !strings.Contains(v.String(), want) {
		t.Errorf("verdict %v, want %q", v, want)
	}
}
