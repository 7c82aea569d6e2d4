package proccpu

import (
	"os"
	"runtime"
	"testing"
)

// TestRunDelay: this process's threads' waits for a CPU are read from
// /proc on Linux, and only grow.
func TestRunDelay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/PID/task/TID/schedstat is Linux's")
	}
	a, err := RunDelay(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	b, err := RunDelay(os.Getpid())
	if err != nil || a < 0 || b < a {
		t.Fatalf("run delay %v, then %v (%v)", a, b, err)
	}
	if _, err := RunDelay(-1); err == nil {
		t.Error("RunDelay of no process: no error")
	}
}
