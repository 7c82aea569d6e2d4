package server

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"golfsolitaire/store"
)

// Site-wide counts for GET /api/live. Every instance publishes its own
// counts (players, games in play, spectators, and the spectators of each
// watchable room in play) on the store's liveCountsTopic every liveEvery;
// every instance listens and sums its own with the others' it heard from
// within peerFresh. On Redis the counts are the whole site's; the memory
// store reaches the instances of one process only. An instance that stops
// drops out of the sums peerFresh after its last message.

// liveCountsTopic is the store topic the counts are published on.
const liveCountsTopic = "live:counts"

// peerFresh is how long another instance's counts are summed after it
// published them.
const peerFresh = 3 * liveEvery

// liveCounts is one instance's counts.
type liveCounts struct {
	ID         string `json:"id"`
	Players    int    `json:"players"`
	Games      int    `json:"games"`
	Spectators int    `json:"spectators"`
	// Playing are the codes of the rooms in play with a hub on the
	// instance: a room with hubs on two instances is one game.
	Playing []string `json:"playing"`
	// Watched are the spectators of each public room in play that
	// spectators may watch (rooms with none left out).
	Watched map[string]int `json:"watched"`
}

// peerCounts are another instance's counts and when they came.
type peerCounts struct {
	counts liveCounts
	at     time.Time
}

// startLiveCounts publishes this instance's counts and listens to the
// others', until the server closes.
func (s *Server) startLiveCounts() {
	s.tasks.goCtx(func(ctx context.Context) {
		tick := time.NewTicker(liveEvery)
		defer tick.Stop()
		for {
			rctx, cancel := context.WithTimeout(ctx, liveEvery)
			data, _ := json.Marshal(s.localLive())
			if err := s.store.Notify(rctx, liveCountsTopic, data); err != nil && ctx.Err() == nil {
				s.log.Debug("live counts not published", "err", err)
			}
			cancel()
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	})
	s.tasks.goCtx(func(ctx context.Context) {
		s.keepListening(ctx, liveCountsTopic, slog.LevelDebug, s.heardLiveCounts)
	})
}

// heardLiveCounts keeps another instance's counts.
func (s *Server) heardLiveCounts(e store.Entry) {
	var c liveCounts
	if json.Unmarshal(e.Data, &c) != nil || c.ID == "" || c.ID == s.id {
		return
	}
	s.live.peersMu.Lock()
	if s.live.peers == nil {
		s.live.peers = map[string]peerCounts{}
	}
	s.live.peers[c.ID] = peerCounts{counts: c, at: time.Now()}
	s.live.peersMu.Unlock()
}

// siteCounts adds to this instance's counts those the other instances
// published lately, forgetting the stale ones.
func (s *Server) siteCounts(own liveCounts) liveCounts {
	out := own
	out.Watched = map[string]int{}
	for code, n := range own.Watched {
		out.Watched[code] += n
	}
	games := map[string]bool{}
	for _, code := range own.Playing {
		games[code] = true
	}
	s.live.peersMu.Lock()
	defer s.live.peersMu.Unlock()
	for id, p := range s.live.peers {
		if time.Since(p.at) > peerFresh {
			delete(s.live.peers, id)
			continue
		}
		out.Players += p.counts.Players
		for _, code := range p.counts.Playing {
			games[code] = true
		}
		out.Spectators += p.counts.Spectators
		for code, n := range p.counts.Watched {
			out.Watched[code] += n
		}
	}
	out.Games = len(games)
	return out
}
