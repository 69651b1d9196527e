package bench

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
)

// Verdict is the comparison of an algorithm's answers with a workload's
// expected answers (Sec. 8 and 9 of the benchmark format).
type Verdict struct {
	// Judged is the number of queries compared (narrow: pairs present in
	// expected/narrow.csv; broad: frames; ccd: queries).
	Judged int `json:"judged"`
	// Queries is the number of queries of the workload; it exceeds Judged
	// only for a narrow reference that covers a sample of the pairs, which
	// the format allows for bodies of more than 100 vertices.
	Queries int `json:"queries"`
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
	// Contact: pairs without an sd, pairs whose |sd - sd_ref| exceeds
	// InexactTolerance times the pair's mean bounding radius, that
	// relative error's median, 95th percentile and maximum, and the angle
	// (radians) between n and the reference direction where it is unique.
	SDMissing int     `json:"sd_missing,omitempty"`
	Inexact   int     `json:"inexact,omitempty"`
	SDMedian  float64 `json:"sd_err_median,omitempty"`
	SDP95     float64 `json:"sd_err_p95,omitempty"`
	SDMax     float64 `json:"sd_err_max,omitempty"`
	AngMedian float64 `json:"angle_median,omitempty"`
	AngP95    float64 `json:"angle_p95,omitempty"`
	AngMax    float64 `json:"angle_max,omitempty"`
	contact   bool
	// meshdist: the distance error |dist - dist_ref| / scale over the
	// placements where neither has a hit and a dist is given (median,
	// 95th percentile, max), the placements with an error above 1e-9
	// (Inexact) or without a dist (DistMissing).
	MeshDist *MeshDistVerdict `json:"meshdist,omitempty"`
}

// Correct reports whether the verdict has no false negative or positive,
// no ccd time of contact off by more than 1e-2, for contact an sd for
// every pair and no inexact one, and no meshdist distance inexact or
// missing.
func (v *Verdict) Correct() bool {
	return v.FN == 0 && v.FP == 0 && v.Late == 0 && v.Early == 0 && v.SDMissing == 0 && v.Inexact == 0 && v.MeshDist.correct()
}

// String summarises v in one line.
func (v *Verdict) String() string {
	s := fmt.Sprintf("judged %d queries: fn %d fp %d", v.Judged, v.FN, v.FP)
	if v.Queries > v.Judged {
		s = fmt.Sprintf("judged %d of %d queries (a sample): fn %d fp %d", v.Judged, v.Queries, v.FN, v.FP)
	}
	if v.Ambiguous > 0 {
		s += fmt.Sprintf(" (ambiguous %d)", v.Ambiguous)
	}
	if v.TocMax > 0 || v.Late > 0 || v.Early > 0 {
		s += fmt.Sprintf(", |toc err| median %.2g p95 %.2g max %.2g, late %d early %d", v.TocMedian, v.TocP95, v.TocMax, v.Late, v.Early)
	}
	if v.contact {
		s += v.contactString()
	}
	s += v.MeshDist.String()
	if v.Correct() {
		return s + ": correct"
	}
	return s + ": NOT correct"
}

// TocTolerance is the ccd time-of-contact tolerance of FORMAT.md Sec. 8.
const TocTolerance = 1e-2

// judge compares r with the workload's expected answers, if it has
// them. A reference it cannot use (no rows, a row for a query that does
// not exist or appears twice, a query without a row, a hit other than 0
// or 1, a time of contact outside [0, 1]) is an error naming the file and
// line.
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
	var v *Verdict
	switch r.Task {
	case "narrow":
		v, err = judgeNarrow(c, w, fd, r)
	case "contact":
		v = &Verdict{}
		err = judgeContact(w, fd, r, c, v)
	case "broad":
		v, err = judgeBroad(c, w, fd, r)
	case "meshdist":
		v = &Verdict{}
		err = judgeMeshdist(c, r, v)
	case "ccd":
		v, err = judgeCCD(c, r)
	default:
		return nil, fmt.Errorf("%s: no judge for task %q", path, r.Task)
	}
	if err != nil {
		return nil, err
	}
	if err := c.scanErr(); err != nil {
		return nil, err
	}
	return v, nil
}

// bit reads a 0 or 1 column.
func (c *csvReader) bit(j int, name string) (bool, error) {
	s, err := c.field(j, name)
	if err != nil {
		return false, err
	}
	switch s {
	case "0":
		return false, nil
	case "1":
		return true, nil
	}
	return false, c.errf("column %q: %q is not 0 or 1", name, s)
}

// key reads the frame, a and b columns of a pair row and checks that
// frame is in [0, frames) and 0 <= a < b < bodies.
func (c *csvReader) key(idx []int, frames, bodies int) ([3]int, error) {
	var key [3]int
	var err error
	for i, n := range []string{"frame", "a", "b"} {
		if key[i], err = c.int(idx[i], n); err != nil {
			return key, err
		}
	}
	switch {
	case key[0] < 0 || key[0] >= frames:
		return key, c.errf("frame %d out of range [0, %d)", key[0], frames)
	case key[1] < 0 || key[1] >= key[2] || key[2] >= bodies:
		return key, c.errf("pair %d,%d: want 0 <= a < b < %d", key[1], key[2], bodies)
	}
	return key, nil
}

// noRows is the error of a reference without a single row.
func noRows(c *csvReader, want int, what string) error {
	return fmt.Errorf("%s: no rows after the header, want one per %s (%d)", c.path, what, want)
}

