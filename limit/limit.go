package limit

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// Rate is a token-bucket rate limit.
type Rate struct {
	PerSecond float64
	Burst     float64
}

// Limiter takes one token from a client's bucket. Allow reports whether the
// token was there and, when not, how long until it will be. Keys name the
// action and the client ("rooms|203.0.113.7"). The memory implementation
// holds for one instance; the Redis one (store/redisstore) for every instance
// sharing the Redis.
//
// Peek reports whether Allow would take a token now, taking none: limits
// that count failures only look before the attempt and take after a
// failure.
type Limiter interface {
	Allow(ctx context.Context, key string, r Rate) (ok bool, retry time.Duration, err error)
	Peek(ctx context.Context, key string, r Rate) (ok bool, retry time.Duration, err error)
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

// WithDefaults fills the zero fields.
func (l Limits) WithDefaults() Limits {
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

// Peek implements Limiter.
func (m *MemoryLimiter) Peek(_ context.Context, key string, r Rate) (bool, time.Duration, error) {
	if r.PerSecond < 0 {
		return true, 0, nil
	}
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.buckets[key]
	if !ok {
		return true, 0, nil
	}
	tokens := b.lim.TokensAt(now)
	if tokens >= 1 {
		return true, 0, nil
	}
	return false, time.Duration((1 - tokens) / r.PerSecond * float64(time.Second)), nil
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
