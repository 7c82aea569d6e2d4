package server_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// TestFlood: more messages than the rate limit get rate_limited, then the
// socket is closed with 1008; the room is untouched and others still play.
func TestFlood(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, func(o *server.Options) {
		o.PlayerRate = limit.Rate{PerSecond: 1, Burst: 5}
		o.SpectatorRate = limit.Rate{PerSecond: 1, Burst: 3}
	})
	g := e.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	for _, tc := range []struct {
		name  string
		token string
	}{{"player", g[0].Token}, {"spectator", ""}} {
		t.Run(tc.name, func(t *testing.T) {
			c := dial(t, ctx, e.ts, g[0].Code, tc.token)
			func() {
				for range 20 {
					if c.Ping(ctx) != nil {
						break
					}
				}
				var limited bool
				for m := range c.Updates() {
					if m.Type == protocol.TypeError && m.Code == protocol.ErrCodeRateLimited {
						limited = true
					}
				}
				if !limited {
					t.Error("no rate_limited error before the close")
				}
				if s := websocket.CloseStatus(c.Err()); s != websocket.StatusPolicyViolation {
					t.Errorf("closed with %v (%v), want 1008", s, c.Err())
				}
			}()
		})
	}
	// Nothing but presence changed.
	r := e.room(t, g[0].Code)
	if r.Status != match.Waiting || r.Seats[0].Ready || r.Seats[1].Ready {
		t.Errorf("room changed: %+v", r)
	}
	// Seat 0 flooded and left; seat 1 still gets answers.
	c1 := dial(t, ctx, e.ts, g[1].Code, g[1].Token)
	if err := c1.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	if got := e.metric(t, "golf_flood_closed_total"); got != "2" {
		t.Errorf("golf_flood_closed_total = %q, want 2", got)
	}
}

// TestSlowReader: a client that never reads while the room produces many
// updates is disconnected with 1008; the room keeps working for the others.
func TestSlowReader(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(server.Options{SolveNodes: testSolveNodes, RateNodes: testRateNodes, PasswordParams: cheapPasswords,
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		PlayerRate: limit.Rate{PerSecond: 1e6, Burst: 1e6}, SendBuffer: 16, Limits: limit.NoLimits(),
		// Long, so the queue fills (slow) before a write times out
		// (which closes with 1001, not 1008).
		WriteTimeout: 2 * time.Minute,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Small kernel send buffers on the server's side, so what the slow
	// client does not read piles up in the server's queue soon.
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener = smallSendBuffers{ts.Listener}
	ts.Start()
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	e := &env{ts: ts.URL, api: &client.API{BaseURL: ts.URL}, st: st}
	// Eight seats with long names make every update a few kilobytes.
	names := []string{}
	for i := range 7 {
		names = append(names, strings.Repeat(string(rune('A'+i)), match.MaxName))
	}
	g := e.create(t, ctx, stroke(8, 1, nil), names...)
	c0 := dial(t, ctx, e.ts, g[0].Code, g[0].Token)
	c1 := dial(t, ctx, e.ts, g[1].Code, g[1].Token)
	spec := dial(t, ctx, e.ts, g[0].Code, "")

	// The slow client: hello, then never a read; a tiny socket buffer so
	// the kernel does not absorb the updates for it.
	rec := &recorder{name: "slow"}
	slow, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.ts, "http")+"/ws", &websocket.DialOptions{HTTPClient: rec.client(2048)})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.CloseNow()
	if err := slow.Write(ctx, websocket.MessageText, helloMsg(g[0].Code, "")); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, c := range []*client.Conn{c0, c1, spec} {
		wg.Add(1)
		go func() { // the others keep reading
			defer wg.Done()
			for range c.Updates() {
			}
		}()
	}
	defer wg.Wait()
	defer func() {
		for _, c := range []*client.Conn{c0, c1, spec} {
			c.CloseNow()
		}
	}()
	start := time.Now()
	for i := 0; i%40 != 0 || e.metric(t, "golf_slow_clients_closed_total") != "1"; i++ {
		if time.Since(start) > time.Minute {
			t.Fatal("the slow client was never dropped")
		}
		ready := i%2 == 0
		ack, err := c1.Do(ctx, protocol.ClientMessage{Type: protocol.TypeReady, Ready: &ready})
		if err != nil {
			t.Fatalf("ready %d: %v", i, err)
		}
		if i%4 != 3 {
			continue
		}
		// The others keep up: wait until they have seen it. By the room's
		// version, not by the ready mark, which is the same every other
		// update: a reader that had fallen behind by an even number of
		// updates passed the check, fell further behind on a loaded
		// machine, and was dropped as slow itself.
		for _, c := range []*client.Conn{c0, spec} {
			if _, err := c.WaitView(ctx, func(*match.View) bool { return c.Version() >= ack.V }); err != nil {
				t.Fatalf("ready %d: %v", i, err)
			}
		}
	}
	t.Logf("dropped after %v (%d updates)", time.Since(start), int(e.room(t, g[0].Code).Version))
	for i, c := range []*client.Conn{c0, c1, spec} {
		select {
		case <-c.Done():
			t.Fatalf("connection %d was dropped instead: %v", i, c.Err())
		default:
		}
	}
	// The others carry on.
	if err := c0.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client.Conn{c1, spec} {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Seats[0].Ready }); err != nil {
			t.Fatal(err)
		}
	}
	// Reading now drains what was buffered, then the close: 1008.
	for {
		_, _, err = slow.Read(ctx)
		if err != nil {
			break
		}
	}
	if s := websocket.CloseStatus(err); s != websocket.StatusPolicyViolation {
		t.Errorf("slow client closed with %v (%v), want 1008", s, err)
	}
	waitFor(t, 5*time.Second, "connections to drop to 3", func() bool { return e.metric(t, "golf_connections") == "3" })
}