func judgeNarrow(c *csvReader, w *Workload, fd *frameData, r *Result) (*Verdict, error) {
	idx, err := c.need("frame", "a", "b", "hit", "margin")
	if err != nil {
		return nil, err
	}
	// The index of every AABB-overlapping pair in r.narrow.
	at := make(map[[3]int]int, fd.npair)
	k := 0
	for fr, ps := range fd.pairs {
		for _, p := range ps {
			at[[3]int{fr, int(p.A), int(p.B)}] = k
			k++
		}
	}
	rad := 0.0
	for _, m := range w.BodyMesh {
		rad += w.Meshes[m].Radius()
	}
	eps := 1e-9 * rad / float64(len(w.BodyMesh))
	line := make(map[[3]int]int, fd.npair)
	v := &Verdict{}
	for c.next() {
		key, err := c.key(idx, w.Frames, len(w.BodyMesh))
		if err != nil {
			return nil, err
		}
		i, ok := at[key]
		if !ok {
			return nil, c.errf("frame %d pair %d,%d: the bodies' boxes do not overlap, so it is no narrow query", key[0], key[1], key[2])
		}
		if l, dup := line[key]; dup {
			return nil, c.errf("frame %d pair %d,%d: second row (first at line %d)", key[0], key[1], key[2], l)
		}
		line[key] = c.line
		if _, err := c.bit(idx[3], "hit"); err != nil {
			return nil, err
		}
		margin, err := c.float(idx[4], "margin")
		if err != nil {
			return nil, err
		}
		v.Judged++
		hit := r.narrow[i]
		switch {
		case hit && margin > eps:
			v.FP++
		case !hit && margin < -eps:
			v.FN++
		case hit != (margin <= 0):
			v.Ambiguous++
		}
	}
	if v.Judged == 0 && fd.npair > 0 {
		return nil, noRows(c, fd.npair, "pair whose boxes overlap")
	}
	v.Queries = fd.npair
	// The reference of bodies with more than 100 vertices may cover a
	// sample of the pairs (Sec. 8 of the format).
	sample := false
	for _, m := range w.BodyMesh {
		sample = sample || len(w.Meshes[m].Verts) > 100
	}
	if v.Judged < fd.npair && !sample {
		for fr, ps := range fd.pairs {
			for _, p := range ps {
				if _, ok := line[[3]int{fr, int(p.A), int(p.B)}]; !ok {
					return nil, fmt.Errorf("%s: rows for %d of %d queries; no row for frame %d pair %d,%d",
						c.path, v.Judged, fd.npair, fr, p.A, p.B)
				}
			}
		}
	}
	return v, nil
}

func judgeBroad(c *csvReader, w *Workload, fd *frameData, r *Result) (*Verdict, error) {
	idx, err := c.need("frame", "a", "b")
	if err != nil {
		return nil, err
	}
	want := map[[3]int]int{}
	for c.next() {
		key, err := c.key(idx, w.Frames, len(w.BodyMesh))
		if err != nil {
			return nil, err
		}
		if l, dup := want[key]; dup {
			return nil, c.errf("frame %d pair %d,%d: second row (first at line %d)", key[0], key[1], key[2], l)
		}
		want[key] = c.line
	}
	if len(want) == 0 && fd.npair > 0 {
		return nil, noRows(c, fd.npair, "pair whose boxes overlap")
	}
	v := &Verdict{}
	seen := map[[3]int]bool{}
	for fr, ps := range r.broad {
		for _, p := range ps {
			a, b := int(p.A), int(p.B)
			if a > b {
				a, b = b, a
			}
			key := [3]int{fr, a, b}
			if _, ok := want[key]; seen[key] || !ok {
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
	v.Queries = v.Judged
	return v, nil
}

func judgeCCD(c *csvReader, r *Result) (*Verdict, error) {
	idx, err := c.need("id", "hit", "toc")
	if err != nil {
		return nil, err
	}
	byID := map[int]int{}
	for i, id := range r.queryIDs {
		byID[id] = i
	}
	line := make([]int, len(r.ccd))
	v := &Verdict{}
	var errs []float64
	for c.next() {
		id, err := c.int(idx[0], "id")
		if err != nil {
			return nil, err
		}
		i, ok := byID[id]
		if !ok {
			return nil, c.errf("query id %d is not in the workload", id)
		}
		if line[i] != 0 {
			return nil, c.errf("query id %d: second row (first at line %d)", id, line[i])
		}
		line[i] = c.line
		h, err := c.bit(idx[1], "hit")
		if err != nil {
			return nil, err
		}
		var t float64
		if h {
			if t, err = c.float(idx[2], "toc"); err != nil {
				return nil, err
			}
			if t < 0 || t > 1 {
				return nil, c.errf("column \"toc\": %v is outside [0, 1]", t)
			}
		}
		v.Judged++
		a := r.ccd[i]
		switch {
		case h && !a.hit:
			v.FN++
		case !h && a.hit:
			v.FP++
		case h:
			d := a.toc - t
			errs = append(errs, math.Abs(d))
			if d > TocTolerance {
				v.Late++
			} else if d < -TocTolerance {
				v.Early++
			}
		}
	}
	if v.Judged == 0 {
		return nil, noRows(c, len(r.ccd), "query")
	}
	v.Queries = len(r.ccd)
	if v.Judged < len(r.ccd) {
		for i, l := range line {
			if l == 0 {
				return nil, fmt.Errorf("%s: rows for %d of %d queries; no row for query id %d", c.path, v.Judged, len(r.ccd), r.queryIDs[i])
			}
		}
	}
	if len(errs) > 0 {
		sort.Float64s(errs)
		v.TocMedian = errs[len(errs)/2]
		v.TocP95 = errs[int(0.95*float64(len(errs)-1))]
		v.TocMax = errs[len(errs)-1]
	}
	return v, nil
}
