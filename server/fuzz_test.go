package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// FuzzClientMessage sends arbitrary bytes as a frame after hello to a live
// server: the server must answer or close, never crash, and the room must
// stay consistent (every stored game replays and scores as stored).
func FuzzClientMessage(f *testing.F) {
	for _, tc := range badFrames {
		f.Add([]byte(tc.frame))
	}
	for _, s := range []string{
		`{"type":"move","hole":1,"move":"s"}`, `{"type":"move","hole":1,"move":"1","seq":5}`,
		`{"type":"stand","hole":1}`, `{"type":"rematch"}`, `{"type":"ready","ready":false}`,
		`{"type":"start"}`, `{"type":"ping"}`, `{"type":"move","hole":1,"move":"r"}`,
	} {
		f.Add([]byte(s))
	}
	st := memstore.New(memstore.Options{})
	srv, err := server.New(server.Options{SolveNodes: testSolveNodes, RateNodes: testRateNodes, PasswordParams: cheapPasswords,
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		PlayerRate: limit.Rate{PerSecond: 1e6, Burst: 1e6}, Limits: limit.NoLimits(),
	})
	if err != nil {
		f.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	f.Cleanup(func() {
		srv.Close()
		ts.Close()
		st.Close()
	})
	e := &env{ts: ts.URL, api: &client.API{BaseURL: ts.URL}, st: st}
	var once sync.Once
	var code, token string
	f.Fuzz(func(t *testing.T, frame []byte) {
		once.Do(func() {
			ctx := context.Background()
			g, err := e.api.CreateRoom(ctx, stroke(1, 18, nil), "Fuzz")
			if err != nil {
				t.Fatal(err)
			}
			code, token = g.Code, g.Token
			c, err := client.Dial(ctx, e.ts, &client.Options{Room: code, Token: token})
			if err != nil {
				t.Fatal(err)
			}
			c.Start(ctx)
			c.Close()
		})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		c, err := client.Dial(ctx, e.ts, &client.Options{Room: code, Token: token})
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		defer c.CloseNow()
		if err := c.WriteRaw(ctx, frame); err != nil {
			t.Fatalf("write: %v", err)
		}
		// The frame has been handled once the pong comes back (or the
		// server closed the connection, for an oversized frame).
		if c.Ping(ctx) == nil {
			for m := range c.Updates() {
				if m.Type == protocol.TypePong {
					break
				}
			}
		}
		if s := websocket.CloseStatus(c.Err()); c.Err() != nil && s != websocket.StatusMessageTooBig && len(frame) <= protocol.MaxMessage {
			t.Fatalf("closed with %v: %v", s, c.Err())
		}
		if ctx.Err() != nil {
			t.Fatal("no answer")
		}
		checkRoom(t, e, code)
	})
}

// checkRoom replays every stored game of the room.
func checkRoom(t *testing.T, e *env, code string) {
	t.Helper()
	r := e.room(t, code)
	if r.Status != match.Waiting && len(r.Holes) == 0 {
		t.Fatalf("status %s with no holes", r.Status)
	}
	for _, h := range r.Holes {
		d := golf.NewDeal(r.Settings.Variant, h.Seed)
		for i, g := range h.Games {
			st := golf.NewState(&d)
			for _, m := range g.Moves {
				if err := st.Apply(m); err != nil {
					t.Fatalf("hole %d seat %d: stored move %s is illegal: %v", h.Number, i, m, err)
				}
			}
			if g.Score != st.Score() {
				t.Fatalf("hole %d seat %d: score %d, replay says %d", h.Number, i, g.Score, st.Score())
			}
			if st.Over() && !g.Done {
				t.Fatalf("hole %d seat %d: over but not done", h.Number, i)
			}
		}
	}
}
