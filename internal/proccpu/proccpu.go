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
	"strings"
	"time"
)

// Self returns this process's CPU time (user and system; 0 where it
// cannot be read) and the sum of its threads' waits for a CPU (Linux's
// /proc/self/task/TID/schedstat; 0 elsewhere).
func Self() (cpu, wait time.Duration) {
	wait, _ = RunDelay(os.Getpid())
	return CPUTime(), wait
}

// RunDelay is how long the threads of process pid have been ready to run
// but waited for a CPU that others had: the second field of
// /proc/PID/task/TID/schedstat, summed (Linux; elsewhere an error). On a
// shared machine it is the part of a run's latencies that is not the
// process's own doing.
func RunDelay(pid int) (time.Duration, error) {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // a thread that has ended
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			return 0, errors.New("schedstat: too few fields")
		}
		ns, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("schedstat: %w", err)
		}
		sum += time.Duration(ns)
	}
	return sum, nil
}
