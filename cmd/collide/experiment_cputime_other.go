//go:build !linux

package main

import "time"

// threadCPU falls back to wall time where per-thread CPU time is not
// available.
func threadCPU() time.Duration { return time.Duration(time.Now().UnixNano()) }

func lockThread() func() { return func() {} }
