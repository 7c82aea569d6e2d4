package server

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
)

// clientOf names the client of a request: its address, or the address a
// trusted proxy put in the configured header. IPv6 addresses count by
// their /64, which is what one subscriber usually has.
func clientOf(r *http.Request, header string) string {
	addr := ""
	if header != "" {
		v := r.Header.Get(header)
		if strings.EqualFold(header, "X-Forwarded-For") {
			if i := strings.LastIndexByte(v, ','); i >= 0 {
				v = v[i+1:]
			}
		}
		addr = strings.TrimSpace(v)
	}
	if addr == "" {
		addr = r.RemoteAddr
		if host, _, err := net.SplitHostPort(addr); err == nil {
			addr = host
		}
	}
	ip, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	ip = ip.Unmap()
	if ip.Is6() {
		p, _ := ip.Prefix(64)
		return p.String()
	}
	return ip.String()
}

// action names a token bucket: what the client is doing.
type action string

const (
	limitRooms       action = "rooms"
	limitJoins       action = "joins"
	limitQuickMatch  action = "quickmatch"
	limitTournaments action = "tournaments"
	limitEntries     action = "entries"
	limitBots        action = "bots"
	limitHints       action = "hints"
	limitStarts      action = "starts"
	limitLogins      action = "logins"        // identity/login.go: failed logins per name and client, and passkey logins per client
	limitLoginClient action = "login-clients" // identity/login.go: failed logins per client, any name
	limitLoginName   action = "login-names"   // identity/login.go: failed logins per name, any client (then a proof of work)
	limitSignups     action = "signups"       // identity/login.go: sign-ups per client
	limitProofs      action = "proofs"        // identity/login.go: each proof of work is good once
	limitModerator   action = "moderator"     // package moderation: wrong moderator tokens per client
)

func (s *Server) rateOf(l action) limit.Rate {
	lim := s.opts.Limits
	switch l {
	case limitRooms:
		return lim.Rooms
	case limitJoins:
		return lim.Joins
	case limitQuickMatch:
		return lim.QuickMatch
	case limitTournaments:
		return lim.Tournaments
	case limitEntries:
		return lim.Entries
	case limitBots:
		return lim.Bots
	case limitHints:
		return lim.Hints
	case limitLogins:
		return s.acct.loginRate
	case limitLoginClient:
		return limit.Rate{PerSecond: s.acct.loginRate.PerSecond * 4, Burst: s.acct.loginRate.Burst * 4}
	case limitLoginName:
		return s.acct.nameRate
	case limitSignups:
		return s.acct.signupRate
	case limitModerator:
		return limit.Rate{PerSecond: 1.0 / 60, Burst: 10}
	case limitProofs:
		return limit.Rate{PerSecond: 1 / (accounts.ProofTTL + 2*time.Minute).Seconds(), Burst: 1}
	default:
		return lim.Starts
	}
}

// take takes a token of the client's bucket. When the shared limiter (Redis)
// cannot answer, the instance's own buckets decide, so an outage neither
// opens the gates nor refuses everyone.
func (s *Server) take(ctx context.Context, client string, l action) (bool, time.Duration) {
	r := s.rateOf(l)
	if r.PerSecond < 0 {
		return true, 0
	}
	key := string(l) + "|" + client
	ok, retry, err := s.limiter.Allow(ctx, key, r)
	if err != nil {
		s.log.Warn("shared rate limiter unavailable; using this instance's", "err", err)
		ok, retry, _ = s.localLimiter.Allow(ctx, key, r)
	}
	if !ok {
		s.metrics.refused.WithLabelValues(string(l)).Inc()
	}
	return ok, retry
}