type smallSendBuffers struct{ net.Listener }

func (l smallSendBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		c.(*net.TCPConn).SetWriteBuffer(4096)
	}
	return c, err
}

// TestOrigins: a handshake from a foreign origin is refused unless it
// matches AllowedOrigins.
func TestOrigins(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, func(o *server.Options) { o.AllowedOrigins = []string{"play.example.com", "*.golf.test"} })
	code := e.create(t, ctx, stroke(2, 1, nil), "Ana")[0].Code
	host := strings.TrimPrefix(e.ts, "http://")
	tests := []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{"http://" + host, true},
		{"https://play.example.com", true},
		{"https://eu.golf.test", true},
		{"https://evil.example.com", false},
		{"https://play.example.com.evil.test", false},
		{"https://golf.test.evil.test", false},
		{"null", false},
	}
	for _, tc := range tests {
		t.Run(tc.origin, func(t *testing.T) {
			h := http.Header{}
			if tc.origin != "" {
				h.Set("Origin", tc.origin)
			}
			c, err := client.Dial(ctx, e.ts, &client.Options{Room: code, HTTPHeader: h})
			if tc.ok {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				c.CloseNow()
			} else if err == nil {
				c.CloseNow()
				t.Fatal("accepted a foreign origin")
			} else if !strings.Contains(err.Error(), "403") {
				t.Errorf("refused with %v, want 403", err)
			}
		})
	}
}

// pingFails is a store whose Ping fails.
type pingFails struct{ store.Store }

func (pingFails) Ping(context.Context) error { return errors.New("down for maintenance") }

