package server_test

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// TestSlowWriterCounted: a client that stops reading is cut off when a
// write to it times out (its queue is far from full), and
// golf_slow_clients_closed_total counts it as it counts a full queue.
func TestSlowWriterCounted(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	srv, err := server.New(server.Options{SolveNodes: testSolveNodes, RateNodes: testRateNodes, PasswordParams: cheapPasswords,
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		PlayerRate: limit.Rate{PerSecond: 1e6, Burst: 1e6}, Limits: limit.NoLimits(),
		// A queue that never fills: only the write timeout can cut the
		// client off.
		SendBuffer: 1 << 16, WriteTimeout: 2 * time.Second,
		// No pings: a client that never reads never answers one, and on a
		// loaded machine the pinger could close it before a write times out.
		PingEvery: time.Hour,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener = smallSendBuffers{ts.Listener}
	ts.Start()
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	e := &env{ts: ts.URL, api: &client.API{BaseURL: ts.URL}, st: st}
	names := []string{}
	for i := range 7 {
		names = append(names, strings.Repeat(string(rune('A'+i)), match.MaxName))
	}
	g := e.create(t, ctx, stroke(8, 1, nil), names...)
	c1 := dial(t, ctx, e.ts, g[1].Code, g[1].Token)
	go func() {
		for range c1.Updates() {
		}
	}()

	// The slow client: hello, then never a read, with a tiny receive
	// buffer.
	rec := &recorder{name: "slow"}
	slow, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.ts, "http")+"/ws", &websocket.DialOptions{HTTPClient: rec.client(2048)})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.CloseNow()
	if err := slow.Write(ctx, websocket.MessageText, helloMsg(g[0].Code, "")); err != nil {
		t.Fatal(err)
	}
	if got := e.metric(t, "golf_slow_clients_closed_total"); got != "0" {
		t.Fatalf("golf_slow_clients_closed_total = %q before any client was slow", got)
	}
	deadline := time.Now().Add(90 * time.Second)
	for i := 0; ; i++ {
		if i%8 == 0 {
			if n, _ := strconv.Atoi(e.metric(t, "golf_slow_clients_closed_total")); n >= 1 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("a client that never reads was not counted (golf_slow_clients_closed_total %s, %d updates)",
				e.metric(t, "golf_slow_clients_closed_total"), i)
		}
		if err := c1.Ready(ctx, i%2 == 0); err != nil {
			t.Fatalf("ready %d: %v", i, err)
		}
		if i >= 64 {
			time.Sleep(50 * time.Millisecond) // the writes are blocked now: wait for the timeout
		}
	}
	// The slow client's socket is gone (dropped, no close handshake).
	for {
		if _, _, err = slow.Read(ctx); err != nil {
			break
		}
	}
	waitFor(t, 10*time.Second, "the slow connection to detach", func() bool { return e.metric(t, "golf_connections") == "1" })
}
