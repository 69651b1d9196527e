package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/collide-go/collide/internal/demo/polytopes"
	"github.com/collide-go/collide/internal/plot"
)

// "collide experiment polytopes" runs the experiments of Chung and Wang,
// Sec. 6 (package internal/demo/polytopes) and draws their plots and
// table.

func init() {
	registerDemo(demoSection{order: 40, title: "convex polytopes: separating vector with coherence vs GJK (Chung and Wang, Sec. 6)", run: demoPolytopes})
}

// demoPolytopes runs a small version of the Sec. 6 simulation: 100 mixed
// polytopes of 100 vertices for 40 frames; it prints the statistics and
// writes the histogram of iterations.
func demoPolytopes(e *env, outDir string) error {
	st, err := polytopes.Simulate(polytopes.Config{Shape: "mixed", N: 100, Bodies: 100, Frames: 40, Meshes: 12, Speed: 0.05, RotDeg: 10, Density: 0.05, Seed: 1}, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "100 polytopes of %.0f vertices, 40 frames: %d pair tests, %.1f%% non-colliding\n", st.Verts, st.Tests, 100*float64(st.Separated)/math.Max(1, float64(st.Tests)))
	fmt.Fprintf(e.stdout, "non-colliding tests done in <= 3 iterations: %.1f%%; mean k %.2f, max k %d; methods disagree on %d tests\n",
		100*st.FracKAtMost(st.KSep, 3, st.Separated), st.MeanK(), st.MaxK, st.Disagreements)
	for _, a := range polytopes.Algorithms {
		fmt.Fprintf(e.stdout, "  %-15s %6.0f ns per test\n", a, st.NsPerTest[a])
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return err
	}
	cats := make([]string, kBins)
	for i := range cats {
		cats[i] = strconv.Itoa(i + 1)
	}
	cats[kBins-1] = ">=" + strconv.Itoa(kBins)
	p := filepath.Join(outDir, "convex-k.svg")
	if err := writeSVG(p, &plot.BarChart{Title: "Separating-vector iterations k (100 mixed polytopes, n = 100)", XLabel: "k", YLabel: "% of tests", Categories: cats,
		Series: []plot.BarSeries{{Name: "non-colliding", Values: kHistogram(st.KSep, st.Separated)}, {Name: "all tests", Values: kHistogram(st.KAll, st.Tests)}}}); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", p)
	return nil
}

