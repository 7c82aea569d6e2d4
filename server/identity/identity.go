// Package identity is the accounts over HTTP: sign-up and login (with
// their limits and the login's proof of work), logout, the session, an
// account's deletion and its new name, passkeys (WebAuthn), and the
// profiles (players, archived games, the ratings leaderboards). It
// stands beside the server's core, which keeps the players' sessions
// (loaded around every request with the cross-origin check), the rated
// seats' checks and the one table of error codes, and gives this package
// what it needs through the narrow interfaces of Options (limits,
// sightings, answers); the core mounts its routes with Mount.
package identity

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/server/internal/api"
)

// Session keys.
const (
	sessionAccount = "account"
	// sessionSince is the account's creation time (Unix µs): a session
	// names one account, not one id (an in-memory account store numbers
	// accounts from 1 again after a restart, while sessions in Redis
	// survive it).
	sessionSince = "account.since"
)

// Account errors (the server's table gives their codes).
var (
	ErrLoginLimit   = errors.New("server: too many failed logins")
	ErrSignupLimit  = errors.New("server: too many sign-ups")
	ErrGameNotFound = errors.New("server: no archived game by that id")
)

func (s *Identity) fail(w http.ResponseWriter, err error) { s.o.Answers.Fail(w, err) }

func (s *Identity) now() time.Time { return s.o.Now() }

