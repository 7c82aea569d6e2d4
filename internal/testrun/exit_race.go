//go:build race

package testrun

import "syscall"

// exit ends the test binary with the code. Under -race, os.Exit runs the
// race runtime's finaliser, which sleeps a second (GORACE's
// atexit_sleep_ms, 1000 by default) so that goroutines still running can
// still race, and which exits 66 if a race was seen: a second of every
// package's run (some 30 s of the suite's two test slots). exit skips it.
// Main calls it once goleak has found no goroutine of the package still
// running: there is nothing left to race, and a race seen during the
// tests has already failed the test it happened in (the testing package
// checks the race detector's count after every test).
func exit(code int) { syscall.Exit(code) }
