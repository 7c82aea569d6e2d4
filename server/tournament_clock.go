package server

import (
	"context"
	"errors"
	"time"

	"golfsolitaire/store"
)

// clockScanLimit bounds how many listed tournaments one clock scan reads.
const clockScanLimit = 10000

// tournamentClock keeps the hubs of tournaments whose start or closing
// time is near loaded, so that their timers start and close them on time
// even with nobody watching: every ResyncEvery it scans the list of
// tournaments, holds the hub of each one with a start (upcoming) or a
// closing time (live) within the next few scans (the store's due times,
// which each tournament's hub keeps with its listing), and lets go of the
// others.
type tournamentClock struct {
	stop chan struct{}
	done chan struct{}
}

func (s *Server) startTournamentClock() {
	if _, err := s.tournamentStore(); err != nil {
		return
	}
	c := &tournamentClock{stop: make(chan struct{}), done: make(chan struct{})}
	s.tours.clockMu.Lock()
	s.tours.clock = c
	s.tours.clockMu.Unlock()
	go s.runTournamentClock(c)
}

func (s *Server) stopTournamentClock() {
	s.tours.clockMu.Lock()
	c := s.tours.clock
	s.tours.clock = nil
	s.tours.clockMu.Unlock()
	if c != nil {
		close(c.stop)
		<-c.done
	}
}

func (s *Server) runTournamentClock(c *tournamentClock) {
	defer close(c.done)
	held := map[string]*thub{}
	defer func() {
		for _, h := range held {
			s.tours.reg.Release(h)
		}
	}()
	every := s.opts.ResyncEvery
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		s.clockScan(held, 3*every)
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
func (s *Server) clockScan(held map[string]*thub, ahead time.Duration) {
	ts, err := s.tournamentStore()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(s.opts.ResyncEvery, 2*time.Second))
	defer cancel()
	ids, err := ts.Due(ctx, s.now().Add(ahead), clockScanLimit)
	if err != nil {
		s.outage.warn(s.log, "tournament clock scan", err)
		return
	}
	s.outage.ok(s.log)
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
		if held[id] != nil {
			continue
		}
		h, err := s.tours.reg.Acquire(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			_ = ts.SetDue(ctx, id, time.Time{}) // it expired: forget it
			continue
		}
		if err != nil {
			s.outage.warn(s.log, "tournament clock: loading a tournament", err, "tournament", id)
			continue
		}
		held[id] = h
	}
	for id, h := range held {
		if !want[id] {
			delete(held, id)
			s.tours.reg.Release(h)
		}
	}
}
