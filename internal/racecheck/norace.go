//go:build !race

// Package racecheck tells tests whether the race detector is on: it adds
// allocations of its own, so allocation counts (testing.AllocsPerRun) are
// only meaningful without it.
package racecheck

// Enabled reports whether the binary was built with the race detector.
const Enabled = false
