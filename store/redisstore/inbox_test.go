package redisstore_test

import (
	"time"

	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
	"golfsolitaire/store/storetest"
)

// TestInboxesContract runs the inboxes' contract on miniredis and on the
// Redis at REDIS_URL, two stores (instances) on one Redis each time, with
// a unique prefix deleted afterwards, and on the Cluster and Sentinel CI
// starts.
func TestInboxesContract(t *testing.T) {
	t.Run("miniredis", func(t *testing.T) {
		storetest.RunInboxes(t, func(t *testing.T) (store.Inboxes, store.Inboxes) {
			m := miniredis.RunT(t)
			realTimeMini(t, m)
			return inboxPair(t, &redis.Options{Addr: m.Addr()}, uniquePrefix())
		})
	})
	t.Run("redis", func(t *testing.T) {
		opts := redisOptions(t)
		storetest.RunInboxes(t, func(t *testing.T) (store.Inboxes, store.Inboxes) {
			p := uniquePrefix()
			t.Cleanup(func() { deletePrefix(t, opts, p) })
			return inboxPair(t, opts, p)
		})
	})
	for _, tp := range redistest.All[1:] {
		t.Run(tp.Name, func(t *testing.T) {
			tp.Config(t) // skips (loudly) when the topology is not there
			storetest.RunInboxes(t, func(t *testing.T) (store.Inboxes, store.Inboxes) {
				p := tp.Prefix(t, "inbox")
				var out [2]store.Inboxes
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

func inboxPair(t *testing.T, opts *redis.Options, prefix string) (store.Inboxes, store.Inboxes) {
	var out [2]store.Inboxes
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

// realTimeMini moves the miniredis clock with the real one, so that keys
// expire as they would in Redis (miniredis ages keys only when told to).
func realTimeMini(t *testing.T, m *miniredis.Miniredis) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(10 * time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for {
			select {
			case <-stop:
				return
			case now := <-tick.C:
				m.FastForward(now.Sub(last))
				last = now
			}
		}
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
	})
}
