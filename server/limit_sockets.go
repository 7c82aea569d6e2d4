package server

import (
	"context"
	_ "embed"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// SocketCounter counts each client's open WebSockets for the per-client
// cap (Limits.SocketsPerClient). A socket counts until it is closed, or
// until TTL passes without a Refresh (an instance that crashed cannot close
// its sockets). The memory implementation counts one instance's sockets;
// the Redis one (limit_sockets.lua) every instance's sharing the Redis.
type SocketCounter interface {
	// Open counts the socket id of the client, unless the client already
	// has max sockets counted (max < 0: no cap); it reports whether the
	// socket is counted. A socket already counted is never refused.
	Open(ctx context.Context, client, id string, max int) (bool, error)
	// Refresh keeps the sockets counted for another TTL, counting again
	// any that had expired (whatever the cap).
	Refresh(ctx context.Context, socks []Socket) error
	// Close stops counting the socket.
	Close(ctx context.Context, client, id string) error
	// TTL is how long a socket counts without a Refresh.
	TTL() time.Duration
}

// Socket names an open WebSocket: its client and an id unique across
// instances.
type Socket struct{ Client, ID string }

// DefaultSocketTTL is how long a socket counts without a refresh; a server
// refreshes its sockets every third of it.
const DefaultSocketTTL = time.Minute

// MemorySockets counts sockets in memory (one instance's).
type MemorySockets struct {
	mu       sync.Mutex
	ttl      time.Duration
	byClient map[string]map[string]time.Time // client -> socket -> counts until
	now      func() time.Time
}

var _ SocketCounter = (*MemorySockets)(nil)

// NewMemorySockets returns a counter whose sockets count for ttl without a
// refresh (default DefaultSocketTTL).
func NewMemorySockets(ttl time.Duration) *MemorySockets {
	if ttl <= 0 {
		ttl = DefaultSocketTTL
	}
	return &MemorySockets{ttl: ttl, byClient: map[string]map[string]time.Time{}, now: time.Now}
}

// TTL implements SocketCounter.
func (m *MemorySockets) TTL() time.Duration { return m.ttl }

// Open implements SocketCounter.
func (m *MemorySockets) Open(_ context.Context, client, id string, max int) (bool, error) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	socks := m.byClient[client]
	for s, until := range socks {
		if !until.After(now) {
			delete(socks, s)
		}
	}
	if _, ok := socks[id]; !ok && max >= 0 && len(socks) >= max {
		return false, nil
	}
	if socks == nil {
		socks = map[string]time.Time{}
		m.byClient[client] = socks
	}
	socks[id] = now.Add(m.ttl)
	return true, nil
}

// Refresh implements SocketCounter.
func (m *MemorySockets) Refresh(ctx context.Context, socks []Socket) error {
	for _, s := range socks {
		m.Open(ctx, s.Client, s.ID, -1)
	}
	return nil
}

// Close implements SocketCounter.
func (m *MemorySockets) Close(_ context.Context, client, id string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.byClient[client], id)
	if len(m.byClient[client]) == 0 {
		delete(m.byClient, client)
	}
	return nil
}

//go:embed limit_sockets.lua
var socketsSource string

var socketsScript = redis.NewScript(socketsSource)

// RedisSockets counts sockets in Redis: a sorted set per client, a member
// per socket scored by when it stops counting (limit_sockets.lua), so the
// cap holds across every instance sharing the Redis and a crashed
// instance's sockets stop counting after the TTL.
type RedisSockets struct {
	rdb    redis.Cmdable
	prefix string
	ttl    time.Duration
}

var _ SocketCounter = (*RedisSockets)(nil)

// NewRedisSockets returns a counter whose keys start with prefix and whose
// sockets count for ttl without a refresh (default DefaultSocketTTL).
func NewRedisSockets(rdb redis.Cmdable, prefix string, ttl time.Duration) *RedisSockets {
	if ttl <= 0 {
		ttl = DefaultSocketTTL
	}
	return &RedisSockets{rdb: rdb, prefix: prefix, ttl: ttl}
}

// TTL implements SocketCounter.
func (r *RedisSockets) TTL() time.Duration { return r.ttl }

func (r *RedisSockets) key(client string) string { return r.prefix + "socks:" + client }

// Open implements SocketCounter.
func (r *RedisSockets) Open(ctx context.Context, client, id string, max int) (bool, error) {
	n, err := socketsScript.Run(ctx, r.rdb, []string{r.key(client)}, id, max, r.ttl.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("socket counter: %w", err)
	}
	return n == 1, nil
}

// Refresh implements SocketCounter: one pipeline for all the sockets.
func (r *RedisSockets) Refresh(ctx context.Context, socks []Socket) error {
	if len(socks) == 0 {
		return nil
	}
	if err := socketsScript.Load(ctx, r.rdb).Err(); err != nil {
		return fmt.Errorf("socket counter: %w", err)
	}
	ttl := r.ttl.Milliseconds()
	cmds, err := r.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, s := range socks {
			socketsScript.EvalSha(ctx, p, []string{r.key(s.Client)}, s.ID, -1, ttl)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("socket counter: refreshing %d sockets: %w", len(cmds), err)
	}
	return nil
}

// Close implements SocketCounter.
func (r *RedisSockets) Close(ctx context.Context, client, id string) error {
	if err := r.rdb.ZRem(ctx, r.key(client), id).Err(); err != nil {
		return fmt.Errorf("socket counter: %w", err)
	}
	return nil
}
