package redisstore

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/limit"
)

//go:embed limit_gcra.lua
var gcraSource string

var gcraScript = redis.NewScript(gcraSource)

// Limiter keeps the token buckets in Redis (GCRA, limit_gcra.lua), so
// a client's limits hold across every instance sharing the Redis. A bucket
// is one key that expires once the bucket is full again: idle clients cost
// nothing.
type Limiter struct {
	rdb redis.Scripter
	k   keys
}

var _ limit.Limiter = (*Limiter)(nil)

// NewLimiter returns a limiter whose keys start with prefix.
func NewLimiter(rdb redis.Scripter, prefix string) *Limiter {
	return &Limiter{rdb: rdb, k: keys{prefix: prefix}}
}

// Allow implements limit.Limiter.
func (l *Limiter) Allow(ctx context.Context, key string, r limit.Rate) (bool, time.Duration, error) {
	if r.PerSecond < 0 {
		return true, 0, nil
	}
	interval := int64(math.Ceil(1e6 / r.PerSecond))
	burst := int64(max(1, r.Burst))
	res, err := gcraScript.Run(ctx, l.rdb, []string{l.k.bucket(key)}, interval, burst).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limiter: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("rate limiter: unexpected reply %v", res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Microsecond, nil
}

//go:embed limit_gcra_peek.lua
var gcraPeekSource string

var gcraPeekScript = redis.NewScript(gcraPeekSource)

// Peek implements limit.Limiter.
func (l *Limiter) Peek(ctx context.Context, key string, r limit.Rate) (bool, time.Duration, error) {
	if r.PerSecond < 0 {
		return true, 0, nil
	}
	interval := int64(math.Ceil(1e6 / r.PerSecond))
	burst := int64(max(1, r.Burst))
	res, err := gcraPeekScript.Run(ctx, l.rdb, []string{l.k.bucket(key)}, interval, burst).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limiter: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("rate limiter: unexpected reply %v", res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Microsecond, nil
}

//go:embed limit_sockets.lua
var socketsSource string

var socketsScript = redis.NewScript(socketsSource)

// Sockets counts sockets in Redis: a sorted set per client, a member
// per socket scored by when it stops counting (limit_sockets.lua), so the
// cap holds across every instance sharing the Redis and a crashed
// instance's sockets stop counting after the TTL.
type Sockets struct {
	rdb redis.Cmdable
	k   keys
	ttl time.Duration
}

var _ limit.SocketCounter = (*Sockets)(nil)

// NewSockets returns a counter whose keys start with prefix and whose
// sockets count for ttl without a refresh (default limit.DefaultSocketTTL).
func NewSockets(rdb redis.Cmdable, prefix string, ttl time.Duration) *Sockets {
	if ttl <= 0 {
		ttl = limit.DefaultSocketTTL
	}
	return &Sockets{rdb: rdb, k: keys{prefix: prefix}, ttl: ttl}
}

// TTL implements limit.SocketCounter.
func (r *Sockets) TTL() time.Duration { return r.ttl }

// Open implements limit.SocketCounter.
func (r *Sockets) Open(ctx context.Context, client, id string, max int) (bool, error) {
	n, err := socketsScript.Run(ctx, r.rdb, []string{r.k.sockets(client)}, id, max, r.ttl.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("socket counter: %w", err)
	}
	return n == 1, nil
}

// Refresh implements limit.SocketCounter: one pipeline for all the sockets.
func (r *Sockets) Refresh(ctx context.Context, socks []limit.Socket) error {
	if len(socks) == 0 {
		return nil
	}
	if err := socketsScript.Load(ctx, r.rdb).Err(); err != nil {
		return fmt.Errorf("socket counter: %w", err)
	}
	ttl := r.ttl.Milliseconds()
	cmds, err := r.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, s := range socks {
			socketsScript.EvalSha(ctx, p, []string{r.k.sockets(s.Client)}, s.ID, -1, ttl)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("socket counter: refreshing %d sockets: %w", len(cmds), err)
	}
	return nil
}

// Close implements limit.SocketCounter.
func (r *Sockets) Close(ctx context.Context, client, id string) error {
	if err := r.rdb.ZRem(ctx, r.k.sockets(client), id).Err(); err != nil {
		return fmt.Errorf("socket counter: %w", err)
	}
	return nil
}
