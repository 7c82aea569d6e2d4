package client_test

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a connection's reader or a test server left behind.
func TestMain(m *testing.M) {
	testrun.Main(m)
}
