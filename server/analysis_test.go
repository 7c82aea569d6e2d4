package server_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/internal/contract"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
)

// TestBestEndpoint: the best line of a hole is 404 while the hole is in
// play for anyone, then replays to the best score, which the views show.
func TestBestEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := testCtx(t)
	grants := e.create(t, ctx, stroke(2, 1, map[string]any{"public": false}), "Ana", "Bo")
	cs := e.startRoom(t, ctx, grants)
	code := grants[0].Code
	get := func() (int, match.Replay) {
		var rp match.Replay
		status, _ := e.api.Call(ctx, http.MethodGet, "/api/rooms/"+code+"/holes/1/best", nil, &rp)
		return status, rp
	}
	playHole(t, ctx, cs[0], 1)
	if status, _ := get(); status != http.StatusNotFound {
		t.Fatalf("best line while Bo plays: %d, want 404", status)
	}
	v, _ := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Done })
	if len(v.Best) != 0 {
		t.Fatalf("best shown during the hole: %+v", v.Best)
	}
	playHole(t, ctx, cs[1], 1)
	// The best score is solved off the room's loop, so it may come in a
	// view after the one that ends the round.
	v, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished && len(v.Best) > 0 })
	if err != nil {
		t.Fatal(err)
	}
	room := e.room(t, code)
	d := golf.NewDeal(room.Settings.Variant, room.Holes[0].Seed)
	sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: testSolveNodes})
	if len(v.Best) != 1 || v.Best[0].Best != sol.Best || v.Best[0].Exact != sol.Exact {
		t.Fatalf("view best = %+v, want %d", v.Best, sol.Best)
	}
	for _, row := range v.Standings.Rows {
		if row.VsBest == nil || *row.VsBest[0] != *row.Scores[0]-sol.Best {
			t.Fatalf("row %s: vsBest %v", row.Name, row.VsBest)
		}
	}
	status, rp := get()
	if status != http.StatusOK || rp.Score != sol.Best || len(rp.Boards) != len(rp.Moves)+1 {
		t.Fatalf("best line: %d, score %d (want %d)", status, rp.Score, sol.Best)
	}
}

// TestHints: a hint only in solo practice, never in a room with other
// players or a tournament room, and no hint frame holds a card of the
// stock the player has not seen.
func TestHints(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := testCtx(t)

	// Competitive: no hints.
	grants := e.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	cs := e.startRoom(t, ctx, grants)
	_, err := cs[0].Hint(ctx, 1)
	wantCode(t, err, protocol.ErrCodeNoHints)
	spec := dial(t, ctx, e.ts, grants[0].Code, "")
	_, err = spec.Hint(ctx, 1)
	wantCode(t, err, protocol.ErrCodeSpectator)

	// Practice: hints, recorded frame by frame.
	g, err := e.api.CreateRoom(ctx, stroke(1, 1, map[string]any{"public": false}), "Ana")
	if err != nil {
		t.Fatal(err)
	}
	var rec recorder
	c := dialRec(t, ctx, e.ts, client.Options{Room: g.Code, Token: g.Token}, &rec)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = c.Hint(ctx, 2)
	wantCode(t, err, protocol.ErrCodeWrongHole)
	for moves := 0; ; moves++ {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil })
		if err != nil {
			t.Fatal(err)
		}
		if v.Board.Done || v.Status != match.Playing {
			break
		}
		// How long a hint takes is not asserted: on a loaded machine a
		// hint waits for the solver pool's one worker.
		hint, err := c.Hint(ctx, 1)
		if err != nil {
			t.Fatalf("hint: %v", err)
		}
		if hint == "" {
			break
		}
		ack, err := c.Move(ctx, 1, hint)
		if err != nil {
			t.Fatalf("the hint %q is not a legal move: %v", hint, err)
		}
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V }); err != nil {
			t.Fatal(err)
		}
		if moves > 200 {
			t.Fatal("the hole does not end")
		}
	}
	if _, err := c.Hint(ctx, 1); err == nil {
		t.Fatal("a hint after the hole")
	}
	// No hint frame mentions a card the player had not yet turned.
	room := e.room(t, g.Code)
	h := room.Holes[0]
	st := golf.NewState(h.Deal(room.Settings.Variant))
	unseen := map[string]bool{}
	turns := 0
	for _, m := range h.Games[0].Moves {
		if m.Action == golf.Turn {
			turns++
		}
	}
	for _, card := range st.Stock()[min(turns, len(st.Stock())):] {
		unseen[card.String()] = true
	}
	for _, raw := range rec.messages() {
		var m protocol.ServerMessage
		if json.Unmarshal(raw, &m) != nil || m.Type != protocol.TypeAck || m.Move == "" {
			continue
		}
		for card := range unseen {
			if strings.Contains(string(raw), `"`+card+`"`) {
				t.Fatalf("hint frame %s holds the unseen stock card %s", raw, card)
			}
		}
	}
}

