package jobs_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/internal/testrun"
	"golfsolitaire/jobs"
)

// migrated is River's schema, migrated once for the package's tests
// (riverQueue copies it).
var migrated = pgtest.NewTemplate("jobs", func(ctx context.Context, url string) error {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return err
	}
	defer pool.Close()
	return jobs.Migrate(ctx, pool, nil)
})

// TestMain fails the package's tests if any goroutine is still running
// when they end (testrun.Main), then drops the template. River's tests
// mostly wait (on its polls, on PostgreSQL), so eight run at once.
func TestMain(m *testing.M) {
	testrun.AtLeastParallel(8)
	testrun.MainThen(m, migrated.Drop)
}
