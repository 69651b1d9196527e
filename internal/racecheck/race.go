//go:build race

package racecheck

// Enabled reports whether the binary was built with the race detector.
const Enabled = true