// TestBots: a bot of each level plays a match to the end against a client
// player, is marked as a bot in seats and standings, and only the host may
// add one, only in a waiting room. The bot's seat token, kept in the store
// so another instance could resume the bot, is in no frame the host
// receives and no API answer.
func TestBots(t *testing.T) {
	t.Parallel()
	for _, level := range []string{"random", "greedy", "search"} {
		t.Run(level, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, func(o *server.Options) { o.BotThink = time.Millisecond })
			// The search bot's moves are solver work under -race: two
			// holes of it once took more than testCtx's 30 s under load.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			grants := e.create(t, ctx, map[string]any{"format": "match", "holes": 2, "public": false}, "Ana")
			code := grants[0].Code
			_, _, err := e.api.AddBot(ctx, code, "not-the-host", level)
			wantCode(t, err, protocol.ErrCodeNotHost)
			_, _, err = e.api.AddBot(ctx, code, grants[0].Token, "genius")
			wantCode(t, err, protocol.ErrCodeInvalid)
			seat, name, err := e.api.AddBot(ctx, code, grants[0].Token, level)
			if err != nil || seat != 1 || name != "Bot ("+level+")" {
				t.Fatalf("AddBot = %d %q %v", seat, name, err)
			}
			rec := &recorder{name: "host"}
			c := dialRec(t, ctx, e.ts, client.Options{Room: code, Token: grants[0].Token}, rec)
			if _, err := c.WaitView(ctx, func(v *match.View) bool { return len(v.Seats) == 2 && v.Seats[1].Ready }); err != nil {
				t.Fatal(err)
			}
			if err := c.Start(ctx); err != nil {
				t.Fatal(err)
			}
			_, _, err = e.api.AddBot(ctx, code, grants[0].Token, level)
			wantCode(t, err, protocol.ErrCodeNotWaiting)
			for h := 1; ; h++ {
				playHole(t, ctx, c, h)
				v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Hole > h })
				if err != nil {
					t.Fatalf("hole %d: %v", h, err)
				}
				if v.Status == match.Finished {
					break
				}
			}
			v := c.View()
			if !v.Seats[1].Bot || v.Seats[0].Bot {
				t.Fatalf("seats %+v: seat 1 should be the bot", v.Seats)
			}
			room := e.room(t, code)
			for _, h := range room.Holes {
				if !h.Games[1].Done || len(h.Games[1].Moves) == 0 {
					t.Fatalf("hole %d: the bot did not play (%+v)", h.Number, h.Games[1])
				}
			}
			found := false
			for _, row := range v.Standings.Rows {
				found = found || row.Seat == 1 && row.Name == "Bot ("+level+")"
			}
			if !found {
				t.Fatal("the bot is not in the standings")
			}
			checkBotTokenHidden(t, ctx, e, code, rec)
		})
	}
}

