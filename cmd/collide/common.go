package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Helpers shared by the commands: usage errors, JSON output and output
// files. Flag parsing and the progress line are in flags.go.

// usagef returns a usage error: errUsage followed by the formatted message,
// so main prints the command's usage line after it.
func usagef(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}

// noArgs returns a usage error naming the first positional argument of a
// command that takes none, or nil when there is none.
func noArgs(pos []string) error {
	if len(pos) != 0 {
		return usagef("unexpected argument %q", pos[0])
	}
	return nil
}

// writeJSON writes v to w as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}

// writeJSONIndent writes v to w as indented JSON, each level indented by
// indent.
func writeJSONIndent(w io.Writer, v any, indent string) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", indent)
	return enc.Encode(v)
}

// createFile creates the file path (and its directory) and lets write fill
// it; it returns the first error of the three.
func createFile(path string, write func(io.Writer) error) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	err = write(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeFile writes data to the file path, creating its directory.
func writeFile(path string, data []byte) error {
	return createFile(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
