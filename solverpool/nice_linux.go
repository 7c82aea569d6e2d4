package solverpool

import "syscall"

// niceThread sets the niceness of the calling OS thread (on Linux a
// thread is a task of its own: PRIO_PROCESS with its thread id sets that
// thread only).
func niceThread(n int) error {
	return syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), n)
}
