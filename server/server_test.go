package server_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/internal/contract"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// The solver's budgets in tests: the race detector slows the solver some
// thirty times, so tests give it less than production does (the answers
// are still the solver's, just within a smaller budget).
const testSolveNodes, testRateNodes = 200_000, 40_000

// newTestServer starts a server on a real socket over the given store.
func newTestServer(t *testing.T, st store.Store, mod ...func(*server.Options)) (*httptest.Server, *client.API) {
	t.Helper()
	// Test players move as fast as the loopback allows, far above the
	// default limit (a hole can take more than its burst of 40 moves);
	// tests of the limit itself set their own.
	opts := server.Options{
		Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ResyncEvery: 200 * time.Millisecond,
		PlayerRate: limit.Rate{PerSecond: 2000, Burst: 2000},
		SolveNodes: testSolveNodes, RateNodes: testRateNodes,
		// Every test client comes from 127.0.0.1: the per-client limits
		// are off but in the tests of them (perimeter_test.go).
		Limits:   limit.NoLimits(),
		BotThink: testBotThink,
		// argon2id at RFC 9106's 64 MiB, under -race, for the dummy hash
		// every server computes: seconds a server (TestSignupUsesRFC9106
		// checks the default).
		PasswordParams: cheapPasswords,
	}
	for _, f := range mod {
		f(&opts)
	}
	s, err := server.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	// Every answer and frame the tests see is held to docs/openapi.yaml
	// and docs/asyncapi.yaml.
	ts := httptest.NewServer(contract.Tap(t, s))
	t.Cleanup(func() {
		s.Close()
		ts.Close()
	})
	return ts, &client.API{BaseURL: ts.URL}
}

// testBotThink is the bots' pause before each move in tests.
const testBotThink = 10 * time.Millisecond

// testCtx bounds a test that hangs. The bound is generous: a test that
// needs two CPU seconds alone took over 30 s in the whole suite on a slow
// two-core machine (TestTournamentRoomKept: eight server tests at a time
// beside the browser tests, under -race), and failed on the old 30 s.
func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func dial(t *testing.T, ctx context.Context, url, room, token string) *client.Conn {
	t.Helper()
	c, err := client.Dial(ctx, url, &client.Options{Room: room, Token: token})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.CloseNow() })
	return c
}

// playHole plays the first legal move for each player until their hole h
// is over.
func playHole(t *testing.T, ctx context.Context, c *client.Conn, h int) {
	t.Helper()
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole >= h })
		if err != nil {
			t.Fatalf("waiting for hole %d: %v", h, err)
		}
		b := v.Board
		if b.Hole > h || b.Done || v.Status != match.Playing {
			return
		}
		move := "s"
		switch {
		case len(b.Playable) > 0:
			move = itoa(b.Playable[0])
		case b.CanTurn:
		case b.CanRedeal:
			move = "r"
		}
		if _, err := c.Move(ctx, h, move); err != nil {
			if client.IsCode(err, protocol.ErrCodeHoleDone) || client.IsCode(err, protocol.ErrCodeWrongHole) {
				return
			}
			t.Fatalf("move %s: %v", move, err)
		}
	}
}

func itoa(n int) string { return golf.PlayPile(n).String() }

func TestOneHoleMatch(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	ts, api := newTestServer(t, memstore.New(memstore.Options{}))
	set := map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2}
	g1, err := api.CreateRoom(ctx, set, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	g2, err := api.Join(ctx, g1.Code, "Bo")
	if err != nil {
		t.Fatal(err)
	}
	c1 := dial(t, ctx, ts.URL, g1.Code, g1.Token)
	c2 := dial(t, ctx, ts.URL, g2.Code, g2.Token)
	spec := dial(t, ctx, ts.URL, g1.Code, "")
	if c1.Seat() != 0 || c2.Seat() != 1 || spec.Seat() != -1 {
		t.Fatalf("seats %d %d %d", c1.Seat(), c2.Seat(), spec.Seat())
	}
	if err := c1.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := c2.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); playHole(t, ctx, c2, 1) }()
	playHole(t, ctx, c1, 1)
	<-done
	for _, c := range []*client.Conn{c1, c2, spec} {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished })
		if err != nil {
			t.Fatalf("waiting for the end: %v", err)
		}
		if v.Seed == "" || v.Standings.Match == nil || !v.Standings.Match.Decided {
			t.Errorf("end view: seed %q, match %+v", v.Seed, v.Standings.Match)
		}
	}
	var recs protocol.Records
	if _, err := api.Call(ctx, http.MethodGet, "/api/rooms/"+g1.Code+"/records", nil, &recs); err != nil {
		t.Fatal(err)
	}
	if len(recs.Holes) != 1 || len(recs.Holes[0].Records) != 2 {
		t.Fatalf("records: %+v", recs)
	}
	for i, rec := range recs.Holes[0].Records {
		st, err := rec.Replay()
		if err != nil {
			t.Fatalf("record %d does not replay: %v", i, err)
		}
		if st.Score() != recs.Holes[0].Scores[i] {
			t.Errorf("record %d scores %d, room says %d", i, st.Score(), recs.Holes[0].Scores[i])
		}
	}
	seed, err := golf.ParseSeed(recs.Seed)
	if err != nil || !seed.Verify(recs.Commitment) {
		t.Errorf("revealed seed does not match the commitment")
	}
}

func TestReplayEndpoint(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	ts, api := newTestServer(t, memstore.New(memstore.Options{}))
	g, err := api.CreateRoom(ctx, map[string]any{"format": "stroke", "seats": 1, "holes": 2}, "Solo")
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, ctx, ts.URL, g.Code, g.Token)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	var rp match.Replay
	if _, err := api.Call(ctx, http.MethodGet, "/api/rooms/"+g.Code+"/holes/1/replay?seat=0", nil, &rp); !client.IsCode(err, protocol.ErrCodeNotFinished) {
		t.Fatalf("replay of a hole in play: %v, want not_finished", err)
	}
	playHole(t, ctx, c, 1)
	if _, err := api.Call(ctx, http.MethodGet, "/api/rooms/"+g.Code+"/holes/1/replay?seat=0", nil, &rp); err != nil {
		t.Fatal(err)
	}
	if len(rp.Boards) != len(rp.Moves)+1 || len(rp.Moves) == 0 {
		t.Fatalf("replay has %d boards for %d moves", len(rp.Boards), len(rp.Moves))
	}
	if last := rp.Boards[len(rp.Boards)-1]; last.Score != rp.Score || last.Moves != len(rp.Moves) {
		t.Errorf("last board scores %d after %d moves; replay says %d after %d", last.Score, last.Moves, rp.Score, len(rp.Moves))
	}
	if first := rp.Boards[0]; first.Moves != 0 || first.CardsLeft != 35 {
		t.Errorf("first board: %+v", first)
	}
}
