package server_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
	"golfsolitaire/store/redisstore/redistest"
)

// TestLimiterContract: the contract every Limiter keeps, run on the memory
// and the Redis one.
func TestLimiterContract(t *testing.T) {
	t.Parallel()
	for _, impl := range []struct {
		name string
		new  func(t *testing.T) server.Limiter
	}{
		{"memory", func(t *testing.T) server.Limiter { return server.NewMemoryLimiter(0) }},
		{"redis", func(t *testing.T) server.Limiter {
			r := newTestRedis(t)
			rdb, _, err := redisstore.NewClient(context.Background(), r.cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { rdb.Close() })
			return server.NewRedisLimiter(rdb, r.prefix)
		}},
	} {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			l := impl.new(t)
			rate := server.Rate{PerSecond: 1, Burst: 3}
			// The burst, then a refusal saying when to come back.
			for i := range 3 {
				if ok, _, err := l.Allow(ctx, "a|1", rate); !ok || err != nil {
					t.Fatalf("token %d: %v %v", i, ok, err)
				}
			}
			ok, retry, err := l.Allow(ctx, "a|1", rate)
			if ok || err != nil || retry <= 0 || retry > time.Second+5*time.Millisecond {
				t.Fatalf("past the burst: ok %v retry %v err %v", ok, retry, err)
			}
			// Other keys have buckets of their own.
			if ok, _, _ := l.Allow(ctx, "a|2", rate); !ok {
				t.Error("another client refused")
			}
			if ok, _, _ := l.Allow(ctx, "b|1", rate); !ok {
				t.Error("another action refused")
			}
			// A refusal takes nothing: after retry, a token is there.
			deadline := time.Now().Add(5 * time.Second)
			for {
				ok, retry, err := l.Allow(ctx, "a|1", rate)
				if err != nil {
					t.Fatal(err)
				}
				if ok {
					break
				}
				if time.Now().After(deadline) {
					t.Fatal("no token after waiting")
				}
				time.Sleep(retry)
			}
			// Unlimited never refuses.
			for i := range 100 {
				if ok, _, _ := l.Allow(ctx, "u|1", server.Rate{PerSecond: server.Unlimited}); !ok {
					t.Fatalf("unlimited refused at %d", i)
				}
			}
		})
	}
}

// TestMemoryLimiterBounded: a flood of distinct clients never holds more
// buckets than the cap.
func TestMemoryLimiterBounded(t *testing.T) {
	t.Parallel()
	l := server.NewMemoryLimiter(1000)
	for i := range 50_000 {
		l.Allow(context.Background(), fmt.Sprint("rooms|10.0.", i/256, ".", i%256), server.Rate{PerSecond: 1.0 / 60, Burst: 5})
	}
	if n := l.Len(); n > 1000 {
		t.Errorf("%d buckets held, cap 1000", n)
	}
}

// TestParseRate: the flags' syntax.
func TestParseRate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want server.Rate
		ok   bool
	}{
		{"20/1m", server.Rate{PerSecond: 20.0 / 60, Burst: 20}, true},
		{"5/1s", server.Rate{PerSecond: 5, Burst: 5}, true},
		{"off", server.Rate{PerSecond: server.Unlimited}, true},
		{"0", server.Rate{PerSecond: server.Unlimited}, true},
		{"20", server.Rate{}, false},
		{"x/1m", server.Rate{}, false},
		{"0.5/1m", server.Rate{}, false},
		{"5/0s", server.Rate{}, false},
		{"5/soon", server.Rate{}, false},
	} {
		got, err := server.ParseRate(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseRate(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

// TestSocketCounterContract: the contract every SocketCounter keeps, run on
// the memory and the Redis one (the single node, and the Redis Cluster when
// CI started it).
func TestSocketCounterContract(t *testing.T) {
	t.Parallel()
	const ttl = 400 * time.Millisecond
	redisOn := func(r func(t *testing.T) *testRedis) func(t *testing.T) server.SocketCounter {
		return func(t *testing.T) server.SocketCounter {
			tr := r(t)
			rdb, _, err := redisstore.NewClient(context.Background(), tr.cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { rdb.Close() })
			return server.NewRedisSockets(rdb, tr.prefix, ttl)
		}
	}
	for _, impl := range []struct {
		name string
		new  func(t *testing.T) server.SocketCounter
	}{
		{"memory", func(t *testing.T) server.SocketCounter { return server.NewMemorySockets(ttl) }},
		{"redis", redisOn(newTestRedis)},
		{"redis-cluster", redisOn(func(t *testing.T) *testRedis { return newTopologyRedis(t, redistest.All[1]) })},
	} {
		t.Run(impl.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			c := impl.new(t)
			if c.TTL() != ttl {
				t.Errorf("TTL %v, want %v", c.TTL(), ttl)
			}
			open := func(client, id string, max int) bool {
				t.Helper()
				ok, err := c.Open(ctx, client, id, max)
				if err != nil {
					t.Fatal(err)
				}
				return ok
			}
			// Up to the cap, then refused; a socket already counted is not.
			for i := range 3 {
				if !open("10.0.0.1", fmt.Sprint("a", i), 3) {
					t.Fatalf("socket %d refused under the cap", i)
				}
			}
			if open("10.0.0.1", "a3", 3) {
				t.Fatal("fourth socket counted past a cap of 3")
			}
			if !open("10.0.0.1", "a1", 3) {
				t.Error("a socket already counted was refused")
			}
			// Other clients count apart; no cap never refuses.
			if !open("10.0.0.2", "b0", 3) {
				t.Error("another client refused")
			}
			if !open("10.0.0.1", "a9", -1) {
				t.Error("no cap refused")
			}
			if err := c.Close(ctx, "10.0.0.1", "a9"); err != nil {
				t.Fatal(err)
			}
			// Closing frees a place.
			if err := c.Close(ctx, "10.0.0.1", "a0"); err != nil {
				t.Fatal(err)
			}
			if !open("10.0.0.1", "a4", 3) {
				t.Fatal("refused after a close")
			}
			// Refreshed sockets keep counting past the TTL; the others
			// (a crashed instance's) stop counting.
			refreshed := []server.Socket{{Client: "10.0.0.1", ID: "a1"}, {Client: "10.0.0.1", ID: "a2"}}
			deadline := time.Now().Add(3 * ttl)
			for time.Now().Before(deadline) {
				if err := c.Refresh(ctx, refreshed); err != nil {
					t.Fatal(err)
				}
				time.Sleep(ttl / 8)
			}
			if !open("10.0.0.1", "a5", 3) {
				t.Fatal("an expired socket still counts")
			}
			if open("10.0.0.1", "a6", 3) {
				t.Fatal("a refreshed socket stopped counting")
			}
			// A refresh counts again a socket that had expired, whatever
			// the cap (a Redis emptied under a running instance).
			if err := c.Refresh(ctx, []server.Socket{{Client: "10.0.0.2", ID: "b0"}, {Client: "10.0.0.2", ID: "b1"}, {Client: "10.0.0.2", ID: "b2"}}); err != nil {
				t.Fatal(err)
			}
			if open("10.0.0.2", "b3", 3) {
				t.Error("refreshed sockets not counted")
			}
		})
	}
}
