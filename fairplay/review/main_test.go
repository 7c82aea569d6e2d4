package review

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end, and spares the test binary the race runtime's second at
// exit (testrun.Main).
func TestMain(m *testing.M) {
	testrun.Main(m)
}
