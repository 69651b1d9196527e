//go:build !linux

package broad

import (
	"time"
)

// threadCPU falls back to the wall clock where the thread CPU clock is not
// available.
func threadCPU() int64 { return time.Now().UnixNano() }