// TestHealth: /healthz, /readyz with a working and a failing store, and
// /metrics.
func TestHealth(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	ms := memstore.New(memstore.Options{})
	defer ms.Close()
	bad, _ := newTestServer(t, pingFails{ms})
	get := func(url string) (int, string) {
		t.Helper()
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if s, _ := get(e.ts + "/healthz"); s != 200 {
		t.Errorf("healthz: %d", s)
	}
	if s, _ := get(e.ts + "/readyz"); s != 200 {
		t.Errorf("readyz with a working store: %d", s)
	}
	if s, body := get(bad.URL + "/readyz"); s != 503 || !strings.Contains(body, protocol.ErrCodeUnavailable) {
		t.Errorf("readyz with a failing store: %d %s", s, body)
	}
	g := e.create(t, ctx, stroke(1, 1, nil), "Solo")
	c := e.startRoom(t, ctx, g)[0]
	for range 3 {
		if _, err := c.Move(ctx, 1, "s"); err != nil {
			t.Fatal(err)
		}
	}
	_, body := get(e.ts + "/metrics")
	for _, name := range []string{"golf_moves_total", "golf_move_seconds_count", "golf_rooms_active", "golf_connections", "golf_rooms_created_total", "golf_slow_clients_closed_total", "golf_flood_closed_total",
		"golf_outbox_pending", "golf_outbox_oldest_age_seconds", "golf_outbox_relayed_total", "golf_outbox_relay_failed_total",
		`golf_jobs_pending{kind="result"}`, `golf_jobs_pending{kind="fairplay"}`, `golf_jobs_oldest_age_seconds{kind="result"}`,
		"golf_results_recorded_total", "golf_results_failed_total"} {
		if !strings.Contains(body, "\n"+name+" ") {
			t.Errorf("/metrics lacks %s", name)
		}
	}
	if got := e.metric(t, "golf_moves_total"); got != "3" {
		t.Errorf("golf_moves_total = %s, want 3", got)
	}
	if got, _ := strconv.Atoi(e.metric(t, "golf_connections")); got != 1 {
		t.Errorf("golf_connections = %d, want 1", got)
	}
}

// TestQuickMatch: two concurrent callers are paired into one new room;
// a lone caller gets 204 after QuickMatchWait.
func TestQuickMatch(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, func(o *server.Options) { o.QuickMatchWait = 300 * time.Millisecond })
	t.Run("pair", func(t *testing.T) {
		var wg sync.WaitGroup
		grants := make([]protocol.SeatGrant, 2)
		oks := make([]bool, 2)
		for i, name := range []string{"Ana", "Bo"} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Each retries until paired (the first may time out alone).
				for try := 0; try < 20 && !oks[i]; try++ {
					var err error
					grants[i], oks[i], err = e.api.QuickMatch(ctx, name, nil)
					if err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
		if !oks[0] || !oks[1] {
			t.Fatalf("not paired: %+v", grants)
		}
		if grants[0].Code != grants[1].Code || grants[0].Seat+grants[1].Seat != 1 || grants[0].Token == "" || grants[1].Token == "" {
			t.Fatalf("grants %+v", grants)
		}
		r := e.room(t, grants[0].Code)
		if len(r.Seats) != 2 || !r.Settings.AutoStart || r.Settings.Format != match.Matchplay {
			t.Fatalf("room %+v", r)
		}
		// Both tokens work, and the seats are the ones granted.
		for _, g := range grants {
			if c := dial(t, ctx, e.ts, g.Code, g.Token); c.Seat() != g.Seat {
				t.Errorf("seat %d, granted %d", c.Seat(), g.Seat)
			}
		}
	})
	t.Run("alone", func(t *testing.T) {
		start := time.Now()
		_, ok, err := e.api.QuickMatch(ctx, "Cy", map[string]any{"holes": 3})
		if err != nil || ok {
			t.Fatalf("ok %v, err %v; want 204", ok, err)
		}
		if d := time.Since(start); d < 300*time.Millisecond {
			t.Errorf("answered after %v, before QuickMatchWait", d)
		}
		status, err := e.api.Call(ctx, "POST", "/api/quickmatch", map[string]any{"name": "Cy", "settings": map[string]any{"holes": 3}}, nil)
		if err != nil || status != http.StatusNoContent {
			t.Errorf("got %d %v, want 204", status, err)
		}
	})
	t.Run("different settings", func(t *testing.T) {
		var wg sync.WaitGroup
		for i, holes := range []int{5, 6} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, ok, err := e.api.QuickMatch(ctx, "P"+strconv.Itoa(i), map[string]any{"holes": holes})
				if err != nil || ok {
					t.Errorf("holes %d: paired %v, err %v", holes, ok, err)
				}
			}()
		}
		wg.Wait()
	})
}
