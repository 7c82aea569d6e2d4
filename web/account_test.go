package web_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/ratings"
	"golfsolitaire/web"
)

// TestAccountPages: the forms, a profile with a rating, its chart and a
// recent game, and a 404 for a name nobody has.
func TestAccountPages(t *testing.T) {
	st := inmem.New()
	ctx := context.Background()
	var accts []accounts.Account
	for _, n := range []string{"Ana", "Bob"} {
		_, key, _ := accounts.ParseName(n)
		a, err := st.Create(ctx, accounts.Account{Name: n, Key: key, PasswordHash: "x"})
		if err != nil {
			t.Fatal(err)
		}
		accts = append(accts, a)
	}
	g := accounts.Game{ID: "ABCDEFGHJ-1", Family: "golf", Format: "match", Finished: time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC),
		Commitment: "c0ffee", Seed: "5eed",
		Holes:     []byte(`[{"number":1,"records":[],"scores":[3,7]}]`),
		Standings: []byte(`{"rows":[{"seat":0,"total":3,"toParText":"-2"},{"seat":1,"total":7,"toParText":"+2"}],"match":{"result":"1 UP"}}`),
		Players: []accounts.GamePlayer{{Account: accts[0].ID, Name: "Ana", Place: 1, Total: 3, ToPar: -2, Holes: 1, Clears: 0},
			{Account: accts[1].ID, Name: "Bob", Place: 2, Total: 7, ToPar: 2, Holes: 1, Clears: 0}}}
	if _, err := st.RecordGame(ctx, g, func(b []ratings.Rating) ([]ratings.Rating, error) { return ratings.Config{}.Round(b, []int{1, 2}) }); err != nil {
		t.Fatal(err)
	}
	h := web.New(web.Options{Players: st})
	for _, tc := range []struct {
		path   string
		status int
		want   []string
	}{
		{"/signup", 200, []string{`data-testid="signup"`, `autocomplete="new-password"`, `data-action="/api/account/signup"`}},
		{"/login", 200, []string{`data-testid="login"`, `autocomplete="current-password"`, `data-action="/api/account/login"`, `data-testid="passkey-login"`, "Log in with a passkey"}},
		// 1662? is the first win of two new players (ratings tests).
		{"/@/ana", 200, []string{`data-testid="profile-name">Ana<`, `data-testid="rating-value-golf">1662?<`, `data-testid="chart-golf"`, `<polyline`, `data-testid="recent-game"`, "1 of 2", "1662 (+162)", "Ana, Bob", "from 1500 to 1662 in 1 games"}},
		{"/@/Bob", 200, []string{"1338 (−162)", "2 of 2", `data-testid="won-golf">0<`, `data-testid="avg-golf">+2.0<`, `data-testid="clears-golf">0 of 1 holes<`, `data-testid="challenge"`, "Challenge Bob to a rated match", `data-testid="add-passkey"`}},
		// The record: won, clears, average and best round (linked).
		{"/@/ana", 200, []string{`data-testid="won-golf">1<`, `data-testid="avg-golf">−2.0<`, `<a href="/g/ABCDEFGHJ-1">−2</a>`, "Best round", "Average to par"}},
		{"/g/ABCDEFGHJ-1", 200, []string{`data-testid="archive-result">1 UP<`, `data-testid="archive-seed">5eed<`, `data-testid="archive-commitment">c0ffee<`, "1500? → 1662? (+162)", "1500? → 1338? (−162)", "3 (-2)", `href="/api/games/ABCDEFGHJ-1"`, `href="/@/Bob"`}},
		{"/@/ANA", 200, []string{`href="/g/ABCDEFGHJ-1"`, `href="/ratings/golf"`}},
		{"/ratings/golf", 200, []string{`data-testid="leader"`, `href="/@/Ana"`, ">1662?<", ">1338?<", `href="/ratings/tripeaks"`}},
		{"/ratings/tripeaks", 200, []string{`data-testid="no-leaders"`}},
		{"/ratings/chess", 404, []string{`data-testid="notfound"`}},
		{"/g/nope", 404, []string{`data-testid="notfound"`}},
		{"/@/nobody", 404, []string{`data-testid="notfound"`}},
		{"/@/bad%20name", 404, []string{`data-testid="notfound"`}},
	} {
		t.Run(tc.path, func(t *testing.T) {
			res, body := get(t, h, tc.path)
			if res.StatusCode != tc.status {
				t.Errorf("status = %d, want %d", res.StatusCode, tc.status)
			}
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			// CSP-clean: no inline handlers or styles.
			for _, bad := range []string{" style=", " onclick=", " onsubmit=", "<script>"} {
				if strings.Contains(body, bad) {
					t.Errorf("page contains %q", bad)
				}
			}
		})
	}
	// Without a store every profile is a 404.
	if res, _ := get(t, web.New(web.Options{}), "/@/ana"); res.StatusCode != 404 {
		t.Errorf("no store: status %d, want 404", res.StatusCode)
	}
}
