package server_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// TestTournamentOneEntryPerAccount is the attack of one person holding two
// entries of an open tournament with one account, to learn the stock
// through the entry that plays first: a second name from the same
// browser, and a second browser (another session of the same account)
// with its own token, are both refused with already_entered; a guest, or
// another account, still enters.
func TestTournamentOneEntryPerAccount(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()))
	ana := newBrowser(t, e.ts)
	ana.signup("Ana", "correct horse")
	var host protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "Ana", "settings": map[string]any{"name": "Open", "holes": 9}}, &host), http.StatusCreated)
	if host.Entrant != 0 {
		t.Fatalf("host entry: %+v", host)
	}

	var refused protocol.APIError
	resp := ana.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Zed", "token": "second-tab-token-0001"}, &refused)
	if resp.StatusCode != http.StatusConflict || refused.Code != protocol.ErrCodeAlreadyEntered {
		t.Fatalf("a second entry of the same account under another name: %d %+v, want 409 %s", resp.StatusCode, refused, protocol.ErrCodeAlreadyEntered)
	}
	// Another browser, logged in to the same account.
	tab := newBrowser(t, e.ts)
	tab.wantStatus(tab.do("POST", "/api/account/login", protocol.AccountRequest{Name: "Ana", Password: "correct horse"}, nil), http.StatusOK)
	refused = protocol.APIError{}
	resp = tab.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Yves"}, &refused)
	if resp.StatusCode != http.StatusConflict || refused.Code != protocol.ErrCodeAlreadyEntered {
		t.Fatalf("a second entry of the same account from another browser: %d %+v, want 409 %s", resp.StatusCode, refused, protocol.ErrCodeAlreadyEntered)
	}

	var v struct {
		Entrants int `json:"entrants"`
	}
	ana.wantStatus(ana.do("GET", "/api/tournaments/"+host.ID, nil, &v), http.StatusOK)
	if v.Entrants != 1 {
		t.Fatalf("refused entries changed the field: %d entrants, want 1", v.Entrants)
	}

	// A guest and another account still enter.
	guest := newBrowser(t, e.ts)
	var g protocol.TournamentGrant
	guest.wantStatus(guest.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Zed"}, &g), http.StatusOK)
	bo := newBrowser(t, e.ts)
	bo.signup("Bo", "battery staple")
	bo.wantStatus(bo.do("POST", "/api/tournaments/"+host.ID+"/join", map[string]any{"name": "Bo"}, &g), http.StatusOK)
	if g.Entrant != 2 {
		t.Fatalf("Bo's entry: %+v", g)
	}

	// An accounts-only tournament: the same answer for a second browser.
	var only protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "x", "settings": map[string]any{"name": "Members", "holes": 9, "accounts": true}}, &only), http.StatusCreated)
	refused = protocol.APIError{}
	resp = tab.do("POST", "/api/tournaments/"+only.ID+"/join", map[string]any{"name": "Ana"}, &refused)
	if resp.StatusCode != http.StatusConflict || refused.Code != protocol.ErrCodeAlreadyEntered {
		t.Fatalf("accounts only, a second entry of the same account: %d %+v, want 409 %s", resp.StatusCode, refused, protocol.ErrCodeAlreadyEntered)
	}
}

// TestTournamentEvidenceByAccount: a logged-in player's tournament holes
// are analysed under their account, not under the name they entered
// with, so play in a tournament adds to the same evidence as their rated
// rooms (and a hold follows the account).
func TestTournamentEvidenceByAccount(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	fp := fairplay.NewMemoryStore()
	acct := inmem.New()
	e := newEnv(t, withAccounts(acct), func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, Config: &fairplay.Config{Samples: 4, Nodes: 1000, MaxSolves: 300}}
	})
	ana := newBrowser(t, e.ts)
	me := ana.signup("Ana", "correct horse")
	var host protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "Annie", "settings": map[string]any{"name": "Open", "holes": 9}}, &host), http.StatusCreated)
	if err := e.api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	playEntrantHole(t, ctx, e.ts, e.api, host.ID, host.Token, 1)
	id := accountID(t, ctx, acct, me.Name)
	waitFor(t, time.Minute, "hole 1 analysed", func() bool {
		_, _, err1 := fp.Player(ctx, id)
		_, _, err2 := fp.Player(ctx, "entrant:"+host.ID+":Annie")
		return err1 == nil || err2 == nil
	})
	if _, _, err := fp.Player(ctx, "entrant:"+host.ID+":Annie"); err == nil {
		t.Fatal("a logged-in entrant's hole was analysed under the entry's name, not the account")
	}
	if ev, _, err := fp.Player(ctx, id); err != nil || ev.Holes != 1 {
		t.Fatalf("evidence under %s: %+v %v, want one hole", id, ev, err)
	}
}

// accountID is the fair-play id of the account named name.
func accountID(t *testing.T, ctx context.Context, st accounts.Store, name string) string {
	t.Helper()
	key, err := accounts.Key(name)
	if err != nil {
		t.Fatal(err)
	}
	a, err := st.ByKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	return "account:" + strconv.FormatInt(int64(a.ID), 10)
}
