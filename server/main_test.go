package server_test

import (
	"testing"

	"go.uber.org/goleak"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package when a goroutine outlives its tests: every
// goroutine the server starts (hub loops, sockets, bots, tasks) is owned
// by the Server and stopped by Close.
func TestMain(m *testing.M) {
	// Many of these tests wait on sockets, timers, leases and other
	// goroutines rather than compute (alone, the package used 1.5 of two
	// cores at -parallel 4): run eight at once unless -parallel was given
	// (alone 80 s against 82-88 s at four; in go test ./... the package
	// runs last and alone for its last minute).
	testrun.AtLeastParallel(8)
	testrun.Main(m,
		// scs.New always makes a default in-memory session store whose
		// cleanup goroutine nothing can stop; the server replaces that
		// store at once (account.go).
		goleak.IgnoreTopFunction("github.com/alexedwards/scs/v2/memstore.(*MemStore).startCleanup"),
	)
}
