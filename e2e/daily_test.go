package e2e_test

import (
	"context"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/client"
	"golfsolitaire/fairplay"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// TestDailyBoardInTheBrowser: on the daily challenge's page a player held
// for fair-play review is marked "held for review" on their leaderboard
// row, and an entrant who has not played is listed last as "not started"
// with no place; the lobby's list of the daily's leaders leaves the held
// player out (and the one not started).
func TestDailyBoardInTheBrowser(t *testing.T) {
	t.Parallel()
	acct := inmem.New()
	fp := fairplay.NewMemoryStore()
	srv, err := server.New(server.Options{
		SolveNodes: 200_000, RateNodes: 40_000,
		Store:          memstore.New(memstore.Options{}),
		Pages:          web.New(web.Options{Players: acct}),
		Accounts:       acct,
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
		Limits:         limit.NoLimits(),
		// Every browser comes from 127.0.0.1: its accounts may share entries.
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		Fairplay: &server.Fairplay{Store: fp, Config: &fairplay.Config{Samples: 2, Nodes: 500, MaxSolves: 50}},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	users := map[string]*http.Client{}
	for _, name := range []string{"Ana", "Bo", "Cy"} {
		jar, _ := cookiejar.New(nil)
		users[name] = &http.Client{Jar: jar}
		apiCall(t, users[name], "POST", ts.URL+"/api/account/signup", protocol.AccountRequest{Name: name, Password: "correct horse"}, nil, http.StatusCreated)
	}
	a, err := acct.ByKey(ctx, "ana")
	if err != nil {
		t.Fatal(err)
	}
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: "account:" + strconv.FormatInt(int64(a.ID), 10), Name: "Ana", FlaggedAt: time.Now(), Held: true, Score: 9}); err != nil {
		t.Fatal(err)
	}
	var d protocol.Daily
	apiCall(t, users["Ana"], "GET", ts.URL+"/api/daily", nil, &d, http.StatusOK)
	api := &client.API{BaseURL: ts.URL}
	for _, name := range []string{"Ana", "Bo", "Cy"} {
		var g protocol.TournamentGrant
		apiCall(t, users[name], "POST", ts.URL+"/api/tournaments/"+d.ID+"/join", map[string]any{"name": name}, &g, http.StatusOK)
		if name == "Cy" {
			continue // entered, not started
		}
		// Ana and Bo stand on hole 1 at once.
		pg, err := api.PlayTournament(ctx, d.ID, g.Token)
		if err != nil {
			t.Fatal(err)
		}
		c, err := client.Dial(ctx, ts.URL, &client.Options{Room: pg.Room, Token: g.Token})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && v.Status == match.Playing }); err != nil {
			t.Fatal(err)
		}
		if err := c.Stand(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil && (v.Board.Done || v.Board.Hole > 1) }); err != nil {
			t.Fatal(err)
		}
		c.CloseNow()
	}

	watcher := newPlayer(t, newBrowser(t))
	do(t, watcher, "open the daily's page", chromedp.Navigate(ts.URL+"/t/"+d.ID+"?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=t-board]`)))
	waitJS(t, watcher, "Ana marked held, Bo not, Cy last and not started", `(() => {
		const rows = [...document.querySelectorAll('#t-rows [data-testid=lb-row]')];
		if (rows.length !== 3) return false;
		const name = (r) => r.children[1].firstChild.textContent;
		const ana = rows.find((r) => name(r) === 'Ana'), bo = rows.find((r) => name(r) === 'Bo'), cy = rows[2];
		return !!ana && !!bo && !!ana.querySelector('[data-testid=lb-held]') && !bo.querySelector('[data-testid=lb-held]') &&
			name(cy) === 'Cy' && cy.children[2].textContent === 'not started' && cy.children[0].textContent === '–';
	})()`)
	shot(t, watcher, "daily-held-not-started")
	axeCheck(t, watcher, "daily leaderboard")

	do(t, watcher, "open the lobby", chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitReady(chromedp.CSS(`[data-testid=daily]`)))
	waitJS(t, watcher, "the lobby's daily leaders are Bo alone", `(() => {
		const rows = [...document.querySelectorAll('[data-testid=daily-row]')];
		return rows.length === 1 && rows[0].textContent.includes('Bo');
	})()`)
}
