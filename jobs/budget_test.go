package jobs_test

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"golfsolitaire/jobs"
)

// fakeCPU is a clock that moves only when a worker sleeps or works: the
// busy fraction is counted, not timed.
type fakeCPU struct{ now time.Time }

func (f *fakeCPU) options() jobs.BudgetOptions {
	return jobs.BudgetOptions{
		Now: func() time.Time { return f.now },
		Sleep: func(ctx context.Context, d time.Duration) error {
			f.now = f.now.Add(d)
			return ctx.Err()
		},
	}
}

// TestBudgetShare: a worker with more work than its budget (every piece
// 30-90 ms of CPU, back to back) is kept to the budget's share over a
// window of many pieces, and not much below it (the work is late, not
// starved).
func TestBudgetShare(t *testing.T) {
	t.Parallel()
	for _, share := range []float64{0.1, 0.25, 0.5, 0.9} {
		clock := &fakeCPU{now: time.Unix(1_700_000_000, 0)}
		b := jobs.NewBudget(share, clock.options())
		rng := rand.New(rand.NewPCG(1, uint64(share*100)))
		start := clock.now
		var busy time.Duration
		for range 2000 {
			if err := b.Wait(context.Background()); err != nil {
				t.Fatal(err)
			}
			cpu := time.Duration(30+rng.IntN(61)) * time.Millisecond
			clock.now = clock.now.Add(cpu)
			busy += cpu
			b.Spent(cpu)
		}
		got := busy.Seconds() / clock.now.Sub(start).Seconds()
		if got > share+0.01 || got < share-0.02 {
			t.Errorf("share %.2f: the worker was busy %.3f of the window", share, got)
		}
	}
}

// TestBudgetWaitCancelled: a worker held in debt lets go when its
// context ends.
func TestBudgetWaitCancelled(t *testing.T) {
	t.Parallel()
	b := jobs.NewBudget(0.01, jobs.BudgetOptions{})
	b.Spent(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Wait(ctx); err == nil {
		t.Fatal("Wait returned nil with its context cancelled and an hour of debt")
	}
	var none *jobs.Budget
	if err := none.Wait(context.Background()); err != nil {
		t.Fatalf("a nil budget's Wait: %v", err)
	}
	none.Spent(time.Second)
}

// starvedProcess is a process that other processes leave a part of its
// one core: it runs got of the wall time and waits for the CPU the rest,
// its rooms busy whenever the analyses are not.
type starvedProcess struct {
	clock     *fakeCPU
	got       float64
	cpu, wait time.Duration
}

// pass lets wall time go by: the rooms, or (analysis) the pool's work,
// take what the process gets of it.
func (p *starvedProcess) pass(wall time.Duration) {
	p.clock.now = p.clock.now.Add(wall)
	p.cpu += time.Duration(float64(wall) * p.got)
	p.wait += time.Duration(float64(wall) * (1 - p.got))
}

// starvedBudget is a budget of share over a process of one core that
// gets got of it, on a fake clock that its sleeps move; reads, when not
// nil, counts its readings of the process.
func starvedBudget(share, got float64, reads *int) (*jobs.Budget, *starvedProcess) {
	clock := &fakeCPU{now: time.Unix(1_700_000_000, 0)}
	p := &starvedProcess{clock: clock, got: got}
	o := clock.options()
	o.Sleep = func(ctx context.Context, d time.Duration) error { p.pass(d); return ctx.Err() }
	o.Process = func() (cpu, wait time.Duration) {
		if reads != nil {
			*reads++
		}
		return p.cpu, p.wait
	}
	o.Procs = 1
	return jobs.NewBudget(share, o), p
}

// TestBudgetStarvedProcess: a process that gets only 30% of its core
// (others take the rest) keeps its analyses to the budget's share of
// what it gets, not of the core: the rooms are not left the crumbs.
func TestBudgetStarvedProcess(t *testing.T) {
	t.Parallel()
	const share = 0.25
	b, p := starvedBudget(share, 0.3, nil)
	rng := rand.New(rand.NewPCG(2, 3))
	var analyses time.Duration
	for range 2000 {
		if err := b.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		cpu := time.Duration(30+rng.IntN(61)) * time.Millisecond
		p.pass(time.Duration(float64(cpu) / p.got)) // the analysis takes all the process gets
		analyses += cpu
		b.Spent(cpu)
	}
	if got := analyses.Seconds() / p.cpu.Seconds(); got > share+0.01 || got < share-0.02 {
		t.Errorf("the analyses took %.3f of the process's CPU, want %.2f", got, share)
	}
}

// TestBudgetReadsProcessSeldom: with small pieces of work (0.2-1 ms,
// the warming of a server's best scores at times), a budget that reads
// its process's CPU (a few system calls a thread) reads it at most
// about every 10 ms, not before and after every piece, and still keeps
// the pieces to its share of what the process gets.
func TestBudgetReadsProcessSeldom(t *testing.T) {
	t.Parallel()
	const share = 0.25
	reads := 0
	b, p := starvedBudget(share, 0.5, &reads)
	rng := rand.New(rand.NewPCG(4, 5))
	var work time.Duration
	start := p.clock.now
	for range 20_000 {
		if err := b.Wait(context.Background()); err != nil {
			t.Fatal(err)
		}
		cpu := time.Duration(200+rng.IntN(801)) * time.Microsecond
		p.pass(time.Duration(float64(cpu) / p.got))
		work += cpu
		b.Spent(cpu)
	}
	wall := p.clock.now.Sub(start)
	if most := int(wall/(10*time.Millisecond)) + 2; reads > most {
		t.Errorf("%d reads of the process in %v, want at most %d (one each 10 ms)", reads, wall, most)
	}
	if got := work.Seconds() / p.cpu.Seconds(); got > share+0.01 || got < share-0.03 {
		t.Errorf("the work took %.3f of the process's CPU, want %.2f", got, share)
	}
}
