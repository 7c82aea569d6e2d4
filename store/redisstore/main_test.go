package redisstore_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a subscription, fan-out or client left open.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
