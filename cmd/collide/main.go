// Command collide is the command-line tool of the collide library: every
// capability of the library is reachable from it. Run "collide help" for the
// list of subcommands.
//
// Each subcommand's flags and run function live in its own file, and its
// name, usage and summary in commandTable (commands.go); main dispatches on the longest matching name, so
// "collide mesh info" finds the command named "mesh info".
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand of collide.
type command struct {
	name    string // e.g. "mesh info"
	args    string // usage after the name, e.g. "[--json] FILE..."
	summary string // one line for "collide help"
	// run executes the command with the arguments after its name. Output
	// goes to env.stdout; an error is printed to stderr by main and gives
	// a non-zero exit status.
	run func(env *env, args []string) error
}

// env is what a command may touch: its output streams, so tests can run
// commands in-process.
type env struct {
	stdout, stderr io.Writer
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("collide: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error caused by bad command-line usage.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run is main without os.Exit, for tests: it returns the exit status.
func run(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "collide: internal error: %v\n", r)
			status = 3
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 {
			if c, _ := lookup(args[1:]); c != nil {
				printUsage(stdout, c)
				return 0
			}
		}
		printHelp(stdout)
		return 0
	}
	c, rest := lookup(args)
	if c == nil {
		fmt.Fprintf(stderr, "collide: unknown command %q; run 'collide help'\n", strings.Join(args, " "))
		return 2
	}
	e := &env{stdout: stdout, stderr: stderr}
	if err := c.run(e, rest); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(stderr, "collide %s: %v\n", c.name, err)
		if errors.Is(err, errUsage) {
			printUsage(stderr, c)
			return 2
		}
		return 1
	}
	return 0
}

// lookup finds the command with the longest name matching a prefix of args.
func lookup(args []string) (*command, []string) {
	for n := len(args); n > 0; n-- {
		if c, ok := commands[strings.Join(args[:n], " ")]; ok {
			return c, args[n:]
		}
	}
	return nil, nil
}

func printUsage(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: collide %s %s\n  %s\n", c.name, c.args, c.summary)
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "collide: rigid-body collision detection (screw-motion CCD, elementary CCD,")
	fmt.Fprintln(w, "convex polytopes, time of contact, broad phase).")
	fmt.Fprintln(w, "\nusage: collide COMMAND [flags] [args]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		c := commands[n]
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, c.summary)
		fmt.Fprintf(w, "  %-*s    collide %s %s\n", width, "", n, c.args)
	}
	fmt.Fprintln(w, "\nRun 'collide help COMMAND' for one command; flags go before positional arguments or after them.")
}
