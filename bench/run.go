package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/collide-go/collide/geom"
	"github.com/collide-go/collide/internal/cputime"
)

// Options control Run. The zero value runs every algorithm that applies to
// the workload's default task, with the format's timing rules.
type Options struct {
	// Task is "narrow", "broad", "ccd" or "contact"; "" means the workload kind's
	// default ("narrow" for frames, "ccd" for motions).
	Task string
	// Algos names the algorithms to run; nil means all registered for
	// the task.
	Algos []string
	// OutDir, when not empty, receives OutDir/<algo>/results.csv and
	// timing.json.
	OutDir string
	// MaxPasses caps the timed passes (default: 5 when a pass takes under
	// a second, 3 under ten seconds, else 1).
	MaxPasses int
	// Progress, when not nil, is called with the algorithm name and the
	// number of passes done out of the total.
	Progress func(algo string, done, total int)
}

// Result is the outcome of one algorithm on one workload.
type Result struct {
	Workload   string  `json:"workload"`
	Task       string  `json:"task"`
	Algo       string  `json:"algo"`
	Queries    int     `json:"queries"`
	TotalNS    int64   `json:"total_ns"`
	NSPerQuery float64 `json:"ns_per_query"`
	Passes     int     `json:"passes"`
	MedianNS   int64   `json:"median_total_ns"`
	Threads    int     `json:"threads"`
	// CPUNSPerQuery is the thread CPU time of the pass with the least of
	// it, per query (it includes the pass's untimed bookkeeping): on a
	// shared machine other processes inflate it less than wall time.
	CPUNSPerQuery float64 `json:"cpu_ns_per_query,omitempty"`
	// Verdict compares the answers with the workload's expected/ files
	// when they exist (nil otherwise).
	Verdict *Verdict `json:"verdict,omitempty"`

	narrow   []bool // per narrow pair, in Frames order
	broad    [][]Pair
	ccd      []ccdAnswer
	contact  []ContactAnswer
	meshdist []meshdistAnswer
	queryIDs []int
}

type ccdAnswer struct {
	hit bool
	toc float64
}

// DefaultTask returns the default task of a workload kind.
func DefaultTask(kind string) string {
	if kind == "motions" {
		return "ccd"
	}
	if kind == "placements" {
		return "meshdist"
	}
	return "narrow"
}

