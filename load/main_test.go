package load

import (
	"testing"

	"go.uber.org/goleak"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a player, watcher or server of a load run left behind.
// (The attacker test runs a server: scs.New starts a session memstore
// whose cleanup goroutine nothing stops, as in the server's tests.)
func TestMain(m *testing.M) {
	testrun.Main(m, goleak.IgnoreTopFunction("github.com/alexedwards/scs/v2/memstore.(*MemStore).startCleanup"))
}
