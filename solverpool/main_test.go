package solverpool

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a worker of a pool that was closed.
func TestMain(m *testing.M) {
	testrun.Main(m)
}
