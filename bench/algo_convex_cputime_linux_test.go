package bench

import (
	"syscall"
	"unsafe"
)

// convexThreadCPU returns the CPU time of the calling OS thread in nanoseconds
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), 0 when unavailable.
func convexThreadCPU() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0
	}
	return ts.Nano()
}
