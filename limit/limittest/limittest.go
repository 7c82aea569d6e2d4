// Package limittest holds the contracts of limit.Limiter and
// limit.SocketCounter, run on every implementation (memory: package limit;
// Redis: store/redisstore).
package limittest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golfsolitaire/limit"
)

// RunLimiter runs the contract every limit.Limiter keeps. newLimiter
// returns a limiter of its own for each call (fresh keys).
func RunLimiter(t *testing.T, newLimiter func(t *testing.T) limit.Limiter) {
	t.Helper()
	ctx := context.Background()
	l := newLimiter(t)
	rate := limit.Rate{PerSecond: 1, Burst: 3}
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
	// Peek looks without taking: a fresh bucket, then one emptied.
	for i := range 3 {
		if ok, _, err := l.Peek(ctx, "p|1", rate); !ok || err != nil {
			t.Fatalf("peek %d at a fresh bucket: %v %v", i, ok, err)
		}
	}
	for i := range 3 {
		if ok, _, err := l.Allow(ctx, "p|1", rate); !ok || err != nil {
			t.Fatalf("token %d after peeks: %v %v", i, ok, err)
		}
	}
	if ok, retry, err := l.Peek(ctx, "p|1", rate); ok || err != nil || retry <= 0 || retry > time.Second+5*time.Millisecond {
		t.Fatalf("peek at an empty bucket: ok %v retry %v err %v", ok, retry, err)
	}
	if ok, _, _ := l.Peek(ctx, "p|1", limit.Rate{PerSecond: limit.Unlimited}); !ok {
		t.Error("unlimited peek refused")
	}
	// Unlimited never refuses.
	for i := range 100 {
		if ok, _, _ := l.Allow(ctx, "u|1", limit.Rate{PerSecond: limit.Unlimited}); !ok {
			t.Fatalf("unlimited refused at %d", i)
		}
	}
}

// RunSocketCounter runs the contract every limit.SocketCounter keeps.
// newCounter returns a counter of its own for each call (fresh keys) whose
// sockets count for ttl without a refresh.
func RunSocketCounter(t *testing.T, ttl time.Duration, newCounter func(t *testing.T) limit.SocketCounter) {
	t.Helper()
	ctx := context.Background()
	c := newCounter(t)
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
	refreshed := []limit.Socket{{Client: "10.0.0.1", ID: "a1"}, {Client: "10.0.0.1", ID: "a2"}}
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
	if err := c.Refresh(ctx, []limit.Socket{{Client: "10.0.0.2", ID: "b0"}, {Client: "10.0.0.2", ID: "b1"}, {Client: "10.0.0.2", ID: "b2"}}); err != nil {
		t.Fatal(err)
	}
	if open("10.0.0.2", "b3", 3) {
		t.Error("refreshed sockets not counted")
	}
}
