package server_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/tourney"
)

// tournamentView is the part of GET /api/tournaments/{id} these tests read.
type tournamentView struct {
	Status tourney.Status `json:"status"`
	Seeds  []string       `json:"seeds"`
	Reason string         `json:"reason"`
}

// boardLines writes a leaderboard's rows as "placeText name toParText
// thru notStarted held", for comparing.
func boardLines(rows []tourney.Row) []string {
	var out []string
	for _, r := range rows {
		out = append(out, fmt.Sprintf("%q %s %q thru %d notStarted=%v held=%v", r.PlaceText, r.Name, r.ToParText, r.Thru, r.NotStarted, r.Held))
	}
	return out
}

// TestDailyOpenUntilMidnight: the daily challenge stays open until 24:00
// UTC when its only entrant finishes early: a second account enters after
// (the daily used to close as soon as every current entrant had finished,
// reveal its seed and answer 409 entry_closed to everyone else). Entrants
// who have not finished a hole are on the leaderboard, after everyone who
// has, not started and with no place or score.
func TestDailyOpenUntilMidnight(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	e := newEnv(t, withAccounts(inmem.New()))
	ana, bo, cy := newBrowser(t, e.ts), newBrowser(t, e.ts), newBrowser(t, e.ts)
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	cy.signup("Cy", "purple monkey")
	var d protocol.Daily
	ana.wantStatus(ana.do("GET", "/api/daily", nil, &d), http.StatusOK)
	path := "/api/tournaments/" + d.ID
	var ga, gb protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", path+"/join", map[string]any{"name": "x"}, &ga), http.StatusOK)
	for h := 1; h <= 9; h++ {
		playEntrantHole(t, ctx, e.ts, e.api, d.ID, ga.Token, h)
	}
	var v tournamentView
	ana.wantStatus(ana.do("GET", path, nil, &v), http.StatusOK)
	if v.Status != tourney.Live || len(v.Seeds) != 0 {
		t.Fatalf("after its only entrant finished the daily is %s (%q), seeds %v; want live until 24:00 UTC, seed secret", v.Status, v.Reason, v.Seeds)
	}
	bo.wantStatus(bo.do("POST", path+"/join", map[string]any{"name": "x"}, &gb), http.StatusOK)
	cy.wantStatus(cy.do("POST", path+"/join", map[string]any{"name": "x"}, nil), http.StatusOK)

	// Bo and Cy have not played: listed last, not started.
	var lb protocol.Leaderboard
	bo.wantStatus(bo.do("GET", path+"/leaderboard", nil, &lb, "X-Token", gb.Token), http.StatusOK)
	ana9 := fmt.Sprintf("%q Ana %q thru 9 notStarted=false held=false", "1", lb.Rows[0].ToParText)
	want := []string{ana9, `"" Bo "" thru 0 notStarted=true held=false`, `"" Cy "" thru 0 notStarted=true held=false`}
	if got := boardLines(lb.Rows); lb.Total != 3 || !slices.Equal(got, want) {
		t.Fatalf("leaderboard of 3 entrants: total %d rows\n%q\nwant\n%q", lb.Total, got, want)
	}
	if lb.You == nil || lb.You.Name != "Bo" || !lb.You.NotStarted || lb.You.Place != 0 {
		t.Errorf("Bo's own row before he plays: %+v", lb.You)
	}
	// Bo plays a hole: he moves above Cy, who stays not started.
	playEntrantHole(t, ctx, e.ts, e.api, d.ID, gb.Token, 1)
	lb = protocol.Leaderboard{}
	bo.wantStatus(bo.do("GET", path+"/leaderboard?size=2&page=2", nil, &lb), http.StatusOK)
	if got := boardLines(lb.Rows); lb.Total != 3 || len(got) != 1 || got[0] != `"" Cy "" thru 0 notStarted=true held=false` {
		t.Errorf("page 2 of 2 rows: total %d rows %q, want Cy not started", lb.Total, got)
	}
	ana.wantStatus(ana.do("GET", path, nil, &v), http.StatusOK)
	if v.Status != tourney.Live {
		t.Errorf("every entrant who has played finished or not, the daily is %s (%q) before 24:00", v.Status, v.Reason)
	}
	// The list of leaders leaves out whoever has not started.
	if got := leaderNames(t, cy, path, 3); len(got) != 2 || !slices.Contains(got, "Ana") || !slices.Contains(got, "Bo") {
		t.Errorf("leaders %v, want Ana and Bo", got)
	}
}

// leaderNames reads GET .../leaders?n=N.
func leaderNames(t *testing.T, b *browser, path string, n int) []string {
	t.Helper()
	var out struct {
		Rows []tourney.Row `json:"rows"`
	}
	b.wantStatus(b.do("GET", fmt.Sprintf("%s/leaders?n=%d", path, n), nil, &out), http.StatusOK)
	names := []string{}
	for _, r := range out.Rows {
		names = append(names, r.Name)
	}
	return names
}

