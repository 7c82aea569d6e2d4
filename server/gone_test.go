package server_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/redis/go-redis/v9"

	"golfsolitaire/client"
	"golfsolitaire/internal/testredis"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/redisstore"
)

// goneLine is the one line an instance logs for a room that vanished
// from the store under its clients.
const goneLine = "the room no longer exists in the store"

// logLines is a server log kept in memory for the test to read.
type logLines struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logLines) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// count is the number of lines holding every one of the strings.
func (l *logLines) count(all ...string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
lines:
	for _, line := range strings.Split(l.buf.String(), "\n") {
		for _, s := range all {
			if !strings.Contains(line, s) {
				continue lines
			}
		}
		n++
	}
	return n
}

func (l *logLines) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

func logTo(l *logLines) func(*server.Options) {
	return func(o *server.Options) {
		o.Logger = slog.New(slog.NewTextHandler(l, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
}

// toldGone checks that a client is told room_not_found, unasked, and that
// its socket is then closed with 1008.
func toldGone(t *testing.T, ctx context.Context, name string, c *client.Conn) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		select {
		case m, ok := <-c.Updates():
			if !ok {
				t.Fatalf("%s: closed (%v) before being told room_not_found", name, c.Err())
			}
			if m.Type != protocol.TypeError {
				continue
			}
			if m.Code != protocol.ErrCodeRoomNotFound || m.Seq != 0 {
				t.Fatalf("%s: error %+v, want an unasked %s", name, m, protocol.ErrCodeRoomNotFound)
			}
			if s := closeStatus(t, ctx, c); s != websocket.StatusPolicyViolation {
				t.Fatalf("%s: closed with %v (%v), want 1008", name, s, c.Err())
			}
			return
		case <-ctx.Done():
			t.Fatalf("%s: never told the room is gone", name)
		}
	}
}

// TestRoomGone: a room whose state leaves the store (it expired, or was
// removed) while clients are connected to it, on two instances: every
// client is told room_not_found and its socket closes with 1008; each
// instance logs it once and stops retrying; the room's hubs stop.
func TestRoomGone(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		var logs [2]logLines
		in1 := startInstance(t, cl.store(t), cl.own, logTo(&logs[0]))
		in2 := startInstance(t, cl.store(t), cl.own, logTo(&logs[1]))
		ga, gb := matchRoom(t, ctx, in1, in2, map[string]any{"format": "match", "holes": 2, "seats": 2})
		a := dial(t, ctx, in1.url, ga.Code, ga.Token)
		b := dial(t, ctx, in2.url, gb.Code, gb.Token)
		spec := dial(t, ctx, in2.url, ga.Code, "")
		if err := a.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
		for _, c := range []*client.Conn{b, spec} {
			if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Seats[0].Ready }); err != nil {
				t.Fatal(err)
			}
		}

		if err := cl.inspect.Expire(ctx, ga.Code, 0); err != nil {
			t.Fatal(err)
		}
		toldGone(t, ctx, "Ana", a)
		toldGone(t, ctx, "Bo", b)
		toldGone(t, ctx, "the spectator", spec)
		for i, in := range []*instance{in1, in2} {
			waitFor(t, 10*time.Second, "the room's hub to stop", func() bool {
				return instanceMetric(in.srv, "golf_rooms_active") == "0" && instanceMetric(in.srv, "golf_connections") == "0"
			})
			if n := logs[i].count(goneLine, ga.Code); n != 1 {
				t.Errorf("instance %d logged the room's end %d times, want once:\n%s", i+1, n, logs[i].String())
			}
			if n := logs[i].count("resync"); n != 0 {
				t.Errorf("instance %d tried to reload the room:\n%s", i+1, logs[i].String())
			}
		}
		// A new connection is refused the same way; the HTTP API agrees.
		if _, err := client.Dial(ctx, in2.url, &client.Options{Room: ga.Code, Token: gb.Token}); !client.IsCode(err, protocol.ErrCodeRoomNotFound) {
			t.Errorf("a new connection: %v, want %s", err, protocol.ErrCodeRoomNotFound)
		}
		if status, err := in1.api.Call(ctx, http.MethodGet, "/api/rooms/"+ga.Code, nil, nil); status != http.StatusNotFound || !client.IsCode(err, protocol.ErrCodeRoomNotFound) {
			t.Errorf("GET /api/rooms/%s: %d %v, want 404 %s", ga.Code, status, err, protocol.ErrCodeRoomNotFound)
		}
	})
}

// TestRedisRestartedEmpty: Redis restarts without its data under a room's
// clients (no persistence, or a new machine): once it answers again the
// clients are told room_not_found and closed with 1008, instead of
// getting "unavailable" for every command while the instance retries.
func TestRedisRestartedEmpty(t *testing.T) {
	t.Parallel()
	rp := testredis.Start(t, testredis.Options{Durable: true})
	rc := redis.NewClient(&redis.Options{
		Addr: rp.Addr(), MaxRetries: -1, DialTimeout: 300 * time.Millisecond, DialerRetries: 1,
		ReadTimeout: time.Second, WriteTimeout: time.Second,
	})
	t.Cleanup(func() { rc.Close() })
	st := redisstore.New(rc, redisstore.Options{})
	t.Cleanup(func() { st.Close() })
	var logs logLines
	in := startInstance(t, st, false, logTo(&logs))
	ctx := testCtx(t)
	ga, gb := matchRoom(t, ctx, in, in, map[string]any{"format": "match", "holes": 2, "seats": 2})
	a := dial(t, ctx, in.url, ga.Code, ga.Token)
	b := dial(t, ctx, in.url, gb.Code, gb.Token)
	if err := a.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}

	rp.Kill()
	waitReady(t, ctx, in, http.StatusServiceUnavailable, 10*time.Second)
	rp.Forget() // no append-only file: it comes back empty
	rp.Start()
	waitReady(t, ctx, in, http.StatusOK, 10*time.Second)

	toldGone(t, ctx, "Ana", a)
	toldGone(t, ctx, "Bo", b)
	waitFor(t, 10*time.Second, "the room's hub to stop", func() bool {
		return instanceMetric(in.srv, "golf_rooms_active") == "0" && instanceMetric(in.srv, "golf_connections") == "0"
	})
	if n := logs.count(goneLine, ga.Code); n != 1 {
		t.Errorf("the room's end logged %d times, want once:\n%s", n, logs.String())
	}
	if n := logs.count("resync"); n != 0 {
		t.Errorf("the instance tried to reload the room:\n%s", logs.String())
	}
}
