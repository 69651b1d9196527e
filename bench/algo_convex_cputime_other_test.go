//go:build !linux

package bench

// convexThreadCPU is unavailable outside Linux.
func convexThreadCPU() int64 { return 0 }
