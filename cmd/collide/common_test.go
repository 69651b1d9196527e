package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runCmd runs collide in-process with args and returns its exit status and
// what it printed.
func runCmd(args ...string) (status int, stdout, stderr string) {
	var o, e bytes.Buffer
	status = run(args, &o, &e)
	return status, o.String(), e.String()
}

// runOK runs collide with args and fails the test unless it exits with
// status 0; it returns the standard output.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	st, out, errs := runCmd(args...)
	if st != 0 {
		t.Fatalf("collide %s: status %d: %s", strings.Join(args, " "), st, errs)
	}
	return out
}

// runJSON runs collide with args as runOK does and decodes its standard
// output into v; it returns the output for messages.
func runJSON(t *testing.T, v any, args ...string) string {
	t.Helper()
	out := runOK(t, args...)
	if err := json.Unmarshal([]byte(out), v); err != nil {
		t.Fatalf("collide %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return out
}

// runSection runs one section of "collide demo" into a temporary directory
// and returns its output and the directory.
func runSection(t *testing.T, section func(e *env, outDir string) error) (out, dir string) {
	t.Helper()
	var b bytes.Buffer
	dir = t.TempDir()
	if err := section(&env{stdout: &b, stderr: &b}, dir); err != nil {
		t.Fatal(err)
	}
	return b.String(), dir
}
