package redisstore_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
	"golfsolitaire/store/storetest"
)

// TestContract runs the contract suite on miniredis, always, and on each
// Redis topology CI starts (single node, Cluster, Sentinel; see package
// redistest).
func TestContract(t *testing.T) {
	// The backends run side by side (their tests wait on TTLs), within
	// this test: the failover tests, which kill nodes and load the
	// machine, are not parallel, so none of them runs beside it.
	t.Run("miniredis", func(t *testing.T) {
		t.Parallel()
		storetest.RunBackend(t, miniredisBackend())
	})
	for _, tp := range redistest.All {
		t.Run(tp.Name, func(t *testing.T) {
			t.Parallel()
			storetest.RunBackend(t, realBackend(t, tp))
		})
	}
}

// miniredisBackend gives each test its own in-process Redis, whose clock
// the suite moves with FastForward.
func miniredisBackend() storetest.Backend {
	var servers sync.Map // *testing.T -> *miniredis.Miniredis
	server := func(t *testing.T) *miniredis.Miniredis {
		if m, ok := servers.Load(t); ok {
			return m.(*miniredis.Miniredis)
		}
		m := miniredis.RunT(t)
		servers.Store(t, m)
		t.Cleanup(func() { servers.Delete(t) })
		return m
	}
	return storetest.Backend{
		New: func(t *testing.T, c storetest.Config) store.Store {
			client := redis.NewClient(&redis.Options{Addr: server(t).Addr()})
			t.Cleanup(func() { _ = client.Close() })
			return redisstore.New(client, redisstore.Options{HistoryLen: int64(c.HistoryLen), Replay: c.Replay, SnapshotEvery: c.SnapshotEvery})
		},
		Shared:       true,
		Configurable: true,
		Advance:      func(t *testing.T, d time.Duration) { server(t).FastForward(d) },
	}
}

// realBackend gives each test a unique key prefix on the topology, deleted
// when the test ends. Time is real.
func realBackend(t *testing.T, tp redistest.Topology) storetest.Backend {
	tp.Config(t)          // skips (loudly) when the topology is not there
	var prefixes sync.Map // *testing.T -> string
	prefix := func(t *testing.T) string {
		if p, ok := prefixes.Load(t); ok {
			return p.(string)
		}
		p := tp.Prefix(t, "store")
		prefixes.Store(t, p)
		t.Cleanup(func() { prefixes.Delete(t) })
		return p
	}
	return storetest.Backend{
		New: func(t *testing.T, c storetest.Config) store.Store {
			p := prefix(t) // before the client: cleanups run last first
			client := tp.Client(t)
			return redisstore.New(client, redisstore.Options{Prefix: p, HistoryLen: int64(c.HistoryLen), Replay: c.Replay, SnapshotEvery: c.SnapshotEvery})
		},
		Shared:       true,
		Configurable: true,
	}
}

// redisOptions parses REDIS_URL, skipping the test when it is not set.
func redisOptions(t testing.TB) *redis.Options {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Skip("REDIS_URL not set")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("REDIS_URL: %v", err)
	}
	return opts
}

func uniquePrefix() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "golftest:" + hex.EncodeToString(b) + ":"
}

// deletePrefix removes every key under prefix.
func deletePrefix(t testing.TB, opts *redis.Options, prefix string) {
	client := redis.NewClient(opts)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	iter := client.Scan(ctx, 0, prefix+"*", 500).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		t.Errorf("cleanup of %s*: %v", prefix, err)
		return
	}
	if len(keys) > 0 {
		if err := client.Unlink(ctx, keys...).Err(); err != nil {
			t.Errorf("cleanup of %s*: %v", prefix, err)
		}
	}
}

// both runs f on miniredis and, when REDIS_URL is set, on that Redis,
// with a fresh client and a unique prefix.
func both(t *testing.T, f func(t *testing.T, client *redis.Client, prefix string)) {
	t.Run("miniredis", func(t *testing.T) {
		m := miniredis.RunT(t)
		client := redis.NewClient(&redis.Options{Addr: m.Addr()})
		t.Cleanup(func() { _ = client.Close() })
		f(t, client, uniquePrefix())
	})
	t.Run("redis", func(t *testing.T) {
		opts := redisOptions(t)
		p := uniquePrefix()
		t.Cleanup(func() { deletePrefix(t, opts, p) })
		client := redis.NewClient(opts)
		t.Cleanup(func() { _ = client.Close() })
		f(t, client, p)
	})
}

