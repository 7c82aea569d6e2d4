package server

import (
	"context"
	"fmt"
	"math"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"golfsolitaire/protocol"
)

// Limiter takes one token from a client's bucket. Allow reports whether the
// token was there and, when not, how long until it will be. Keys name the
// action and the client ("rooms|203.0.113.7"). The memory implementation
// holds for one instance; the Redis one (limit_redis.go) for every instance
// sharing the Redis.
type Limiter interface {
	Allow(ctx context.Context, key string, r Rate) (ok bool, retry time.Duration, err error)
}

// Unlimited, as a Rate's PerSecond, turns a limit off.
const Unlimited = -1

// Limits are the per-client limits (docs/deploy.md "Limits"). The zero
// value of each field means its default; a negative one (Unlimited) turns
// it off.
type Limits struct {
	// Token buckets, per client: creating rooms, joining rooms, quick
	// match requests, creating tournaments, entering tournaments (join and
	// play), adding bots, hints, and starting rounds (start and rematch:
	// practice included).
	Rooms, Joins, QuickMatch, Tournaments, Entries, Bots, Hints, Starts Rate
	// SocketsPerClient caps a client's open WebSockets (rooms and
	// tournaments) as Options.Sockets counts them (default: on the
	// instance; a RedisSockets: on every instance); SpectatorsPerRoom caps a room's
	// spectators on an instance; Connections caps an instance's WebSockets.
	SocketsPerClient, SpectatorsPerRoom, Connections int
	// TrustedHeader names the header a trusted proxy puts the client's
	// address in (X-Forwarded-For: its last entry; any other: the whole
	// value). Empty (the default): the connection's remote address.
	TrustedHeader string
}

// perMinute is n per minute with bursts of n.
func perMinute(n float64) Rate { return Rate{PerSecond: n / 60, Burst: n} }

// DefaultLimits are the limits of a Server whose Options leave them zero.
func DefaultLimits() Limits {
	return Limits{
		Rooms: perMinute(20), Joins: perMinute(60), QuickMatch: perMinute(30), Tournaments: perMinute(10),
		Entries: perMinute(60), Bots: perMinute(30), Hints: perMinute(60), Starts: perMinute(30),
		SocketsPerClient: 32, SpectatorsPerRoom: 500, Connections: 20000,
	}
}

// NoLimits turns every per-client limit off (tests, load tests from one
// address).
func NoLimits() Limits {
	off := Rate{PerSecond: Unlimited}
	return Limits{Rooms: off, Joins: off, QuickMatch: off, Tournaments: off, Entries: off, Bots: off, Hints: off, Starts: off,
		SocketsPerClient: Unlimited, SpectatorsPerRoom: Unlimited, Connections: Unlimited}
}

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	rates := []struct{ v, d *Rate }{{&l.Rooms, &d.Rooms}, {&l.Joins, &d.Joins}, {&l.QuickMatch, &d.QuickMatch},
		{&l.Tournaments, &d.Tournaments}, {&l.Entries, &d.Entries}, {&l.Bots, &d.Bots}, {&l.Hints, &d.Hints}, {&l.Starts, &d.Starts}}
	for _, r := range rates {
		if r.v.PerSecond == 0 {
			*r.v = *r.d
		}
		if r.v.Burst < 1 && r.v.PerSecond > 0 {
			r.v.Burst = 1
		}
	}
	for _, c := range []struct{ v, d *int }{{&l.SocketsPerClient, &d.SocketsPerClient}, {&l.SpectatorsPerRoom, &d.SpectatorsPerRoom}, {&l.Connections, &d.Connections}} {
		if *c.v == 0 {
			*c.v = *c.d
		}
	}
	return l
}

// ParseRate reads a limit as written in flags: "20/1m" (20 a minute, in
// bursts of up to 20), "5/1s", or "off".
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "off" || s == "0" {
		return Rate{PerSecond: Unlimited}, nil
	}
	n, per, ok := strings.Cut(s, "/")
	if !ok {
		return Rate{}, fmt.Errorf("limit %q: want N/DURATION (e.g. 20/1m) or off", s)
	}
	count, err := strconv.ParseFloat(n, 64)
	if err != nil || count < 1 || math.IsInf(count, 0) {
		return Rate{}, fmt.Errorf("limit %q: want a count of at least 1 before the /", s)
	}
	d, err := time.ParseDuration(per)
	if err != nil || d <= 0 {
		return Rate{}, fmt.Errorf("limit %q: want a duration after the / (1s, 1m, 1h)", s)
	}
	return Rate{PerSecond: count / d.Seconds(), Burst: count}, nil
}

// String writes a rate the way ParseRate reads it.
func (r Rate) String() string {
	if r.PerSecond < 0 {
		return "off"
	}
	if r.PerSecond == 0 {
		return "default"
	}
	return strconv.FormatFloat(r.Burst, 'f', -1, 64) + "/" + (time.Duration(r.Burst / r.PerSecond * float64(time.Second))).String()
}

