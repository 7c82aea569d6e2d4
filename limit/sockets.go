package limit

import (
	"context"
	"sync"
	"time"
)

// SocketCounter counts each client's open WebSockets for the per-client
// cap (Limits.SocketsPerClient). A socket counts until it is closed, or
// until TTL passes without a Refresh (an instance that crashed cannot close
// its sockets). The memory implementation counts one instance's sockets;
// the Redis one (store/redisstore, limit_sockets.lua) every instance's
// sharing the Redis.
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
