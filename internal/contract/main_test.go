package contract

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end (testrun.Main).
func TestMain(m *testing.M) {
	testrun.Main(m)
}
