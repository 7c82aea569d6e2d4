package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/internal/testredis"
	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
)

// TestOutage stops Redis under a store and starts it again on the same
// port: while it is down calls fail with store.ErrUnavailable and Ping
// fails; afterwards everything works again, and a subscription made before
// the outage delivers again without being re-made.
func TestOutage(t *testing.T) {
	srv := testredis.Start(t, testredis.Options{})
	client := redis.NewClient(&redis.Options{
		Addr:          srv.Addr(),
		MaxRetries:    -1,
		DialTimeout:   300 * time.Millisecond,
		DialerRetries: 1,
		ReadTimeout:   time.Second,
		WriteTimeout:  time.Second,
	})
	t.Cleanup(func() { _ = client.Close() })
	s := redisstore.New(client, redisstore.Options{})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	const room = "OUTAGE"
	if err := s.Create(ctx, room, []byte("s1"), []byte("e1")); err != nil {
		t.Fatal(err)
	}
	sub, err := s.Subscribe(ctx, room)
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	if _, err := s.Append(ctx, room, 1, []byte("s2"), []byte("before")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "before")

	srv.Kill()

	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Load", func(ctx context.Context) error { _, err := s.Load(ctx, room); return err }},
		{"Append", func(ctx context.Context) error { _, err := s.Append(ctx, room, 2, nil, []byte("x")); return err }},
		{"Create", func(ctx context.Context) error { return s.Create(ctx, "OTHER", nil, nil) }},
		{"Since", func(ctx context.Context) error { _, err := s.Since(ctx, room, 0); return err }},
		{"Subscribe", func(ctx context.Context) error { _, err := s.Subscribe(ctx, room); return err }},
		{"Listen", func(ctx context.Context) error { _, err := s.Listen(ctx, "topic"); return err }},
		{"Listings", func(ctx context.Context) error { _, err := s.Listings(ctx, 10); return err }},
		{"Pair", func(ctx context.Context) error { _, _, err := s.Pair(ctx, "k", "t"); return err }},
		{"Notify", func(ctx context.Context) error { return s.Notify(ctx, "topic", nil) }},
		{"Ping", s.Ping},
	}
	for _, c := range calls {
		cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		err := c.call(cctx)
		cancel()
		if !errors.Is(err, store.ErrUnavailable) {
			t.Errorf("%s while Redis is down = %v, want an error wrapping store.ErrUnavailable", c.name, err)
		}
	}

	srv.Start()

	// Ping round-trips through the pub/sub connection, so once it passes
	// the connection is back and resubscribed.
	deadline := time.Now().Add(15 * time.Second)
	for {
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := s.Ping(pctx)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ping after restart = %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}

	// The restarted Redis has no data: the room starts again.
	if err := s.Create(ctx, room, []byte("s1"), []byte("e1")); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Append(ctx, room, 1, []byte("s2"), []byte("after")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, sub, "after") // the subscription from before the outage
	fresh, err := s.Subscribe(ctx, room)
	if err != nil {
		t.Fatalf("Subscribe after restart = %v", err)
	}
	defer fresh.Close()
	if _, err := s.Append(ctx, room, 2, []byte("s3"), []byte("again")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, fresh, "again")
	waitFor(t, sub, "again")
}

// waitFor reads sub until an entry with data want arrives.
func waitFor(t *testing.T, sub store.Subscription, want string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	var got []string
	for {
		select {
		case e, ok := <-sub.C():
			if !ok {
				t.Fatalf("subscription ended; got %q, want %q", got, want)
			}
			if string(e.Data) == want {
				return
			}
			got = append(got, fmt.Sprintf("%d:%s", e.Version, e.Data))
		case <-timeout:
			t.Fatalf("no %q within 10s; got %q", want, got)
		}
	}
}
