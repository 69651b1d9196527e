package ccd

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/collide-go/collide/contact"
	"github.com/collide-go/collide/geom"
)

// groundTruthFiles returns the benchmark files in the repository.
func groundTruthFiles(t testing.TB) []string {
	files, err := filepath.Glob("../testdata/ccd-queries/*/*/*.csv")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Skip("no files in ../testdata/ccd-queries")
	}
	sort.Strings(files)
	return files
}

// loadFile parses one benchmark file, the kind taken from its folder.
func loadFile(t testing.TB, path string) ([]Query, []bool) {
	kind, err := contact.ParsePairKind(filepath.Base(filepath.Dir(path)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	qs, truth, err := ParseQueries(f, path, kind)
	if err != nil {
		t.Fatal(err)
	}
	return qs, truth
}

// TestGroundTruth runs every benchmark query with exact ground truth: the
// default method must have no false negative and at most 1% false
// positives overall; the Cubic method's counts are logged.
func TestGroundTruth(t *testing.T) {
	for _, m := range []Method{Inclusion, Cubic} {
		var neg, fpTotal, fnTotal, capped int
		for _, path := range groundTruthFiles(t) {
			qs, truth := loadFile(t, path)
			fp, fn, pos := 0, 0, 0
			for i := range qs {
				r := qs[i].Test(Options{Method: m})
				if r.Status == Invalid {
					t.Fatalf("%s query %d: invalid", path, i)
				}
				if r.Capped {
					capped++
				}
				switch {
				case truth[i] && !r.Hit():
					fn++
					if m == Inclusion {
						t.Errorf("%s query %d: false negative: %+v", path, i, qs[i])
					}
				case !truth[i] && r.Hit():
					fp++
				}
				if truth[i] {
					pos++
				} else {
					neg++
				}
				if m == Inclusion && r.Hit() && (r.Time < 0 || r.Time > 1) {
					t.Errorf("%s query %d: toi %v outside [0,1]", path, i, r.Time)
				}
			}
			fpTotal += fp
			fnTotal += fn
			rel, _ := filepath.Rel("../testdata/ccd-queries", path)
			t.Logf("%-9s %-55s queries %5d positives %3d FN %3d FP %3d", m, rel, len(qs), pos, fn, fp)
		}
		t.Logf("%-9s total: negatives %d, FN %d, FP %d (%.2f%% of negatives), capped %d", m, neg, fnTotal, fpTotal, 100*float64(fpTotal)/float64(neg), capped)
		if m == Inclusion && 100*fpTotal > neg {
			t.Errorf("inclusion: %d false positives > 1%% of %d negatives", fpTotal, neg)
		}
	}
}

// variants returns exact symmetries of q that preserve the ground truth:
// time reversal, permutations and reflections of the axes, power-of-two
// scaling, and the symmetries of the primitives (swapping the edges,
// reversing an edge, permuting the triangle's vertices).
func variants(q Query) []Query {
	apply := func(f func(geom.Vec3) geom.Vec3) Query {
		r := q
		for i := range r.Start {
			r.Start[i], r.End[i] = f(q.Start[i]), f(q.End[i])
		}
		return r
	}
	out := []Query{
		apply(func(v geom.Vec3) geom.Vec3 { return geom.V(v.Y, v.Z, v.X) }),
		apply(func(v geom.Vec3) geom.Vec3 { return geom.V(-v.X, v.Z, -v.Y) }),
		apply(func(v geom.Vec3) geom.Vec3 { return v.Scale(0x1p-30) }),
		apply(func(v geom.Vec3) geom.Vec3 { return v.Scale(0x1p40) }),
	}
	rev := q
	rev.Start, rev.End = q.End, q.Start
	out = append(out, rev)
	perm := func(p [4]int) Query {
		r := q
		for i, j := range p {
			r.Start[i], r.End[i] = q.Start[j], q.End[j]
		}
		return r
	}
	if q.Kind == contact.EdgeEdge {
		out = append(out, perm([4]int{2, 3, 0, 1}), perm([4]int{1, 0, 3, 2}))
	} else {
		out = append(out, perm([4]int{0, 2, 3, 1}), perm([4]int{0, 3, 2, 1}))
	}
	return out
}

// TestGroundTruthVariants: queries of the same kind that are not in the
// files, with exactly known truth: every exact symmetry of every query.
func TestGroundTruthVariants(t *testing.T) {
	var n, neg, fp int
	for _, path := range groundTruthFiles(t) {
		qs, truth := loadFile(t, path)
		for i := range qs {
			for vi, v := range variants(qs[i]) {
				r := v.Test(Options{})
				n++
				if truth[i] && !r.Hit() {
					t.Errorf("%s query %d variant %d: false negative\n%s", path, i, vi, fmtQuery(&v))
				}
				if !truth[i] {
					neg++
					if r.Hit() {
						fp++
					}
				}
			}
		}
	}
	t.Logf("%d variant queries, %d false positives of %d negatives (%.2f%%)", n, fp, neg, 100*float64(fp)/float64(neg))
	if 100*fp > neg {
		t.Errorf("%d false positives", fp)
	}
}
