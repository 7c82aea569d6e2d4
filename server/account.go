package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/golf"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/ratings"
	"golfsolitaire/server/internal/api"
)

// Session keys and cookie names.
const (
	sessionAccount = "account"
	// sessionSince is the account's creation time (Unix µs): a session
	// names one account, not one id (an in-memory account store numbers
	// accounts from 1 again after a restart, while sessions in Redis
	// survive it).
	sessionSince  = "account.since"
	sessionCookie = "golf_session"
	guestCookie   = "golf_guest"
)

// accountState is the server's part for accounts: the service, the
// sessions, the login limiter and the argon2id gate.
type accountState struct {
	store    accounts.Store
	service  *accounts.Service
	sessions *scs.SessionManager
	// loginRate, nameRate and signupRate are the login and sign-up
	// limits (Options.LoginRate, LoginNameRate and SignupRate; login.go),
	// taken through the server's Limiter; proofBits the work of a login's
	// proof of work.
	loginRate, nameRate, signupRate limit.Rate
	proofBits                       int
	// hashing admits at most two argon2id computations at once: each
	// takes 64 MiB, so a burst of logins cannot exhaust memory.
	hashing chan struct{}
	cop     *http.CrossOriginProtection
	deny    http.HandlerFunc
}

func (s *Server) initAccounts() error {
	a := &s.acct
	a.store = s.opts.Accounts
	if a.store == nil {
		a.store = inmem.New()
	}
	params := s.opts.PasswordParams
	if params == (accounts.Params{}) {
		params = accounts.RFC9106
	}
	svc, err := accounts.NewService(a.store, params, rand.Reader)
	if err != nil {
		return err
	}
	a.service = svc
	sm := scs.New()
	sm.Store = s.opts.Sessions
	if sm.Store == nil {
		// No cleanup goroutine: scs v2.9.0's memstore races between
		// starting it and StopCleanup. Expired sessions are never found;
		// they stay in memory until a restart, one per login (which is
		// rate-limited). With --database sessions are in PostgreSQL.
		sm.Store = memstore.NewWithCleanupInterval(0)
	}
	sm.Lifetime = 30 * 24 * time.Hour
	sm.IdleTimeout = 14 * 24 * time.Hour
	sm.Cookie.Name = sessionCookie
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteLaxMode
	sm.Cookie.Secure = s.secureCookies()
	sm.Cookie.Persist = true
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.log.Warn("session store failed", "err", err)
		writeError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "sessions are unavailable; try again shortly")
	}
	a.sessions = sm
	lr := s.opts.LoginRate
	if lr.PerSecond <= 0 {
		lr = limit.Rate{PerSecond: 1.0 / 12, Burst: 5}
	}
	a.loginRate = lr
	a.nameRate = s.opts.LoginNameRate
	if a.nameRate.PerSecond == 0 {
		a.nameRate = limit.Rate{PerSecond: 1.0 / 60, Burst: 20}
	}
	a.signupRate = s.opts.SignupRate
	if a.signupRate.PerSecond == 0 {
		a.signupRate = limit.Rate{PerSecond: 3.0 / 86400, Burst: 3}
	}
	a.proofBits = s.opts.ProofBits
	if a.proofBits <= 0 {
		a.proofBits = 16
	}
	a.hashing = make(chan struct{}, 2)
	a.cop = http.NewCrossOriginProtection()
	a.deny = func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusForbidden, protocol.ErrCodeCrossOrigin,
			"cross-origin request refused: "+r.Method+" from "+strconv.Quote(r.Header.Get("Origin"))+" is not this site or one of --allowed-origins")
	}
	if base, err := url.Parse(s.opts.BaseURL); err == nil && base.Scheme != "" && base.Host != "" {
		a.cop.AddTrustedOrigin(base.Scheme + "://" + base.Host)
	}
	return nil
}

// secureCookies: cookies are Secure when the server is reached over TLS,
// which it knows from an https base URL.
func (s *Server) secureCookies() bool {
	return s.opts.SecureCookies || strings.HasPrefix(strings.ToLower(s.opts.BaseURL), "https://")
}

func (s *Server) accountRoutes(m *http.ServeMux) {
	m.HandleFunc("POST /api/account/signup", s.signup)
	m.HandleFunc("POST /api/account/login", s.login)
	m.HandleFunc("POST /api/account/logout", s.logout)
	m.HandleFunc("DELETE /api/account", s.deleteAccount)
	m.HandleFunc("GET /api/account", s.whoAmI)
	m.HandleFunc("POST /api/account/name", s.renameAccount) // account_name.go
	m.HandleFunc("GET /api/session", s.session)
	m.HandleFunc("GET /api/players/{name}", s.getPlayer)
	m.HandleFunc("GET /api/games/{id}", s.getGame)
	m.HandleFunc("GET /api/ratings/{game}", s.getLeaderboardRatings)
	s.passkeyRoutes(m)
	s.challengeRoutes(m)
}