// TestHeldOnEveryLeaderboard: a player held for fair-play review is
// marked on the leaderboard of the daily challenge (not rated) and of a
// casual tournament, as in rated rooms: in the API and in the watchers'
// frames, from their entry on, until a moderator clears them; a guest
// entrant flagged in a casual tournament is marked too.
func TestHeldOnEveryLeaderboard(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fx := newHeldFixture(t, ctx) // Ana held
	e, fp, ana, bo := fx.e, fx.fp, fx.ana, fx.bo
	anaID := fx.id("Ana")
	marks := func(rows []tourney.Row) map[string]bool {
		out := map[string]bool{}
		for _, r := range rows {
			out[r.Name] = r.Held
		}
		return out
	}

	var d protocol.Daily
	ana.wantStatus(ana.do("GET", "/api/daily", nil, &d), http.StatusOK)
	path := "/api/tournaments/" + d.ID
	var ga, gb protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", path+"/join", map[string]any{"name": "x"}, &ga), http.StatusOK)
	bo.wantStatus(bo.do("POST", path+"/join", map[string]any{"name": "x"}, &gb), http.StatusOK)
	var lb protocol.Leaderboard
	bo.wantStatus(bo.do("GET", path+"/leaderboard", nil, &lb), http.StatusOK)
	if got := marks(lb.Rows); len(got) != 2 || !got["Ana"] || got["Bo"] {
		t.Fatalf("the daily's leaderboard at entry: marks %v, want Ana held only", got)
	}
	playEntrantHole(t, ctx, e.ts, e.api, d.ID, ga.Token, 1)
	playEntrantHole(t, ctx, e.ts, e.api, d.ID, gb.Token, 1)
	w, err := client.DialTournament(ctx, e.ts, d.ID, gb.Token, 1, 20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	waitPush(t, ctx, w, "Ana held in a frame of the daily", func(m protocol.TournamentMessage) bool {
		if m.Board == nil {
			return false
		}
		got := marks(m.Board.Rows)
		return len(got) == 2 && got["Ana"] && !got["Bo"]
	})
	// Held, Ana is left out of the daily's leaders, whatever her score.
	if got := leaderNames(t, bo, path, 2); !slices.Equal(got, []string{"Bo"}) {
		t.Errorf("the daily's leaders while Ana is held: %v, want Bo only", got)
	}
	var apiErr protocol.APIError
	bo.wantStatus(bo.do("GET", path+"/leaders?n=0", nil, &apiErr), http.StatusBadRequest)
	if apiErr.Code != protocol.ErrCodeInvalid || apiErr.Message == "" {
		t.Errorf("leaders?n=0: %+v", apiErr)
	}

	// A casual tournament for guests: a guest flagged there is marked.
	host := newBrowser(t, e.ts)
	var tg, guest protocol.TournamentGrant
	host.wantStatus(host.do("POST", "/api/tournaments", map[string]any{"name": "Host", "settings": map[string]any{"name": "Friday Open", "holes": 9}}, &tg), http.StatusCreated)
	other := newBrowser(t, e.ts)
	other.wantStatus(other.do("POST", "/api/tournaments/"+tg.ID+"/join", map[string]any{"name": "Dee"}, &guest), http.StatusOK)
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: "entrant:" + tg.ID + ":Dee", Name: "Dee", FlaggedAt: fx.flagged, Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	if err := e.api.HostTournament(ctx, tg.ID, "start", tg.HostToken); err != nil {
		t.Fatal(err)
	}
	playEntrantHole(t, ctx, e.ts, e.api, tg.ID, guest.Token, 1) // its analysis checks the mark
	waitFor(t, time.Minute, "Dee marked held on the casual tournament's leaderboard", func() bool {
		var lb protocol.Leaderboard
		host.wantStatus(host.do("GET", "/api/tournaments/"+tg.ID+"/leaderboard", nil, &lb), http.StatusOK)
		got := marks(lb.Rows)
		return got["Dee"] && !got["Host"]
	})

	// A moderator clears Ana: her mark leaves the daily, live.
	waitFor(t, time.Minute, "Ana's hole analysed", func() bool {
		ev, _, err := fp.Player(ctx, anaID)
		return err == nil && ev.Holes == 1
	})
	clearFlag(t, newBrowser(t, e.ts), anaID)
	waitPush(t, ctx, w, "Ana's mark gone from the daily", func(m protocol.TournamentMessage) bool {
		if m.Board == nil {
			return false
		}
		got := marks(m.Board.Rows)
		return len(got) == 2 && !got["Ana"] && !got["Bo"]
	})
	if got := leaderNames(t, bo, path, 2); len(got) != 2 || !slices.Contains(got, "Ana") {
		t.Errorf("the daily's leaders once Ana is cleared: %v, want Ana and Bo", got)
	}
}
