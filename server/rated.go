package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/jobs"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/results"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// Rated rooms' refusals.
var (
	errRatedNoBots = fmt.Errorf("%w: rated rooms have no bots", match.ErrInvalid)
)

// ratedName is the seat name of a rated room's player, or the entrant
// name in an accounts-only tournament: their account's name. Guests are
// refused.
func (s *Server) ratedName(r *http.Request) (string, error) {
	a, err := s.currentAccount(r)
	if err != nil {
		if errors.Is(err, errNotLoggedIn) {
			return "", fmt.Errorf("%w: this room or tournament is for accounts only", errNotLoggedIn)
		}
		return "", err
	}
	if err := s.ratedCheck(r, a); err != nil { // linked.go
		return "", err
	}
	return a.Name, nil
}

// errTooFewRatedGames refuses an account short of a tournament's minimum
// number of rated rounds.
var errTooFewRatedGames = errors.New("server: not enough rated games to enter")

// accountEntry is the entrant name of an account in an accounts-only
// tournament, once it has the rated rounds the tournament asks for.
func (s *Server) accountEntry(r *http.Request, set tourney.Settings) (string, error) {
	a, err := s.currentAccount(r)
	if err != nil {
		if errors.Is(err, errNotLoggedIn) {
			err = fmt.Errorf("%w: this tournament is for accounts only", errNotLoggedIn)
		}
		return "", err
	}
	if err := s.ratedCheck(r, a); err != nil { // linked.go
		return "", err
	}
	if set.MinRatedGames > 0 {
		rs, err := s.acct.store.Ratings(r.Context(), a.ID)
		if err != nil {
			return "", err
		}
		games := 0
		for _, fr := range rs {
			if fr.Family == ratings.Family(set.Variant.Game) {
				games = fr.Games
			}
		}
		if games < set.MinRatedGames {
			return "", fmt.Errorf("%w: this tournament needs %d rated rounds of %s, and %s has played %d", errTooFewRatedGames, set.MinRatedGames, set.Variant.Game, a.Name, games)
		}
	}
	return a.Name, nil
}

// joinName is the name a player joins a room with: the name they typed,
// or their account's name in a rated room (where the match refuses a
// second seat for the same name, so one account holds one seat).
func (s *Server) joinName(r *http.Request, code, typed string) (string, error) {
	room, err := s.loadRoom(r.Context(), code)
	if err != nil {
		return "", err
	}
	if room.Settings.Rated {
		return s.ratedName(r)
	}
	return match.CleanName(typed)
}

// ratedRoundEntry is the outbox entry of a rated round that the notices
// say has just ended: written with the round's last event (hub.apply),
// so that the round is recorded (archive and ratings, package results)
// by a worker of the job queue even if this instance dies right after
// the event or the database is down.
func (s *Server) ratedRoundEntry(room *match.Room, notices []match.Notice) []store.OutboxEntry {
	if !room.Settings.Rated {
		return nil
	}
	ended := false
	for _, n := range notices {
		ended = ended || n.Kind == match.NoticeRoundEnded
	}
	if !ended {
		return nil
	}
	g, places, err := room.Archive(s.now())
	if err != nil {
		s.log.Error("rated round: archive", "room", room.Code, "err", err)
		return nil
	}
	return s.roundEntry(results.Round{Game: g, Places: places, Room: room.Code})
}

// roundEntry is a finished round's outbox entry.
func (s *Server) roundEntry(r results.Round) []store.OutboxEntry {
	j, err := results.RoundJob(r)
	var e store.OutboxEntry
	if err == nil {
		e, err = jobs.Entry(j)
	}
	if err != nil {
		s.log.Error("rated result cannot be queued", "game", r.Game.ID, "err", err)
		return nil
	}
	return []store.OutboxEntry{e}
}

// ratedTournamentEntry is the outbox entry of a rated tournament that
// the notices say has just closed (written with the closing event): its
// entrants who finished every hole, placed by the final leaderboard among
// themselves, are rated as one stroke-play round (at least two of them),
// and the tournament is archived as the game "t-{id}".
func (s *Server) ratedTournamentEntry(t *tourney.Tournament, notices []tourney.Notice) []store.OutboxEntry {
	closed := false
	for _, n := range notices {
		closed = closed || n.Kind == tourney.NoticeClosed
	}
	if !closed || !t.Settings.Rated {
		return nil
	}
	g, places, err := t.Archive()
	if err != nil {
		s.log.Error("rated tournament: archive", "tournament", t.ID, "err", err)
		return nil
	}
	if len(g.Players) < 2 {
		s.log.Info("rated tournament closed with fewer than two finishers: no rating moves", "tournament", t.ID, "finished", len(g.Players))
		return nil
	}
	return s.roundEntry(results.Round{Game: g, Places: places, Tournament: t.ID})
}