// withAccounts wraps every request: the origin check for state-changing
// methods (once a cookie carries authority, another site must not be able
// to make a browser use it), the session, and a guest id cookie.
func (s *Server) withAccounts(next http.Handler) http.Handler {
	h := s.acct.sessions.LoadAndSave(s.guest(next))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.trustedOrigin(r) {
			if err := s.acct.cop.Check(r); err != nil {
				s.acct.deny(w, r)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// trustedOrigin reports whether a request's Origin matches one of
// --allowed-origins (host patterns, as for WebSockets).
func (s *Server) trustedOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return false
	}
	u, err := url.Parse(o)
	if err != nil || u.Host == "" {
		return false
	}
	for _, p := range s.opts.AllowedOrigins {
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

// guest gives a browser without one a random guest id in a cookie: guests
// play casual rooms with no sign-up, and the id lets a guest be told apart
// from other guests.
func (s *Server) guest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := r.Cookie(guestCookie); err != nil && r.Method == http.MethodGet && !strings.HasPrefix(r.URL.Path, "/static/") {
			http.SetCookie(w, &http.Cookie{Name: guestCookie, Value: newID(), Path: "/", MaxAge: 365 * 24 * 3600,
				HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies()})
		}
		next.ServeHTTP(w, r)
	})
}

// Account errors.
var (
	errNotLoggedIn  = api.ErrNotLoggedIn
	errLoginLimit   = errors.New("server: too many failed logins")
	errSignupLimit  = errors.New("server: too many sign-ups")
	errGameNotFound = errors.New("server: no archived game by that id")
)

