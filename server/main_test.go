package server_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package when a goroutine outlives its tests: every
// goroutine the server starts (hub loops, sockets, bots, tasks) is owned
// by the Server and stopped by Close.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m,
		// scs.New always makes a default in-memory session store whose
		// cleanup goroutine nothing can stop; the server replaces that
		// store at once (account.go).
		goleak.IgnoreTopFunction("github.com/alexedwards/scs/v2/memstore.(*MemStore).startCleanup"),
	)
}
