package redisstore_test

import (
	"testing"

	"golfsolitaire/internal/testrun"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a subscription, fan-out or client left open. The contract
// suites' tests mostly wait for real TTLs and leases to lapse on the real
// topologies, so eight run at once (two by default on two cores: the suite
// took 16 s, most of it asleep).
func TestMain(m *testing.M) {
	testrun.AtLeastParallel(8)
	testrun.Main(m)
}
