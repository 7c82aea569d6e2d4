package testrun

import (
	"testing"

	"go.uber.org/goleak"
)

// Main runs the package's tests and fails them, when they passed, if a
// goroutine is still running when they end (goleak, with opts); then the
// test binary exits through Exit. Every package's TestMain calls it, so
// that goleak checks every package and none pays the race runtime's
// second at exit.
func Main(m *testing.M, opts ...goleak.Option) {
	goleak.VerifyTestMain(m, append(opts, goleak.Cleanup(Exit))...)
}

// Exit ends the test binary with the code. Under -race, os.Exit runs the
// race runtime's finaliser, which sleeps a second (GORACE's
// atexit_sleep_ms, 1000 by default) so that goroutines still running can
// still race, and which exits 66 if a race was seen: a second of every
// package's run (some 30 s of the suite's two test slots). Exit skips it,
// and is called once goleak has found no goroutine of the package still
// running: there is nothing left to race, and a race seen during the
// tests has already failed the test it happened in (the testing package
// checks the race detector's count after every test).
func Exit(code int) {
	exit(code)
}
