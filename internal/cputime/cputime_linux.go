package cputime

import (
	"syscall"
	"time"
	"unsafe"
)

// Thread returns the CPU time of the calling OS thread in nanoseconds
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), or the wall clock when that
// clock cannot be read.
func Thread() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return time.Now().UnixNano()
	}
	return ts.Nano()
}
