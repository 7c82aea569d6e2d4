package postgres_test

import (
	"context"
	"testing"

	"golfsolitaire/accounts/postgres"
	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/internal/testrun"
)

// migrated is the accounts' schema, migrated once for the package's tests
// (open copies it).
var migrated = pgtest.NewTemplate("accounts", func(ctx context.Context, url string) error {
	s, err := postgres.Open(ctx, url, nil)
	if err != nil {
		return err
	}
	s.Close()
	return nil
})

// TestMain fails the package's tests if any goroutine is still running
// when they end (a connection pool left open), then drops the template.
// The tests mostly wait on PostgreSQL (creating and dropping a database
// takes half a second, mostly fsync), so eight run at once.
func TestMain(m *testing.M) {
	testrun.AtLeastParallel(8)
	testrun.MainThen(m, migrated.Drop)
}
