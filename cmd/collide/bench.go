package main

import (
	"fmt"
	"strings"

	"github.com/collide-go/collide/bench"
)

func runBench(e *env, args []string) error {
	fs := newFlags("bench")
	out := fs.String("out", "", "result directory (required)")
	task := fs.String("task", "", "narrow, broad, ccd, contact or meshdist (default: narrow for frames, ccd for motions, meshdist for placements)")
	algos := fs.String("algo", "", "comma-separated algorithm names (default: all that apply)")
	passes := fs.Int("passes", 0, "timed passes (default 5, fewer for slow passes)")
	asJSON := fs.Bool("json", false, "print the results as a JSON array")
	list := fs.Bool("list", false, "list the algorithms per task and exit")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		for _, t := range []string{"narrow", "broad", "ccd", "contact", "meshdist"} {
			fmt.Fprintf(e.stdout, "%-8s %s\n", t, strings.Join(bench.Algorithms(t), " "))
		}
		return nil
	}
	if len(pos) != 1 {
		return usagef("want exactly one WORKLOAD_DIR, got %d", len(pos))
	}
	if *out == "" {
		return usagef("--out DIR is required")
	}
	w, err := bench.Load(pos[0])
	if err != nil {
		return err
	}
	opt := bench.Options{Task: *task, OutDir: *out, MaxPasses: *passes}
	if *algos != "" {
		opt.Algos = strings.Split(*algos, ",")
	}
	prog := newProgress(e.stderr, *asJSON, "bench "+w.Name)
	opt.Progress = func(algo string, done, total int) { prog.label = "bench " + algo; prog.update(done, total) }
	res, err := bench.Run(w, opt)
	prog.done()
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(e.stdout, res)
	}
	for _, r := range res {
		unit := "ns/query"
		if r.Task == "broad" {
			unit = "ns/frame"
		}
		line := fmt.Sprintf("%-14s %-6s %6d queries  %12.1f %s  (%d passes)", r.Algo, r.Task, r.Queries, r.NSPerQuery, unit, r.Passes)
		if r.Verdict != nil {
			line += "  " + r.Verdict.String()
		}
		fmt.Fprintln(e.stdout, line)
	}
	return nil
}
