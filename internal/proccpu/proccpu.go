// Package proccpu reads what this process has had of the machine's CPUs:
// its CPU time, and how long its threads have waited for a CPU that
// other processes had (of this process, or of another by its pid). The
// fair-play budget (jobs.Budget) uses both to keep the analyses to a
// share of what the process gets; the load generator (load/) reads them
// for itself and for the server it runs as a child process.
package proccpu

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"
)

// Self returns this process's CPU time (user and system; 0 where it
// cannot be read) and the sum of its threads' waits for a CPU (Linux's
// /proc/self/task/TID/schedstat; 0 elsewhere).
func Self() (cpu, wait time.Duration) { return new(Reader).Self() }

// RunDelay is how long the threads of process pid have been ready to run
// but waited for a CPU that others had: the second field of
// /proc/PID/task/TID/schedstat, summed (Linux; elsewhere an error). On a
// shared machine it is the part of a run's latencies that is not the
// process's own doing.
func RunDelay(pid int) (time.Duration, error) { return new(Reader).RunDelay(pid) }

// Reader reads the same as Self and RunDelay, again and again, into
// buffers of its own: a thread's schedstat costs one small allocation
// (its path for the system call), not a file's and a directory entry's
// worth. The fair-play and warming budgets keep one each, and read it
// as their work goes (jobs.Budget, at most every 10 ms). A Reader is
// safe for concurrent use; the zero value is ready.
type Reader struct {
	mu      sync.Mutex
	dirents []byte // the task directory's entries, as the kernel gives them
	path    []byte
}

// Self is Self, read with r's buffers.
func (r *Reader) Self() (cpu, wait time.Duration) {
	wait, _ = r.RunDelay(os.Getpid())
	return CPUTime(), wait
}

// parseSchedstat returns the second field of a schedstat file's text
// (the time its thread has waited for a CPU, in nanoseconds).
func parseSchedstat(b []byte) (time.Duration, error) {
	f := 0
	for len(b) > 0 {
		i := 0
		for i < len(b) && b[i] != ' ' && b[i] != '\n' {
			i++
		}
		if i > 0 {
			if f == 1 {
				ns, err := strconv.ParseInt(string(b[:i]), 10, 64)
				if err != nil {
					return 0, fmt.Errorf("schedstat: %w", err)
				}
				return time.Duration(ns), nil
			}
			f++
		}
		b = b[min(i+1, len(b)):]
	}
	return 0, errors.New("schedstat: too few fields")
}
