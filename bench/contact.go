package bench

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/collide-go/collide/geom"
)

// ContactAnswer is an algorithm's answer to one "contact" query (FORMAT.md
// Sec. 5): whether the solids intersect (touching counts), their signed
// distance and its direction (unit, world frame, from A towards B). HasSD
// and HasN are false where the algorithm gives no value.
type ContactAnswer struct {
	Hit   bool
	SD    float64
	N     geom.Vec3
	HasSD bool
	HasN  bool
}

// ContactAlgo answers "contact" queries of a frames workload. It is made
// once per workload (untimed preprocessing); Reset is called before every
// pass, then Contact for every AABB-overlapping pair of every frame, frames
// in order.
type ContactAlgo interface {
	Reset()
	Contact(frame, a, b int, ta, tb *geom.Transform, out *ContactAnswer)
}

// FrameContactAlgo is a ContactAlgo that can also answer a whole frame's
// pairs in one call (for instance one foreign-function call per frame);
// Run calls it, and times all of it, when an algorithm has it.
type FrameContactAlgo interface {
	ContactAlgo
	// ContactFrame sets out[k] to the answer for pairs[k]; tf[b] is body
	// b's transform in this frame.
	ContactFrame(frame int, tf []geom.Transform, pairs []Pair, out []ContactAnswer)
}

// ContactFactory builds a contact algorithm for a workload (untimed).
type ContactFactory func(w *Workload) (ContactAlgo, error)

// RegisterContact registers a contact (signed distance) algorithm under
// name.
func RegisterContact(name string, f ContactFactory) {
	add(&entry{name: name, task: "contact", contact: f})
}

// contactPass runs alg on every pair of every frame and fills out in the
// order of the pair lists.
func contactPass(alg ContactAlgo, fd *frameData, out []ContactAnswer) {
	k := 0
	if fa, ok := alg.(FrameContactAlgo); ok {
		for f, ps := range fd.pairs {
			fa.ContactFrame(f, fd.tf[f], ps, out[k:k+len(ps)])
			k += len(ps)
		}
		return
	}
	for f, ps := range fd.pairs {
		tf := fd.tf[f]
		for _, p := range ps {
			alg.Contact(f, int(p.A), int(p.B), &tf[p.A], &tf[p.B], &out[k])
			k++
		}
	}
}

// contactRun prepares the timed pass of a contact algorithm.
func contactRun(w *Workload, fd *frameData, e *entry, r *Result) (func(bool) time.Duration, error) {
	alg, err := e.contact(w)
	if err != nil {
		return nil, err
	}
	r.Queries = fd.npair
	r.contact = make([]ContactAnswer, fd.npair)
	return func(bool) time.Duration {
		alg.Reset()
		clear(r.contact)
		start := time.Now()
		contactPass(alg, fd, r.contact)
		return time.Since(start)
	}, nil
}

// writeContact formats results.csv for the contact task.
func writeContact(b *strings.Builder, fd *frameData, r *Result) {
	b.WriteString("frame,a,b,hit,sd,nx,ny,nz\n")
	k := 0
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 17, 64) }
	for f, ps := range fd.pairs {
		for _, p := range ps {
			a := &r.contact[k]
			h := 0
			if a.Hit {
				h = 1
			}
			sd, nx, ny, nz := "", "", "", ""
			if a.HasSD {
				sd = g(a.SD)
			}
			if a.HasN {
				nx, ny, nz = g(a.N.X), g(a.N.Y), g(a.N.Z)
			}
			fmt.Fprintf(b, "%d,%d,%d,%d,%s,%s,%s,%s\n", f, p.A, p.B, h, sd, nx, ny, nz)
			k++
		}
	}
}

// InexactTolerance is the relative signed-distance error beyond which a
// contact answer is inexact (FORMAT.md Sec. 8).
const InexactTolerance = 1e-6

// judgeContact compares contact answers with expected/contact.csv as
// FORMAT.md Sec. 8 prescribes.
func judgeContact(w *Workload, fd *frameData, r *Result, c *csvReader, v *Verdict) error {
	idx, err := c.need("frame", "a", "b", "hit", "sd", "nx", "ny", "nz", "unique")
	if err != nil {
		return err
	}
	got := map[[3]int]*ContactAnswer{}
	k := 0
	for fr, ps := range fd.pairs {
		for _, p := range ps {
			got[[3]int{fr, int(p.A), int(p.B)}] = &r.contact[k]
			k++
		}
	}
	rad := 0.0
	for _, m := range w.BodyMesh {
		rad += w.Meshes[m].Radius()
	}
	eps := 1e-9 * rad / float64(len(w.BodyMesh))
	var sdErr, angErr []float64
	for c.next() {
		var key [3]int
		for i, n := range []string{"frame", "a", "b"} {
			if key[i], err = c.int(idx[i], n); err != nil {
				return err
			}
		}
		sd, err := c.float(idx[4], "sd")
		if err != nil {
			return err
		}
		var n [3]float64
		for i, name := range []string{"nx", "ny", "nz"} {
			if n[i], err = c.float(idx[5+i], name); err != nil {
				return err
			}
		}
		unique, err := c.int(idx[8], "unique")
		if err != nil {
			return err
		}
		v.Judged++
		a := got[key]
		if a == nil {
			a = &ContactAnswer{}
		}
		switch {
		case a.Hit && sd > eps:
			v.FP++
		case !a.Hit && sd < -eps:
			v.FN++
		case a.Hit != (sd <= 0):
			v.Ambiguous++
		}
		if !a.HasSD {
			v.SDMissing++
			continue
		}
		if key[1] >= len(w.BodyMesh) || key[2] >= len(w.BodyMesh) {
			return c.errf("body %d or %d not in the workload", key[1], key[2])
		}
		scale := (w.Meshes[w.BodyMesh[key[1]]].Radius() + w.Meshes[w.BodyMesh[key[2]]].Radius()) / 2
		e := math.Abs(a.SD-sd) / scale
		sdErr = append(sdErr, e)
		if !(e <= InexactTolerance) {
			v.Inexact++
		}
		if unique == 1 && a.HasN {
			ref := geom.Vec3{X: n[0], Y: n[1], Z: n[2]}
			angErr = append(angErr, math.Atan2(a.N.Cross(ref).Norm(), a.N.Dot(ref)))
		}
	}
	v.SDMedian, v.SDP95, v.SDMax = summary(sdErr)
	v.AngMedian, v.AngP95, v.AngMax = summary(angErr)
	v.contact = true
	return nil
}

// summary returns the median, 95th percentile and maximum of xs (sorted in
// place).
func summary(xs []float64) (med, p95, mx float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	sort.Float64s(xs)
	return xs[len(xs)/2], xs[int(0.95*float64(len(xs)-1))], xs[len(xs)-1]
}

// contactString is the contact part of Verdict.String.
func (v *Verdict) contactString() string {
	return fmt.Sprintf(", sd missing %d inexact %d, |sd err|/r median %.2g p95 %.2g max %.2g, angle median %.2g p95 %.2g max %.2g",
		v.SDMissing, v.Inexact, v.SDMedian, v.SDP95, v.SDMax, v.AngMedian, v.AngP95, v.AngMax)
}
