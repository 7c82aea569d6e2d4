package jobs

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"
)

// Memory is a Queue in this process, for a server run without a
// database: it keeps everything the contract asks of River except
// surviving the process (as the memory room store it goes with).
type Memory struct {
	opts Options
	// Retention is how long a done job's key is kept, refusing
	// duplicates. Default an hour.
	retention time.Duration

	mu   sync.Mutex
	seq  int64
	jobs map[string]*memJob // by key: pending, running and done
	wake chan struct{}      // closed (and replaced) when a job may be ready
}

type memJob struct {
	job     Job
	seq     int64
	runAt   time.Time
	running bool
	done    time.Time // zero until done (or given up)
}

var _ Queue = (*Memory)(nil)

// NewMemory returns an empty queue.
func NewMemory(opts Options) *Memory {
	return &Memory{opts: opts.withDefaults(), retention: time.Hour, jobs: map[string]*memJob{}, wake: make(chan struct{})}
}

// signal wakes every waiting worker; m.mu is held.
func (m *Memory) signal() {
	close(m.wake)
	m.wake = make(chan struct{})
}

// Insert implements Queue.
func (m *Memory) Insert(ctx context.Context, jobs ...Job) error {
	for _, j := range jobs {
		if err := j.valid(); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := time.Now()
	for k, mj := range m.jobs {
		if !mj.done.IsZero() && now.Sub(mj.done) > m.retention {
			delete(m.jobs, k)
		}
	}
	for _, j := range jobs {
		if _, ok := m.jobs[j.Key]; ok {
			continue
		}
		m.seq++
		j.Attempt, j.Inserted = 0, now
		j.Args = append([]byte(nil), j.Args...)
		m.jobs[j.Key] = &memJob{job: j, seq: m.seq, runAt: now}
	}
	m.signal()
	return nil
}

// next takes the job of kind due first, if one is due now; otherwise it
// says when to look again (zero: nothing pending) and what wakes it.
func (m *Memory) next(kind string) (*memJob, time.Time, <-chan struct{}) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var best *memJob
	for _, mj := range m.jobs {
		if mj.job.Kind != kind || mj.running || !mj.done.IsZero() || m.blocked(mj) {
			continue
		}
		if best == nil || mj.runAt.Before(best.runAt) || (mj.runAt.Equal(best.runAt) && mj.seq < best.seq) {
			best = mj
		}
	}
	if best == nil {
		return nil, time.Time{}, m.wake
	}
	if best.runAt.After(time.Now()) {
		return nil, best.runAt, m.wake
	}
	best.running = true
	best.job.Attempt++
	return best, time.Time{}, nil
}

// blocked reports whether an earlier job of mj's kind sharing a subject
// with it is pending (Job.Subjects); m.mu is held.
func (m *Memory) blocked(mj *memJob) bool {
	if len(mj.job.Subjects) == 0 {
		return false
	}
	for _, o := range m.jobs {
		if o == mj || o.job.Kind != mj.job.Kind || !o.done.IsZero() || !earlier(o, mj) {
			continue
		}
		for _, s := range o.job.Subjects {
			if slices.Contains(mj.job.Subjects, s) {
				return true
			}
		}
	}
	return false
}

// earlier reports whether a comes before b in Job.At order.
func earlier(a, b *memJob) bool {
	return a.job.At.Before(b.job.At) || (a.job.At.Equal(b.job.At) && a.seq < b.seq)
}

// finish records an attempt's outcome.
func (m *Memory) finish(mj *memJob, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	mj.running = false
	switch {
	case err == nil:
		mj.done = time.Now()
	case mj.job.Attempt >= m.opts.MaxAttempts:
		mj.done = time.Now()
		if m.opts.OnDiscard != nil {
			m.opts.OnDiscard(mj.job, err)
		}
	default:
		mj.runAt = time.Now().Add(m.opts.Backoff(mj.job.Attempt))
	}
	m.signal()
}

// Run implements Queue.
func (m *Memory) Run(ctx context.Context, w Workers) error {
	var wg sync.WaitGroup
	for kind, p := range w {
		for range max(p.Workers, 1) {
			wg.Go(func() { m.work(ctx, kind, p.Handler) })
		}
	}
	wg.Wait()
	return nil
}

// work is one worker goroutine of a pool.
func (m *Memory) work(ctx context.Context, kind string, h Handler) {
	for ctx.Err() == nil {
		mj, at, wake := m.next(kind)
		if mj == nil {
			var timer <-chan time.Time
			var t *time.Timer
			if !at.IsZero() {
				t = time.NewTimer(time.Until(at))
				timer = t.C
			}
			select {
			case <-ctx.Done():
			case <-wake:
			case <-timer:
			}
			if t != nil {
				t.Stop()
			}
			continue
		}
		m.finish(mj, m.attempt(ctx, h, mj.job))
	}
}

// attempt runs one attempt, a panic becoming its error.
func (m *Memory) attempt(ctx context.Context, h Handler, j Job) (err error) {
	ctx, cancel := context.WithTimeout(ctx, m.opts.JobTimeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("jobs: %s job %s panicked: %v", j.Kind, j.Key, p)
		}
	}()
	return h.Work(ctx, j)
}

// Stats implements Queue.
func (m *Memory) Stats(ctx context.Context) ([]Stat, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	by := map[string]*Stat{}
	for _, mj := range m.jobs {
		if !mj.done.IsZero() {
			continue
		}
		s := by[mj.job.Kind]
		if s == nil {
			s = &Stat{Kind: mj.job.Kind}
			by[mj.job.Kind] = s
		}
		s.Pending++
		if s.Oldest.IsZero() || mj.job.Inserted.Before(s.Oldest) {
			s.Oldest = mj.job.Inserted
		}
	}
	out := make([]Stat, 0, len(by))
	for _, s := range by {
		out = append(out, *s)
	}
	slices.SortFunc(out, func(a, b Stat) int { return cmp.Compare(a.Kind, b.Kind) })
	return out, nil
}
