package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// newFlags returns a flag set for command c whose errors are returned, not
// printed and exited on.
func newFlags(c string) *flag.FlagSet {
	fs := flag.NewFlagSet(c, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parseFlags parses args allowing flags and positional arguments to be
// interleaved ("collide mesh info a.obj --json"). It returns the positional
// arguments. A "--" ends flag parsing.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if err == flag.ErrHelp {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %v", errUsage, err)
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// parseNoArgs is parseFlags for a command that takes no positional
// arguments.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	return noArgs(pos)
}

// parseFlagsHelp is parseFlags for a command with a long help: on -h it
// prints help and the flags with their defaults to e.stdout and returns
// flag.ErrHelp (exit status 0).
func parseFlagsHelp(e *env, fs *flag.FlagSet, args []string, help string) ([]string, error) {
	pos, err := parseFlags(fs, args)
	if err == flag.ErrHelp {
		fmt.Fprintln(e.stdout, help)
		fs.SetOutput(e.stdout)
		fs.PrintDefaults()
	}
	return pos, err
}

// isTerminal reports whether w is a terminal (a character device), so
// progress output can be shown there and suppressed when piped.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progress prints a one-line progress indicator to w when w is a terminal
// and quiet is false; otherwise it does nothing.
type progress struct {
	w     io.Writer
	on    bool
	label string
	last  int
}

func newProgress(w io.Writer, quiet bool, label string) *progress {
	return &progress{w: w, on: !quiet && isTerminal(w), label: label, last: -1}
}

// update shows done out of total.
func (p *progress) update(done, total int) {
	if !p.on || total <= 0 {
		return
	}
	pct := 100 * done / total
	if pct == p.last {
		return
	}
	p.last = pct
	bar := strings.Repeat("#", pct/5) + strings.Repeat(".", 20-pct/5)
	fmt.Fprintf(p.w, "\r%s [%s] %3d%% (%d/%d)", p.label, bar, pct, done, total)
}

// done clears the progress line.
func (p *progress) done() {
	if p.on && p.last >= 0 {
		fmt.Fprintf(p.w, "\r%s\r", strings.Repeat(" ", len(p.label)+40))
	}
}
