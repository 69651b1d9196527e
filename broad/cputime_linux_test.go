package broad

import (
	"syscall"
	"unsafe"
)

// threadCPU returns the CPU time of the calling OS thread in nanoseconds
// (CLOCK_THREAD_CPUTIME_ID), so benchmarks can report time not inflated by
// other processes on a shared machine. The caller locks its OS thread.
func threadCPU() int64 {
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, 3, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
