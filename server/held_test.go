package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// heldRows maps each standings row's name to its held mark.
func heldRows(st match.Standings) map[string]bool {
	out := map[string]bool{}
	for _, r := range st.Rows {
		out[r.Name] = r.Held
	}
	return out
}

// waitHeld waits until the socket's view shows exactly the marks want.
func waitHeld(t *testing.T, ctx context.Context, c *client.Conn, what string, want map[string]bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	var last map[string]bool
	_, err := c.WaitView(ctx, func(v *match.View) bool {
		last = heldRows(v.Standings)
		for name, h := range want {
			if got, ok := last[name]; !ok || got != h {
				return false
			}
		}
		return true
	})
	if err != nil {
		t.Fatalf("%s: the view's marks are %v, want %v (%v)", what, last, want, err)
	}
}

// clearFlag clears a player's flag through the moderators' API.
func clearFlag(t *testing.T, b *browser, player string) {
	t.Helper()
	b.wantStatus(b.do("POST", "/api/fairplay/flags/"+player+"/clear", nil, nil, "Authorization", "Bearer mod-secret"), http.StatusOK)
}

// TestHeldInLiveStandings: in a rated room, a player whose results are
// held for review is marked "held" on their standings row, in what every
// other player (over the socket) and the API see: at once when they take
// the seat, within the hole that raises a new flag, and no longer once a
// moderator clears them; a finished round keeps the mark of a player whose
// result it holds. A casual room shows no mark for the same player.
func TestHeldInLiveStandings(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fx := newHeldFixture(t, ctx) // Ana held
	e, fp, ana, bo := fx.e, fx.fp, fx.ana, fx.bo
	anaID, boID := fx.id("Ana"), fx.id("Bo")

	set := map[string]any{"game": "golf", "holes": 2, "format": "stroke", "seats": 2, "rated": true}
	var g1, g2 protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/rooms", map[string]any{"settings": set}, &g1), http.StatusCreated)
	bo.wantStatus(bo.do("POST", "/api/rooms/"+g1.Code+"/join", map[string]any{}, &g2), http.StatusOK)
	c1 := dial(t, ctx, e.ts, g1.Code, g1.Token)
	c2 := dial(t, ctx, e.ts, g2.Code, g2.Token)
	waitHeld(t, ctx, c2, "Bo's view once seated", map[string]bool{"Ana": true, "Bo": false})
	var info struct {
		Standings match.Standings `json:"standings"`
	}
	bo.wantStatus(bo.do("GET", "/api/rooms/"+g1.Code, nil, &info), http.StatusOK)
	if got := heldRows(info.Standings); !got["Ana"] || got["Bo"] {
		t.Fatalf("GET /api/rooms: marks %v, want Ana held only", got)
	}

	for _, c := range []*client.Conn{c1, c2} {
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
	}
	if err := c1.Start(ctx); err != nil && !client.IsCode(err, protocol.ErrCodeNotWaiting) {
		t.Fatal(err)
	}
	// Bo is flagged during the round: his mark shows once his next hole
	// is analysed, without anyone else doing anything.
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: boID, Name: "Bo", FlaggedAt: fx.flagged, Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	playHole(t, ctx, c1, 1)
	playHole(t, ctx, c2, 1)
	waitHeld(t, ctx, c1, "Ana's view after Bo's flagged hole", map[string]bool{"Ana": true, "Bo": true})

	// A moderator clears Ana: her mark goes, live.
	waitFor(t, time.Minute, "Ana's hole analysed", func() bool {
		ev, _, err := fp.Player(ctx, anaID)
		return err == nil && ev.Holes == 1
	})
	clearFlag(t, newBrowser(t, e.ts), anaID)
	waitHeld(t, ctx, c2, "Bo's view after Ana is cleared", map[string]bool{"Ana": false, "Bo": true})

	// The round ends held for Bo: the finished standings keep his mark.
	playHole(t, ctx, c1, 2)
	playHole(t, ctx, c2, 2)
	waitFor(t, time.Minute, "the round held for Bo", func() bool {
		rs, _ := fp.Results(ctx, boID)
		return len(rs) == 1
	})
	if _, err := c1.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
		t.Fatal(err)
	}
	waitHeld(t, ctx, c1, "the finished round", map[string]bool{"Ana": false, "Bo": true})

	// A casual room: Bo is held, but nothing of his is rated there.
	var g3 protocol.SeatGrant
	bo.wantStatus(bo.do("POST", "/api/rooms", map[string]any{"settings": stroke(2, 1, nil), "name": "Bo"}, &g3), http.StatusCreated)
	c3 := dial(t, ctx, e.ts, g3.Code, g3.Token)
	v, err := c3.WaitView(ctx, func(v *match.View) bool { return len(v.Standings.Rows) == 1 })
	if err != nil {
		t.Fatal(err)
	}
	if heldRows(v.Standings)["Bo"] {
		t.Fatal("a casual room marked a held player")
	}
}

// TestHeldInTournamentLeaderboard: in a rated tournament an entrant whose
// results are held is marked "held" on their leaderboard row, in the GET
// API and in the watchers' frames, from their entry on; a moderator's
// clear removes the mark, pushed live.
func TestHeldInTournamentLeaderboard(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fx := newHeldFixture(t, ctx) // Ana held
	e, fp, ana, bo := fx.e, fx.fp, fx.ana, fx.bo
	anaID := fx.id("Ana")
	var host, gb protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "x", "settings": map[string]any{"name": "Held Open", "holes": 9, "accounts": true, "rated": true}}, &host), http.StatusCreated)
	bo.wantStatus(bo.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Bo"}, &gb), http.StatusOK)
	if err := e.api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	playEntrantHole(t, ctx, e.ts, e.api, host.ID, host.Token, 1)
	playEntrantHole(t, ctx, e.ts, e.api, host.ID, gb.Token, 1)

	marks := func(rows []tourney.Row) map[string]bool {
		out := map[string]bool{}
		for _, r := range rows {
			out[r.Name] = r.Held
		}
		return out
	}
	var lb protocol.Leaderboard
	bo.wantStatus(bo.do("GET", "/api/tournaments/"+host.ID+"/leaderboard", nil, &lb, "X-Token", gb.Token), http.StatusOK)
	if got := marks(lb.Rows); len(got) != 2 || !got["Ana"] || got["Bo"] {
		t.Fatalf("GET leaderboard: marks %v, want Ana held only", got)
	}
	w, err := client.DialTournament(ctx, e.ts, host.ID, gb.Token, 1, 20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	waitPush(t, ctx, w, "Ana held in a frame", func(m protocol.TournamentMessage) bool {
		if m.Board == nil {
			return false
		}
		got := marks(m.Board.Rows)
		return got["Ana"] && !got["Bo"]
	})

	waitFor(t, time.Minute, "Ana's hole analysed", func() bool {
		ev, _, err := fp.Player(ctx, anaID)
		return err == nil && ev.Holes == 1
	})
	clearFlag(t, newBrowser(t, e.ts), anaID)
	waitPush(t, ctx, w, "Ana's mark gone from a frame", func(m protocol.TournamentMessage) bool {
		if m.Board == nil {
			return false
		}
		got := marks(m.Board.Rows)
		return len(got) == 2 && !got["Ana"] && !got["Bo"]
	})
}
