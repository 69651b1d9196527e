package main

import (
	"fmt"
	"sort"
)

// demoSection is one part of "collide demo"; sections run in order of
// their order key, so each algorithm family adds its own section from its
// own file.
type demoSection struct {
	order int
	title string
	run   func(e *env, outDir string) error
}

var demoSections []demoSection

func registerDemo(s demoSection) { demoSections = append(demoSections, s) }

func runDemo(e *env, args []string) error {
	fs := newFlags("demo")
	out := fs.String("out", "demo-out", "directory for pictures written by the demo")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	sort.SliceStable(demoSections, func(i, j int) bool { return demoSections[i].order < demoSections[j].order })
	for _, s := range demoSections {
		fmt.Fprintf(e.stdout, "== %s ==\n", s.title)
		if err := s.run(e, *out); err != nil {
			return fmt.Errorf("%s: %w", s.title, err)
		}
		fmt.Fprintln(e.stdout)
	}
	return nil
}