// peek is take without taking: whether the client's bucket has a token
// (limits that count failures look first and take after a failure).
func (s *Server) peek(ctx context.Context, client string, l action) (bool, time.Duration) {
	r := s.rateOf(l)
	if r.PerSecond < 0 {
		return true, 0
	}
	key := string(l) + "|" + client
	ok, retry, err := s.limiter.Peek(ctx, key, r)
	if err != nil {
		s.log.Warn("shared rate limiter unavailable; using this instance's", "err", err)
		ok, retry, _ = s.localLimiter.Peek(ctx, key, r)
	}
	if !ok {
		s.metrics.refused.WithLabelValues(string(l)).Inc()
	}
	return ok, retry
}

// allow takes a token for the request's client, or answers 429 with
// Retry-After and reports false.
//
// A logged-in player is also counted by account, so that an account does
// not get more from many addresses: both buckets must have a token.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, l action) bool {
	ok, retry := s.take(r.Context(), clientOf(r, s.opts.Limits.TrustedHeader), l)
	if !ok {
		tooMany(w, retry, fmt.Sprintf("too many requests (%s) from your address; try again in %s", l, roundUp(retry)))
		return false
	}
	if id := s.sessionAccountID(r); id != 0 {
		if ok, retry = s.take(r.Context(), "account:"+strconv.FormatInt(id, 10), l); !ok {
			tooMany(w, retry, fmt.Sprintf("too many requests (%s) from your account; try again in %s", l, roundUp(retry)))
			return false
		}
	}
	return true
}

// tooMany answers 429 with Retry-After in whole seconds.
func tooMany(w http.ResponseWriter, retry time.Duration, msg string) {
	w.Header().Set("Retry-After", strconv.Itoa(int(roundUp(retry)/time.Second)))
	writeError(w, http.StatusTooManyRequests, protocol.ErrCodeRateLimited, msg)
}

func roundUp(d time.Duration) time.Duration {
	return max(time.Second, (d + time.Second - 1).Truncate(time.Second))
}

// sockets counts open WebSockets per client and in all, for the caps.
type sockets struct {
	mu    sync.Mutex
	total int
	// local counts every socket of this instance by client: the cap when
	// no shared counter is configured, or when it cannot answer.
	local *limit.MemorySockets
	// shared are the sockets counted in Options.Sockets, refreshed while
	// they live.
	shared map[string]limit.Socket
	seq    uint64
}

// forever is the local counter's TTL: its sockets are never refreshed.
const forever = 100 * 365 * 24 * time.Hour

func (s *Server) initSockets() {
	s.socks.local = limit.NewMemorySockets(forever)
	s.socks.shared = map[string]limit.Socket{}
	if c := s.opts.Sockets; c != nil {
		every := c.TTL() / 3
		s.tasks.goCtx(func(ctx context.Context) {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					s.refreshSockets(ctx)
				}
			}
		})
	}
}

// refreshSockets keeps this instance's open sockets counted in the shared
// counter.
func (s *Server) refreshSockets(ctx context.Context) {
	s.socks.mu.Lock()
	socks := make([]limit.Socket, 0, len(s.socks.shared))
	for _, k := range s.socks.shared {
		socks = append(socks, k)
	}
	s.socks.mu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, s.opts.Sockets.TTL()/3)
	defer cancel()
	if err := s.opts.Sockets.Refresh(ctx, socks); err != nil {
		s.log.Warn("shared socket counter unavailable; the sockets of this instance may stop counting there", "err", err)
	}
}

