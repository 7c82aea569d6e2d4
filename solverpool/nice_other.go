//go:build !linux

package solverpool

// niceThread does nothing where a thread's niceness cannot be set alone.
func niceThread(int) error { return nil }
