//go:build !unix

package load

import "time"

// cpuTime is not measured here.
func cpuTime() time.Duration { return 0 }
