package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
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
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// apiCall sends a JSON request with the client's cookies and decodes the
// answer into out.
func apiCall(t *testing.T, c *http.Client, method, url string, body, out any, want int) {
	t.Helper()
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != want {
		t.Fatalf("%s %s = %d, want %d", method, url, resp.StatusCode, want)
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestHeldMarkInTheBrowser: someone watching a rated round sees, in the
// standings, "held for review" (in Spanish "en revisión") beside the
// player whose results are held for fair-play review, and nothing beside
// the other; the page passes the accessibility check with the mark.
func TestHeldMarkInTheBrowser(t *testing.T) {
	t.Parallel()
	acct := inmem.New()
	fp := fairplay.NewMemoryStore()
	srv, err := server.New(server.Options{
		// Every browser comes from 127.0.0.1: sign-ups unlimited, and
		// its accounts may share rated games.
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		SolveNodes: 200_000, RateNodes: 40_000,
		Store:          memstore.New(memstore.Options{}),
		Pages:          web.New(web.Options{Players: acct}),
		Accounts:       acct,
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
		Limits:         limit.NoLimits(),
		Fairplay:       &server.Fairplay{Store: fp, Config: &fairplay.Config{Samples: 2, Nodes: 500, MaxSolves: 50}},
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
	for _, name := range []string{"Ana", "Bo"} {
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
	set := map[string]any{"game": "golf", "holes": 1, "format": "stroke", "seats": 2, "rated": true, "spectators": true}
	var g1, g2 protocol.SeatGrant
	apiCall(t, users["Ana"], "POST", ts.URL+"/api/rooms", map[string]any{"settings": set}, &g1, http.StatusCreated)
	apiCall(t, users["Bo"], "POST", ts.URL+"/api/rooms/"+g1.Code+"/join", map[string]any{}, &g2, http.StatusOK)
	var conns []*client.Conn
	for _, g := range []protocol.SeatGrant{g1, g2} {
		c, err := client.Dial(ctx, ts.URL, &client.Options{Room: g.Code, Token: g.Token})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		if err := c.Ready(ctx, true); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if err := conns[0].Start(ctx); err != nil && !client.IsCode(err, protocol.ErrCodeNotWaiting) {
		t.Fatal(err)
	}

	watcher := newPlayer(t, newBrowser(t))
	for _, tc := range []struct{ lang, tag string }{{"es", "en revisión"}, {"en", "held for review"}} {
		do(t, watcher, "a spectator opens the rated room ("+tc.lang+")", chromedp.Navigate(ts.URL+"/r/"+g1.Code+"?lang="+tc.lang))
		waitJS(t, watcher, "the standings mark Ana, not Bo", `(() => {
			const held = document.querySelector('[data-testid=held-0]');
			return !!held && held.textContent === `+jsString(tc.tag)+` && held.closest('th')?.textContent.startsWith('Ana') && !document.querySelector('[data-testid=held-1]');
		})()`)
	}
	shot(t, watcher, "held-standings")
	axeCheck(t, watcher, "room-held")
}
