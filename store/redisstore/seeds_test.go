package redisstore_test

import (
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
	"golfsolitaire/store/storetest"
)

// TestSeedPoolsContract runs the seed pools' contract on miniredis and on
// the Redis at REDIS_URL, two stores (instances) on one Redis each time,
// with a unique prefix deleted afterwards.
func TestSeedPoolsContract(t *testing.T) {
	t.Run("miniredis", func(t *testing.T) {
		storetest.RunSeedPools(t, func(t *testing.T) (store.SeedPools, store.SeedPools) {
			m := miniredis.RunT(t)
			return seedPoolPair(t, &redis.Options{Addr: m.Addr()}, uniquePrefix())
		})
	})
	t.Run("redis", func(t *testing.T) {
		opts := redisOptions(t)
		storetest.RunSeedPools(t, func(t *testing.T) (store.SeedPools, store.SeedPools) {
			p := uniquePrefix()
			t.Cleanup(func() { deletePrefix(t, opts, p) })
			return seedPoolPair(t, opts, p)
		})
	})
	// And on the Cluster and the Sentinel master CI starts.
	for _, tp := range redistest.All[1:] {
		t.Run(tp.Name, func(t *testing.T) {
			tp.Config(t) // skips (loudly) when the topology is not there
			storetest.RunSeedPools(t, func(t *testing.T) (store.SeedPools, store.SeedPools) {
				p := tp.Prefix(t, "seeds")
				var out [2]store.SeedPools
				for i := range out {
					st := redisstore.New(tp.Client(t), redisstore.Options{Prefix: p})
					t.Cleanup(func() { st.Close() })
					out[i] = st
				}
				return out[0], out[1]
			})
		})
	}
}

func seedPoolPair(t *testing.T, opts *redis.Options, prefix string) (store.SeedPools, store.SeedPools) {
	var out [2]store.SeedPools
	for i := range out {
		client := redis.NewClient(opts)
		s := redisstore.New(client, redisstore.Options{Prefix: prefix})
		t.Cleanup(func() {
			s.Close()
			_ = client.Close()
		})
		out[i] = s
	}
	return out[0], out[1]
}
