package identity

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/alexedwards/scs/v2"

	"golfsolitaire/accounts"
)

// Limit is a per-key budget of the login and sign-up limits.
type Limit int

// The budgets (login.go).
const (
	// Logins: failed logins per name and client; also a client's passkey
	// logins begun.
	Logins Limit = iota
	// LoginClient: a client's failed logins over every name.
	LoginClient
	// LoginName: a name's failed logins from every client.
	LoginName
	// Proofs: a login's proof of work, used once.
	Proofs
	// Signups: a client's sign-ups.
	Signups
)

// Limits is the server's limiter.
type Limits interface {
	// Client is the request's client (its address, or the trusted
	// header's).
	Client(r *http.Request) string
	// Peek looks at key's budget of the kind without taking from it;
	// Take takes a token. Both report false and the wait (whole seconds,
	// at least one) when it is spent.
	Peek(ctx context.Context, key string, l Limit) (bool, time.Duration)
	Take(ctx context.Context, key string, l Limit) (bool, time.Duration)
}

// Sightings records where an account logs in from (its address and
// device), for the linked-account check of rated games.
type Sightings interface {
	See(r *http.Request, a accounts.Account) error
}

// Answers is how the server answers an error, through its one table of
// codes.
type Answers interface {
	// Fail answers the error with its code and status (and Retry-After
	// when the error carries a wait).
	Fail(w http.ResponseWriter, err error)
	// Retry is err carrying the wait after which to try again.
	Retry(err error, after time.Duration) error
}

// Options configures the accounts' HTTP side.
type Options struct {
	Store   accounts.Store
	Service *accounts.Service
	// Sessions are the players' sessions, loaded and saved around every
	// request by the server.
	Sessions *scs.SessionManager
	// BaseURL is the site's public address (passkeys' relying party);
	// SecureCookies says the site is reached over TLS.
	BaseURL       string
	SecureCookies bool
	// ProofBits is the work of a login's proof of work; default 16.
	ProofBits int
	Limits    Limits
	Sightings Sightings
	Answers   Answers
	Logger    *slog.Logger
	// Now is the time (UTC).
	Now func() time.Time
}

// Identity serves the accounts over HTTP.
type Identity struct {
	o Options
	// hashing admits at most two argon2id computations at once: each
	// takes 64 MiB, so a burst of logins cannot exhaust memory.
	hashing chan struct{}
}

// New is the accounts' HTTP side of the options.
func New(o Options) *Identity {
	if o.ProofBits <= 0 {
		o.ProofBits = 16
	}
	return &Identity{o: o, hashing: make(chan struct{}, 2)}
}

// Mount adds the accounts' routes to m.
func (s *Identity) Mount(m *http.ServeMux) {
	m.HandleFunc("POST /api/account/signup", s.signup)
	m.HandleFunc("POST /api/account/login", s.login)
	m.HandleFunc("POST /api/account/logout", s.logout)
	m.HandleFunc("DELETE /api/account", s.deleteAccount)
	m.HandleFunc("GET /api/account", s.whoAmI)
	m.HandleFunc("POST /api/account/name", s.renameAccount) // name.go
	m.HandleFunc("GET /api/session", s.session)
	m.HandleFunc("GET /api/players/{name}", s.getPlayer)
	m.HandleFunc("GET /api/games/{id}", s.getGame)
	m.HandleFunc("GET /api/ratings/{game}", s.getLeaderboardRatings)
	s.passkeyRoutes(m)
}
