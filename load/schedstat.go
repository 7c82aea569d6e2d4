package load

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

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

// selfRunDelay is RunDelay of this process.
func selfRunDelay() (time.Duration, error) { return RunDelay(os.Getpid()) }

// window is what is read as the measured window opens and as it closes:
// the servers' CPU time and how long it and this process waited for a
// CPU.
type window struct {
	server, serverWait, wait       time.Duration
	serverOK, serverWaitOK, waitOK bool
}

func (r *runner) readWindow() window {
	var w window
	w.server, w.serverOK = readCPU(r.cfg.ServerCPU)
	w.serverWait, w.serverWaitOK = readCPU(r.cfg.ServerWait)
	w.wait, w.waitOK = readCPU(selfRunDelay)
	return w
}

// fillWindow reports what the window took of the server's CPU, and how
// long it and this process waited for one, from the readings at its
// start and end.
func fillWindow(res *Result, start, end window) {
	if start.serverOK && end.serverOK {
		res.ServerWindowCPUSeconds = (end.server - start.server).Seconds()
	}
	if start.serverWaitOK && end.serverWaitOK {
		res.ServerWaitSeconds = (end.serverWait - start.serverWait).Seconds()
	}
	if start.waitOK && end.waitOK {
		res.WaitSeconds = (end.wait - start.wait).Seconds()
	}
}