func parseInts(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 4 {
			return nil, usagef("bad vertex count %q in list (integers >= 4)", f)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseFloats(s, what string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, usagef("bad %s %q (positive numbers)", what, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// expReport is the --json output.
type expReport struct {
	Shapes   []*polytopes.Stats `json:"shapes_by_n"`
	Speed    []*polytopes.Stats `json:"speed"`
	Rotation []*polytopes.Stats `json:"rotation"`
	Density  []*polytopes.Stats `json:"density"`
	Files    []string           `json:"files"`
}

func runExperimentPolytopes(e *env, args []string) error {
	fs := newFlags("experiment polytopes")
	out := fs.String("out", "experiment-out", "directory for the SVG plots and the table")
	bodies := fs.Int("bodies", 500, "polytopes in the box (Sec. 6: 500)")
	frames := fs.Int("frames", 100, "frames per simulation")
	meshes := fs.Int("meshes", 24, "distinct random polytopes per simulation, shared by the bodies")
	nlist := fs.String("n", "10,50,100,250,500,1000", "vertex counts for the max-k plot (Fig. 4 iii)")
	nfig := fs.Int("nfig", 500, "vertex count of the k histograms (Fig. 4 i, ii); must be in --n")
	timeBodies := fs.Int("time-bodies", 100, "polytopes in the timing runs (Sec. 6: 100, mixed shapes)")
	timeN := fs.Int("time-n", 100, "vertices per polytope in the timing runs")
	speeds := fs.String("speeds", "2,5,10,15,20", "translational speeds for Fig. 4 iv, percent of the radius per frame")
	rots := fs.String("rotations", "5,10,20,30,40", "rotational speeds for Fig. 4 v, degrees per frame")
	dens := fs.String("densities", "0.02,0.05,0.1,0.2", "densities (body volume / box volume) for the density plot")
	density := fs.Float64("density", 0.05, "density of the k runs")
	seed := fs.Uint64("seed", 1, "random seed")
	quick := fs.Bool("quick", false, "small settings for a fast check: 60 bodies, 15 frames, n 10,60, two values per sweep")
	asJSON := fs.Bool("json", false, "print the statistics as JSON")
	quiet := fs.Bool("quiet", false, "no progress display")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	if *quick {
		*bodies, *frames, *meshes, *nlist, *nfig = 60, 15, 6, "10,60", 60
		*timeBodies, *timeN, *speeds, *rots, *dens = 40, 20, "2,20", "5,40", "0.05,0.2"
	}
	if *bodies < 2 || *frames < 1 || *timeBodies < 2 || *meshes < 1 {
		return usagef("need --bodies >= 2, --time-bodies >= 2, --frames >= 1, --meshes >= 1")
	}
	if !(*density > 0 && *density < 0.7) {
		return usagef("--density must be in (0, 0.7)")
	}
	ns, err := parseInts(*nlist)
	if err != nil {
		return err
	}
	if *timeN < 4 {
		return usagef("--time-n must be >= 4")
	}
	sp, err := parseFloats(*speeds, "speed")
	if err != nil {
		return err
	}
	rt, err := parseFloats(*rots, "rotation")
	if err != nil {
		return err
	}
	dn, err := parseFloats(*dens, "density")
	if err != nil {
		return err
	}
	for _, d := range dn {
		if d >= 0.7 {
			return usagef("density %g too high (< 0.7)", d)
		}
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	shapeNames := []string{"ellipsoid", "rod", "plate"}
	var configs []polytopes.Config
	for _, sh := range shapeNames {
		for _, n := range ns {
			configs = append(configs, polytopes.Config{Shape: sh, N: n, Bodies: *bodies, Frames: *frames, Meshes: *meshes, Speed: 0.05, RotDeg: 10, Density: *density, Seed: *seed})
		}
	}
	base := polytopes.Config{Shape: "mixed", N: *timeN, Bodies: *timeBodies, Frames: *frames, Meshes: *meshes, Speed: 0.05, RotDeg: 10, Density: *density, Seed: *seed}
	nK := len(configs)
	for _, s := range sp {
		c := base
		c.Speed = s / 100
		configs = append(configs, c)
	}
	for _, r := range rt {
		c := base
		c.RotDeg = r
		configs = append(configs, c)
	}
	for _, d := range dn {
		c := base
		c.Density = d
		configs = append(configs, c)
	}
	prog := newProgress(e.stderr, *quiet || *asJSON, "experiment polytopes")
	totalFrames := len(configs) * *frames
	done := 0
	results := make([]*polytopes.Stats, len(configs))
	for i, c := range configs {
		st, err := polytopes.Simulate(c, func(f int) { prog.update(done+f, totalFrames) })
		if err != nil {
			prog.done()
			return fmt.Errorf("%s n=%d: %w", c.Shape, c.N, err)
		}
		done += c.Frames
		results[i] = st
	}
	prog.done()
	rep := &expReport{Shapes: results[:nK]}
	rep.Speed = results[nK : nK+len(sp)]
	rep.Rotation = results[nK+len(sp) : nK+len(sp)+len(rt)]
	rep.Density = results[nK+len(sp)+len(rt):]
	files, err := writeExperimentPlots(*out, rep, shapeNames, ns, *nfig, sp, rt, dn)
	if err != nil {
		return err
	}
	rep.Files = files
	var table strings.Builder
	writeExperimentTable(&table, rep)
	tpath := filepath.Join(*out, "convex-table.md")
	if err := writeFile(tpath, []byte(table.String())); err != nil {
		return err
	}
	rep.Files = append(rep.Files, tpath)
	if *asJSON {
		return writeJSONIndent(e.stdout, rep, " ")
	}
	fmt.Fprint(e.stdout, table.String())
	fmt.Fprintf(e.stdout, "\nwrote %s\n", strings.Join(rep.Files, ", "))
	return nil
}

func writeSVG(path string, w interface{ WriteSVG(io.Writer) error }) error {
	return createFile(path, w.WriteSVG)
}

const kBins = 12 // histogram bins k = 1..kBins-1 and ">= kBins"

func kHistogram(h []int, total int) []float64 {
	out := make([]float64, kBins)
	if total == 0 {
		return out
	}
	for k, c := range h {
		if k == 0 {
			continue
		}
		i := min(k, kBins) - 1
		out[i] += 100 * float64(c) / float64(total)
	}
	return out
}

func writeExperimentPlots(dir string, rep *expReport, shapes []string, ns []int, nfig int, sp, rt, dn []float64) ([]string, error) {
	var files []string
	add := func(name string, w interface{ WriteSVG(io.Writer) error }) error {
		p := filepath.Join(dir, name)
		files = append(files, p)
		return writeSVG(p, w)
	}
	cats := make([]string, kBins)
	for i := range cats {
		cats[i] = strconv.Itoa(i + 1)
	}
	cats[kBins-1] = ">=" + strconv.Itoa(kBins)
	var hSep, hAll []plot.BarSeries
	for _, st := range rep.Shapes {
		if st.Config.N != nfig {
			continue
		}
		hSep = append(hSep, plot.BarSeries{Name: st.Config.Shape, Values: kHistogram(st.KSep, st.Separated)})
		hAll = append(hAll, plot.BarSeries{Name: st.Config.Shape, Values: kHistogram(st.KAll, st.Tests)})
	}
	if len(hSep) > 0 {
		if err := add("convex-k-noncolliding.svg", &plot.BarChart{
			Title:  fmt.Sprintf("Iterations k, non-colliding tests (n = %d)", nfig),
			XLabel: "k", YLabel: "% of tests", Categories: cats, Series: hSep}); err != nil {
			return nil, err
		}
		if err := add("convex-k-all.svg", &plot.BarChart{
			Title:  fmt.Sprintf("Iterations k, all tests (n = %d)", nfig),
			XLabel: "k", YLabel: "% of tests", Categories: cats, Series: hAll}); err != nil {
			return nil, err
		}
	}
	var maxk, maxkSep []plot.Series
	for _, sh := range shapes {
		s := plot.Series{Name: sh}
		s2 := plot.Series{Name: sh + " (non-colliding)"}
		for _, st := range rep.Shapes {
			if st.Config.Shape == sh {
				s.X = append(s.X, st.Verts)
				s.Y = append(s.Y, float64(st.MaxK))
				s2.X = append(s2.X, st.Verts)
				s2.Y = append(s2.Y, float64(st.MaxKSep))
			}
		}
		maxk, maxkSep = append(maxk, s), append(maxkSep, s2)
	}
	if err := add("convex-maxk.svg", &plot.LinePlot{Title: "Maximum iterations k against vertices n",
		XLabel: "vertices n", YLabel: "maximum k", Series: append(maxk, maxkSep...)}); err != nil {
		return nil, err
	}
	timing := func(name, title, xlabel string, xs []float64, sts []*polytopes.Stats) error {
		var ser []plot.Series
		for _, a := range polytopes.Algorithms {
			s := plot.Series{Name: a}
			for i, st := range sts {
				s.X = append(s.X, xs[i])
				s.Y = append(s.Y, st.NsPerTest[a])
			}
			ser = append(ser, s)
		}
		return add(name, &plot.LinePlot{Title: title, XLabel: xlabel, YLabel: "ns per pair test (CPU time)", Series: ser})
	}
	if err := timing("convex-time-speed.svg", "Time per test against translational speed", "speed, % of radius per frame", sp, rep.Speed); err != nil {
		return nil, err
	}
	if err := timing("convex-time-rotation.svg", "Time per test against rotational speed", "rotation, degrees per frame", rt, rep.Rotation); err != nil {
		return nil, err
	}
	if err := timing("convex-time-density.svg", "Time per test against density", "body volume / box volume", dn, rep.Density); err != nil {
		return nil, err
	}
	return files, nil
}

func writeExperimentTable(w io.Writer, rep *expReport) {
	fmt.Fprintln(w, "| shape | n | tests | non-colliding | k<=3 (non-coll.) | k<=3 (all) | mean k | max k | max k (non-coll.) | restarts | GJK fallbacks | sepvec ns | no cache ns | gjk ns | gjk-warm ns |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
	row := func(label string, st *polytopes.Stats) {
		fmt.Fprintf(w, "| %s | %.0f | %d | %.1f%% | %.2f%% | %.2f%% | %.2f | %d | %d | %d | %d | %.0f | %.0f | %.0f | %.0f |\n",
			label, st.Verts, st.Tests, 100*float64(st.Separated)/math.Max(1, float64(st.Tests)),
			100*st.FracKAtMost(st.KSep, 3, st.Separated), 100*st.FracKAtMost(st.KAll, 3, st.Tests),
			st.MeanK(), st.MaxK, st.MaxKSep, st.Restarts, st.Fallbacks,
			st.NsPerTest["sepvec"], st.NsPerTest["sepvec-nocache"], st.NsPerTest["gjk"], st.NsPerTest["gjk-warm"])
	}
	for _, st := range rep.Shapes {
		row(st.Config.Shape, st)
	}
	for _, st := range rep.Speed {
		row(fmt.Sprintf("mixed, speed %g%%", 100*st.Config.Speed), st)
	}
	for _, st := range rep.Rotation {
		row(fmt.Sprintf("mixed, rotation %g deg", st.Config.RotDeg), st)
	}
	for _, st := range rep.Density {
		row(fmt.Sprintf("mixed, density %g", st.Config.Density), st)
	}
	dis := 0
	for _, l := range [][]*polytopes.Stats{rep.Shapes, rep.Speed, rep.Rotation, rep.Density} {
		for _, st := range l {
			dis += st.Disagreements
		}
	}
	fmt.Fprintf(w, "\nDisagreements between the four methods: %d.\n", dis)
}