// Run answers every query of w with each selected algorithm, timed as
// the benchmark format (FORMAT.md Sec. 7) prescribes, writes the result
// directories when opt.OutDir is set, and judges against expected/ answers
// when present.
func Run(w *Workload, opt Options) ([]Result, error) {
	task := opt.Task
	if task == "" {
		task = DefaultTask(w.Kind)
	}
	switch {
	case (task == "narrow" || task == "broad" || task == "contact") && w.Kind != "frames",
		task == "ccd" && w.Kind != "motions",
		task == "meshdist" && w.Kind != "placements":
		return nil, fmt.Errorf("task %q does not apply to a %q workload", task, w.Kind)
	case task != "narrow" && task != "broad" && task != "ccd" && task != "contact" && task != "meshdist":
		return nil, fmt.Errorf("unknown task %q (want narrow, broad, ccd, contact or meshdist)", task)
	}
	algos := opt.Algos
	if len(algos) == 0 {
		algos = Algorithms(task)
		if len(algos) == 0 {
			return nil, fmt.Errorf("no algorithm is registered for task %q", task)
		}
	}
	for _, a := range algos {
		e, ok := registry[a]
		if !ok {
			return nil, fmt.Errorf("unknown algorithm %q (for task %s: %s)", a, task, strings.Join(Algorithms(task), ", "))
		}
		if e.task != task {
			return nil, fmt.Errorf("algorithm %q is for task %s, not %s", a, e.task, task)
		}
	}
	var fd *frameData
	if w.Kind == "frames" {
		fd = prepareFrames(w)
	}
	var out []Result
	for _, a := range algos {
		r, err := runOne(w, fd, task, registry[a], opt)
		if err != nil {
			return out, fmt.Errorf("%s: %w", a, err)
		}
		if v, err := judge(w, fd, &r); err != nil {
			return out, fmt.Errorf("%s: judging: %w", a, err)
		} else {
			r.Verdict = v
		}
		if opt.OutDir != "" {
			if err := write(opt.OutDir, fd, &r); err != nil {
				return out, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// frameData is the untimed per-frame input: transforms, world AABBs and
// AABB-overlapping pairs.
type frameData struct {
	tf    [][]geom.Transform
	boxes [][]geom.AABB
	pairs [][]Pair
	npair int
}

func prepareFrames(w *Workload) *frameData {
	nb := len(w.BodyMesh)
	fd := &frameData{}
	for f := 0; f < w.Frames; f++ {
		tf := make([]geom.Transform, nb)
		bx := make([]geom.AABB, nb)
		for b := 0; b < nb; b++ {
			tf[b] = w.Poses[f][b].Transform()
			box := geom.EmptyAABB()
			for _, v := range w.Meshes[w.BodyMesh[b]].Verts {
				box = box.AddPoint(tf[b].Apply(v))
			}
			bx[b] = box
		}
		var ps []Pair
		for a := 0; a < nb; a++ {
			for b := a + 1; b < nb; b++ {
				if bx[a].Overlaps(bx[b]) {
					ps = append(ps, Pair{A: int32(a), B: int32(b)})
				}
			}
		}
		fd.tf = append(fd.tf, tf)
		fd.boxes = append(fd.boxes, bx)
		fd.pairs = append(fd.pairs, ps)
		fd.npair += len(ps)
	}
	return fd
}

// narrowPass runs alg on every pair of every frame, frame by frame (with
// TestFrame when alg has it), and sets hits in the order of the pair lists.
func narrowPass(alg NarrowAlgo, fd *frameData, hits []bool) {
	k := 0
	if fa, ok := alg.(FrameNarrowAlgo); ok {
		for f, ps := range fd.pairs {
			fa.TestFrame(f, fd.tf[f], ps, hits[k:k+len(ps)])
			k += len(ps)
		}
		return
	}
	for f, ps := range fd.pairs {
		tf := fd.tf[f]
		for _, p := range ps {
			hits[k] = alg.Test(f, int(p.A), int(p.B), &tf[p.A], &tf[p.B])
			k++
		}
	}
}

func runOne(w *Workload, fd *frameData, task string, e *entry, opt Options) (Result, error) {
	r := Result{Workload: w.Name, Task: task, Algo: e.name, Threads: 1}
	var pass func(record bool) time.Duration
	switch task {
	case "narrow":
		alg, err := e.narrow(w)
		if err != nil {
			return r, err
		}
		r.Queries = fd.npair
		r.narrow = make([]bool, fd.npair)
		pass = func(bool) time.Duration {
			alg.Reset()
			start := time.Now()
			narrowPass(alg, fd, r.narrow)
			return time.Since(start)
		}
	case "broad":
		alg, err := e.broad(w)
		if err != nil {
			return r, err
		}
		r.Queries = w.Frames
		r.broad = make([][]Pair, w.Frames)
		var dst []Pair
		pass = func(record bool) time.Duration {
			alg.Reset()
			var total time.Duration
			for f, bx := range fd.boxes {
				start := time.Now()
				dst = alg.Frame(bx, dst[:0])
				total += time.Since(start)
				if record {
					r.broad[f] = append(r.broad[f][:0], dst...)
				}
			}
			return total
		}
	case "contact":
		var err error
		if pass, err = contactRun(w, fd, e, &r); err != nil {
			return r, err
		}
	case "ccd":
		alg, err := e.ccd(w)
		if err != nil {
			return r, err
		}
		r.Queries = len(w.Queries)
		r.ccd = make([]ccdAnswer, len(w.Queries))
		for _, q := range w.Queries {
			r.queryIDs = append(r.queryIDs, q.ID)
		}
		pass = func(bool) time.Duration {
			qs := w.Queries
			ans := r.ccd
			start := time.Now()
			for i := range qs {
				ans[i].hit, ans[i].toc = alg.Query(&qs[i])
			}
			return time.Since(start)
		}
	case "meshdist":
		p, err := meshdistPass(w, e, &r)
		if err != nil {
			return r, err
		}
		pass = p
	}
	warm := pass(true)
	n := opt.MaxPasses
	if n <= 0 {
		switch {
		case warm < time.Second:
			n = 5
		case warm < 10*time.Second:
			n = 3
		default:
			n = 1
		}
	}
	times := make([]time.Duration, 0, n)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var cpu int64 = -1
	for i := 0; i < n; i++ {
		if opt.Progress != nil {
			opt.Progress(e.name, i, n)
		}
		c0 := cputime.Thread()
		times = append(times, pass(false))
		if c := cputime.Thread() - c0; cpu < 0 || c < cpu {
			cpu = c
		}
	}
	if r.Queries > 0 && cpu > 0 {
		r.CPUNSPerQuery = float64(cpu) / float64(r.Queries)
	}
	if opt.Progress != nil {
		opt.Progress(e.name, n, n)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	r.Passes = n
	r.TotalNS = times[0].Nanoseconds()
	r.MedianNS = times[len(times)/2].Nanoseconds()
	if r.Queries > 0 {
		r.NSPerQuery = float64(r.TotalNS) / float64(r.Queries)
	}
	return r, nil
}

// write stores results.csv and timing.json under dir/<algo>/.
func write(dir string, fd *frameData, r *Result) error {
	d := filepath.Join(dir, r.Algo)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	var b strings.Builder
	switch r.Task {
	case "narrow":
		b.WriteString("frame,a,b,hit\n")
		k := 0
		for f, ps := range fd.pairs {
			for _, p := range ps {
				h := 0
				if r.narrow[k] {
					h = 1
				}
				fmt.Fprintf(&b, "%d,%d,%d,%d\n", f, p.A, p.B, h)
				k++
			}
		}
	case "broad":
		b.WriteString("frame,a,b\n")
		for f, ps := range r.broad {
			for _, p := range ps {
				a, c := p.A, p.B
				if a > c {
					a, c = c, a
				}
				fmt.Fprintf(&b, "%d,%d,%d\n", f, a, c)
			}
		}
	case "contact":
		writeContact(&b, fd, r)
	case "ccd":
		b.WriteString("id,hit,toc\n")
		for i, a := range r.ccd {
			id := strconv.Itoa(i)
			if r.queryIDs != nil {
				id = strconv.Itoa(r.queryIDs[i])
			}
			if a.hit {
				fmt.Fprintf(&b, "%s,1,%s\n", id, strconv.FormatFloat(a.toc, 'g', 17, 64))
			} else {
				fmt.Fprintf(&b, "%s,0,\n", id)
			}
		}
	case "meshdist":
		writeMeshdist(&b, r)
	}
	if err := os.WriteFile(filepath.Join(d, "results.csv"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	tj := fmt.Sprintf(`{"workload":%q,"task":%q,"algo":%q,"queries":%d,"total_ns":%d,"ns_per_query":%s,"passes":%d,"median_total_ns":%d,"threads":1}`+"\n",
		r.Workload, r.Task, r.Algo, r.Queries, r.TotalNS, strconv.FormatFloat(r.NSPerQuery, 'f', -1, 64), r.Passes, r.MedianNS)
	return os.WriteFile(filepath.Join(d, "timing.json"), []byte(tj), 0o644)
}