func accountErrorCode(err error) (string, int, bool) {
	table := []struct {
		err    error
		code   string
		status int
	}{
		{accounts.ErrLogin, protocol.ErrCodeBadLogin, http.StatusUnauthorized},
		{accounts.ErrNameTaken, protocol.ErrCodeNameTaken, http.StatusConflict},
		{accounts.ErrBadName, protocol.ErrCodeInvalid, http.StatusBadRequest},
		{accounts.ErrBadPassword, protocol.ErrCodeInvalid, http.StatusBadRequest},
		{accounts.ErrNotFound, protocol.ErrCodePlayerNotFound, http.StatusNotFound},
		{errNotLoggedIn, protocol.ErrCodeNotLoggedIn, http.StatusUnauthorized},
		{errLoginLimit, protocol.ErrCodeRateLimited, http.StatusTooManyRequests},
		{errSignupLimit, protocol.ErrCodeRateLimited, http.StatusTooManyRequests},
		{errGameNotFound, protocol.ErrCodeGameNotFound, http.StatusNotFound},
		{errTooFewRatedGames, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{errProbation, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{accounts.ErrNoRename, protocol.ErrCodeNoChange, http.StatusConflict},
		{errNameNote, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{errLinked, protocol.ErrCodeLinkedAccounts, http.StatusConflict},
		{errPasskeyFailed, protocol.ErrCodePasskeyFailed, http.StatusBadRequest},
		{errPasskeyNotFound, protocol.ErrCodeNoPasskey, http.StatusNotFound},
		{accounts.ErrPasskeyTaken, protocol.ErrCodePasskeyTaken, http.StatusConflict},
	}
	for _, t := range table {
		if errors.Is(err, t.err) {
			return t.code, t.status, true
		}
	}
	return "", 0, false
}

// gate waits for an argon2id slot.
func (s *Server) gate(ctx context.Context) (func(), error) {
	select {
	case s.acct.hashing <- struct{}{}:
		return func() { <-s.acct.hashing }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	a, ok := s.passwordRequest(w, r, func(req protocol.AccountRequest) bool { return s.allowSignup(w, r) }, s.acct.service.Signup)
	if !ok {
		return
	}
	s.log.Info("account created", "name", a.Name)
	s.writePlayer(w, r, http.StatusCreated, a)
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
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
		a, err := s.acct.service.Login(ctx, name, password)
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
func (s *Server) passwordRequest(w http.ResponseWriter, r *http.Request, allow func(protocol.AccountRequest) bool,
	do func(ctx context.Context, name, password string) (accounts.Account, error)) (accounts.Account, bool) {
	var req protocol.AccountRequest
	if err := decodeBody(r, &req); err != nil {
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
	if err := s.see(r, a); err != nil { // linked.go
		s.log.Warn("sighting not recorded", "name", a.Name, "err", err)
	}
	return a, s.startSession(w, r, a)
}

// startSession renews the session token (no fixation) and stores the
// account in it.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a accounts.Account) bool {
	if err := s.acct.sessions.RenewToken(r.Context()); err != nil {
		s.fail(w, err)
		return false
	}
	s.acct.sessions.Put(r.Context(), sessionAccount, int64(a.ID))
	s.acct.sessions.Put(r.Context(), sessionSince, a.Created.UnixMicro())
	return true
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.acct.sessions.Destroy(r.Context()); err != nil {
		s.fail(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// currentAccount returns the request's logged-in account, or
// errNotLoggedIn. A session whose account was deleted, or whose id now
// names another account (created at another time), is logged out.
// sessionAccountID is the id of the account the request's session is
// logged in to, or 0, without reading the account.
func (s *Server) sessionAccountID(r *http.Request) int64 {
	if s.acct.sessions == nil {
		return 0
	}
	return s.acct.sessions.GetInt64(r.Context(), sessionAccount)
}

func (s *Server) currentAccount(r *http.Request) (accounts.Account, error) {
	id := s.acct.sessions.GetInt64(r.Context(), sessionAccount)
	if id == 0 {
		return accounts.Account{}, errNotLoggedIn
	}
	a, err := s.acct.store.ByID(r.Context(), accounts.ID(id))
	since, ok := s.acct.sessions.Get(r.Context(), sessionSince).(int64)
	if errors.Is(err, accounts.ErrNotFound) || (err == nil && ok && since != a.Created.UnixMicro()) {
		s.acct.sessions.Remove(r.Context(), sessionAccount)
		s.acct.sessions.Remove(r.Context(), sessionSince)
		return accounts.Account{}, errNotLoggedIn
	}
	return a, err
}

func (s *Server) whoAmI(w http.ResponseWriter, r *http.Request) {
	a, err := s.currentAccount(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePlayer(w, r, http.StatusOK, a)
}

// session serves GET /api/session: the name the browser is logged in
// as, or null for a guest, always with 200 (GET /api/account answers a
// guest 401, which a browser logs as an error on every page).
func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	a, err := s.currentAccount(r)
	switch {
	case errors.Is(err, errNotLoggedIn):
		writeJSON(w, http.StatusOK, protocol.Session{})
	case err != nil:
		s.fail(w, err)
	default:
		writeJSON(w, http.StatusOK, protocol.Session{Name: &a.Name})
	}
}

func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	a, err := s.currentAccount(r)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.acct.store.Delete(r.Context(), a.ID); err != nil {
		s.fail(w, err)
		return
	}
	if err := s.acct.sessions.Destroy(r.Context()); err != nil {
		s.fail(w, err)
		return
	}
	s.log.Info("account deleted", "name", a.Name)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) getPlayer(w http.ResponseWriter, r *http.Request) {
	key, err := accounts.Key(r.PathValue("name"))
	if err != nil {
		s.fail(w, accounts.ErrNotFound)
		return
	}
	a, err := s.acct.store.ByKey(r.Context(), key)
	if err != nil {
		s.fail(w, err)
		return
	}
	s.writePlayer(w, r, http.StatusOK, a)
}

// historyPoints is how many rating points per family a player's JSON
// carries (the latest).
const historyPoints = 100

func (s *Server) writePlayer(w http.ResponseWriter, r *http.Request, status int, a accounts.Account) {
	ctx := r.Context()
	rs, err := s.acct.store.Ratings(ctx, a.ID)
	if err != nil {
		s.fail(w, err)
		return
	}
	p := playerJSON(a, rs)
	stats, err := s.acct.store.Stats(ctx, a.ID)
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
		hist, err := s.acct.store.History(ctx, a.ID, fr.Family)
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
	writeJSON(w, status, p)
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
func (s *Server) getGame(w http.ResponseWriter, r *http.Request) {
	g, err := s.acct.store.Game(r.Context(), r.PathValue("id"))
	if errors.Is(err, accounts.ErrNotFound) {
		s.fail(w, errGameNotFound)
		return
	}
	if err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusOK, g)
}

// getLeaderboardRatings is GET /api/ratings/{game}?limit=N: the best-rated
// accounts of a game family (N 1-200, default 50).
func (s *Server) getLeaderboardRatings(w http.ResponseWriter, r *http.Request) {
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
	ls, err := s.acct.store.Leaderboard(r.Context(), ratings.Family(game), limit)
	if err != nil {
		s.fail(w, err)
		return
	}
	out := protocol.RatingLeaderboard{Game: string(game), Leaders: []protocol.Leader{}}
	for _, l := range ls {
		out.Leaders = append(out.Leaders, protocol.Leader{Name: l.Name, PlayerRating: protocol.PlayerRating{
			Rating: l.Rating.Rating, RD: l.RD, Volatility: l.Volatility, Provisional: l.Provisional(), Display: l.String(), Games: l.Games}})
	}
	writeJSON(w, http.StatusOK, out)
}
