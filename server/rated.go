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
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
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

// ratedRoomChanged records a rated round when it ends: the archive of the
// room and every player's new rating, in one step of the account store
// (ratings.Config.Round: match play is one result, stroke play pairwise
// results). It runs on the hub of the instance that appended the round's
// last event; the store refuses a second record of the same round.
func (s *Server) ratedRoomChanged(ctx context.Context, room *match.Room, notices []match.Notice) {
	if !room.Settings.Rated {
		return
	}
	ended := false
	for _, n := range notices {
		ended = ended || n.Kind == match.NoticeRoundEnded
	}
	if !ended {
		return
	}
	g, places, err := room.Archive(s.now())
	if err != nil {
		s.log.Error("rated round: archive", "room", room.Code, "err", err)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if name, err := s.fillAccounts(ctx, &g); err != nil {
		s.log.Warn("rated round not recorded: a player has no account", "room", room.Code, "player", name, "err", err)
		return
	}
	s.recordRated(ctx, g, places)
	s.syncHeldLater(room.Code) // held.go: the finished round's marks
}

// fillAccounts sets the account id of each player of g that has none yet
// (the seat or entry did not record the account it was taken with: rated
// quick match seats the partner by name, and rooms and tournaments stored
// before entries kept their account) from their name (a rated seat's or
// entrant's name is its account's). On an error it returns the name that
// has no account.
func (s *Server) fillAccounts(ctx context.Context, g *accounts.Game) (string, error) {
	for i := range g.Players {
		if g.Players[i].Account != 0 {
			continue
		}
		key, err := accounts.Key(g.Players[i].Name)
		if err == nil {
			var a accounts.Account
			if a, err = s.acct.store.ByKey(ctx, key); err == nil {
				g.Players[i].Account = a.ID
			}
		}
		if err != nil {
			return g.Players[i].Name, err
		}
	}
	return "", nil
}

// recordRated moves the players' ratings for a finished rated round or
// tournament and archives it, in one step of the account store; the store
// refuses a second record of the same game (another instance got there
// first). Fair play (package fairplay/review) holds it back first when a
// player's results are held for review, and records it when cleared.
func (s *Server) recordRated(ctx context.Context, g accounts.Game, places []int) {
	if s.fair != nil && s.fair.holds.Hold(ctx, g, places) {
		return // fairplay/review: a held player's round waits for review
	}
	rec, err := s.acct.store.RecordGame(ctx, g, func(before []ratings.Rating) ([]ratings.Rating, error) {
		return ratings.Config{}.Round(before, places)
	})
	switch {
	case errors.Is(err, accounts.ErrDuplicate):
	case err != nil:
		s.log.Error("rated game not recorded", "game", g.ID, "err", err)
	default:
		for _, p := range rec.Players {
			s.log.Info("rating", "game", g.ID, "player", p.Name, "before", p.Before.String(), "after", p.After.String())
		}
	}
}

// ratedTournamentClosed records a rated tournament when it closes: its
// entrants who finished every hole, placed by the final leaderboard among
// themselves, are rated as one stroke-play round (at least two of them),
// and the tournament is archived as the game "t-{id}". It runs on the
// tournament hub of each instance that applies the close; the store keeps
// the first.
func (s *Server) ratedTournamentClosed(t *tourney.Tournament) {
	if !t.Settings.Rated {
		return
	}
	g, places, err := t.Archive()
	if err != nil {
		s.log.Error("rated tournament: archive", "tournament", t.ID, "err", err)
		return
	}
	if len(g.Players) < 2 {
		s.log.Info("rated tournament closed with fewer than two finishers: no rating moves", "tournament", t.ID, "finished", len(g.Players))
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if name, err := s.fillAccounts(ctx, &g); err != nil {
		s.log.Warn("rated tournament not recorded: an entrant has no account", "tournament", t.ID, "entrant", name, "err", err)
		return
	}
	s.recordRated(ctx, g, places)
	if s.fair != nil {
		id := t.ID
		s.tasks.goCtx(func(ctx context.Context) { s.syncTournamentHeld(ctx, id) }) // held.go
	}
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
	a, err := s.currentAccount(r)
	if err != nil {
		if errors.Is(err, errNotLoggedIn) {
			err = fmt.Errorf("%w: rated rooms are for accounts only", errNotLoggedIn)
		}
		s.fail(w, err)
		return
	}
	if err := set.Validate(); err != nil {
		s.fail(w, err)
		return
	}
	if err := s.ratedCheck(r, a); err != nil { // linked.go
		s.fail(w, err)
		return
	}
	rating := ratings.New()
	rs, err := s.acct.store.Ratings(r.Context(), a.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	for _, fr := range rs {
		if fr.Family == ratings.Family(set.Variant.Game) {
			rating = fr.Rating
		}
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
