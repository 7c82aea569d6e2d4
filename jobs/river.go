package jobs

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
	"github.com/riverqueue/river/rivertype"

	"golfsolitaire/internal/dbwait"
)

// River is a Queue on PostgreSQL (River): jobs survive any process, and
// any number of servers and `golf worker` processes insert and work them.
// Each kind is a River queue of its own; River's job table keeps the
// unique keys (while a job is pending, running or done, until River's
// cleaner drops a done job a day later).
type River struct {
	pool   *pgxpool.Pool
	opts   RiverOptions
	insert *river.Client[pgx.Tx] // insert-only
}

// RiverOptions configure River.
type RiverOptions struct {
	Options
	// Logger gets River's own warnings. Default slog.Default.
	Logger *slog.Logger
	// RescueAfter is how long a job may stay running before it is taken
	// as lost (its process died) and retried. At least JobTimeout;
	// default JobTimeout plus a minute. River's rescuer looks every 30 s.
	RescueAfter time.Duration
	// PollInterval is how often a worker looks for jobs besides
	// PostgreSQL's notifications. Default 1 s.
	PollInterval time.Duration
	// NoLeader keeps this process out of River's leader election (it
	// works jobs; another process must lead for retries and rescues). A
	// leader resigns when it stops, for up to seven seconds while the
	// database is unreachable; one that never leads stops at once.
	NoLeader bool
	// StopGrace is how long Run, once its context ends, lets the jobs
	// being worked finish before it cancels them. Default 5 s.
	StopGrace time.Duration
}

var _ Queue = (*River)(nil)

// riverArgs is every job's row in River: one River kind, our kind as the
// River queue and in the args, the key as River's unique key.
type riverArgs struct {
	JobKind  string          `json:"kind"`
	Key      string          `json:"key" river:"unique"`
	Args     json.RawMessage `json:"args,omitempty"`
	Subjects []string        `json:"subjects,omitempty"`
	// At is Job.At in Unix microseconds (0 for none): ordered as a number
	// in SQL.
	At int64 `json:"at,omitempty"`
}

// Kind is River's kind of every job (ours is the queue).
func (riverArgs) Kind() string { return "golf" }

// Migrate brings River's tables in the database up to date (River's own
// migrations, rivermigrate; run by serve and worker at start).
func Migrate(ctx context.Context, pool *pgxpool.Pool, log *slog.Logger) error {
	ctx = dbwait.Unbounded(ctx) // a migration may take longer than one call's bound
	m, err := rivermigrate.New(riverpgxv5.New(pool), &rivermigrate.Config{Logger: quiet(log)})
	if err != nil {
		return fmt.Errorf("jobs: migrate: %w", err)
	}
	res, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	if err != nil {
		return fmt.Errorf("jobs: migrate: %w", err)
	}
	if log != nil && len(res.Versions) > 0 {
		log.Info("job queue migrated", "versions", len(res.Versions))
	}
	return nil
}

// quiet keeps River's info logs out of ours.
func quiet(log *slog.Logger) *slog.Logger {
	if log == nil {
		log = slog.Default()
	}
	return slog.New(levelHandler{log.Handler(), slog.LevelWarn})
}

type levelHandler struct {
	slog.Handler
	min slog.Level
}

func (h levelHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}
func (h levelHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return levelHandler{h.Handler.WithAttrs(a), h.min}
}
func (h levelHandler) WithGroup(n string) slog.Handler {
	return levelHandler{h.Handler.WithGroup(n), h.min}
}

