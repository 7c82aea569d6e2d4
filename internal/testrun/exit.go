package testrun

import (
	"testing"

	"go.uber.org/goleak"
)

// Main runs the package's tests and fails them, when they passed, if a
// goroutine is still running when they end (goleak, with opts); then the
// test binary exits through exit. Every package's TestMain calls it, so
// that goleak checks every package and none pays the race runtime's
// second at exit.
func Main(m *testing.M, opts ...goleak.Option) {
	goleak.VerifyTestMain(m, append(opts, goleak.Cleanup(exit))...)
}

// MainThen is Main that calls then (to drop what the tests shared: a
// template database, say) once the tests and goleak's check have run,
// before the test binary exits.
func MainThen(m *testing.M, then func(), opts ...goleak.Option) {
	goleak.VerifyTestMain(m, append(opts, goleak.Cleanup(func(code int) {
		then()
		exit(code)
	}))...)
}
