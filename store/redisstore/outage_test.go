package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"golfsolitaire/store"
	"golfsolitaire/store/redisstore"
)

// redisServer is a redis-server process of the test's own.
type redisServer struct {
	t    *testing.T
	bin  string
	port int
	cmd  *exec.Cmd
	exit chan struct{}
}

// startRedis starts redis-server on a free port, without persistence. It
// skips the test when the binary is missing, unless CI is set.
func startRedis(t *testing.T) *redisServer {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("redis-server not found (CI must install it): %v", err)
		}
		t.Skip("redis-server not found")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	r := &redisServer{t: t, bin: bin, port: port}
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *redisServer) addr() string { return "127.0.0.1:" + strconv.Itoa(r.port) }

func (r *redisServer) start() {
	r.t.Helper()
	r.cmd = exec.Command(r.bin, "--port", strconv.Itoa(r.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--loglevel", "warning")
	if err := r.cmd.Start(); err != nil {
		r.t.Fatalf("start redis-server: %v", err)
	}
	r.exit = make(chan struct{})
	go func(cmd *exec.Cmd, exit chan struct{}) {
		_ = cmd.Wait()
		close(exit)
	}(r.cmd, r.exit)
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", r.addr(), 100*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("redis-server did not listen on %s: %v", r.addr(), err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stop kills the server, as a crash would.
func (r *redisServer) stop() {
	if r.cmd == nil {
		return
	}
	_ = r.cmd.Process.Kill()
	<-r.exit
	r.cmd = nil
}

// TestOutage stops Redis under a store and starts it again on the same
// port: while it is down calls fail with store.ErrUnavailable and Ping
// fails; afterwards everything works again, and a subscription made before
// the outage delivers again without being re-made.
func TestOutage(t *testing.T) {
	srv := startRedis(t)
	client := redis.NewClient(&redis.Options{
		Addr:          srv.addr(),
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

	srv.stop()

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

	srv.start()

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
