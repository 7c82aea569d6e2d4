package postgres_test

import (
	"testing"

	"go.uber.org/goleak"
)

// TestMain fails the package's tests if any goroutine is still running
// when they end: a connection pool left open.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}
