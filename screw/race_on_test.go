//go:build race

package screw

// raceEnabled is set under the race detector, whose instrumentation
// allocates: allocation counts are not checked then.
const raceEnabled = true