// TestKeys checks the key layout: one prefix, and a room's keys in one
// Cluster slot.
func TestKeys(t *testing.T) {
	both(t, func(t *testing.T, client *redis.Client, prefix string) {
		ctx := context.Background()
		s := redisstore.New(client, redisstore.Options{Prefix: prefix, RoomTTL: time.Hour})
		defer s.Close()
		room := "ABCD"
		if err := s.Create(ctx, room, []byte("s"), []byte("e")); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Append(ctx, room, 1, []byte("s2"), []byte("e2")); err != nil {
			t.Fatal(err)
		}
		if err := s.SetListing(ctx, room, []byte("l")); err != nil {
			t.Fatal(err)
		}
		if _, _, err := s.Pair(ctx, "std", "T1"); err != nil {
			t.Fatal(err)
		}
		if err := s.SetBot(ctx, room, "b1", []byte("rec")); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.TakeLease(ctx, "bot:ABCD:b1", "me", time.Minute); !ok || err != nil {
			t.Fatal(ok, err)
		}
		keys, err := client.Keys(ctx, prefix+"*").Result()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]bool{
			prefix + "{ABCD}:snap": true, prefix + "{ABCD}:log": true, prefix + "{ABCD}:listing": true,
			prefix + "{ABCD}:bots": true, prefix + "listings:{13}": true, prefix + "pair:{std}": true,
			prefix + "botdue:{13}": true, prefix + "lease:bot:ABCD:b1": true,
		}
		if len(keys) != len(want) {
			t.Errorf("keys = %q, want %d keys", keys, len(want))
		}
		for _, k := range keys {
			if !want[k] {
				t.Errorf("unexpected key %q", k)
			}
			if strings.Contains(k, "{ABCD}") && hashTag(k) != room {
				t.Errorf("key %q has hash tag %q, want %q", k, hashTag(k), room)
			}
		}
		// Every key of the room expires, within RoomTTL, and Expire moves
		// them all.
		roomKeys := []string{prefix + "{ABCD}:snap", prefix + "{ABCD}:log", prefix + "{ABCD}:listing", prefix + "{ABCD}:bots"}
		checkTTL := func(max time.Duration) {
			t.Helper()
			for _, k := range roomKeys {
				ttl, err := client.PTTL(ctx, k).Result()
				if err != nil || ttl <= 0 || ttl > max {
					t.Errorf("PTTL(%s) = %v %v, want in (0, %v]", k, ttl, err, max)
				}
			}
		}
		checkTTL(time.Hour)
		if err := s.Expire(ctx, room, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		checkTTL(10 * time.Second)
		if _, err := s.Append(ctx, room, 2, []byte("s3"), []byte("e3")); err != nil {
			t.Fatal(err)
		}
		checkTTL(10 * time.Second) // Append refreshes to the room's TTL
		if ttl, _ := client.PTTL(ctx, prefix+"pair:{std}").Result(); ttl <= 0 {
			t.Errorf("pair queue PTTL = %v, want > 0", ttl)
		}
		if ttl, _ := client.PTTL(ctx, prefix+"lease:bot:ABCD:b1").Result(); ttl <= 0 || ttl > time.Minute {
			t.Errorf("lease PTTL = %v, want in (0, 1m]", ttl)
		}
	})
}

// hashTag is the part of a key Redis Cluster hashes.
func hashTag(key string) string {
	i := strings.IndexByte(key, '{')
	if i < 0 {
		return key
	}
	j := strings.IndexByte(key[i+1:], '}')
	if j <= 0 {
		return key
	}
	return key[i+1 : i+1+j]
}

