//go:build !unix

package proccpu

import "time"

// cpuTime is not read here.
func cpuTime() time.Duration { return 0 }