// NewRiver returns the queue on pool's database, whose River tables must
// be migrated (Migrate). The caller keeps the pool.
func NewRiver(pool *pgxpool.Pool, opts RiverOptions) (*River, error) {
	opts.Options = opts.Options.withDefaults()
	if opts.RescueAfter < opts.JobTimeout {
		opts.RescueAfter = opts.JobTimeout + time.Minute
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	r := &River{pool: pool, opts: opts}
	c, err := river.NewClient(riverpgxv5.New(pool), r.config(nil, nil))
	if err != nil {
		return nil, fmt.Errorf("jobs: river: %w", err)
	}
	r.insert = c
	return r, nil
}

// config is a River client's configuration: insert-only without queues.
func (r *River) config(queues map[string]river.QueueConfig, workers *river.Workers) *river.Config {
	return &river.Config{
		Logger:               quiet(r.opts.Logger),
		MaxAttempts:          r.opts.MaxAttempts,
		JobTimeout:           r.opts.JobTimeout,
		RescueStuckJobsAfter: r.opts.RescueAfter,
		FetchPollInterval:    r.opts.PollInterval,
		RetryPolicy:          retryPolicy{r.opts.Backoff},
		Queues:               queues,
		Workers:              workers,
		ErrorHandler:         errorHandler{r},

		LeaderElectionDisabled: r.opts.NoLeader,
	}
}

// retryPolicy is Options.Backoff for River.
type retryPolicy struct{ backoff func(int) time.Duration }

func (p retryPolicy) NextRetry(j *rivertype.JobRow) time.Time {
	return time.Now().Add(p.backoff(max(j.Attempt, 1)))
}

// errorHandler tells OnDiscard of jobs given up.
type errorHandler struct{ r *River }

func (h errorHandler) HandleError(ctx context.Context, row *rivertype.JobRow, err error) *river.ErrorHandlerResult {
	h.discarded(row, err)
	return nil
}

func (h errorHandler) HandlePanic(ctx context.Context, row *rivertype.JobRow, v any, trace string) *river.ErrorHandlerResult {
	h.discarded(row, fmt.Errorf("panic: %v", v))
	return nil
}

func (h errorHandler) discarded(row *rivertype.JobRow, err error) {
	if h.r.opts.OnDiscard == nil || row.Attempt < row.MaxAttempts {
		return
	}
	j, _ := jobOf(row)
	h.r.opts.OnDiscard(j, err)
}

// jobOf is a River row as a Job.
func jobOf(row *rivertype.JobRow) (Job, error) {
	var a riverArgs
	if err := json.Unmarshal(row.EncodedArgs, &a); err != nil {
		return Job{}, fmt.Errorf("jobs: river job %d: %w", row.ID, err)
	}
	return Job{Kind: a.JobKind, Key: a.Key, Args: a.Args, Attempt: row.Attempt, Inserted: row.CreatedAt}, nil
}

// Insert implements Queue, in one round trip.
func (r *River) Insert(ctx context.Context, jobs ...Job) error {
	if len(jobs) == 0 {
		return nil
	}
	params := make([]river.InsertManyParams, 0, len(jobs))
	seen := make(map[string]bool, len(jobs))
	for _, j := range jobs {
		if err := j.valid(); err != nil {
			return err
		}
		if seen[j.Key] {
			continue // one statement cannot insert a key twice
		}
		seen[j.Key] = true
		params = append(params, river.InsertManyParams{
			Args:       riverArgs{JobKind: j.Kind, Key: j.Key, Args: j.Args, Subjects: j.Subjects, At: micros(j.At)},
			InsertOpts: &river.InsertOpts{Queue: j.Kind, UniqueOpts: river.UniqueOpts{ByArgs: true}},
		})
	}
	if _, err := r.insert.InsertMany(ctx, params); err != nil {
		return fmt.Errorf("jobs: insert %d jobs: %w", len(jobs), err)
	}
	return nil
}

func micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// riverWorker hands River's rows to the pools' handlers.
type riverWorker struct {
	river.WorkerDefaults[riverArgs]
	pools Workers
	pool  *pgxpool.Pool
}

// orderWait is how long a job waits for an earlier one of its subjects
// (Job.Subjects) before it looks again.
const orderWait = time.Second

func (w *riverWorker) Work(ctx context.Context, rj *river.Job[riverArgs]) error {
	p, ok := w.pools[rj.Args.JobKind]
	if !ok || p.Handler == nil {
		return fmt.Errorf("jobs: no handler for %s jobs here", rj.Args.JobKind)
	}
	if len(rj.Args.Subjects) > 0 {
		var wait bool
		err := w.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM river_job
			WHERE queue = $1 AND id <> $2 AND state IN ('available', 'pending', 'retryable', 'running', 'scheduled')
			AND args->'subjects' ?| $3
			AND (COALESCE((args->>'at')::bigint, 0) < $4 OR (COALESCE((args->>'at')::bigint, 0) = $4 AND id < $2)))`,
			rj.Queue, rj.ID, rj.Args.Subjects, rj.Args.At).Scan(&wait)
		if err != nil {
			return fmt.Errorf("jobs: %s job %s: the jobs before it: %w", rj.Args.JobKind, rj.Args.Key, err)
		}
		if wait {
			return river.JobSnooze(orderWait)
		}
	}
	j := Job{Kind: rj.Args.JobKind, Key: rj.Args.Key, Args: compact(rj.Args.Args), Subjects: rj.Args.Subjects, Attempt: rj.Attempt, Inserted: rj.CreatedAt}
	if rj.Args.At != 0 {
		j.At = time.UnixMicro(rj.Args.At)
	}
	return p.Handler.Work(ctx, j)
}

// compact gives args back as they were inserted, without the spaces
// PostgreSQL's jsonb puts in.
func compact(args json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		return args
	}
	return b.Bytes()
}

// Run implements Queue with a River client of its own.
func (r *River) Run(ctx context.Context, w Workers) error {
	if len(w) == 0 {
		<-ctx.Done()
		return nil
	}
	queues := map[string]river.QueueConfig{}
	for kind, p := range w {
		queues[kind] = river.QueueConfig{MaxWorkers: max(p.Workers, 1)}
	}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, &riverWorker{pools: w, pool: r.pool}); err != nil {
		return fmt.Errorf("jobs: river: %w", err)
	}
	c, err := river.NewClient(riverpgxv5.New(r.pool), r.config(queues, workers))
	if err != nil {
		return fmt.Errorf("jobs: river: %w", err)
	}
	// Start fails while the database is unreachable: try again until it
	// is back or ctx ends.
	for {
		err = c.Start(context.WithoutCancel(ctx))
		if err == nil {
			break
		}
		t := time.NewTimer(2 * time.Second)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
	<-ctx.Done()
	// The jobs being worked get a few seconds to finish; then their
	// contexts are cancelled (they are retried later), and Run waits for
	// them to return, so nothing of the queue runs once it has: a
	// handler that does not watch its context (a hole's analysis, which
	// is bounded) is waited for.
	stop, cancel := context.WithTimeout(context.Background(), cmp.Or(r.opts.StopGrace, 5*time.Second))
	defer cancel()
	if err := c.Stop(stop); err != nil {
		if err := c.StopAndCancel(context.Background()); err != nil {
			return fmt.Errorf("jobs: river stop: %w", err)
		}
	}
	return nil
}

// Stats implements Queue from River's job table.
func (r *River) Stats(ctx context.Context) ([]Stat, error) {
	rows, err := r.pool.Query(ctx, `SELECT queue, count(*), min(created_at) FROM river_job
		WHERE state IN ('available', 'pending', 'retryable', 'running', 'scheduled') GROUP BY queue ORDER BY queue`)
	if err != nil {
		return nil, fmt.Errorf("jobs: stats: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (Stat, error) {
		var s Stat
		err := row.Scan(&s.Kind, &s.Pending, &s.Oldest)
		return s, err
	})
	if err != nil {
		return nil, fmt.Errorf("jobs: stats: %w", err)
	}
	return out, nil
}
