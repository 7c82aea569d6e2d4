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
