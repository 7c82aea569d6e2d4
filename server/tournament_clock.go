package server

import (
	"context"
	"encoding/json"
	"time"

	"golfsolitaire/tourney"
)

// clockScanLimit bounds how many listed tournaments one clock scan reads.
const clockScanLimit = 10000

// tournamentClock keeps the hubs of tournaments whose start or closing
// time is near loaded, so that their timers start and close them on time
// even with nobody watching: every ResyncEvery it scans the list of
// tournaments, holds the hub of each one with a start (upcoming) or a
// closing time (live) within the next few scans, and lets go of the
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
	s.tour.mu.Lock()
	s.tour.clock = c
	s.tour.mu.Unlock()
	go s.runTournamentClock(c)
}

func (s *Server) stopTournamentClock() {
	s.tour.mu.Lock()
	c := s.tour.clock
	s.tour.clock = nil
	s.tour.mu.Unlock()
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
			s.releaseTournament(h)
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
// ahead (or past it), and releases the rest of those it held.
func (s *Server) clockScan(held map[string]*thub, ahead time.Duration) {
	ts, err := s.tournamentStore()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), max(s.opts.ResyncEvery, 2*time.Second))
	defer cancel()
	ls, err := ts.TournamentList(ctx, clockScanLimit)
	if err != nil {
		s.log.Warn("tournament clock scan", "err", err)
		return
	}
	now := s.now()
	want := map[string]bool{}
	for _, l := range ls {
		var tl tournamentListing
		if json.Unmarshal(l.Data, &tl) != nil {
			continue
		}
		var at time.Time
		switch tl.Status {
		case tourney.Upcoming:
			at = tl.Settings.Starts
		case tourney.Live:
			at = tl.Settings.Closes
		}
		if at.IsZero() || at.Sub(now) > ahead {
			continue
		}
		want[l.Room] = true
		if held[l.Room] != nil {
			continue
		}
		h, err := s.acquireTournament(ctx, l.Room)
		if err != nil {
			s.log.Warn("tournament clock: loading a tournament", "tournament", l.Room, "err", err)
			continue
		}
		held[l.Room] = h
	}
	for id, h := range held {
		if !want[id] {
			delete(held, id)
			s.releaseTournament(h)
		}
	}
}