// gate waits for an argon2id slot.
func (s *Identity) gate(ctx context.Context) (func(), error) {
	select {
	case s.hashing <- struct{}{}:
		return func() { <-s.hashing }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Identity) signup(w http.ResponseWriter, r *http.Request) {
	a, ok := s.passwordRequest(w, r, func(req protocol.AccountRequest) bool { return s.allowSignup(w, r) }, s.o.Service.Signup)
	if !ok {
		return
	}
	s.o.Logger.Info("account created", "name", a.Name)
	s.writePlayer(w, r, http.StatusCreated, a)
}

func (s *Identity) login(w http.ResponseWriter, r *http.Request) {
	var lim *loginLimit
	a, ok := s.passwordRequest(w, r, func(req protocol.AccountRequest) bool {
		lim = s.allowLogin(w, r, req)
		return lim != nil
	}, func(ctx context.Context, name, password string) (accounts.Account, error) {
		// Looked at again in the argon2id slot: parallel guesses from one
		// client all passed the first look.
		if err := lim.check(ctx); err != nil {
			return accounts.Account{}, err
		}
		a, err := s.o.Service.Login(ctx, name, password)
		if errors.Is(err, accounts.ErrLogin) {
			lim.failed(ctx)
		}
		return a, err
	})
	if ok {
		s.writePlayer(w, r, http.StatusOK, a)
	}
}

// passwordRequest is the frame of sign-up and login: the body is read,
// allow takes the client's token (or answers 429), the password is hashed
// in an argon2id slot by do, and a session starts. It reports whether the
// caller should answer with the account (otherwise it has answered, or
// the client went away).
func (s *Identity) passwordRequest(w http.ResponseWriter, r *http.Request, allow func(protocol.AccountRequest) bool,
	do func(ctx context.Context, name, password string) (accounts.Account, error)) (accounts.Account, bool) {
	var req protocol.AccountRequest
	if err := api.DecodeBody(r, &req); err != nil {
		s.fail(w, err)
		return accounts.Account{}, false
	}
	if !allow(req) {
		return accounts.Account{}, false
	}
	release, err := s.gate(r.Context())
	if err != nil {
		return accounts.Account{}, false // the client went away
	}
	a, err := do(r.Context(), req.Name, req.Password)
	release()
	if err != nil {
		s.fail(w, err)
		return accounts.Account{}, false
	}
	if err := s.o.Sightings.See(r, a); err != nil { // linked.go
		s.o.Logger.Warn("sighting not recorded", "name", a.Name, "err", err)
	}
	return a, s.startSession(w, r, a)
}

// startSession renews the session token (no fixation) and stores the
// account in it.
func (s *Identity) startSession(w http.ResponseWriter, r *http.Request, a accounts.Account) bool {
	if err := s.o.Sessions.RenewToken(r.Context()); err != nil {
		s.fail(w, err)
		return false
	}
	s.o.Sessions.Put(r.Context(), sessionAccount, int64(a.ID))
	s.o.Sessions.Put(r.Context(), sessionSince, a.Created.UnixMicro())
	return true
}

func (s *Identity) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.o.Sessions.Destroy(r.Context()); err != nil {
		s.fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// AccountID is the id of the account the request's session is logged in
// to, or 0, without reading the account.
func (s *Identity) AccountID(r *http.Request) int64 {
	if s.o.Sessions == nil {
		return 0
	}
	return s.o.Sessions.GetInt64(r.Context(), sessionAccount)
}

// Current returns the request's logged-in account, or
// api.ErrNotLoggedIn. A session whose account was deleted, or whose id
// now names another account (created at another time), is logged out.
func (s *Identity) Current(r *http.Request) (accounts.Account, error) {
	id := s.o.Sessions.GetInt64(r.Context(), sessionAccount)
	if id == 0 {
		return accounts.Account{}, api.ErrNotLoggedIn
	}
	a, err := s.o.Store.ByID(r.Context(), accounts.ID(id))
	since, ok := s.o.Sessions.Get(r.Context(), sessionSince).(int64)
	if errors.Is(err, accounts.ErrNotFound) || (err == nil && ok && since != a.Created.UnixMicro()) {
		s.o.Sessions.Remove(r.Context(), sessionAccount)
		s.o.Sessions.Remove(r.Context(), sessionSince)
		return accounts.Account{}, api.ErrNotLoggedIn
	}
	return a, err
}

func (s *Identity) whoAmI(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePlayer(w, r, http.StatusOK, a)
}

// session serves GET /api/session: the name the browser is logged in
// as, or null for a guest, always with 200 (GET /api/account answers a
// guest 401, which a browser logs as an error on every page).
func (s *Identity) session(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	switch {
	case errors.Is(err, api.ErrNotLoggedIn):
		api.WriteJSON(w, http.StatusOK, protocol.Session{})
	case err != nil:
		s.fail(w, err)
	default:
		api.WriteJSON(w, http.StatusOK, protocol.Session{Name: &a.Name})
	}
}

func (s *Identity) deleteAccount(w http.ResponseWriter, r *http.Request) {
	a, err := s.Current(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.o.Store.Delete(r.Context(), a.ID); err != nil {
		s.fail(w, err)
		return
	}
	if err := s.o.Sessions.Destroy(r.Context()); err != nil {
		s.fail(w, err)
		return
	}
	s.o.Logger.Info("account deleted", "name", a.Name)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Identity) getPlayer(w http.ResponseWriter, r *http.Request) {
	key, err := accounts.Key(r.PathValue("name"))
	if err != nil {
		s.fail(w, accounts.ErrNotFound)
		return
	}
	a, err := s.o.Store.ByKey(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePlayer(w, r, http.StatusOK, a)
}

// historyPoints is how many rating points per family a player's JSON
// carries (the latest).
const historyPoints = 100

func (s *Identity) writePlayer(w http.ResponseWriter, r *http.Request, status int, a accounts.Account) {
	ctx := r.Context()
	rs, err := s.o.Store.Ratings(ctx, a.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	p := playerJSON(a, rs)
	stats, err := s.o.Store.Stats(ctx, a.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	for _, st := range stats {
		ps := protocol.PlayerStats{Games: st.Games, Won: st.Won, Holes: st.Holes, Clears: st.Clears, BestToPar: st.BestToPar, BestGame: st.BestGame}
		if st.Games > 0 {
			ps.AverageToPar = math.Round(float64(st.SumToPar)/float64(st.Games)*10) / 10
		}
		p.Stats[string(st.Family)] = ps
	}
	for _, fr := range rs {
		hist, err := s.o.Store.History(ctx, a.ID, fr.Family)
		if err != nil {
			s.fail(w, err)
			return
		}
		pts := []protocol.RatingPoint{}
		for _, h := range hist[max(0, len(hist)-historyPoints):] {
			pts = append(pts, protocol.RatingPoint{Rating: h.Rating.Rating, RD: h.RD, GameID: h.GameID, At: h.At})
		}
		p.History[string(fr.Family)] = pts
	}
	api.WriteJSON(w, status, p)
}

func playerJSON(a accounts.Account, rs []accounts.FamilyRating) protocol.Player {
	p := protocol.Player{Name: a.Name, NameNote: a.NameNote, Created: a.Created, Rating: map[string]protocol.PlayerRating{},
		Stats: map[string]protocol.PlayerStats{}, History: map[string][]protocol.RatingPoint{}}
	for _, fr := range rs {
		p.Rating[string(fr.Family)] = protocol.PlayerRating{Rating: fr.Rating.Rating, RD: fr.RD, Volatility: fr.Volatility,
			Provisional: fr.Provisional(), Display: fr.String(), Games: fr.Games}
	}
	return p
}

// getGame is GET /api/games/{id}: an archived rated round, kept for good
// (settings, commitment, seed, every hole's records and scores,
// standings, each player's place and rating before and after).
func (s *Identity) getGame(w http.ResponseWriter, r *http.Request) {
	g, err := s.o.Store.Game(r.Context(), r.PathValue("id"))
	if errors.Is(err, accounts.ErrNotFound) {
		s.fail(w, ErrGameNotFound)
		return
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	api.WriteJSON(w, http.StatusOK, g)
}

// getLeaderboardRatings is GET /api/ratings/{game}?limit=N: the best-rated
// accounts of a game family (N 1-200, default 50).
func (s *Identity) getLeaderboardRatings(w http.ResponseWriter, r *http.Request) {
	game, err := golf.ParseGame(r.PathValue("game"))
	if err != nil {
		s.fail(w, err)
		return
	}
	limit := 50
	if q := r.URL.Query().Get("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > 200 {
			s.fail(w, fmt.Errorf("%w: limit must be 1 to 200, not %q", match.ErrInvalid, q))
			return
		}
		limit = n
	}
	ls, err := s.o.Store.Leaderboard(r.Context(), ratings.Family(game), limit)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := protocol.RatingLeaderboard{Game: string(game), Leaders: []protocol.Leader{}}
	for _, l := range ls {
		out.Leaders = append(out.Leaders, protocol.Leader{Name: l.Name, PlayerRating: protocol.PlayerRating{
			Rating: l.Rating.Rating, RD: l.RD, Volatility: l.Volatility, Provisional: l.Provisional(), Display: l.String(), Games: l.Games}})
	}
	api.WriteJSON(w, http.StatusOK, out)
}
