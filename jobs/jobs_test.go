package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"golfsolitaire/accounts/postgres/pgtest"
	"golfsolitaire/jobs"
	"golfsolitaire/jobs/jobstest"
)

func TestMemory(t *testing.T) {
	t.Parallel()
	jobstest.Run(t, func(t *testing.T, o jobs.Options) jobs.Queue { return jobs.NewMemory(o) })
}

// riverQueue is a River queue on a database of the test's own, a copy
// of the migrated template. A worker stopped mid-job cancels it after
// half a second, not five.
func riverQueue(t *testing.T, o jobs.Options) *jobs.River {
	t.Helper()
	url := migrated.Database(t, "jobs")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	q, err := jobs.NewRiver(pool, jobs.RiverOptions{Options: o, PollInterval: 100 * time.Millisecond, StopGrace: 500 * time.Millisecond, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func TestRiver(t *testing.T) {
	t.Parallel()
	jobstest.Run(t, func(t *testing.T, o jobs.Options) jobs.Queue { return riverQueue(t, o) })
}

// TestMigrateTwice: River's migrations run at every start of serve and
// worker; a second run changes nothing.
func TestMigrateTwice(t *testing.T) {
	t.Parallel()
	url := pgtest.Database(t, "jobs")
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for i := range 2 {
		if err := jobs.Migrate(context.Background(), pool, nil); err != nil {
			t.Fatalf("Migrate #%d: %v", i+1, err)
		}
	}
}
