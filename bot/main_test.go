package bot

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a bot that outlives its game, or a connection left reading.
func TestMain(m *testing.M) {
	testrun.Main(m)
}
