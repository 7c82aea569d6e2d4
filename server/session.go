package server

import (
	"crypto/rand"
	"errors"
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
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server/identity"
	"golfsolitaire/server/internal/api"
)

// Cookie names.
const (
	sessionCookie = "golf_session"
	guestCookie   = "golf_guest"
)

// accountState is the server's part for accounts: the store, the
// players' sessions, the login and sign-up limits, the cross-origin check
// and the accounts' HTTP side (package identity).
type accountState struct {
	store    accounts.Store
	sessions *scs.SessionManager
	// loginRate, nameRate and signupRate are the login and sign-up
	// limits (Options.LoginRate, LoginNameRate and SignupRate; package
	// identity), taken through the server's Limiter.
	loginRate, nameRate, signupRate limit.Rate
	cop                             *http.CrossOriginProtection
	deny                            http.HandlerFunc
	// ident serves sign-up, login, sessions, passkeys and profiles
	// (package identity, mounted by mount.go).
	ident *identity.Identity
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
	a.ident = s.newIdentity(svc) // mount.go
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

// accountRoutes mounts package identity (accounts, sessions, passkeys,
// profiles) and package challenges.
func (s *Server) accountRoutes(m *http.ServeMux) {
	s.acct.ident.Mount(m)
	s.challengeRoutes(m)
}

// currentAccount returns the request's logged-in account, or
// errNotLoggedIn (package identity).
func (s *Server) currentAccount(r *http.Request) (accounts.Account, error) {
	return s.acct.ident.Current(r)
}

// sessionAccountID is the id of the account the request's session is
// logged in to, or 0, without reading the account.
func (s *Server) sessionAccountID(r *http.Request) int64 {
	if s.acct.ident == nil {
		return 0
	}
	return s.acct.ident.AccountID(r)
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

// errNotLoggedIn: the request needs a logged-in account.
var errNotLoggedIn = api.ErrNotLoggedIn

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
		{identity.ErrLoginLimit, protocol.ErrCodeRateLimited, http.StatusTooManyRequests},
		{identity.ErrSignupLimit, protocol.ErrCodeRateLimited, http.StatusTooManyRequests},
		{identity.ErrGameNotFound, protocol.ErrCodeGameNotFound, http.StatusNotFound},
		{errTooFewRatedGames, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{errProbation, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{accounts.ErrNoRename, protocol.ErrCodeNoChange, http.StatusConflict},
		{errNameNote, protocol.ErrCodeNotEligible, http.StatusForbidden},
		{errLinked, protocol.ErrCodeLinkedAccounts, http.StatusConflict},
		{identity.ErrPasskeyFailed, protocol.ErrCodePasskeyFailed, http.StatusBadRequest},
		{identity.ErrPasskeyNotFound, protocol.ErrCodeNoPasskey, http.StatusNotFound},
		{accounts.ErrPasskeyTaken, protocol.ErrCodePasskeyTaken, http.StatusConflict},
	}
	for _, t := range table {
		if errors.Is(err, t.err) {
			return t.code, t.status, true
		}
	}
	return "", 0, false
}
