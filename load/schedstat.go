package load

import (
	"os"
	"time"

	"golfsolitaire/internal/proccpu"
)

// selfRunDelay is RunDelay of this process.
func selfRunDelay() (time.Duration, error) { return proccpu.RunDelay(os.Getpid()) }

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
