package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// TestScoutingRaisesForReview: Ana plays three holes of the daily
// challenge; Bo, who shares her address, then plays the same three deals.
// Bo's three holes are scouted (begun after a linked account had
// finished their deals): Bo is flagged and held for review, with the
// scouted holes beside his links on the flags API and the review page;
// Ana, who played first, is not.
func TestScoutingRaisesForReview(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fp := fairplay.NewMemoryStore()
	acct := inmem.New()
	e := newEnv(t, withAccounts(acct), func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, ModeratorToken: "mod-secret",
			// Enough to run the analysis; too little evidence for a
			// flag of its own.
			Config: &fairplay.Config{Samples: 4, Nodes: 1000, MaxSolves: 100}}
	})
	ana, bo := browserFrom(t, e.ts, "127.0.0.81"), browserFrom(t, e.ts, "127.0.0.81")
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	anaID, boID := accountID(t, ctx, acct, "Ana"), accountID(t, ctx, acct, "Bo")

	var d protocol.Daily
	ana.wantStatus(ana.do("GET", "/api/daily", nil, &d), http.StatusOK)
	var ga, gb protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments/"+d.ID+"/join", map[string]any{"name": "x"}, &ga), http.StatusOK)
	for h := 1; h <= 3; h++ {
		playEntrantHole(t, ctx, e.ts, e.api, d.ID, ga.Token, h)
	}
	bo.wantStatus(bo.do("POST", "/api/tournaments/"+d.ID+"/join", map[string]any{"name": "x"}, &gb), http.StatusOK)
	for h := 1; h <= 3; h++ {
		playEntrantHole(t, ctx, e.ts, e.api, d.ID, gb.Token, h)
	}

	type scouted struct {
		Room, By string
		Hole     int
		Begun    time.Time
	}
	var flags struct {
		Flags    []fairplay.Flag      `json:"flags"`
		Scouting map[string][]scouted `json:"scouting"`
	}
	mod := newBrowser(t, e.ts)
	waitFor(t, time.Minute, "Bo flagged for scouting", func() bool {
		ev, _, err := fp.Player(ctx, boID)
		if err != nil || ev.Holes < 3 {
			return false // not all analysed yet
		}
		flags.Flags, flags.Scouting = nil, nil
		mod.wantStatus(mod.do("GET", "/api/fairplay/flags", nil, &flags, "Authorization", "Bearer mod-secret"), http.StatusOK)
		return len(flags.Flags) > 0
	})
	if len(flags.Flags) != 1 || flags.Flags[0].Player != boID || flags.Flags[0].Name != "Bo" || !flags.Flags[0].Held || flags.Flags[0].Status != fairplay.StatusHeld {
		t.Fatalf("flags = %+v, want Bo's alone, held", flags.Flags)
	}
	s := flags.Scouting[boID]
	if len(s) != 3 {
		t.Fatalf("Bo's scouted holes = %+v, want 3", flags.Scouting)
	}
	for _, h := range s {
		if h.By != "Ana" || h.Room == "" || h.Hole < 1 || h.Hole > 3 || h.Begun.IsZero() {
			t.Errorf("scouted hole %+v, want one of holes 1-3 begun after Ana's", h)
		}
	}
	if _, ok := flags.Scouting[anaID]; ok {
		t.Errorf("Ana, who played first, has scouting evidence: %+v", flags.Scouting[anaID])
	}
	if _, held, err := fp.Held(ctx, anaID); err != nil || held {
		t.Errorf("Ana held = %v, %v; want not", held, err)
	}

	req, _ := http.NewRequest("GET", e.ts+"/moderator", nil)
	req.Header.Set("Authorization", "Bearer mod-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if n := strings.Count(string(body), `data-testid="mod-scouted"`); n != 3 {
		t.Errorf("the review page shows %d scouted holes, want 3", n)
	}
}
