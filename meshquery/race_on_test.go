//go:build race

package meshquery

const raceEnabled = true
