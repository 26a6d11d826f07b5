//go:build !linux

package diff_test

import "time"

// threadCPU is known on Linux only.
func threadCPU() (time.Duration, bool) { return 0, false }
