package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"golfsolitaire/accounts/inmem"
	"golfsolitaire/fairplay"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// oneSeat is a server that refuses linked accounts (the tests' default
// allows them: every test client comes from 127.0.0.1).
func oneSeat(mod ...func(*server.Options)) func(*server.Options) {
	return func(o *server.Options) {
		o.AllowLinkedAccounts = false
		for _, f := range mod {
			f(o)
		}
	}
}

// wantLinked checks a 409 linked_accounts refusal that suggests a casual
// room.
func wantLinked(t *testing.T, what string, resp *http.Response, e protocol.APIError) {
	t.Helper()
	if resp.StatusCode != http.StatusConflict || e.Code != protocol.ErrCodeLinkedAccounts || !strings.Contains(e.Message, "casual") {
		t.Errorf("%s = %d %+v, want 409 linked_accounts suggesting a casual room", what, resp.StatusCode, e)
	}
}

// TestLinkedAccountsOneSeat: two accounts from one address cannot take
// both seats of a rated room, nor two entries of an accounts-only
// tournament; an account from another address and browser can. Accounts
// that share a browser (its device cookie) from different addresses are
// refused too.
func TestLinkedAccountsOneSeat(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), oneSeat())
	ana, bo := browserFrom(t, e.ts, "127.0.0.91"), browserFrom(t, e.ts, "127.0.0.91")
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	var g protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, &g), http.StatusCreated)
	var refused protocol.APIError
	wantLinked(t, "Bo's seat in Ana's rated room", bo.do("POST", "/api/rooms/"+g.Code+"/join", map[string]any{}, &refused), refused)
	// Casual rooms are open to both.
	var c protocol.SeatGrant
	ana.wantStatus(ana.do("POST", "/api/rooms", map[string]any{"name": "Ana", "settings": stroke(2, 1, nil)}, &c), http.StatusCreated)
	bo.wantStatus(bo.do("POST", "/api/rooms/"+c.Code+"/join", map[string]any{"name": "Bo"}, nil), http.StatusOK)

	cy := browserFrom(t, e.ts, "127.0.0.92")
	cy.signup("Cy", "correct horse")
	cy.wantStatus(cy.do("POST", "/api/rooms/"+g.Code+"/join", map[string]any{}, nil), http.StatusOK)

	// Accounts-only tournament.
	var tg protocol.TournamentGrant
	ana.wantStatus(ana.do("POST", "/api/tournaments", map[string]any{"name": "Ana", "settings": map[string]any{"name": "Members", "holes": 9, "accounts": true}}, &tg), http.StatusCreated)
	refused = protocol.APIError{}
	wantLinked(t, "Bo's entry beside Ana's", bo.do("POST", "/api/tournaments/"+tg.ID+"/join", map[string]any{"name": "Bo"}, &refused), refused)
	cy.wantStatus(cy.do("POST", "/api/tournaments/"+tg.ID+"/join", map[string]any{"name": "Cy"}, nil), http.StatusOK)

	// One browser (device cookie), two addresses.
	shared := browserFrom(t, e.ts, "127.0.0.93")
	shared.wantStatus(shared.do("GET", "/api/daily", nil, nil), http.StatusOK) // any GET sets the device cookie
	shared.signup("Dee", "correct horse")
	var dg protocol.SeatGrant
	shared.wantStatus(shared.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, &dg), http.StatusCreated)
	shared.wantStatus(shared.do("POST", "/api/account/logout", nil, nil), http.StatusNoContent)
	jar := shared.c.Jar
	shared.c = from("127.0.0.94")
	shared.c.Jar = jar
	shared.signup("Eve", "battery staple")
	refused = protocol.APIError{}
	wantLinked(t, "Eve's seat beside Dee's from the same browser", shared.do("POST", "/api/rooms/"+dg.Code+"/join", map[string]any{}, &refused), refused)
}

// TestLinkedAccountsDaily: the daily challenge takes one account per
// person: a second account from the same address is refused.
func TestLinkedAccountsDaily(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), oneSeat())
	ana, bo := browserFrom(t, e.ts, "127.0.0.95"), browserFrom(t, e.ts, "127.0.0.95")
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	var d struct {
		ID string `json:"id"`
	}
	ana.wantStatus(ana.do("GET", "/api/daily", nil, &d), http.StatusOK)
	ana.wantStatus(ana.do("POST", "/api/tournaments/"+d.ID+"/join", map[string]any{"name": "Ana"}, nil), http.StatusOK)
	var refused protocol.APIError
	wantLinked(t, "Bo's daily beside Ana's", bo.do("POST", "/api/tournaments/"+d.ID+"/join", map[string]any{"name": "Bo"}, &refused), refused)
}

