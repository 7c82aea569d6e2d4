// Package proccpu reads what this process has had of the machine's CPUs:
// its CPU time, and how long its threads have waited for a CPU that
// other processes had. The fair-play budget (jobs.Budget) uses both to
// keep the analyses to a share of what the process gets.
package proccpu

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// Self returns this process's CPU time (user and system; 0 where it
// cannot be read) and the sum of its threads' waits for a CPU (Linux's
// /proc/self/task/TID/schedstat; 0 elsewhere).
func Self() (cpu, wait time.Duration) {
	return cpuTime(), runDelay()
}

// runDelay sums the second field of each thread's schedstat: the time it
// was ready to run and waited.
func runDelay() time.Duration {
	const dir = "/proc/self/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/schedstat")
		if err != nil {
			continue // a thread that has ended
		}
		f := strings.Fields(string(b))
		if len(f) < 2 {
			continue
		}
		if ns, err := strconv.ParseInt(f[1], 10, 64); err == nil {
			sum += time.Duration(ns)
		}
	}
	return sum
}
