package jobs

import (
	"context"
	"sync"
	"time"
)

// Budget keeps the CPU time that a pool's workers take within a rate:
// Cores CPU-seconds a second over all of them. A worker asks Wait before
// each piece of work and tells Spent what it took; Wait holds it while
// the pool is in debt, for as long as the rate takes to pay the debt, so
// that over any window of many pieces the pool's CPU time stays within
// Cores times the window (plus the pieces under way). Nothing is
// skipped: work is only late. A nil *Budget lets everything run at once.
type Budget struct {
	rate    float64 // CPU seconds a second
	now     func() time.Time
	sleep   func(ctx context.Context, d time.Duration) error
	process func() (cpu, wait time.Duration)
	procs   float64

	mu sync.Mutex
	// credit is the CPU time the pool may still take now: never above
	// zero (no saved-up burst), below zero while in debt.
	credit time.Duration
	at     time.Time // when credit was last brought up to date
	// cpu and wait are the process's as read at readAt (with process),
	// and had the share of its cores' time it had or could have had
	// between that reading and the one before (its CPU time and the time
	// its cores were idle, over the time its cores had): what the time
	// since earns the budget, until the next reading. 1 without process.
	cpu, wait time.Duration
	readAt    time.Time
	had       float64
}

// BudgetOptions are a Budget's clock; the zero value is the real one.
type BudgetOptions struct {
	// Now is the time; default time.Now.
	Now func() time.Time
	// Sleep waits d or until ctx ends; default a timer.
	Sleep func(ctx context.Context, d time.Duration) error
	// Process, when set, reads the CPU time the pool's process has used
	// and how long its threads have waited for a CPU that other
	// processes had (each from any fixed point), and Procs is how many
	// cores it may use (GOMAXPROCS). The budget then earns its share
	// (Cores/Procs) of the CPU the process got or could have had (its
	// CPU time, plus the time its cores were idle rather than taken by
	// others), not of the wall time: on a machine that leaves the
	// process a third of a core, the pool takes its share of that third.
	Process func() (cpu, wait time.Duration)
	Procs   int
}

// NewBudget returns a budget of cores CPU-seconds a second (nil when
// cores is not positive: no budget).
func NewBudget(cores float64, o BudgetOptions) *Budget {
	if cores <= 0 {
		return nil
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleepCtx
	}
	b := &Budget{rate: cores, now: o.Now, sleep: o.Sleep, at: o.Now(), had: 1}
	if o.Process != nil {
		b.process, b.procs = o.Process, float64(max(o.Procs, 1))
		b.cpu, b.wait = o.Process()
		b.readAt = b.at
	}
	return b
}

// earned is the credit that the time from b.at to now earns, and brings
// the process's readings up to date (at most every processEvery); b.mu
// is held.
func (b *Budget) earned(now time.Time) time.Duration {
	d := now.Sub(b.at)
	if d <= 0 {
		return 0
	}
	if b.process != nil && now.Sub(b.readAt) >= processEvery {
		cpu, wait := b.process()
		used, waited := cpu-b.cpu, wait-b.wait
		span := time.Duration(float64(now.Sub(b.readAt)) * b.procs)
		idle := max(span-used-waited, 0)
		b.had = float64(used+idle) / float64(span)
		b.cpu, b.wait, b.readAt = cpu, wait, now
	}
	return time.Duration(float64(d) * b.rate * b.had)
}

// Wait returns once the pool may take more CPU time, or ctx's error.
func (b *Budget) Wait(ctx context.Context) error {
	if b == nil {
		return ctx.Err()
	}
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		debt := b.debt()
		if debt <= 0 {
			return nil
		}
		if err := b.sleep(ctx, debt); err != nil {
			return err
		}
	}
}

// debt brings the credit up to date (the time since it last was earns
// rate CPU-seconds a second, up to zero) and returns how long the pool must
// rest before it is out of debt (0: it may work now).
func (b *Budget) debt() time.Duration {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	b.credit = min(b.credit+b.earned(now), 0)
	b.at = now
	if b.credit > -budgetSlack {
		return 0
	}
	// Round up, so that the rest is never a nanosecond short.
	return time.Duration(float64(-b.credit)/b.rate) + 1
}

// Spent records that a piece of work took cpu of CPU time.
func (b *Budget) Spent(cpu time.Duration) {
	if b == nil || cpu <= 0 {
		return
	}
	// The debt first, then the time since the credit was brought up to
	// date (the work's own included) pays for what it can of it.
	b.mu.Lock()
	b.credit -= cpu
	b.mu.Unlock()
	b.debt()
}

// processEvery is how often at most a budget with Process reads it: a
// read is a few system calls for each of the process's threads, and
// pieces of work come far more often than that in a busy server. Between
// reads the time earns at the share the process had between the last
// two.
const processEvery = 10 * time.Millisecond

// budgetSlack is a debt let go: less than a timer's granularity, and
// with Process what a rest earns shrinks with the debt (a process left a
// third of a core pays a third of it in the time the rate would pay it
// all), so a wait would not end without it.
const budgetSlack = 100 * time.Microsecond

// sleepCtx waits d or until ctx ends.
func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
