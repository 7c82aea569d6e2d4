package cli

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/jobs"
)

// openQueue returns the job queue that rated results and finished holes
// go to: River on the accounts' PostgreSQL (its migrations applied) when
// there is a database, else nil (the server's own in-memory queue: one
// instance, nothing kept across restarts).
func openQueue(ctx context.Context, acct accounts.Store, log *slog.Logger) (jobs.Queue, error) {
	pg, ok := acct.(*postgres.Store)
	if !ok {
		log.Warn("no --database: the job queue (rated results, fair-play analysis) is kept in memory and lost when the server stops")
		return nil, nil
	}
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := jobs.Migrate(octx, pg.Pool(), log); err != nil {
		return nil, fmt.Errorf("--database: %w", err)
	}
	q, err := jobs.NewRiver(pg.Pool(), jobs.RiverOptions{Logger: log, Options: jobs.Options{
		OnDiscard: func(j jobs.Job, err error) {
			log.Error("job given up after its last attempt", "kind", j.Kind, "key", j.Key, "err", err)
		},
	}})
	if err != nil {
		return nil, fmt.Errorf("--database: %w", err)
	}
	log.Info("job queue in PostgreSQL")
	return q, nil
}
