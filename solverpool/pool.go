// Package solverpool runs the server's solver work on a bounded number of
// workers, by priority, with a quota of jobs in flight per client.
//
// Every solver call of the server goes through one Pool: the best score
// of a finished hole and hints first (High), search bots and fair-play
// analysis next (Normal), the filling of the seed pools and the best
// scores solved ahead of holes' ends last (Low). A
// worker always takes the oldest job of the highest priority waiting, so
// a flood of low-priority work delays a high-priority job by at most the
// jobs already running (each bounded by its node budget). A client (a
// remote address, a room, a seat) may have at most PerClient jobs queued
// or running; past that Do refuses at once with ErrQuota.
package solverpool

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
)

// Priority orders jobs: lower values run first.
type Priority int

// The priorities.
const (
	// High: a finished hole's best score, hints.
	High Priority = iota
	// Normal: search bots' thinking, fair-play analysis.
	Normal
	// Low: background work (filling the seed pools, solving the deals
	// of holes that have just started ahead of their ends).
	Low
	nPriorities
)

// String names the priority (the metrics' label).
func (p Priority) String() string {
	switch p {
	case High:
		return "high"
	case Normal:
		return "normal"
	case Low:
		return "low"
	}
	return fmt.Sprintf("priority(%d)", int(p))
}

// Errors of Do.
var (
	// ErrQuota: the client already has PerClient jobs queued or running.
	ErrQuota = errors.New("solverpool: too many solver jobs in flight for this client")
	// ErrClosed: the pool is closed.
	ErrClosed = errors.New("solverpool: closed")
)

// Options configure a Pool.
type Options struct {
	// Workers is how many jobs run at once; default GOMAXPROCS-1, at
	// least 1.
	Workers int
	// PerClient is how many jobs one client may have queued or running;
	// default 2. The empty client ("") has no quota (the server's own
	// background work).
	PerClient int
}

// DefaultWorkers is GOMAXPROCS-1, at least 1: the solver leaves a core to
// play.
func DefaultWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// Pool is a bounded, prioritised solver pool. It is safe for concurrent
// use; the zero value is not (use New).
type Pool struct {
	opts Options

	mu       sync.Mutex
	cond     *sync.Cond
	queues   [nPriorities][]*job
	inflight map[string]int
	busy     int
	closed   bool
	wg       sync.WaitGroup
}

type job struct {
	ctx    context.Context
	fn     func()
	client string
	// state is guarded by Pool.mu: queued, running or dropped (cancelled
	// before it ran).
	state int
	done  chan struct{}
}

const (
	queued = iota
	running
	dropped
)

// New starts a pool's workers. Close stops them.
func New(o Options) *Pool {
	if o.Workers <= 0 {
		o.Workers = DefaultWorkers()
	}
	if o.PerClient <= 0 {
		o.PerClient = 2
	}
	p := &Pool{opts: o, inflight: map[string]int{}}
	p.cond = sync.NewCond(&p.mu)
	p.wg.Add(o.Workers)
	for range o.Workers {
		go p.work()
	}
	return p
}

// Workers is the number of workers.
func (p *Pool) Workers() int { return p.opts.Workers }

// Do runs fn on a worker at the priority and waits for it. It returns
// ErrQuota at once when the client has PerClient jobs in flight, and
// ctx's error when ctx is done before fn started (fn then never runs). A
// job that has started runs to its end (the solver's node budgets bound
// it) and Do waits for it, so fn never outlives Do.
func (p *Pool) Do(ctx context.Context, pri Priority, client string, fn func()) error {
	if pri < 0 || pri >= nPriorities {
		return fmt.Errorf("solverpool: no priority %d", int(pri))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	j := &job{ctx: ctx, fn: fn, client: client, done: make(chan struct{})}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return ErrClosed
	}
	if client != "" {
		if p.inflight[client] >= p.opts.PerClient {
			p.mu.Unlock()
			return ErrQuota
		}
		p.inflight[client]++
	}
	p.queues[pri] = append(p.queues[pri], j)
	p.cond.Signal()
	p.mu.Unlock()

	select {
	case <-j.done:
		return p.outcome(j)
	case <-ctx.Done():
	}
	p.mu.Lock()
	if j.state == queued {
		j.state = dropped
		p.remove(pri, j)
		p.release(client)
		p.mu.Unlock()
		return ctx.Err()
	}
	p.mu.Unlock()
	<-j.done
	return p.outcome(j)
}

// outcome is Do's answer for a job that is done: nil if it ran, else why
// not.
func (p *Pool) outcome(j *job) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if j.state != dropped {
		return nil
	}
	if err := j.ctx.Err(); err != nil {
		return err
	}
	return ErrClosed
}

// remove takes a dropped job out of its queue. Call with mu held.
func (p *Pool) remove(pri Priority, j *job) {
	q := p.queues[pri]
	for i, x := range q {
		if x == j {
			p.queues[pri] = append(q[:i:i], q[i+1:]...)
			return
		}
	}
}

// release ends a client's job. Call with mu held.
func (p *Pool) release(client string) {
	if client == "" {
		return
	}
	if p.inflight[client] <= 1 {
		delete(p.inflight, client)
		return
	}
	p.inflight[client]--
}

func (p *Pool) work() {
	defer p.wg.Done()
	for {
		p.mu.Lock()
		var j *job
		for j == nil {
			for pri := range p.queues {
				if q := p.queues[pri]; len(q) > 0 {
					j = q[0]
					q[0] = nil
					p.queues[pri] = q[1:]
					break
				}
			}
			if j == nil {
				if p.closed {
					p.mu.Unlock()
					return
				}
				p.cond.Wait()
			}
		}
		if j.ctx.Err() != nil {
			// Cancelled while queued: Do is returning or has returned.
			j.state = dropped
			p.release(j.client)
			p.mu.Unlock()
			close(j.done)
			continue
		}
		j.state = running
		p.busy++
		p.mu.Unlock()

		j.fn()

		p.mu.Lock()
		p.busy--
		p.release(j.client)
		p.mu.Unlock()
		close(j.done)
	}
}

// Stats is a snapshot of the pool for metrics.
type Stats struct {
	// Queued is the number of jobs waiting, by priority.
	Queued [nPriorities]int
	// Busy is the number of workers running a job.
	Busy int
	// Workers is the number of workers.
	Workers int
}

// Stats returns the pool's queue lengths and busy workers.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := Stats{Busy: p.busy, Workers: p.opts.Workers}
	for i, q := range p.queues {
		st.Queued[i] = len(q)
	}
	return st
}

// InFlight is the number of the client's jobs queued or running.
func (p *Pool) InFlight(client string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.inflight[client]
}

// Priorities lists the priorities, highest first (for metrics).
func Priorities() []Priority { return []Priority{High, Normal, Low} }

// Close refuses new jobs, drops the queued ones (their Do returns
// ErrClosed) and waits for the running ones.
func (p *Pool) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	var drop []*job
	for pri := range p.queues {
		drop = append(drop, p.queues[pri]...)
		p.queues[pri] = nil
	}
	for _, j := range drop {
		j.state = dropped
		p.release(j.client)
	}
	p.cond.Broadcast()
	p.mu.Unlock()
	for _, j := range drop {
		close(j.done)
	}
	p.wg.Wait()
}
