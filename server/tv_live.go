package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/server/tournaments"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// What the TV and the home page read besides the counts: the featured
// game, the game a player is in, today's daily challenge's leaders and
// the top rated players.

// liveListings is how many lobby listings the featured game and a
// player's game are looked for among.
const liveListings = 200

// liveTop is how many leaders and top rated players /api/live lists.
const liveTop = 5

// LiveLeaders are today's daily challenge's leaders (GET
// /api/tournaments/{id}/leaders?n=5).
type LiveLeaders struct {
	ID   string        `json:"id"`
	Link string        `json:"link"`
	Rows []tourney.Row `json:"rows"`
}

// watchable is a listed room that is in play and may be watched.
type watchable struct {
	LiveGame
	set match.Settings
}

// watchables are the lobby's public rooms in play that allow spectators,
// newest first.
func (s *Server) watchables(ctx context.Context) ([]watchable, error) {
	ls, err := s.store.Listings(ctx, liveListings)
	if err != nil {
		return nil, err
	}
	var out []watchable
	for _, l := range ls {
		var d struct {
			listingData
			Settings json.RawMessage `json:"settings"`
		}
		if json.Unmarshal(l.Data, &d) != nil || d.Status != match.Playing || !d.Spectators {
			continue
		}
		var set match.Settings
		if json.Unmarshal(d.Settings, &set) != nil {
			continue
		}
		if d.Seats == nil {
			d.Seats = []string{}
		}
		out = append(out, watchable{LiveGame: LiveGame{
			Code: d.Code, Link: "/watch/" + d.Code, Seats: d.Seats, Hole: d.Hole, Rated: set.Rated, Settings: d.Settings,
		}, set: set})
	}
	return out, nil
}

// featured is the game to watch (chooseFeatured) among the watchable
// rooms; watched are their spectators on every instance.
func (s *Server) featured(ctx context.Context, watched map[string]int) (*LiveGame, error) {
	ws, err := s.watchables(ctx)
	if err != nil {
		return nil, err
	}
	games := make([]LiveGame, 0, len(ws))
	for _, w := range ws {
		g := w.LiveGame
		g.Spectators = watched[g.Code]
		if g.Rated {
			r, err := s.meanRating(ctx, w.set.Variant.Game, g.Seats)
			if err != nil {
				return nil, err
			}
			g.Rating = &r
		}
		games = append(games, g)
	}
	return chooseFeatured(games), nil
}

// chooseFeatured is the game to watch: the highest-rated live game (rated
// games by their players' mean rating, highest first, before every
// unrated one), else the most watched; ties go to the lowest code. Nil
// when there is none.
func chooseFeatured(games []LiveGame) *LiveGame {
	if len(games) == 0 {
		return nil
	}
	best := slices.MinFunc(games, func(a, b LiveGame) int {
		if (a.Rating != nil) != (b.Rating != nil) {
			if a.Rating != nil {
				return -1
			}
			return 1
		}
		if a.Rating != nil && *a.Rating != *b.Rating {
			return cmp.Compare(*b.Rating, *a.Rating)
		}
		return cmp.Or(cmp.Compare(b.Spectators, a.Spectators), cmp.Compare(a.Code, b.Code))
	})
	return &best
}

// ratingFor is how long a player's rating read for the featured game is
// reused: the featured game is chosen every liveEvery, among up to
// liveListings rooms.
const ratingFor = 30 * time.Second

// cachedRating is a player's rating in a family, and when it was read.
type cachedRating struct {
	rating float64
	at     time.Time
}

// meanRating is the seats' mean rating in the game's family, rounded to
// a tenth: a rated seat's name is its account's; an account that has not
// played the family counts as a new player's rating.
func (s *Server) meanRating(ctx context.Context, game golf.Game, seats []string) (float64, error) {
	if len(seats) == 0 {
		return ratings.New().Rating, nil
	}
	sum := 0.0
	for _, name := range seats {
		r, err := s.playerRating(ctx, ratings.Family(game), name)
		if err != nil {
			return 0, err
		}
		sum += r
	}
	return math.Round(sum/float64(len(seats))*10) / 10, nil
}

// playerRating is the rating of the account by that name in the family
// (a new player's when it has none, or there is no such account), read at
// most once every ratingFor.
func (s *Server) playerRating(ctx context.Context, family ratings.Family, name string) (float64, error) {
	key, err := accounts.Key(name)
	if err != nil {
		return ratings.New().Rating, nil
	}
	c := &s.live
	ck := string(family) + "\x00" + key
	c.ratingsMu.Lock()
	got, ok := c.ratings[ck]
	c.ratingsMu.Unlock()
	if ok && time.Since(got.at) < ratingFor {
		return got.rating, nil
	}
	r := ratings.New().Rating
	a, err := s.acct.store.ByKey(ctx, key)
	switch {
	case errors.Is(err, accounts.ErrNotFound):
	case err != nil:
		return 0, err
	default:
		rs, err := s.acct.store.Ratings(ctx, a.ID)
		if err != nil {
			return 0, err
		}
		for _, fr := range rs {
			if fr.Family == family {
				r = fr.Rating.Rating
			}
		}
	}
	c.ratingsMu.Lock()
	defer c.ratingsMu.Unlock()
	if c.ratings == nil {
		c.ratings = map[string]cachedRating{}
	}
	for k, v := range c.ratings { // forget the stale ones
		if time.Since(v.at) >= ratingFor {
			delete(c.ratings, k)
		}
	}
	c.ratings[ck] = cachedRating{rating: r, at: time.Now()}
	return r, nil
}

