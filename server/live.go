package server

import (
	"cmp"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/tourney"
)

// liveEvery is how long one answer of GET /api/live is reused: however
// many pages poll it, the hubs and the store are read at most this often.
const liveEvery = 2 * time.Second

// liveScheduled is how many upcoming scheduled tournaments /api/live lists.
const liveScheduled = 5

// Live is GET /api/live: what is on now.
type Live struct {
	// Players and Spectators are the WebSockets attached to rooms on this
	// instance, as a seat (bots left out) or watching; Games the rooms in
	// play with a hub on this instance.
	Players    int `json:"players"`
	Games      int `json:"games"`
	Spectators int `json:"spectators"`
	// Featured is the game to watch, or nil.
	Featured *LiveGame `json:"featured"`
	// Scheduled are the next scheduled tournaments, soonest first.
	Scheduled []LiveTournament `json:"scheduled"`
	// At is when this answer was made.
	At time.Time `json:"at"`
}

// LiveGame is the featured game: a public room in play that spectators
// may watch.
type LiveGame struct {
	Code       string          `json:"code"`
	Link       string          `json:"link"`
	Seats      []string        `json:"seats"`
	Hole       int             `json:"hole"`
	Rated      bool            `json:"rated"`
	Spectators int             `json:"spectators"`
	Settings   json.RawMessage `json:"settings"`
}

// LiveTournament is an upcoming scheduled tournament.
type LiveTournament struct {
	ID       string          `json:"id"`
	Name     string          `json:"name"`
	StartsAt time.Time       `json:"startsAt"`
	Schedule tourney.Cadence `json:"schedule"`
	Format   tourney.Format  `json:"format"`
	Holes    int             `json:"holes"`
	Entrants int             `json:"entrants"`
	Link     string          `json:"link"`
}

// liveCache keeps the latest answer.
type liveCache struct {
	mu   sync.Mutex
	at   time.Time
	last Live
}

func (s *Server) getLive(w http.ResponseWriter, r *http.Request) {
	c := &s.live
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at.IsZero() || time.Since(c.at) >= liveEvery {
		live, err := s.liveNow(r.Context())
		if err != nil {
			s.fail(w, err)
			return
		}
		c.last, c.at = live, time.Now()
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, c.last)
}

// roomLive is what one room hub says of itself.
type roomLive struct {
	playing, watchable, rated bool
	players, spectators       int
}

// liveNow gathers what is on now: this instance's room hubs for the counts,
// the lobby's listings (every instance's public rooms) for the featured
// game, and the tournament list for the scheduled ones.
func (s *Server) liveNow(ctx context.Context) (Live, error) {
	out := Live{Scheduled: []LiveTournament{}, At: s.now()}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	local := map[string]roomLive{}
	for _, h := range s.rooms.all() {
		rl, err := read(ctx, &h.hubCore, func() roomLive {
			rm := h.room
			var rl roomLive
			if rm == nil {
				return rl
			}
			rl.playing = rm.Status == match.Playing
			rl.watchable = rm.Settings.Public && rm.Settings.Spectators && rm.Tournament == ""
			rl.rated = rm.Settings.Rated
			for c := range h.conns {
				switch {
				case c.seat < 0:
					rl.spectators++
				case c.seat < len(rm.Seats) && !rm.Seats[c.seat].Bot:
					rl.players++
				}
			}
			return rl
		})
		if err != nil {
			continue // stopping
		}
		local[h.code] = rl
		out.Players += rl.players
		out.Spectators += rl.spectators
		if rl.playing {
			out.Games++
		}
	}
	featured, err := s.featured(ctx, local)
	if err != nil {
		return out, err
	}
	out.Featured = featured
	scheduled, err := s.scheduledList(ctx)
	if err != nil {
		return out, err
	}
	out.Scheduled = scheduled
	return out, nil
}

// featured is the game to watch among the public rooms in play that
// spectators may watch: a rated one first, then the most watched (its
// spectators on this instance), then the most recently listed.
func (s *Server) featured(ctx context.Context, local map[string]roomLive) (*LiveGame, error) {
	ls, err := s.store.Listings(ctx, 200)
	if err != nil {
		return nil, err
	}
	type candidate struct {
		g     LiveGame
		order int
	}
	var cands []candidate
	for i, l := range ls { // newest first
		var d struct {
			Code       string          `json:"code"`
			Settings   json.RawMessage `json:"settings"`
			Seats      []string        `json:"seats"`
			Status     match.Status    `json:"status"`
			Hole       int             `json:"hole"`
			Spectators bool            `json:"spectators"`
		}
		if json.Unmarshal(l.Data, &d) != nil || d.Status != match.Playing || !d.Spectators {
			continue
		}
		var set struct {
			Rated bool `json:"rated"`
		}
		_ = json.Unmarshal(d.Settings, &set)
		cands = append(cands, candidate{g: LiveGame{
			Code: d.Code, Link: "/watch/" + d.Code, Seats: d.Seats, Hole: d.Hole, Rated: set.Rated,
			Spectators: local[d.Code].spectators, Settings: d.Settings,
		}, order: i})
	}
	if len(cands) == 0 {
		return nil, nil
	}
	best := slices.MinFunc(cands, func(a, b candidate) int {
		if a.g.Rated != b.g.Rated {
			if a.g.Rated {
				return -1
			}
			return 1
		}
		return cmp.Or(cmp.Compare(b.g.Spectators, a.g.Spectators), cmp.Compare(a.order, b.order))
	})
	if best.g.Seats == nil {
		best.g.Seats = []string{}
	}
	return &best.g, nil
}

// scheduledList is the next upcoming scheduled tournaments, soonest first.
func (s *Server) scheduledList(ctx context.Context) ([]LiveTournament, error) {
	ts, err := s.tournamentStore()
	if err != nil {
		return nil, err
	}
	ls, err := ts.TournamentList(ctx, 500)
	if err != nil {
		return nil, err
	}
	out := []LiveTournament{}
	for _, l := range ls {
		var d struct {
			ID       string         `json:"id"`
			Name     string         `json:"name"`
			Status   tourney.Status `json:"status"`
			Entrants int            `json:"entrants"`
			Settings struct {
				Schedule tourney.Cadence `json:"schedule"`
				Starts   time.Time       `json:"starts"`
				Format   tourney.Format  `json:"format"`
				Holes    int             `json:"holes"`
			} `json:"settings"`
		}
		if json.Unmarshal(l.Data, &d) != nil || d.Settings.Schedule == "" || d.Status != tourney.Upcoming {
			continue
		}
		out = append(out, LiveTournament{
			ID: d.ID, Name: d.Name, StartsAt: d.Settings.Starts, Schedule: d.Settings.Schedule,
			Format: d.Settings.Format, Holes: d.Settings.Holes, Entrants: d.Entrants, Link: "/t/" + d.ID,
		})
	}
	slices.SortFunc(out, func(a, b LiveTournament) int {
		return cmp.Or(a.StartsAt.Compare(b.StartsAt), cmp.Compare(a.ID, b.ID))
	})
	return out[:min(len(out), liveScheduled)], nil
}
