package cli

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// startOnCPU starts cmd with every thread of it on CPU cpu, and moves
// this process's threads to the other CPUs it may use (load
// --server-cpu): a child inherits the affinity of the thread that
// forks it, and a thread that of the thread that creates it. restore
// gives this process's threads back the CPUs they had, for the next
// child (a --baseline run after the server's): call it once the child
// has stopped.
func startOnCPU(cmd *exec.Cmd, cpu int) (restore func(), err error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var allowed, one unix.CPUSet
	if err := unix.SchedGetaffinity(0, &allowed); err != nil {
		return nil, fmt.Errorf("load: --server-cpu: %w", err)
	}
	if !allowed.IsSet(cpu) || allowed.Count() < 2 {
		return nil, fmt.Errorf("load: --server-cpu %d: this process may use %d CPUs, and not that one or no other", cpu, allowed.Count())
	}
	one.Set(cpu)
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		return nil, fmt.Errorf("load: --server-cpu: %w", err)
	}
	restore = func() { pinThreads(&allowed) }
	err = cmd.Start()
	rest := allowed
	rest.Clear(cpu)
	if perr := pinThreads(&rest); err == nil {
		err = perr
	}
	if err != nil {
		restore()
	}
	return restore, err
}

// pinThreads sets the affinity of every thread of this process.
func pinThreads(set *unix.CPUSet) error {
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return fmt.Errorf("load: --server-cpu: %w", err)
	}
	for _, t := range tasks {
		tid, err := strconv.Atoi(t.Name())
		if err != nil {
			continue
		}
		// A thread that has just ended is no error.
		if err := unix.SchedSetaffinity(tid, set); err != nil && err != unix.ESRCH {
			return fmt.Errorf("load: --server-cpu: thread %d: %w", tid, err)
		}
	}
	return nil
}