// MemoryLimiter keeps token buckets (golang.org/x/time/rate) in memory. It
// forgets a client's bucket once it is full again (an idle client), and
// never holds more than max buckets.
type MemoryLimiter struct {
	mu      sync.Mutex
	buckets map[string]*memBucket
	max     int
	calls   int
	now     func() time.Time
}

type memBucket struct {
	lim  *rate.Limiter
	full time.Time // when the bucket will be full again if nothing is taken
}

var _ Limiter = (*MemoryLimiter)(nil)

// NewMemoryLimiter returns a limiter holding at most max buckets (default
// 100,000).
func NewMemoryLimiter(max int) *MemoryLimiter {
	if max <= 0 {
		max = 100_000
	}
	return &MemoryLimiter{buckets: map[string]*memBucket{}, max: max, now: time.Now}
}

// Allow implements Limiter.
func (m *MemoryLimiter) Allow(_ context.Context, key string, r Rate) (bool, time.Duration, error) {
	if r.PerSecond < 0 {
		return true, 0, nil
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.buckets[key]
	if !ok {
		m.evict(now)
		b = &memBucket{lim: rate.NewLimiter(rate.Limit(r.PerSecond), int(max(1, r.Burst)))}
		m.buckets[key] = b
	}
	res := b.lim.ReserveN(now, 1)
	if !res.OK() {
		return false, time.Hour, nil
	}
	if d := res.DelayFrom(now); d > 0 {
		res.CancelAt(now)
		return false, d, nil
	}
	// Empty after this token: full again after burst/rate seconds at most.
	b.full = now.Add(time.Duration(float64(time.Second) * float64(b.lim.Burst()) / r.PerSecond))
	return true, 0, nil
}

// Len is how many buckets are held.
func (m *MemoryLimiter) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.buckets)
}

// evict drops the buckets that are full again (forgetting them changes
// nothing), now and then, and makes room for one more when at the cap.
func (m *MemoryLimiter) evict(now time.Time) {
	m.calls++
	if len(m.buckets) < m.max && m.calls%1024 != 0 {
		return
	}
	for k, b := range m.buckets {
		if !b.full.After(now) {
			delete(m.buckets, k)
		}
	}
	// Still full of active clients: forget a tenth of them at random (map
	// order), so the cost of evicting is spread over many calls.
	for k := range m.buckets {
		if len(m.buckets) < m.max-m.max/10 {
			break
		}
		delete(m.buckets, k)
	}
}

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

// limit names a token bucket.
type limit string

const (
	limitRooms       limit = "rooms"
	limitJoins       limit = "joins"
	limitQuickMatch  limit = "quickmatch"
	limitTournaments limit = "tournaments"
	limitEntries     limit = "entries"
	limitBots        limit = "bots"
	limitHints       limit = "hints"
	limitStarts      limit = "starts"
	limitLogins      limit = "logins" // account.go: logins, sign-ups and passkey logins
)

func (s *Server) rateOf(l limit) Rate {
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
	default:
		return lim.Starts
	}
}

// take takes a token of the client's bucket. When the shared limiter (Redis)
// cannot answer, the instance's own buckets decide, so an outage neither
// opens the gates nor refuses everyone.
func (s *Server) take(ctx context.Context, client string, l limit) (bool, time.Duration) {
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

// allow takes a token for the request's client, or answers 429 with
// Retry-After and reports false.
//
// A logged-in player is also counted by account, so that an account does
// not get more from many addresses: both buckets must have a token.
func (s *Server) allow(w http.ResponseWriter, r *http.Request, l limit) bool {
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
	local *MemorySockets
	// shared are the sockets counted in Options.Sockets, refreshed while
	// they live.
	shared map[string]Socket
	seq    uint64
}

// forever is the local counter's TTL: its sockets are never refreshed.
const forever = 100 * 365 * 24 * time.Hour

func (s *Server) initSockets() {
	s.socks.local = NewMemorySockets(forever)
	s.socks.shared = map[string]Socket{}
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
	socks := make([]Socket, 0, len(s.socks.shared))
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
func (s *Server) openSocket(ctx context.Context, client string) (sock Socket, shared bool, which string) {
	lim := s.opts.Limits
	s.socks.mu.Lock()
	if lim.Connections >= 0 && s.socks.total >= lim.Connections {
		s.socks.mu.Unlock()
		return Socket{}, false, "connections"
	}
	s.socks.total++
	s.socks.seq++
	sock = Socket{Client: client, ID: s.id + ":" + strconv.FormatUint(s.socks.seq, 36)}
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
		return Socket{}, false, "sockets"
	}
	if shared {
		s.socks.shared[sock.ID] = sock
	}
	return sock, shared, ""
}

func (s *Server) closeSocket(sock Socket, shared bool) {
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
		defer s.closeSocket(sock, shared)
		next(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, client)))
	}
}

type clientKey struct{}

// requestClient is the client a capSockets handler counted.
func requestClient(r *http.Request, header string) string {
	if c, ok := r.Context().Value(clientKey{}).(string); ok {
		return c
	}
	return clientOf(r, header)
}
