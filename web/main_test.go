package web_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a test server or handler left running.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