// dailyLeaders are today's daily challenge's first leaders (the list the
// lobby reads), nil when nobody has made today's challenge yet.
func (s *Server) dailyLeaders(ctx context.Context) (*LiveLeaders, error) {
	d, err := s.loadDaily(ctx, s.now().Truncate(24*time.Hour))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rows, err := s.tours.Leaders(ctx, d.ID, liveTop)
	if errors.Is(err, tournaments.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &LiveLeaders{ID: d.ID, Link: "/t/" + d.ID, Rows: rows}, nil
}

// topRated are the best-rated accounts of the default game, leaving out
// those held for fair-play review.
func (s *Server) topRated(ctx context.Context) (protocol.RatingLeaderboard, error) {
	game := match.DefaultSettings().Variant.Game
	out := protocol.RatingLeaderboard{Game: string(game), Leaders: []protocol.Leader{}}
	ls, err := s.acct.store.Leaderboard(ctx, ratings.Family(game), 4*liveTop)
	if err != nil {
		return out, err
	}
	for _, l := range ls {
		if len(out.Leaders) == liveTop {
			break
		}
		held, err := s.heldPlayer(ctx, l.Name)
		if err != nil {
			return out, err
		}
		if held {
			continue
		}
		out.Leaders = append(out.Leaders, protocol.Leader{Name: l.Name, PlayerRating: protocol.PlayerRating{
			Rating: l.Rating.Rating, RD: l.RD, Volatility: l.Volatility, Provisional: l.Provisional(), Display: l.String(), Games: l.Games}})
	}
	return out, nil
}

// heldPlayer reports whether the account by that name is held for
// fair-play review (or confirmed); false when fair play is off.
func (s *Server) heldPlayer(ctx context.Context, name string) (bool, error) {
	if s.fair == nil {
		return false, nil
	}
	player, err := s.fair.holds.PlayerOf(ctx, 0, name)
	if err != nil || player == "" {
		return false, err
	}
	_, held, err := s.fair.store.Held(ctx, player)
	return held, err
}

// getLivePlayer is GET /api/live/players/{name}: the public game the
// player is seated in and that spectators may watch, in play (or else
// waiting to start), {"name","code","link","status"}; 404
// player_not_found when there is none. The seats looked among are read
// from the listings at most once every liveEvery (liveSeats).
func (s *Server) getLivePlayer(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSpace(r.PathValue("name"))
	seats, err := s.liveSeats(r.Context())
	if err != nil {
		s.fail(w, err)
		return
	}
	var found *LivePlayer
	for i := range seats { // newest room first
		p := &seats[i]
		if !strings.EqualFold(p.Name, name) {
			continue
		}
		if found == nil || (found.Status != match.Playing && p.Status == match.Playing) {
			found = p
		}
	}
	if found == nil {
		s.fail(w, fmt.Errorf("%w: %s is not playing in a public game now", accounts.ErrNotFound, name))
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, found)
}

// liveSeats are the seats of the lobby's rooms that spectators may
// watch and that have not finished, newest room first, as LivePlayers:
// read from the store's listings (liveListings of them) and parsed at
// most once every liveEvery, however many ask.
func (s *Server) liveSeats(ctx context.Context) ([]LivePlayer, error) {
	c := &s.live
	c.seatsMu.Lock()
	defer c.seatsMu.Unlock()
	if !c.seatsAt.IsZero() && time.Since(c.seatsAt) < liveEvery {
		return c.seats, nil
	}
	ls, err := s.store.Listings(ctx, liveListings)
	if err != nil {
		return nil, err
	}
	var out []LivePlayer
	for _, l := range ls { // newest first
		var d listingData
		if json.Unmarshal(l.Data, &d) != nil || !d.Spectators || d.Status == match.Finished {
			continue
		}
		for _, seat := range d.Seats {
			out = append(out, LivePlayer{Name: seat, Code: d.Code, Link: "/watch/" + d.Code, Status: d.Status})
		}
	}
	c.seats, c.seatsAt = out, time.Now()
	return out, nil
}

// LivePlayer is GET /api/live/players/{name}'s answer.
type LivePlayer struct {
	Name   string       `json:"name"`
	Code   string       `json:"code"`
	Link   string       `json:"link"`
	Status match.Status `json:"status"`
}
