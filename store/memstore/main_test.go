package memstore_test

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end, and spares the test binary the race runtime's second at
// exit (testrun.Main). The contracts' real-clock cases wait on TTLs rather
// than compute, so eight tests run at once (the lease expiry case, 4.5 s,
// beside the rest).
func TestMain(m *testing.M) {
	testrun.AtLeastParallel(8)
	testrun.Main(m)
}
