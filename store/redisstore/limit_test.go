package redisstore_test

import (
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/limit"
	"golfsolitaire/limit/limittest"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// onRedis runs f on miniredis and on the single node and the Redis Cluster
// CI starts (skipped, loudly, when they are not there), each time with a
// client and a key prefix of its own.
func onRedis(t *testing.T, f func(t *testing.T, rdb redis.UniversalClient, prefix string)) {
	t.Run("miniredis", func(t *testing.T) {
		t.Parallel()
		m := miniredis.RunT(t)
		rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { _ = rdb.Close() })
		f(t, rdb, uniquePrefix())
	})
	for _, tp := range redistest.All[:2] {
		t.Run(tp.Name, func(t *testing.T) {
			t.Parallel()
			p := tp.Prefix(t, "limit")
			f(t, tp.Client(t), p)
		})
	}
}

// TestLimiterContract: the contract every limit.Limiter keeps, run on the
// Redis one.
func TestLimiterContract(t *testing.T) {
	onRedis(t, func(t *testing.T, rdb redis.UniversalClient, prefix string) {
		limittest.RunLimiter(t, func(t *testing.T) limit.Limiter { return redisstore.NewLimiter(rdb, prefix) })
	})
}

// TestSocketCounterContract: the contract every limit.SocketCounter keeps,
// run on the Redis one.
func TestSocketCounterContract(t *testing.T) {
	const ttl = 400 * time.Millisecond
	onRedis(t, func(t *testing.T, rdb redis.UniversalClient, prefix string) {
		limittest.RunSocketCounter(t, ttl, func(t *testing.T) limit.SocketCounter { return redisstore.NewSockets(rdb, prefix, ttl) })
	})
}
