package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// fairplayHole plays the seat's current hole to its end: with know, the
// solver's line for the real deal (read from the store: a player who
// learnt the stock); without, the first playable pile, else the stock.
func fairplayHole(t *testing.T, ctx context.Context, e *env, c *client.Conn, code string, hole int, know bool) {
	t.Helper()
	v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Board.Hole == hole })
	if err != nil {
		t.Fatalf("waiting for hole %d: %v", hole, err)
	}
	if know {
		r := e.room(t, code)
		d := golf.NewDeal(r.Settings.Variant, r.Holes[hole-1].Seed)
		sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: 200_000})
		st := golf.NewState(&d)
		for _, m := range sol.Moves {
			if _, err := c.Move(ctx, hole, m.String()); err != nil {
				t.Fatalf("clairvoyant move %s: %v", m, err)
			}
			_ = st.Apply(m)
		}
		for !st.Over() {
			m := st.Legal()[0]
			if _, err := c.Move(ctx, hole, m.String()); err != nil {
				t.Fatalf("move %s: %v", m, err)
			}
			_ = st.Apply(m)
		}
		return
	}
	for {
		b := v.Board
		if b.Hole != hole || b.Done {
			return
		}
		var m string
		switch {
		case len(b.Playable) > 0:
			m = strconv.Itoa(b.Playable[0])
		case b.CanTurn:
			m = "s"
		case b.CanRedeal:
			m = "r"
		default:
			return
		}
		if _, err := c.Move(ctx, hole, m); err != nil {
			t.Fatalf("move %s: %v", m, err)
		}
		if v, err = c.WaitView(ctx, func(v *match.View) bool {
			return v.Board != nil && (v.Board.Hole != hole || v.Board.Done || v.Board.Moves > b.Moves)
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestFairplayFlagsClairvoyant: a player who plays every hole with the
// stock known (read from the server's store, as a second seat or a leak
// would give it) is analysed in the background, flagged with evidence and
// held; GET /api/fairplay/flags lists it for a moderator only.
func TestFairplayFlagsClairvoyant(t *testing.T) {
	t.Parallel()
	// Longer than testCtx: six holes are solved and analysed under -race.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fp := fairplay.NewMemoryStore()
	const holes = 6
	e := newEnv(t, func(o *server.Options) {
		o.Fairplay = &server.Fairplay{
			Store: fp, ModeratorToken: "mod-secret",
			// A low bar, so a few holes decide (the real rule needs more):
			// this checks the path from analysis to flag, hold and review,
			// not the statistic's power (the simulator measures that). At
			// Alpha 0.5 six random deals once gave the knower a score of
			// 0.61, under log 2, in CI.
			Rule: &fairplay.Rule{Alpha: 0.8, MinSegments: 1},
			// Small budgets: the race detector slows the solver.
			Config: &fairplay.Config{Samples: 6, Nodes: 1500, MaxSolves: 600},
		}
	})
	grants := e.create(t, ctx, stroke(2, holes, nil), "Cleo", "Hal")
	cs := e.startRoom(t, ctx, grants)
	code := grants[0].Code
	for h := 1; h <= holes; h++ {
		done := make(chan struct{})
		go func() {
			defer close(done)
			fairplayHole(t, ctx, e, cs[1], code, h, false)
		}()
		fairplayHole(t, ctx, e, cs[0], code, h, true)
		<-done
	}
	cleo := "seat:" + code + ":Cleo"
	waitFor(t, 2*time.Minute, "both players' holes analysed", func() bool {
		a, _, err1 := fp.Player(ctx, cleo)
		b, _, err2 := fp.Player(ctx, "seat:"+code+":Hal")
		return err1 == nil && err2 == nil && a.Holes == holes && b.Holes == holes
	})
	if got := e.metric(t, "golf_fairplay_analysed_total"); got != "12" {
		t.Errorf("golf_fairplay_analysed_total = %q, want 12", got)
	}

	get := func(token string) (*http.Response, protocol.FairplayFlags) {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, e.ts+"/api/fairplay/flags", nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body protocol.FairplayFlags
		if resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
		}
		return resp, body
	}
	for _, tok := range []string{"", "wrong"} {
		if resp, _ := get(tok); resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("token %q: status %d, want 401", tok, resp.StatusCode)
		}
	}
	resp, body := get("mod-secret")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	var flag *fairplay.Flag
	for i := range body.Flags {
		if body.Flags[i].Player == cleo {
			flag = &body.Flags[i]
		}
	}
	if flag == nil {
		ev, _, _ := fp.Player(ctx, cleo)
		t.Fatalf("the clairvoyant player is not flagged: flags %+v, evidence %+v (score %.2f)", body.Flags, ev, ev.Score())
	}
	if !flag.Held || flag.Name != "Cleo" || flag.Score < flag.Threshold || len(flag.Holes) == 0 {
		t.Fatalf("flag %+v", flag)
	}
	for _, h := range flag.Holes {
		if !strings.HasPrefix(h.Replay, "/api/rooms/"+code+"/holes/") || h.Room != code {
			t.Fatalf("hole report %+v: want a replay link of room %s", h, code)
		}
	}
}

// TestFairplayOffByDefault: without Options.Fairplay nothing is analysed
// and the review endpoint does not exist.
func TestFairplayOffByDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	resp, err := http.Get(e.ts + "/api/fairplay/flags")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Fatalf("status %d, want 404", resp.StatusCode)
	}
}