// TestSharedPubSub checks that many subscriptions share one pub/sub
// connection and that the last one out unsubscribes.
func TestSharedPubSub(t *testing.T) {
	opts := redisOptions(t)
	prefix := uniquePrefix()
	t.Cleanup(func() { deletePrefix(t, opts, prefix) })
	client := redis.NewClient(opts)
	defer client.Close()
	ctx := context.Background()
	s := redisstore.New(client, redisstore.Options{Prefix: prefix})
	defer s.Close()
	var subs []store.Subscription
	for i := range 20 {
		room := fmt.Sprint("R", i)
		if err := s.Create(ctx, room, nil, nil); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			sub, err := s.Subscribe(ctx, room)
			if err != nil {
				t.Fatal(err)
			}
			subs = append(subs, sub)
		}
	}
	channels, err := client.PubSubChannels(ctx, prefix+"*").Result()
	if err != nil || len(channels) != 20 {
		t.Fatalf("PUBSUB CHANNELS = %d channels %v, want 20", len(channels), err)
	}
	numsub, err := client.PubSubNumSub(ctx, channels...).Result()
	if err != nil {
		t.Fatal(err)
	}
	for ch, n := range numsub {
		if n != 1 {
			t.Errorf("%s has %d subscribers, want 1 (one shared connection)", ch, n)
		}
	}
	for _, sub := range subs {
		sub.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		channels, err := client.PubSubChannels(ctx, prefix+"*").Result()
		if err == nil && len(channels) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still subscribed to %q after every subscription closed", channels)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// BenchmarkAppend appends one event and a 512-byte snapshot per op, on
// miniredis and on the Redis at REDIS_URL; and on the Sentinel master CI
// starts (which has a replica), without and with WAIT 1.
// BenchmarkAppend appends one event at a time as a room does, with a
// room-sized snapshot (2.3 kB) and event (200 B): "every1" writes the
// snapshot on every Append (no Replay: as before snapshots were spaced),
// "every32" every 32 events (the server's default), the caller encoding
// it only then (store.SnapshotDue).
func BenchmarkAppend(b *testing.B) {
	run := func(b *testing.B, client redis.UniversalClient, prefix string, wait, every int) {
		opts := redisstore.Options{Prefix: prefix, WaitReplicas: wait, SnapshotEvery: every}
		if every > 1 {
			opts.Replay = func(_ string, snap []byte, _ []store.Entry) ([]byte, error) { return snap, nil }
		}
		s := redisstore.New(client, opts)
		defer s.Close()
		ctx := context.Background()
		if err := s.Create(ctx, "BENCH", []byte("snap"), []byte("first")); err != nil {
			b.Fatal(err)
		}
		snap, ev := bytes.Repeat([]byte("s"), 2300), bytes.Repeat([]byte("e"), 200)
		v := int64(1)
		for b.Loop() {
			var err error
			sn := snap
			if !store.SnapshotDue(s.SnapshotEvery(), v, 1) {
				sn = nil
			}
			if v, err = s.Append(ctx, "BENCH", v, sn, ev); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, every := range []int{1, 32} {
		b.Run(fmt.Sprintf("miniredis-every%d", every), func(b *testing.B) {
			m := miniredis.RunT(b)
			client := redis.NewClient(&redis.Options{Addr: m.Addr()})
			defer client.Close()
			run(b, client, uniquePrefix(), 0, every)
		})
		b.Run(fmt.Sprintf("redis-every%d", every), func(b *testing.B) {
			opts := redisOptions(b)
			p := uniquePrefix()
			b.Cleanup(func() { deletePrefix(b, opts, p) })
			client := redis.NewClient(opts)
			defer client.Close()
			run(b, client, p, 0, every)
		})
		for _, wait := range []int{0, 1} {
			b.Run(fmt.Sprintf("sentinel-wait%d-every%d", wait, every), func(b *testing.B) {
				tp := redistest.All[2]
				p := tp.Prefix(b, "bench")
				run(b, tp.Client(b), p, wait, every)
			})
		}
	}
}

// TestPubSubReconnect kills the store's pub/sub connection on the Redis
// side: go-redis reconnects and resubscribes, and the subscription goes on.
// Entries published while it was away are lost; the subscriber sees the
// gap and calls Since.
func TestPubSubReconnect(t *testing.T) {
	opts := redisOptions(t)
	prefix := uniquePrefix()
	t.Cleanup(func() { deletePrefix(t, opts, prefix) })
	named := *opts
	named.ClientName = "golftest-" + strings.Trim(prefix[len("golftest:"):], ":")
	client := redis.NewClient(&named)
	defer client.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	s := redisstore.New(client, redisstore.Options{Prefix: prefix})
	defer s.Close()
	const room = "RECONNECT"
	if err := s.Create(ctx, room, nil, nil); err != nil {
		t.Fatal(err)
	}
	sub, err := s.Subscribe(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	channel := prefix + "{" + room + "}:events"
	v := int64(1)
	deadline := time.Now().Add(10 * time.Second)
	for round := range 3 {
		// Kill this store's pub/sub connection (and no one else's: other
		// tests may share this Redis).
		killed := 0
		list, err := client.Do(ctx, "CLIENT", "LIST", "TYPE", "pubsub").Text()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(list, "\n") {
			fields := strings.Fields(line)
			if !slices.Contains(fields, "name="+named.ClientName) {
				continue
			}
			id := strings.TrimPrefix(fields[0], "id=")
			if err := client.Do(ctx, "CLIENT", "KILL", "ID", id).Err(); err != nil {
				t.Fatal(err)
			}
			killed++
		}
		if killed != 1 {
			t.Fatalf("round %d: killed %d pub/sub connections, want 1", round, killed)
		}
		// Wait until the store's fan-out is back: Ping round-trips through it.
		for !pingWithin(s, time.Second) {
			if time.Now().After(deadline) {
				t.Fatal("pub/sub did not come back")
			}
			time.Sleep(20 * time.Millisecond)
		}
		if n, _ := client.PubSubNumSub(ctx, channel).Result(); n[channel] != 1 {
			t.Fatalf("round %d: %d subscribers of %s after reconnect, want 1", round, n[channel], channel)
		}
		v, err = s.Append(ctx, room, v, nil, []byte(fmt.Sprint("r", round)))
		if err != nil {
			t.Fatal(err)
		}
		waitFor(t, sub, fmt.Sprint("r", round))
	}
}

// TestCloseStopsGoroutines checks that Close ends the store's goroutines:
// the receive loop and the subscriptions' context watchers.
func TestCloseStopsGoroutines(t *testing.T) {
	m := miniredis.RunT(t)
	before := runtime.NumGoroutine()
	client := redis.NewClient(&redis.Options{Addr: m.Addr()})
	s := redisstore.New(client, redisstore.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if err := s.Create(ctx, "G", nil, nil); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if _, err := s.Subscribe(ctx, "G"); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	client.Close()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines left, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func pingWithin(s store.Store, d time.Duration) bool {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return s.Ping(ctx) == nil
}