// openSocket counts a socket for the client, or says which cap refuses
// it. The instance's connections are counted here; the client's sockets in
// the shared counter when there is one (Options.Sockets: every instance's),
// else, or when it cannot answer, in this instance's.
func (s *Server) openSocket(ctx context.Context, client string) (sock limit.Socket, shared bool, which string) {
	lim := s.opts.Limits
	s.socks.mu.Lock()
	if lim.Connections >= 0 && s.socks.total >= lim.Connections {
		s.socks.mu.Unlock()
		return limit.Socket{}, false, "connections"
	}
	s.socks.total++
	s.socks.seq++
	sock = limit.Socket{Client: client, ID: s.id + ":" + strconv.FormatUint(s.socks.seq, 36)}
	s.socks.mu.Unlock()

	max := lim.SocketsPerClient
	ok, decided := true, false
	if c := s.opts.Sockets; c != nil {
		octx, cancel := context.WithTimeout(ctx, 2*time.Second)
		var err error
		ok, err = c.Open(octx, client, sock.ID, max)
		cancel()
		if err != nil {
			s.log.Warn("shared socket counter unavailable; using this instance's", "err", err)
		} else {
			decided, shared = true, ok
		}
	}
	if decided {
		max = -1 // counted locally whatever the cap: the shared counter decided
	}
	if ok {
		ok, _ = s.socks.local.Open(ctx, client, sock.ID, max)
	}
	s.socks.mu.Lock()
	defer s.socks.mu.Unlock()
	if !ok {
		s.socks.total--
		return limit.Socket{}, false, "sockets"
	}
	if shared {
		s.socks.shared[sock.ID] = sock
	}
	return sock, shared, ""
}

func (s *Server) closeSocket(sock limit.Socket, shared bool) {
	s.socks.mu.Lock()
	s.socks.total--
	delete(s.socks.shared, sock.ID)
	s.socks.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	s.socks.local.Close(ctx, sock.Client, sock.ID)
	if shared {
		if err := s.opts.Sockets.Close(ctx, sock.Client, sock.ID); err != nil {
			s.log.Warn("shared socket counter unavailable; a closed socket counts until it expires", "err", err)
		}
	}
}

// capSockets wraps a WebSocket endpoint: past a cap the upgrade is refused
// with 429 and Retry-After.
func (s *Server) capSockets(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		client := clientOf(r, s.opts.Limits.TrustedHeader)
		sock, shared, which := s.openSocket(r.Context(), client)
		if which != "" {
			s.metrics.refused.WithLabelValues(which).Inc()
			msg := "too many open connections from your address; close some and try again"
			if which == "connections" {
				msg = "this server has as many connections as it can take; try again shortly"
			}
			tooMany(w, 5*time.Second, msg)
			return
		}
		held := &heldSocket{client: client, release: func() { s.closeSocket(sock, shared) }}
		defer func() {
			if !held.kept {
				held.release()
			}
		}()
		next(w, r.WithContext(context.WithValue(r.Context(), heldKey{}, held)))
	}
}

// heldSocket is the socket capSockets counted for a request: released
// when the handler returns, or, once the handler keeps it (keepSocket),
// by whoever serves the socket past the handler's return.
type heldSocket struct {
	client  string
	kept    bool
	release func()
}

type heldKey struct{}

// requestClient is the client a capSockets handler counted.
func requestClient(r *http.Request, header string) string {
	if h, ok := r.Context().Value(heldKey{}).(*heldSocket); ok {
		return h.client
	}
	return clientOf(r, header)
}

// keepSocket takes over the release of the request's counted socket, for
// a handler that returns while its socket is still served: it returns
// the release, which the caller must call once the socket is closed (a
// no-op for a request capSockets did not count). Called on the handler's
// goroutine, before it returns.
func keepSocket(r *http.Request) (release func()) {
	if h, ok := r.Context().Value(heldKey{}).(*heldSocket); ok {
		h.kept = true
		return h.release
	}
	return func() {}
}

// serveDetached serves an accepted socket on a goroutine of its own and
// lets the HTTP handler return: the server's connection state for the
// request (its response buffer, the request and its headers, a handler
// goroutine's stack grown by the middleware) is freed, where it used to
// live as long as the socket. The socket's context keeps the request's
// values but not its cancellation (which a hijacked request never had
// while its handler ran either).
func serveDetached(r *http.Request, serve func(ctx context.Context)) {
	release := keepSocket(r)
	ctx := context.WithoutCancel(r.Context())
	go func() {
		defer release()
		serve(ctx)
	}()
}