// TestBotsStopOnClose: Close stops a bot (waiting in a room) and leaves no
// bot goroutine behind; a tournament room takes no bot.
func TestBotsStopOnClose(t *testing.T) {
	t.Parallel()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	s, err := server.New(server.Options{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), SolveNodes: testSolveNodes, RateNodes: testRateNodes, PasswordParams: cheapPasswords})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(contract.Tap(t, s))
	defer ts.Close()
	api := &client.API{BaseURL: ts.URL}
	ctx := testCtx(t)
	g, err := api.CreateRoom(ctx, map[string]any{"format": "stroke", "seats": 3, "public": false}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"random", "search"} {
		if _, _, err := api.AddBot(ctx, g.Code, g.Token, l); err != nil {
			t.Fatal(err)
		}
	}
	waitFor(t, 5*time.Second, "bots running", func() bool { return s.RunningBots() == 2 })
	c, err := client.Dial(ctx, ts.URL, &client.Options{Room: g.Code})
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseNow()
	if _, err := c.WaitView(ctx, func(v *match.View) bool {
		return len(v.Seats) == 3 && !v.Seats[1].Away && !v.Seats[2].Away && v.Seats[1].Bot && v.Seats[2].Bot
	}); err != nil {
		t.Fatal("the bots are not seated and present:", err)
	}
	done := make(chan struct{})
	go func() { s.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close hangs")
	}
	if n := s.RunningBots(); n != 0 {
		t.Fatalf("%d bots still running after Close", n)
	}
	_, _, err = api.AddBot(ctx, g.Code, g.Token, "greedy")
	wantCode(t, err, protocol.ErrCodeUnavailable)
}

// TestReviewEndpoint: a hole's analysis is refused while anyone plays the
// hole, then reviews each player's game: the losses are never negative
// and sum to the score less the best, the score is the room's; a bad
// address is refused in words.
func TestReviewEndpoint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := testCtx(t)
	grants := e.create(t, ctx, stroke(2, 1, map[string]any{"public": false}), "Ana", "Bo")
	cs := e.startRoom(t, ctx, grants)
	code := grants[0].Code
	get := func(q string) (int, protocol.HoleReview, error) {
		var rv protocol.HoleReview
		status, err := e.api.Call(ctx, http.MethodGet, "/api/rooms/"+code+"/holes/1/analysis"+q, nil, &rv)
		return status, rv, err
	}
	playHole(t, ctx, cs[0], 1)
	if status, _, err := get("?seat=0"); status != http.StatusNotFound || !client.IsCode(err, protocol.ErrCodeNotFinished) {
		t.Fatalf("analysis while Bo plays: %d %v, want 404 not_finished", status, err)
	}
	playHole(t, ctx, cs[1], 1)
	if _, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
		t.Fatal(err)
	}
	room := e.room(t, code)
	for seat, name := range []string{"Ana", "Bo"} {
		status, rv, err := get("?seat=" + strconv.Itoa(seat))
		if err != nil || status != http.StatusOK {
			t.Fatalf("analysis of %s: %d %v", name, status, err)
		}
		sum := 0
		for _, d := range rv.Decisions {
			if d.Lost < 0 {
				t.Errorf("%s: move %s lost %d", name, d.Move, d.Lost)
			}
			sum += d.Lost
		}
		if rv.Name != name || rv.Hole != 1 || rv.Seat != seat || sum != rv.Score-rv.Best || rv.Score != room.Holes[0].Games[seat].Score {
			t.Errorf("%s: %+v (losses %d, room score %d)", name, rv, sum, room.Holes[0].Games[seat].Score)
		}
	}
	for _, q := range []string{"", "?seat=x", "?seat=2", "?seat=-1"} {
		status, _, err := get(q)
		if status != http.StatusBadRequest && status != http.StatusNotFound || err == nil {
			t.Errorf("analysis%s: %d %v, want refused", q, status, err)
		}
	}
}