// TestLinkedAccountsQuickMatchAndChallenge: a rated quick match never
// pairs two linked accounts, and a rated challenge to a linked account is
// refused.
func TestLinkedAccountsQuickMatchAndChallenge(t *testing.T) {
	t.Parallel()
	e := newEnv(t, withAccounts(inmem.New()), oneSeat(func(o *server.Options) { o.QuickMatchWait = 4 * time.Second }))
	ana, bo := browserFrom(t, e.ts, "127.0.0.96"), browserFrom(t, e.ts, "127.0.0.96")
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	var refused protocol.APIError
	wantLinked(t, "Ana challenging Bo", ana.do("POST", "/api/players/Bo/challenge", map[string]any{}, &refused), refused)

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	qm := map[string]any{"name": "x", "settings": map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2, "rated": true}}
	// Both ask, again and again, until one is refused: whichever finds
	// the other waiting is refused, and the other waits on, unseated.
	type answer struct {
		who    string
		status int
		err    protocol.APIError
	}
	answers := make(chan answer, 64)
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, p := range []struct {
		who string
		b   *browser
	}{{"Ana", ana}, {"Bo", bo}} {
		wg.Go(func() {
			for {
				select {
				case <-done:
					return
				default:
				}
				var e protocol.APIError
				st := p.b.do("POST", "/api/quickmatch", qm, &e).StatusCode
				if st != http.StatusNoContent {
					answers <- answer{p.who, st, e}
				}
			}
		})
	}
	var first answer
	select {
	case first = <-answers:
	case <-ctx.Done():
		t.Fatal("neither rated quick match was answered")
	}
	close(done)
	wg.Wait()
	close(answers)
	if first.status != http.StatusConflict || first.err.Code != protocol.ErrCodeLinkedAccounts || !strings.Contains(first.err.Message, "casual") {
		t.Errorf("%s's rated quick match = %d %+v, want 409 linked_accounts suggesting a casual room", first.who, first.status, first.err)
	}
	for a := range answers {
		if a.status == http.StatusOK {
			t.Errorf("%s was seated with a linked account", a.who)
		}
	}
}

// TestRatedProbation: with a probation, a new account plays rated games
// only after finishing casual rounds (or once old enough): refused with
// not_eligible in words, then allowed after a casual round.
func TestRatedProbation(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := newEnv(t, withAccounts(inmem.New()), func(o *server.Options) {
		o.RatedProbation = 24 * time.Hour
		o.ProbationRounds = 1
	})
	ana, bo := signedUpPair(t, e.ts)
	var refused protocol.APIError
	resp := ana.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, &refused)
	if resp.StatusCode != http.StatusForbidden || refused.Code != protocol.ErrCodeNotEligible || !strings.Contains(refused.Message, "casual") {
		t.Fatalf("a new account's rated room = %d %+v, want 403 not_eligible naming casual rounds", resp.StatusCode, refused)
	}
	casual := map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2, "suddenDeath": true}
	playRoom(t, ctx, e, ana, bo, casual)
	waitFor(t, time.Minute, "the casual round counted", func() bool {
		return ana.do("POST", "/api/rooms", map[string]any{"settings": ratedMatch()}, nil).StatusCode == http.StatusCreated
	})
}

// TestLinksShownToModerators: a flagged player's linked accounts (by a
// shared address here) come with the flags, on the API and the page.
func TestLinksShownToModerators(t *testing.T) {
	t.Parallel()
	fp := fairplay.NewMemoryStore()
	acct := inmem.New()
	e := newEnv(t, withAccounts(acct), func(o *server.Options) {
		o.Fairplay = &server.Fairplay{Store: fp, ModeratorToken: "mod-secret"}
	})
	ana, bo := browserFrom(t, e.ts, "127.0.0.97"), browserFrom(t, e.ts, "127.0.0.97")
	ana.signup("Ana", "correct horse")
	bo.signup("Bo", "battery staple")
	ctx := context.Background()
	id := accountID(t, ctx, acct, "Ana")
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: id, Name: "Ana", FlaggedAt: time.Now(), Held: true, Score: 9, Threshold: 6.9}); err != nil {
		t.Fatal(err)
	}
	var flags protocol.FairplayFlags
	mod := newBrowser(t, e.ts)
	mod.wantStatus(mod.do("GET", "/api/fairplay/flags", nil, &flags, "Authorization", "Bearer mod-secret"), http.StatusOK)
	links := flags.Links[id]
	if len(links) != 1 || links[0].Name != "Bo" || links[0].Kind != "address" || links[0].At.IsZero() {
		t.Errorf("links of %s = %+v, want Bo by address", id, flags.Links)
	}
	req, _ := http.NewRequest("GET", e.ts+"/moderator", nil)
	req.Header.Set("Authorization", "Bearer mod-secret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if !strings.Contains(string(body), `data-testid="mod-link"`) || !strings.Contains(string(body), "Bo") {
		t.Errorf("the review page does not show Ana's link to Bo")
	}
}
