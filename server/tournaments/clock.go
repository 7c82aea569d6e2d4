package tournaments

import (
	"context"
	"errors"
	"time"

	"golfsolitaire/store"
)

// clockScanLimit bounds how many listed tournaments one clock scan reads.
const clockScanLimit = 10000

// clock keeps the hubs of tournaments whose start or closing
// time is near loaded, so that their timers start and close them on time
// even with nobody watching: every ResyncEvery it scans the list of
// tournaments, holds the hub of each one with a start (upcoming) or a
// closing time (live) within the next few scans (the store's due times,
// which each tournament's hub keeps with its listing), and lets go of the
// others.
type clock struct {
	stop chan struct{}
	done chan struct{}
}

func (ts *Tournaments) startClock() {
	c := &clock{stop: make(chan struct{}), done: make(chan struct{})}
	ts.clockMu.Lock()
	ts.clock = c
	ts.clockMu.Unlock()
	go ts.runClock(c)
}

// Close stops the clock (and with it the hubs it holds).
func (ts *Tournaments) Close() {
	ts.clockMu.Lock()
	c := ts.clock
	ts.clock = nil
	ts.clockMu.Unlock()
	if c != nil {
		close(c.stop)
		<-c.done
	}
}

func (ts *Tournaments) runClock(c *clock) {
	defer close(c.done)
	held := map[string]*hub{}
	defer func() {
		for _, h := range held {
			ts.reg.Release(h)
		}
	}()
	every := ts.o.ResyncEvery
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		ts.clockScan(held, 3*every)
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
	}
}

// clockScan holds the hubs of the tournaments with a deadline within
// ahead (or past it), read from the store's due times (a sorted set on
// Redis, not a scan of every tournament), and releases the rest of those
// it held.
func (ts *Tournaments) clockScan(held map[string]*hub, ahead time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), max(ts.o.ResyncEvery, 2*time.Second))
	defer cancel()
	ids, err := ts.o.Tournaments.Due(ctx, ts.o.Now().Add(ahead), clockScanLimit)
	if err != nil {
		ts.o.Outage.Warn(ts.o.Logger, "tournament clock scan", err)
		return
	}
	ts.o.Outage.OK(ts.o.Logger)
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
		if held[id] != nil {
			continue
		}
		h, err := ts.reg.Acquire(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			_ = ts.o.Tournaments.SetDue(ctx, id, time.Time{}) // it expired: forget it
			continue
		}
		if err != nil {
			ts.o.Outage.Warn(ts.o.Logger, "tournament clock: loading a tournament", err, "tournament", id)
			continue
		}
		held[id] = h
	}
	for id, h := range held {
		if !want[id] {
			delete(held, id)
			ts.reg.Release(h)
		}
	}
}