// ratedWindows are the rating bands of rated quick match, narrowest
// first: a waiting player is queued in the band of its rating of width
// ratedWindows[k] during the k-th quarter of the wait, then with anyone
// (the last, 0, is one band for all). Two players are paired when they
// are queued in the same band at the same time, so the window widens
// with waiting time, across instances (the queues are the store's).
var ratedWindows = []float64{100, 200, 400, 0}

// ratedQuickMatch is POST /api/quickmatch with rated settings: accounts
// only, each seated by its account's name, paired by rating in a window
// that widens while they wait. Like quick match it long-polls: 200 with a
// seat, 204 when nobody came (call again).
func (s *Server) ratedQuickMatch(w http.ResponseWriter, r *http.Request, set match.Settings) {
	a, rating, err := s.ratedPlayer(r, set)
	if err != nil {
		s.fail(w, err)
		return
	}
	set.AutoStart = true
	canon, _ := json.Marshal(set)
	sum := sha256.Sum256(canon)
	base := "quickmatch-rated:" + hex.EncodeToString(sum[:8])
	me := ticket{ID: newID(), Name: a.Name}
	mine, _ := json.Marshal(me)
	ctx := r.Context()
	inbox, err := s.store.Listen(ctx, "quickmatch:"+me.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	defer inbox.Close()
	wait := func(d time.Duration) (protocol.SeatGrant, bool) { return awaitGrant(ctx, inbox.C(), d) }
	stage := s.opts.QuickMatchWait / time.Duration(len(ratedWindows))
	for _, width := range ratedWindows {
		key := base + ":any"
		if width > 0 {
			key = base + ":" + strconv.FormatFloat(width, 'f', 0, 64) + ":" + strconv.Itoa(int(math.Floor(rating.Rating/width)))
		}
		partnerData, paired, err := s.store.Pair(ctx, key, string(mine))
		if err != nil {
			s.fail(w, err)
			return
		}
		if paired {
			var partner ticket
			if err := json.Unmarshal([]byte(partnerData), &partner); err != nil {
				s.fail(w, err)
				return
			}
			if partner.Name == me.Name {
				// The same account waiting from another browser.
				s.fail(w, fmt.Errorf("%w: %s is already waiting for a rated quick match", match.ErrAlreadySeated, me.Name))
				return
			}
			if err := s.refuseLinked(ctx, a, partner.Name); err != nil { // linked.go
				// The partner waits on for someone else.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
				if _, _, perr := s.store.Pair(rctx, key, partnerData); perr != nil {
					s.log.Warn("rated quick match: a partner's ticket was lost", "err", perr)
				}
				cancel()
				s.fail(w, err)
				return
			}
			grant, err := s.seatPartner(ctx, r, set, partner)
			if err != nil {
				s.fail(w, err)
				return
			}
			myGrant, err := s.join(ctx, grant.Code, me.Name, false)
			if err != nil {
				s.fail(w, err)
				return
			}
			myGrant.Link = grant.Link
			writeJSON(w, http.StatusOK, myGrant)
			return
		}
		if g, ok := wait(stage); ok {
			writeJSON(w, http.StatusOK, g)
			return
		}
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		still, err := s.store.Unpair(uctx, key, string(mine))
		cancel()
		if err == nil && !still {
			// Someone took our ticket just now: their grant is on its way.
			if g, ok := wait(5 * time.Second); ok {
				writeJSON(w, http.StatusOK, g)
				return
			}
			break
		}
		if ctx.Err() != nil {
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// ratedPlayer is the account asking for a rated quick match with the
// settings, and its rating in their game: refused when not logged in,
// for settings that are not valid, or by the linked-account check.
func (s *Server) ratedPlayer(r *http.Request, set match.Settings) (accounts.Account, ratings.Rating, error) {
	a, err := s.currentAccount(r)
	if err != nil {
		if errors.Is(err, errNotLoggedIn) {
			err = fmt.Errorf("%w: rated rooms are for accounts only", errNotLoggedIn)
		}
		return a, ratings.Rating{}, err
	}
	if err := set.Validate(); err != nil {
		return a, ratings.Rating{}, err
	}
	if err := s.ratedCheck(r, a); err != nil { // linked.go
		return a, ratings.Rating{}, err
	}
	rs, err := s.acct.store.Ratings(r.Context(), a.ID)
	if err != nil {
		return a, ratings.Rating{}, err
	}
	rating := ratings.New()
	for _, fr := range rs {
		if fr.Family == ratings.Family(set.Variant.Game) {
			rating = fr.Rating
		}
	}
	return a, rating, nil
}
