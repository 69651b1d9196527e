package bench

import (
	"fmt"
	"math"
	"sort"
)

// MeshDistTolerance is the relative distance tolerance of the meshdist
// judgement (FORMAT.md Sec. 8): an error above it times the pair's scale
// is inexact, and a reference distance at most it times the scale makes a
// false positive ambiguous.
const MeshDistTolerance = 1e-9

// MeshDistVerdict is the distance part of a meshdist verdict.
type MeshDistVerdict struct {
	// Compared is the number of placements where neither answer is a hit
	// and the algorithm gives a distance.
	Compared int `json:"compared"`
	// ErrMedian, ErrP95 and ErrMax summarise |dist - dist_ref| / scale.
	ErrMedian float64 `json:"err_median"`
	ErrP95    float64 `json:"err_p95"`
	ErrMax    float64 `json:"err_max"`
	// Inexact counts errors above MeshDistTolerance; DistMissing the
	// placements without a hit on either side and without a distance.
	Inexact     int `json:"inexact"`
	DistMissing int `json:"dist_missing"`
}

func (m *MeshDistVerdict) correct() bool { return m == nil || m.Inexact == 0 && m.DistMissing == 0 }

// String summarises the distance judgement (empty for a nil verdict).
func (m *MeshDistVerdict) String() string {
	if m == nil {
		return ""
	}
	return fmt.Sprintf(", dist err/scale median %.2g p95 %.2g max %.2g over %d, inexact %d, dist missing %d",
		m.ErrMedian, m.ErrP95, m.ErrMax, m.Compared, m.Inexact, m.DistMissing)
}

// judgeMeshdist compares r's meshdist answers with expected/meshdist.csv
// (header id,hit,dist,scale) as FORMAT.md Sec. 8 prescribes.
func judgeMeshdist(c *csvReader, r *Result, v *Verdict) error {
	idx, err := c.need("id", "hit", "dist", "scale")
	if err != nil {
		return err
	}
	byID := map[int]int{}
	for i, id := range r.queryIDs {
		byID[id] = i
	}
	m := &MeshDistVerdict{}
	var errs []float64
	for c.next() {
		id, err := c.int(idx[0], "id")
		if err != nil {
			return err
		}
		h, err := c.int(idx[1], "hit")
		if err != nil {
			return err
		}
		scale, err := c.float(idx[3], "scale")
		if err != nil {
			return err
		}
		i, ok := byID[id]
		if !ok {
			return c.errf("placement id %d is not in the workload", id)
		}
		v.Judged++
		a := r.meshdist[i]
		if h == 1 {
			if !a.hit {
				v.FN++
			}
			continue
		}
		ref, err := c.float(idx[2], "dist")
		if err != nil {
			return err
		}
		switch {
		case a.hit && ref <= MeshDistTolerance*scale:
			v.Ambiguous++
		case a.hit:
			v.FP++
		case math.IsNaN(a.dist) || math.IsInf(a.dist, 0):
			m.DistMissing++
		default:
			e := math.Abs(a.dist-ref) / scale
			errs = append(errs, e)
			if e > MeshDistTolerance {
				m.Inexact++
			}
		}
	}
	if len(errs) > 0 {
		sort.Float64s(errs)
		m.Compared = len(errs)
		m.ErrMedian = errs[len(errs)/2]
		m.ErrP95 = errs[int(0.95*float64(len(errs)-1))]
		m.ErrMax = errs[len(errs)-1]
	}
	v.MeshDist = m
	return nil
}
