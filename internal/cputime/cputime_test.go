package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestThreadAdvances: busy work on a locked thread moves the clock
// forward, by no more than the wall time it took (plus a millisecond of
// clock granularity).
func TestThreadAdvances(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	w0, t0 := time.Now(), Thread()
	x := 1.0
	for i := 0; i < 20_000_000; i++ {
		x = x*1.0000001 + 1e-9
	}
	d, wall := Thread()-t0, time.Since(w0)
	if d <= 0 || x == 0 || time.Duration(d) > wall+time.Millisecond {
		t.Fatalf("thread CPU time advanced by %v over 20M steps that took %v of wall time", time.Duration(d), wall)
	}
}
