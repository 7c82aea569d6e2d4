// Package moderation is the moderators' side of fair play, over HTTP:
// the moderators' sessions (sign-in with the moderator token, sign-out),
// the flags API (GET /api/fairplay/flags, POST
// /api/fairplay/flags/{player}/{action}) and the review page
// (/moderator). It stands beside the server's core, which gives it what
// it needs through the narrow interfaces of Options (the limit on wrong
// tokens, the flags, the reviews, the evidence beside a flag, and the
// answers through the server's one table of codes) and mounts its routes
// with Mount. The analysis of finished holes (the job queue, its
// workers, the holds) stays in the core.
package moderation

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"

	"golfsolitaire/fairplay"
	"golfsolitaire/fairplay/review"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/api"
	"golfsolitaire/templates"
)

// Moderators sign in to the review page with the moderator token and get
// a session of their own: a random token in the golf_moderator cookie,
// kept server-side (Options.Sessions, like players' sessions) for at most
// 12 hours, 1 hour idle, and destroyed by logout, so a copied cookie dies
// with it. Wrong tokens (the form's or a Bearer header's) are limited per
// client (Options.Limits): failures only, past which the client gets 429
// whatever it sends.

// cookie carries a moderator's session on the review page.
const cookie = "golf_moderator"

// sessionModerator marks a moderator's session.
const sessionModerator = "moderator"

// Limits is the per-client budget of wrong moderator tokens.
type Limits interface {
	// TokenAllowed looks at the request's client's budget before a token is
	// compared: false, and the wait (whole seconds, at least one), when
	// it is spent. It takes nothing.
	TokenAllowed(r *http.Request) (bool, time.Duration)
	// TokenFailed charges a wrong token to the request's client.
	TokenFailed(r *http.Request)
}

// Flags is where the flags are kept (the fair-play store).
type Flags interface {
	Flags(ctx context.Context) ([]fairplay.Flag, error)
}

// Reviews records a moderator's review of a player's flag: cleared
// releases the results held for review, confirmed voids them.
// fairplay.ErrNotFound when the player has no flag.
type Reviews interface {
	Review(ctx context.Context, player string, st fairplay.Status) (review.Outcome, error)
}

// Evidence is what is shown beside the flags.
type Evidence interface {
	// Links are the accounts linked to each flagged player's.
	Links(ctx context.Context, flags []fairplay.Flag) (map[string][]protocol.AccountLink, error)
	// Scouting is each flagged player's scouting, and the notes on
	// their names.
	Scouting(ctx context.Context, flags []fairplay.Flag) (map[string][]review.Scouted, map[string]string, error)
}

// Answers is how the server answers an error, through its one table of
// codes.
type Answers interface {
	// Fail answers the error with its code and status.
	Fail(w http.ResponseWriter, err error)
	// Status is the error's HTTP status and the text shown for it.
	Status(err error) (int, string)
}

// Options configures the moderation.
type Options struct {
	// Token is the moderator token; empty disables review (its routes
	// answer 404).
	Token string
	// Sessions keeps the moderators' sessions; default in memory.
	Sessions scs.Store
	// SecureCookies marks the session cookie Secure.
	SecureCookies bool
	// BaseURL is the site's public address, shown on the page.
	BaseURL string

	Limits   Limits
	Flags    Flags
	Reviews  Reviews
	Evidence Evidence
	Answers  Answers
	Logger   *slog.Logger
}

// Moderation serves the moderators. A nil *Moderation is a server
// without fair play: every route answers 404 but logout, which only
// sends back to the page.
type Moderation struct {
	o        Options
	sessions *scs.SessionManager
}

// New is the moderation of the options.
func New(o Options) *Moderation {
	sm := scs.New()
	sm.Store = o.Sessions
	if sm.Store == nil {
		sm.Store = memstore.NewWithCleanupInterval(0) // as the players' sessions
	}
	sm.Lifetime = 12 * time.Hour
	sm.IdleTimeout = time.Hour
	sm.Cookie.Name = cookie
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteStrictMode
	sm.Cookie.Secure = o.SecureCookies
	sm.Cookie.Persist = false
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		o.Logger.Error("moderator session", "err", err)
		api.WriteError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "sessions are unavailable; try again shortly")
	}
	return &Moderation{o: o, sessions: sm}
}

// Enabled reports whether review is on: fair play with a moderator
// token.
func (m *Moderation) Enabled() bool { return m != nil && m.o.Token != "" }

// Mount adds the moderators' API and page to mux.
func (m *Moderation) Mount(mux *http.ServeMux) {
	h := func(f http.HandlerFunc) http.Handler {
		if m == nil || m.sessions == nil {
			return f
		}
		return m.sessions.LoadAndSave(f)
	}
	mux.Handle("GET /api/fairplay/flags", h(m.getFlags))
	mux.Handle("POST /api/fairplay/flags/{player}/{action}", h(m.postReview))
	mux.Handle("GET /moderator", h(m.getPage))
	mux.Handle("POST /moderator/login", h(m.postLogin))
	mux.Handle("POST /moderator/logout", h(m.postLogout))
	mux.Handle("POST /moderator/flags/{player}/{action}", h(m.postPageReview))
}

// goodToken compares a token with the moderator's in constant time.
func (m *Moderation) goodToken(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(m.o.Token)) == 1
}

// Of reports whether the request is a moderator's: the token as
// "Authorization: Bearer" (a wrong one is charged to the client, and a
// client past its budget is refused however good its token: status 429),
// or a moderator session's cookie. status is 0 when it is, else the
// refusal's.
func (m *Moderation) Of(r *http.Request) (status int, retry time.Duration) {
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		if ok, retry := m.o.Limits.TokenAllowed(r); !ok {
			return http.StatusTooManyRequests, retry
		}
		if m.goodToken(got) {
			return 0, 0
		}
		m.o.Limits.TokenFailed(r)
		return http.StatusUnauthorized, 0
	}
	if m.sessions.GetBool(r.Context(), sessionModerator) {
		return 0, 0
	}
	return http.StatusUnauthorized, 0
}

// postLogin serves POST /moderator/login (form field token): a new
// moderator session, or the form again with an error.
func (m *Moderation) postLogin(w http.ResponseWriter, r *http.Request) {
	if !m.reviewEnabled(w) {
		return
	}
	if ok, retry := m.o.Limits.TokenAllowed(r); !ok {
		w.Header().Set("Retry-After", strconv.Itoa(int(retry/time.Second)))
		m.render(w, r, http.StatusTooManyRequests, templates.Moderator{Error: "Too many wrong tokens from your address; try again in " + retry.String() + "."})
		return
	}
	if !m.goodToken(r.PostFormValue("token")) {
		m.o.Limits.TokenFailed(r)
		m.render(w, r, http.StatusUnauthorized, templates.Moderator{Error: "That is not the moderator token."})
		return
	}
	if err := m.sessions.RenewToken(r.Context()); err != nil {
		m.o.Answers.Fail(w, err)
		return
	}
	m.sessions.Put(r.Context(), sessionModerator, true)
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}

// postLogout serves POST /moderator/logout: the session is destroyed
// (its cookie, replayed, is no one's).
func (m *Moderation) postLogout(w http.ResponseWriter, r *http.Request) {
	if m != nil && m.sessions != nil {
		if err := m.sessions.Destroy(r.Context()); err != nil {
			m.o.Answers.Fail(w, err)
			return
		}
	}
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}
