//go:build !unix

package proccpu

import "time"

// CPUTime is not read here.
func CPUTime() time.Duration { return 0 }
