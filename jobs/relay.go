package jobs

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"golfsolitaire/store"
)

// Outbox is the part of the room store the relay reads (store.Outbox).
type Outbox interface {
	PendingOutbox(ctx context.Context, limit int) ([]store.OutboxEntry, error)
	OutboxDone(ctx context.Context, entries ...store.OutboxEntry) error
	OutboxStats(ctx context.Context) (int, time.Time, error)
}

var _ Outbox = store.Store(nil)

// entryData is what an outbox entry's Data holds: the job's args and
// subjects (its key, kind and time are the entry's own).
type entryData struct {
	Args     json.RawMessage `json:"args,omitempty"`
	Subjects []string        `json:"subjects,omitempty"`
	Group    string          `json:"group,omitempty"`
}

// Entry is the outbox entry that becomes j once relayed.
func Entry(j Job) (store.OutboxEntry, error) {
	if err := j.valid(); err != nil {
		return store.OutboxEntry{}, err
	}
	data, err := json.Marshal(entryData{Args: j.Args, Subjects: j.Subjects, Group: j.Group})
	if err != nil {
		return store.OutboxEntry{}, err
	}
	return store.OutboxEntry{Key: j.Key, Kind: j.Kind, Data: data, At: j.At}, nil
}

// fromEntry is the job an outbox entry stands for.
func fromEntry(e store.OutboxEntry) (Job, error) {
	var d entryData
	if err := json.Unmarshal(e.Data, &d); err != nil {
		return Job{}, fmt.Errorf("%w: outbox entry %s of %s: %v", ErrInvalid, e.Key, e.Room, err)
	}
	j := Job{Kind: e.Kind, Key: e.Key, Args: d.Args, Subjects: d.Subjects, Group: d.Group, At: e.At}
	return j, j.valid()
}

// Relay moves outbox entries into the queue: it inserts their jobs, then
// marks them done. Every instance runs one: a crash between the two
// leaves the entries, which the next pass (of any relay) inserts again
// and the queue skips (their keys are known). Oldest entries first, so
// the jobs of rounds that ended first are queued first. Jobs with a
// Group are queued in batch jobs (see Members), up to MaxBatch each.
type Relay struct {
	outbox Outbox
	queue  Queue
	opts   RelayOptions
	kick   chan struct{}
}

// RelayOptions configure a Relay.
type RelayOptions struct {
	// Every is how often the relay looks when not kicked. Default 1 s.
	Every time.Duration
	// Batch is how many entries one pass moves at most. Default 500.
	Batch int
	// MaxBatch is how many jobs with a Group one batch job holds at
	// most. Default DefaultMaxBatch; 1: no batches.
	MaxBatch int
	// Logger; default slog.Default.
	Logger *slog.Logger
	// Relayed and Failed, when set, count the entries relayed and the
	// passes that failed (the store or the queue did not answer) or the
	// entries that could not be read.
	Relayed, Failed func(n int)
}

// NewRelay returns a relay from outbox into queue.
func NewRelay(outbox Outbox, queue Queue, o RelayOptions) *Relay {
	if o.Every <= 0 {
		o.Every = time.Second
	}
	if o.Batch <= 0 {
		o.Batch = 500
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = DefaultMaxBatch
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return &Relay{outbox: outbox, queue: queue, opts: o, kick: make(chan struct{}, 1)}
}

// Kick asks for a pass now (an entry was just written).
func (r *Relay) Kick() {
	select {
	case r.kick <- struct{}{}:
	default:
	}
}

// Run relays until ctx ends.
func (r *Relay) Run(ctx context.Context) {
	t := time.NewTicker(r.opts.Every)
	defer t.Stop()
	failing := false
	for {
		for {
			n, err := r.Pass(ctx)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				if !failing {
					r.opts.Logger.Warn("outbox relay: entries wait for the next pass", "err", err)
				}
				failing = true
				break
			}
			if failing {
				r.opts.Logger.Info("outbox relay: working again")
				failing = false
			}
			if n < r.opts.Batch {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-r.kick:
		}
	}
}

// Pass moves one batch of entries; it returns how many it moved.
func (r *Relay) Pass(ctx context.Context) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	entries, err := r.outbox.PendingOutbox(ctx, r.opts.Batch)
	if err != nil || len(entries) == 0 {
		r.failed(err)
		return 0, err
	}
	js := make([]Job, 0, len(entries))
	ok := make([]store.OutboxEntry, 0, len(entries))
	var bad []store.OutboxEntry
	for _, e := range entries {
		j, err := fromEntry(e)
		if err != nil {
			// A bug wrote it: it can never be queued. Said loudly, then
			// dropped so it does not block the others.
			r.opts.Logger.Error("outbox relay: an entry cannot be read; dropped", "room", e.Room, "key", e.Key, "err", err)
			bad = append(bad, e)
			continue
		}
		js = append(js, j)
		ok = append(ok, e)
	}
	if err := r.queue.Insert(ctx, Batch(js, r.opts.MaxBatch)...); err != nil {
		r.failed(err)
		return 0, err
	}
	if err := r.outbox.OutboxDone(ctx, append(ok, bad...)...); err != nil {
		r.failed(err)
		return 0, err
	}
	if r.opts.Relayed != nil {
		r.opts.Relayed(len(ok))
	}
	if len(bad) > 0 && r.opts.Failed != nil {
		r.opts.Failed(len(bad))
	}
	return len(entries), nil
}

func (r *Relay) failed(err error) {
	if err != nil && r.opts.Failed != nil {
		r.opts.Failed(1)
	}
}
