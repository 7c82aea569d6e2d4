package tournaments

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package when a goroutine outlives its tests.
func TestMain(m *testing.M) { testrun.Main(m) }
