package server

import (
	"context"
	_ "embed"
	"fmt"
	"math"
	"time"

	"github.com/redis/go-redis/v9"
)

//go:embed limit_gcra.lua
var gcraSource string

var gcraScript = redis.NewScript(gcraSource)

// RedisLimiter keeps the token buckets in Redis (GCRA, limit_gcra.lua), so
// a client's limits hold across every instance sharing the Redis. A bucket
// is one key that expires once the bucket is full again: idle clients cost
// nothing.
type RedisLimiter struct {
	rdb    redis.Scripter
	prefix string
}

var _ Limiter = (*RedisLimiter)(nil)

// NewRedisLimiter returns a limiter whose keys start with prefix.
func NewRedisLimiter(rdb redis.Scripter, prefix string) *RedisLimiter {
	return &RedisLimiter{rdb: rdb, prefix: prefix}
}

// Allow implements Limiter.
func (l *RedisLimiter) Allow(ctx context.Context, key string, r Rate) (bool, time.Duration, error) {
	if r.PerSecond < 0 {
		return true, 0, nil
	}
	interval := int64(math.Ceil(1e6 / r.PerSecond))
	burst := int64(max(1, r.Burst))
	res, err := gcraScript.Run(ctx, l.rdb, []string{l.prefix + "limit:" + key}, interval, burst).Int64Slice()
	if err != nil {
		return false, 0, fmt.Errorf("rate limiter: %w", err)
	}
	if len(res) != 2 {
		return false, 0, fmt.Errorf("rate limiter: unexpected reply %v", res)
	}
	return res[0] == 1, time.Duration(res[1]) * time.Microsecond, nil
}
