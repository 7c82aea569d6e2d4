package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"
)

// The kinds of job. Each is worked by a pool of its own.
const (
	// KindResult records a finished rated round or tournament: archive
	// and ratings (package results). Unique by game id.
	KindResult = "result"
	// KindFairplay analyses finished holes for fair play. Unique by
	// (room, round, hole, seat); the relay batches them, the seats of a
	// deal together (Members).
	KindFairplay = "fairplay"
)

// ErrInvalid: a job that cannot be queued (no kind, no key, args that
// are not JSON). Nothing is inserted.
var ErrInvalid = errors.New("jobs: invalid job")

// Job is one unit of work.
type Job struct {
	// Kind says which pool works it (KindResult, KindFairplay).
	Kind string
	// Key identifies the work: a second job with the same key is not
	// inserted while the first is pending, running or done.
	Key string
	// Args is the work's data, as JSON: ids and small values.
	Args json.RawMessage
	// Subjects and At order jobs of one kind: a job is not worked while a
	// job of its kind with an earlier At (or the same At, inserted
	// before it) that shares a subject is pending, so the jobs of one
	// subject (a player's rated rounds) are worked in At order, each
	// after the one before is done. Jobs with no subjects are not
	// ordered.
	Subjects []string
	At       time.Time
	// Group, when set, lets the relay put the job in a batch job with
	// others of its kind (see Members), those of one group together: the
	// queue then holds one job for several, so its rate stays low when
	// holes finish by the thousand a second. Jobs with subjects are never
	// batched.
	Group string

	// Attempt is 1 on the first try, 2 on the first retry... (set when
	// the job is worked). Inserted is when it was queued.
	Attempt  int
	Inserted time.Time
}

// valid checks a job before it is inserted.
func (j Job) valid() error {
	switch {
	case j.Kind == "":
		return fmt.Errorf("%w: no kind", ErrInvalid)
	case j.Key == "":
		return fmt.Errorf("%w: %s job with no key", ErrInvalid, j.Kind)
	case len(j.Args) > 0 && !json.Valid(j.Args):
		return fmt.Errorf("%w: %s job %s: args are not JSON", ErrInvalid, j.Kind, j.Key)
	}
	return nil
}

// Handler works one job. It must honour ctx (cancelled when its worker
// stops or the job runs too long) and tolerate being run again for the
// same job: an error, a panic, or a worker stopping before the job is
// marked done all lead to a retry.
type Handler interface {
	Work(ctx context.Context, j Job) error
}

// HandlerFunc is a function as a Handler.
type HandlerFunc func(ctx context.Context, j Job) error

// Work calls f.
func (f HandlerFunc) Work(ctx context.Context, j Job) error { return f(ctx, j) }

// Pool works one kind of job: Handler with Workers goroutines (at least 1).
type Pool struct {
	Handler Handler
	Workers int
}

// Workers are the pools a Run works, by kind. Kinds with no pool are left
// for other processes.
type Workers map[string]Pool

// Stat is a kind's queue: the jobs not done yet (waiting, running or to
// be retried) and the time the oldest of them was inserted (zero when
// there is none).
type Stat struct {
	Kind    string
	Pending int
	Oldest  time.Time
}

// Queue is a durable (River) or in-process (Memory) job queue.
type Queue interface {
	// Insert queues jobs, skipping each whose key is pending, running or
	// done already. An invalid job fails the call (ErrInvalid) and
	// inserts nothing.
	Insert(ctx context.Context, jobs ...Job) error
	// Run works the queue with the pools until ctx ends, then stops: the
	// jobs it was working are cancelled and retried later (by any Run).
	// Several Runs may work one queue at once (processes or goroutines).
	Run(ctx context.Context, w Workers) error
	// Stats returns every kind's pending jobs (kinds with none may be
	// left out).
	Stats(ctx context.Context) ([]Stat, error)
}

// Options are what both implementations share. The zero value is ready
// to use.
type Options struct {
	// Backoff is how long a job waits after its attempt-th failure.
	// Default defaultBackoff.
	Backoff func(attempt int) time.Duration
	// MaxAttempts is how many times a job is tried before it is given
	// up (kept as discarded and logged). Default 100.
	MaxAttempts int
	// JobTimeout bounds one attempt. Default 2 minutes.
	JobTimeout time.Duration
	// OnDiscard, when set, is told of each job given up.
	OnDiscard func(j Job, err error)
}

// defaultBackoff waits attempt^4 seconds (1 s, 16 s, 81 s...), at most a
// minute: a database outage delays a job by at most a minute after it
// ends.
func defaultBackoff(attempt int) time.Duration {
	s := math.Pow(float64(max(attempt, 1)), 4)
	return time.Duration(min(s, 60) * float64(time.Second))
}

func (o Options) withDefaults() Options {
	if o.Backoff == nil {
		o.Backoff = defaultBackoff
	}
	if o.MaxAttempts <= 0 {
		o.MaxAttempts = 100
	}
	if o.JobTimeout <= 0 {
		o.JobTimeout = 2 * time.Minute
	}
	return o
}
