package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// Verdict is the comparison of an algorithm's answers with a workload's
// expected answers (../shared/bench/FORMAT.md Sec. 8 and 9).
type Verdict struct {
	// Judged is the number of queries compared (narrow: pairs present in
	// expected/narrow.csv; broad: frames; ccd: queries).
	Judged int `json:"judged"`
	// FN and FP count false negatives and false positives (narrow: beyond
	// the margin epsilon; broad: missing and extra pairs).
	FN int `json:"fn"`
	FP int `json:"fp"`
	// Ambiguous counts narrow disagreements with |margin| <= epsilon,
	// which rounding may decide either way.
	Ambiguous int `json:"ambiguous,omitempty"`
	// TocMedian, TocP95 and TocMax summarise |toc - t*| over common ccd
	// hits; Late and Early count errors beyond 1e-2.
	TocMedian float64 `json:"toc_median,omitempty"`
	TocP95    float64 `json:"toc_p95,omitempty"`
	TocMax    float64 `json:"toc_max,omitempty"`
	Late      int     `json:"late,omitempty"`
	Early     int     `json:"early,omitempty"`
	// meshdist: the distance error |dist - dist_ref| / scale over the
	// placements where neither has a hit and a dist is given (median,
	// 95th percentile, max), the placements with an error above 1e-9
	// (Inexact) or without a dist (DistMissing).
	MeshDist *MeshDistVerdict `json:"meshdist,omitempty"`
}

// Correct reports whether the verdict has no false negative or positive,
// no ccd time of contact off by more than 1e-2, and no meshdist distance
// inexact or missing.
func (v *Verdict) Correct() bool {
	return v.FN == 0 && v.FP == 0 && v.Late == 0 && v.Early == 0 && v.MeshDist.correct()
}

// String summarises v in one line.
func (v *Verdict) String() string {
	s := fmt.Sprintf("judged %d: fn %d fp %d", v.Judged, v.FN, v.FP)
	if v.Ambiguous > 0 {
		s += fmt.Sprintf(" (ambiguous %d)", v.Ambiguous)
	}
	if v.TocMax > 0 || v.Late > 0 || v.Early > 0 {
		s += fmt.Sprintf(", |toc err| median %.2g p95 %.2g max %.2g, late %d early %d", v.TocMedian, v.TocP95, v.TocMax, v.Late, v.Early)
	}
	s += v.MeshDist.String()
	if v.Correct() {
		return s + ": correct"
	}
	return s + ": NOT correct"
}

// TocTolerance is the ccd time-of-contact tolerance of FORMAT.md Sec. 8.
const TocTolerance = 1e-2

func judge(w *Workload, fd *frameData, r *Result) (*Verdict, error) {
	path := filepath.Join(w.Dir, "expected", r.Task+".csv")
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	c, err := openCSV(path, f)
	if err != nil {
		return nil, err
	}
	v := &Verdict{}
	switch r.Task {
	case "narrow":
		idx, err := c.need("frame", "a", "b", "hit", "margin")
		if err != nil {
			return nil, err
		}
		got := map[[3]int]bool{}
		k := 0
		for fr, ps := range fd.pairs {
			for _, p := range ps {
				got[[3]int{fr, int(p.A), int(p.B)}] = r.narrow[k]
				k++
			}
		}
		rad := 0.0
		for _, m := range w.BodyMesh {
			rad += w.Meshes[m].Radius()
		}
		eps := 1e-9 * rad / float64(len(w.BodyMesh))
		for c.next() {
			var key [3]int
			for i, n := range []string{"frame", "a", "b"} {
				if key[i], err = c.int(idx[i], n); err != nil {
					return nil, err
				}
			}
			margin, err := c.float(idx[4], "margin")
			if err != nil {
				return nil, err
			}
			v.Judged++
			hit := got[key]
			switch {
			case hit && margin > eps:
				v.FP++
			case !hit && margin < -eps:
				v.FN++
			case hit != (margin <= 0):
				v.Ambiguous++
			}
		}
	case "broad":
		idx, err := c.need("frame", "a", "b")
		if err != nil {
			return nil, err
		}
		want := map[[3]int]bool{}
		for c.next() {
			var key [3]int
			for i, n := range []string{"frame", "a", "b"} {
				if key[i], err = c.int(idx[i], n); err != nil {
					return nil, err
				}
			}
			want[key] = true
		}
		seen := map[[3]int]bool{}
		for fr, ps := range r.broad {
			for _, p := range ps {
				a, b := int(p.A), int(p.B)
				if a > b {
					a, b = b, a
				}
				key := [3]int{fr, a, b}
				if seen[key] || !want[key] {
					v.FP++ // duplicate or extra
				}
				seen[key] = true
			}
		}
		for key := range want {
			if !seen[key] {
				v.FN++
			}
		}
		v.Judged = len(r.broad)
	case "meshdist":
		if err := judgeMeshdist(c, r, v); err != nil {
			return nil, err
		}
	case "ccd":
		idx, err := c.need("id", "hit", "toc")
		if err != nil {
			return nil, err
		}
		byID := map[int]int{}
		for i, id := range r.queryIDs {
			byID[id] = i
		}
		var errs []float64
		for c.next() {
			id, err := c.int(idx[0], "id")
			if err != nil {
				return nil, err
			}
			h, err := c.int(idx[1], "hit")
			if err != nil {
				return nil, err
			}
			i, ok := byID[id]
			if !ok {
				return nil, c.errf("query id %d is not in the workload", id)
			}
			v.Judged++
			a := r.ccd[i]
			switch {
			case h == 1 && !a.hit:
				v.FN++
			case h == 0 && a.hit:
				v.FP++
			case h == 1:
				t, err := c.float(idx[2], "toc")
				if err != nil {
					return nil, err
				}
				d := a.toc - t
				errs = append(errs, math.Abs(d))
				if d > TocTolerance {
					v.Late++
				} else if d < -TocTolerance {
					v.Early++
				}
			}
		}
		if len(errs) > 0 {
			sort.Float64s(errs)
			v.TocMedian = errs[len(errs)/2]
			v.TocP95 = errs[int(0.95*float64(len(errs)-1))]
			v.TocMax = errs[len(errs)-1]
		}
	}
	if err := c.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return v, nil
}
