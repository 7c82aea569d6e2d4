package solverpool

import (
	"context"
	"runtime"
	"syscall"
	"testing"
)

// threadNice is the niceness of the calling OS thread (the raw
// getpriority(2) answer is 20 - nice).
func threadNice(t *testing.T) int {
	t.Helper()
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// TestNiceWorkers: with Nice set, every job runs on a thread of that
// niceness, and the caller's thread keeps its own; without it, jobs run
// at the process's niceness.
func TestNiceWorkers(t *testing.T) {
	runtime.LockOSThread() // the test's own thread, to compare with
	defer runtime.UnlockOSThread()
	base := threadNice(t)
	if base >= 15 {
		t.Skipf("the test runs at niceness %d already", base)
	}
	for _, tc := range []struct {
		nice, want int
	}{{0, base}, {15, 15}} {
		p := New(Options{Workers: 2, Nice: tc.nice})
		for range 6 {
			var got int
			if err := p.Do(context.Background(), High, "", func() { got = threadNice(t) }); err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Nice %d: a job ran at niceness %d, want %d", tc.nice, got, tc.want)
			}
		}
		p.Close()
		if got := threadNice(t); got != base {
			t.Errorf("Nice %d: the caller's thread is now at niceness %d, was %d", tc.nice, got, base)
		}
	}
}
