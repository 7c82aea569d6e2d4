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
	// Most of these tests wait on sockets, timers and other goroutines
	// rather than compute (a whole run is about 110 s of CPU for 240 s of
	// wall time on two cores at the default -parallel, GOMAXPROCS): run
	// four at once unless -parallel was given.
	testrun.AtLeastParallel(4)
	testrun.Main(m,
		// scs.New always makes a default in-memory session store whose
		// cleanup goroutine nothing can stop; the server replaces that
		// store at once (account.go).
		goleak.IgnoreTopFunction("github.com/alexedwards/scs/v2/memstore.(*MemStore).startCleanup"),
	)
}
