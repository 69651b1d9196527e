package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/collide-go/collide/ccd"
)

func init() {
	register(&command{
		name:    "ccd-queries",
		args:    "[--method NAME] [--answers] [--kind vf|ee] [--json] [--quiet] FILE.csv...",
		summary: "run elementary CCD (vertex-face, edge-edge) on benchmark query files and count false negatives/positives",
		run:     runCCDQueries,
	})
}

// ccdSummary is the summary of one file or of all files.
type ccdSummary struct {
	File      string  `json:"file,omitempty"`
	Kind      string  `json:"kind,omitempty"`
	Queries   int     `json:"queries"`
	Positives int     `json:"positives"`
	FN        int     `json:"fn"`
	FP        int     `json:"fp"`
	MeanNS    float64 `json:"mean_ns"`
	MedianNS  float64 `json:"median_ns"`
}

func runCCDQueries(e *env, args []string) error {
	fs := newFlags("ccd-queries")
	method := fs.String("method", "", fmt.Sprintf("algorithm: %v (default %s)", ccd.Methods(), ccd.Methods()[0]))
	answers := fs.Bool("answers", false, "print CSV file,query,hit,toi instead of the summary")
	kindFlag := fs.String("kind", "", "query kind vf or ee (default: from a parent folder named vertex-face or edge-edge)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	quiet := fs.Bool("quiet", false, "no progress output")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%w: no FILE.csv given", errUsage)
	}
	m, err := ccd.ParseMethod(*method)
	if err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	var fixedKind *ccd.Kind
	if *kindFlag != "" {
		k, err := ccd.ParseKind(*kindFlag)
		if err != nil {
			return fmt.Errorf("%w: %v", errUsage, err)
		}
		fixedKind = &k
	}
	if *answers && *asJSON {
		return fmt.Errorf("%w: --answers and --json exclude each other", errUsage)
	}
	opt := ccd.Options{Method: m}
	var sums []ccdSummary
	var allNS []float64
	total := ccdSummary{}
	if *answers {
		fmt.Fprintln(e.stdout, "file,query,hit,toi")
	}
	prog := newProgress(e.stderr, *quiet || *answers, "ccd-queries")
	for fi, path := range files {
		kind, err := ccdFileKind(path, fixedKind)
		if err != nil {
			return err
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		qs, truth, err := ccd.ParseQueries(f, path, kind)
		f.Close()
		if err != nil {
			return err
		}
		s := ccdSummary{File: path, Kind: kind.String(), Queries: len(qs)}
		ns := make([]float64, len(qs))
		for i := range qs {
			r, el := ccdTimeQuery(&qs[i], opt)
			if r.Status == ccd.Invalid {
				return fmt.Errorf("%s: query %d: %v", path, i, qs[i].Validate())
			}
			ns[i] = el
			hit := r.Hit()
			if truth[i] {
				s.Positives++
				if !hit {
					s.FN++
				}
			} else if hit {
				s.FP++
			}
			if *answers {
				toi := ""
				h := 0
				if hit {
					h = 1
					toi = strconv.FormatFloat(r.TOI, 'g', -1, 64)
				}
				fmt.Fprintf(e.stdout, "%s,%d,%d,%s\n", path, i, h, toi)
			}
		}
		s.MeanNS, s.MedianNS = ccdMeanMedian(ns)
		allNS = append(allNS, ns...)
		sums = append(sums, s)
		total.Queries += s.Queries
		total.Positives += s.Positives
		total.FN += s.FN
		total.FP += s.FP
		prog.update(fi+1, len(files))
	}
	prog.done()
	total.MeanNS, total.MedianNS = ccdMeanMedian(allNS)
	if *answers {
		return nil
	}
	if *asJSON {
		out := struct {
			Method string       `json:"method"`
			Files  []ccdSummary `json:"files"`
			Total  ccdSummary   `json:"total"`
		}{m.String(), sums, total}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "method %s\t\t\t\t\t\t\t\n", m)
	fmt.Fprintln(tw, "file\tkind\tqueries\tpositives\tfn\tfp\tmean_ns\tmedian_ns\t")
	for _, s := range append(sums, total) {
		name, kind := s.File, s.Kind
		if name == "" {
			name, kind = "total", "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d\t%d\t%.0f\t%.0f\t\n", name, kind, s.Queries, s.Positives, s.FN, s.FP, s.MeanNS, s.MedianNS)
	}
	return tw.Flush()
}

// ccdFileKind is the fixed kind, or the kind named by the nearest parent
// folder called vertex-face or edge-edge.
func ccdFileKind(path string, fixed *ccd.Kind) (ccd.Kind, error) {
	if fixed != nil {
		return *fixed, nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		switch filepath.Base(dir) {
		case "vertex-face":
			return ccd.KindVertexFace, nil
		case "edge-edge":
			return ccd.KindEdgeEdge, nil
		}
		if parent := filepath.Dir(dir); parent == dir {
			break
		}
	}
	return 0, fmt.Errorf("%w: %s: no parent folder named vertex-face or edge-edge; give --kind vf or --kind ee", errUsage, path)
}

// ccdTimeQuery answers q and returns the time per query in nanoseconds. Fast
// queries are repeated so the clock's own cost is negligible.
func ccdTimeQuery(q *ccd.Query, opt ccd.Options) (ccd.Result, float64) {
	st := time.Now()
	r := q.Test(opt)
	el := time.Since(st)
	if el >= 20*time.Microsecond {
		return r, float64(el.Nanoseconds())
	}
	reps := 16
	st = time.Now()
	for i := 0; i < reps; i++ {
		q.Test(opt)
	}
	return r, float64(time.Since(st).Nanoseconds()) / float64(reps)
}

func ccdMeanMedian(x []float64) (mean, median float64) {
	if len(x) == 0 {
		return 0, 0
	}
	s := append([]float64(nil), x...)
	sort.Float64s(s)
	sum := 0.0
	for _, v := range s {
		sum += v
	}
	n := len(s)
	median = s[n/2]
	if n%2 == 0 {
		median = 0.5 * (s[n/2-1] + s[n/2])
	}
	return sum / float64(n), median
}
