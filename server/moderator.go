package server

import (
	"context"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"time"

	"github.com/alexedwards/scs/v2"
	"github.com/alexedwards/scs/v2/memstore"

	"golfsolitaire/protocol"
	"golfsolitaire/templates"
)

// Moderators sign in to the review page with the moderator token and get
// a session of their own: a random token in the golf_moderator cookie,
// kept server-side (Options.Sessions, like players' sessions) for at most
// 12 hours, 1 hour idle, and destroyed by logout, so a copied cookie dies
// with it. Wrong tokens (the form's or a Bearer header's) are limited per
// client: failures only, 10 at once then one a minute, past which the
// client gets 429 whatever it sends.

// moderatorCookie carries a moderator's session on the review page.
const moderatorCookie = "golf_moderator"

// sessionModerator marks a moderator's session.
const sessionModerator = "moderator"

func (s *Server) newModeratorSessions() *scs.SessionManager {
	sm := scs.New()
	sm.Store = s.opts.Sessions
	if sm.Store == nil {
		sm.Store = memstore.NewWithCleanupInterval(0) // as initAccounts
	}
	sm.Lifetime = 12 * time.Hour
	sm.IdleTimeout = time.Hour
	sm.Cookie.Name = moderatorCookie
	sm.Cookie.HttpOnly = true
	sm.Cookie.SameSite = http.SameSiteStrictMode
	sm.Cookie.Secure = s.secureCookies()
	sm.Cookie.Persist = false
	sm.ErrorFunc = func(w http.ResponseWriter, r *http.Request, err error) {
		s.log.Error("moderator session", "err", err)
		writeError(w, http.StatusServiceUnavailable, protocol.ErrCodeUnavailable, "sessions are unavailable; try again shortly")
	}
	return sm
}

// moderatorGate looks at the client's budget of wrong tokens before a
// token is compared: it reports false (and the wait) when it is spent.
func (s *Server) moderatorGate(r *http.Request) (bool, time.Duration) {
	return s.peek(r.Context(), clientOf(r, s.opts.Limits.TrustedHeader), limitModerator)
}

// moderatorFailed charges a wrong token to the client's budget.
func (s *Server) moderatorFailed(r *http.Request) {
	s.take(context.WithoutCancel(r.Context()), clientOf(r, s.opts.Limits.TrustedHeader), limitModerator)
}

// goodToken compares a token with the moderator's in constant time.
func (f *fairplayState) goodToken(got string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(f.token)) == 1
}

// moderatorOf reports whether the request is a moderator's: the token as
// "Authorization: Bearer" (a wrong one is charged to the client, and a
// client past its budget is refused however good its token: status 429),
// or a moderator session's cookie. status is 0 when it is, else the
// refusal's.
func (s *Server) moderatorOf(r *http.Request) (status int, retry time.Duration) {
	if got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		if ok, retry := s.moderatorGate(r); !ok {
			return http.StatusTooManyRequests, retry
		}
		if s.fair.goodToken(got) {
			return 0, 0
		}
		s.moderatorFailed(r)
		return http.StatusUnauthorized, 0
	}
	if s.fair.sessions.GetBool(r.Context(), sessionModerator) {
		return 0, 0
	}
	return http.StatusUnauthorized, 0
}

// postModeratorLogin serves POST /moderator/login (form field token):
// a new moderator session, or the form again with an error.
func (s *Server) postModeratorLogin(w http.ResponseWriter, r *http.Request) {
	if !s.reviewEnabled(w) {
		return
	}
	if ok, retry := s.moderatorGate(r); !ok {
		w.Header().Set("Retry-After", fmt.Sprint(int(roundUp(retry)/time.Second)))
		s.renderModerator(w, r, http.StatusTooManyRequests, templates.Moderator{Error: "Too many wrong tokens from your address; try again in " + roundUp(retry).String() + "."})
		return
	}
	if !s.fair.goodToken(r.PostFormValue("token")) {
		s.moderatorFailed(r)
		s.renderModerator(w, r, http.StatusUnauthorized, templates.Moderator{Error: "That is not the moderator token."})
		return
	}
	if err := s.fair.sessions.RenewToken(r.Context()); err != nil {
		s.fail(w, err)
		return
	}
	s.fair.sessions.Put(r.Context(), sessionModerator, true)
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}

// postModeratorLogout serves POST /moderator/logout: the session is
// destroyed (its cookie, replayed, is no one's).
func (s *Server) postModeratorLogout(w http.ResponseWriter, r *http.Request) {
	if s.fair != nil && s.fair.sessions != nil {
		if err := s.fair.sessions.Destroy(r.Context()); err != nil {
			s.fail(w, err)
			return
		}
	}
	http.Redirect(w, r, "/moderator", http.StatusSeeOther)
}

// guardMetrics keeps /metrics on the main listener (no --metrics-addr)
// from the public: it is served to a request from this machine (a
// loopback peer, with no proxy header: `go run .`), or with the moderator
// token as "Authorization: Bearer" (limited like every moderator token).
// Production serves them on their own listener (--metrics-addr).
func (s *Server) guardMetrics(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok && s.fair != nil && s.fair.token != "" {
			switch status, retry := s.moderatorOf(r); status {
			case 0:
				next.ServeHTTP(w, r)
			case http.StatusTooManyRequests:
				tooMany(w, retry, "too many wrong moderator tokens from your address; try again in "+roundUp(retry).String())
			default:
				writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken, "that is not the moderator token")
			}
			return
		}
		if s.localRequest(r) {
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer realm="metrics"`)
		writeError(w, http.StatusUnauthorized, protocol.ErrCodeBadToken,
			"metrics are served to this machine, on --metrics-addr, or with the moderator token (Authorization: Bearer TOKEN)")
	})
}

// localRequest reports whether a request comes straight from this
// machine: a loopback peer, and no header a proxy adds.
func (s *Server) localRequest(r *http.Request) bool {
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-IP", s.opts.Limits.TrustedHeader} {
		if h != "" && r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Unmap().IsLoopback()
}
