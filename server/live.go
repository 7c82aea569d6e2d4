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
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// liveEvery is how long one answer of GET /api/live is reused: however
// many pages poll it, the hubs and the store are read at most this often.
const liveEvery = 2 * time.Second

// liveScheduled is how many upcoming scheduled tournaments /api/live lists.
const liveScheduled = 5

// Live is GET /api/live: what is on now.
type Live struct {
	// Players and Spectators are the WebSockets attached to rooms, as a
	// seat (bots left out) or watching; Games the rooms in play with a
	// hub. Summed over every instance that published its counts lately
	// (tv_counts.go).
	Players    int `json:"players"`
	Games      int `json:"games"`
	Spectators int `json:"spectators"`
	// Featured is the game to watch, or nil.
	Featured *LiveGame `json:"featured"`
	// Scheduled are the next scheduled tournaments, soonest first.
	Scheduled []LiveTournament `json:"scheduled"`
	// Leaders are today's daily challenge's leaders, nil when nobody has
	// made today's challenge yet.
	Leaders *LiveLeaders `json:"leaders"`
	// TopRated are the best-rated players of the default game, held
	// players left out.
	TopRated protocol.RatingLeaderboard `json:"topRated"`
	// At is when this answer was made.
	At time.Time `json:"at"`
}

// LiveGame is the featured game: a public room in play that spectators
// may watch.
type LiveGame struct {
	Code  string   `json:"code"`
	Link  string   `json:"link"`
	Seats []string `json:"seats"`
	Hole  int      `json:"hole"`
	Rated bool     `json:"rated"`
	// Rating is the players' mean rating in the game's family (a rated
	// game only; nil otherwise).
	Rating     *float64        `json:"rating"`
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

// liveCache keeps the latest answer, and the counts the other instances
// published (tv_counts.go).
type liveCache struct {
	mu   sync.Mutex
	at   time.Time
	last Live

	peersMu sync.Mutex
	peers   map[string]peerCounts

	// seats are the watchable rooms' seats GET /api/live/players/{name}
	// looks among, as read at seatsAt (tv_live.go).
	seatsMu sync.Mutex
	seatsAt time.Time
	seats   []LivePlayer

	// ratings are the players' ratings the featured game was chosen with
	// (tv_live.go).
	ratingsMu sync.Mutex
	ratings   map[string]cachedRating
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

// pack is rl in one word: the three flags, then the players and the
// spectators in 30 bits each (a room's seats and spectators are limited
// far below that; more is counted as the most that fits).
func (rl roomLive) pack() uint64 {
	const most = 1<<30 - 1
	var w uint64
	if rl.playing {
		w |= 1
	}
	if rl.watchable {
		w |= 2
	}
	if rl.rated {
		w |= 4
	}
	return w | uint64(min(rl.players, most))<<3 | uint64(min(rl.spectators, most))<<33
}

func unpackLive(w uint64) roomLive {
	const most = 1<<30 - 1
	return roomLive{playing: w&1 != 0, watchable: w&2 != 0, rated: w&4 != 0,
		players: int(w >> 3 & most), spectators: int(w >> 33 & most)}
}

// roomLive is what the room says of itself now (on the loop).
func (h *hub) roomLive() roomLive {
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
			if !c.preview {
				rl.spectators++
			}
		case c.seat < len(rm.Seats) && !rm.Seats[c.seat].Bot:
			rl.players++
		}
	}
	return rl
}

// Settled keeps h.live up to date: the loop has run something.
func (h *hub) Settled() { h.live.Store(h.roomLive().pack()) }

// localLive sums this instance's room hubs' counts, and the spectators
// of each watchable room in play, from what each hub last said of itself
// (hub.live): a read of every room every liveEvery costs no trip through
// their loops.
func (s *Server) localLive() liveCounts {
	out := liveCounts{ID: s.id, Watched: map[string]int{}}
	for _, h := range s.rooms.All() {
		rl := unpackLive(h.live.Load())
		out.Players += rl.players
		out.Spectators += rl.spectators
		if rl.playing {
			out.Games++
			out.Playing = append(out.Playing, h.code)
			if rl.watchable && rl.spectators > 0 {
				out.Watched[h.code] += rl.spectators
			}
		}
	}
	return out
}

// liveNow gathers what is on now: every instance's counts (this one's
// hubs and what the others published), the lobby's listings (every
// instance's public rooms) for the featured game, the tournament list for
// the scheduled ones, today's daily challenge's leaders and the top rated
// players.
func (s *Server) liveNow(ctx context.Context) (Live, error) {
	out := Live{Scheduled: []LiveTournament{}, At: s.now()}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	counts := s.siteCounts(s.localLive())
	out.Players, out.Games, out.Spectators = counts.Players, counts.Games, counts.Spectators
	featured, err := s.featured(ctx, counts.Watched)
	if err != nil {
		return out, err
	}
	out.Featured = featured
	scheduled, err := s.scheduledList(ctx)
	if err != nil {
		return out, err
	}
	out.Scheduled = scheduled
	if out.Leaders, err = s.dailyLeaders(ctx); err != nil {
		return out, err
	}
	if out.TopRated, err = s.topRated(ctx); err != nil {
		return out, err
	}
	return out, nil
}

// scheduledList is the next upcoming scheduled tournaments, soonest first.
func (s *Server) scheduledList(ctx context.Context) ([]LiveTournament, error) {
	ls, err := s.opts.Tournaments.TournamentList(ctx, 500)
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
