//go:build !linux

package proccpu

import (
	"errors"
	"time"
)

// RunDelay is not read here: threads' schedstat files are Linux's.
func (r *Reader) RunDelay(pid int) (time.Duration, error) {
	return 0, errors.New("run delay: read from /proc/PID/task/TID/schedstat, on Linux only")
}
