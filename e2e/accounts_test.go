package e2e_test

import (
	"context"
	"crypto/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	cdpwebauthn "github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/inmem"
	"golfsolitaire/limit"
	"golfsolitaire/ratings"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// newAccountServer is newServer with an account store shared by the API
// and the profile pages (cmd_serve wires them the same way).
func newAccountServer(t *testing.T) (*httptest.Server, *inmem.Store) {
	t.Helper()
	st := inmem.New()
	srv, err := server.New(server.Options{
		// Every browser comes from 127.0.0.1: sign-ups unlimited, and
		// its accounts may share rated games.
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		SolveNodes: 200_000, RateNodes: 40_000,
		Store:    memstore.New(memstore.Options{}),
		Pages:    web.New(web.Options{Players: st}),
		Accounts: st,
		// Cheap argon2id: the browser test is about the pages.
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
		QuickMatchWait: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts, st
}

// TestSignupLoginProfile: Ana signs up in the browser and lands on her
// profile (with log out, as it is hers); she logs out, a wrong password
// says so in words, the right one logs her in again; after a rated game
// her profile shows the rating with "?", the chart and the game, which
// opens the game's archive page. Bo, a
// guest, sees her profile without her buttons.
func TestSignupLoginProfile(t *testing.T) {
	t.Parallel()
	ts, st := newAccountServer(t)
	browser := newBrowser(t)
	ana := newPlayer(t, browser)

	do(t, ana, "Ana signs up",
		chromedp.Navigate(ts.URL+"/signup?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "Ana"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "correct horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, ana, "Ana is on her profile", `location.pathname === '/@/Ana' && !!document.querySelector('[data-testid=profile]')`)
	waitJS(t, ana, "her own buttons show", `!document.getElementById('own-account').hidden`)
	if got := eval[string](t, ana, `document.querySelector('[data-testid=no-ratings]').textContent`); got != "No rated games yet." {
		t.Errorf("no-ratings = %q", got)
	}
	shot(t, ana, "profile-new")
	axeCheck(t, ana, "profile")

	do(t, ana, "Ana logs out", chromedp.Click(chromedp.CSS(`[data-testid=logout]`)))
	waitJS(t, ana, "back in the lobby", `location.pathname === '/'`)

	do(t, ana, "Ana tries a wrong password",
		chromedp.Navigate(ts.URL+"/login?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "ana"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "wrong horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, ana, "the error says so", `document.querySelector('[data-testid=acct-error]').textContent === 'Wrong name or password.'`)
	axeCheck(t, ana, "login with an error")
	eval[bool](t, ana, `(() => { document.querySelector('[data-testid=acct-password]').value = ''; return true })()`)
	do(t, ana, "Ana types the right one",
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "correct horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, ana, "Ana is logged in on her profile", `location.pathname === '/@/Ana' && !document.getElementById('own-account').hidden`)

	// A rated game against Bo, recorded as the server does at a round's
	// end, shows on the profile.
	ctx := context.Background()
	a, _ := st.ByKey(ctx, "ana")
	bo, err := st.Create(ctx, accounts.Account{Name: "Bo", Key: "bo", PasswordHash: "x"})
	if err != nil {
		t.Fatal(err)
	}
	g := accounts.Game{ID: "K7R4MP9TW-1", Family: "golf", Format: "match",
		Players: []accounts.GamePlayer{{Account: a.ID, Name: "Ana", Place: 1}, {Account: bo.ID, Name: "Bo", Place: 2}}}
	if _, err := st.RecordGame(ctx, g, func(b []ratings.Rating) ([]ratings.Rating, error) { return ratings.Config{}.Round(b, []int{1, 2}) }); err != nil {
		t.Fatal(err)
	}
	do(t, ana, "Ana reloads her profile", chromedp.Reload())
	waitJS(t, ana, "the rating shows, provisional", `document.querySelector('[data-testid=rating-value-golf]')?.textContent === '1662?'`)
	if n := eval[int](t, ana, `document.querySelectorAll('[data-testid=chart-golf] circle').length`); n != 2 {
		t.Errorf("chart has %d points, want 2 (1500, then after the game)", n)
	}
	if n := eval[int](t, ana, `document.querySelectorAll('[data-testid=recent-game]').length`); n != 1 {
		t.Errorf("%d recent games, want 1", n)
	}
	shot(t, ana, "profile-rated")
	axeCheck(t, ana, "profile with a rating")
	clickJS(t, ana, "Ana opens the game", `[data-testid=recent-game] a`)
	waitJS(t, ana, "the archive page shows both players", `location.pathname === '/g/K7R4MP9TW-1' && document.querySelectorAll('[data-testid=archive-player]').length === 2`)
	if got := eval[string](t, ana, `document.querySelector('[data-testid=archive-rating]').textContent`); got != "1500? → 1662? (+162)" {
		t.Errorf("Ana's rating change on the archive page = %q", got)
	}
	shot(t, ana, "archive")
	axeCheck(t, ana, "archive")

	guest := newPlayer(t, browser)
	do(t, guest, "a guest opens Ana's profile", chromedp.Navigate(ts.URL+"/@/ANA?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=profile-name]`)))
	if got := eval[string](t, guest, `document.querySelector('[data-testid=profile-name]').textContent`); got != "Ana" {
		t.Errorf("profile name = %q", got)
	}
	if !eval[bool](t, guest, `document.getElementById('own-account').hidden`) {
		t.Error("a guest sees Ana's log out and delete buttons")
	}
}

// TestPasskeyAndChallenge: in the browser (a virtual authenticator through
// the DevTools protocol; WebAuthn needs a domain name, so the pages are
// opened at localhost), Ana adds a passkey on her profile, logs out and
// logs in with it and no password; Bo opens her profile, challenges her
// and lands in the new room; Ana's profile lists the challenge.
func TestPasskeyAndChallenge(t *testing.T) {
	t.Parallel()
	ts, _ := newAccountServer(t)
	base := strings.Replace(ts.URL, "127.0.0.1", "localhost", 1)
	browser := newBrowser(t)
	ana := newPlayer(t, browser)
	doNotReuse(ana) // its virtual authenticator stays with the tab
	// The authenticator belongs to the tab: open it first.
	do(t, ana, "the tab opens", chromedp.Navigate(base+"/?lang=en"))
	tctx, cancel := context.WithTimeout(ana, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Call(tctx, cdpwebauthn.Enable, cdpwebauthn.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(tctx, cdpwebauthn.AddVirtualAuthenticator, cdpwebauthn.AddVirtualAuthenticatorParams{Options: &cdpwebauthn.VirtualAuthenticatorOptions{
		Protocol: cdpwebauthn.AuthenticatorProtocolCtap2, Ctap2version: cdpwebauthn.Ctap2versionCtap21, Transport: cdpwebauthn.AuthenticatorTransportInternal,
		HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
	}}); err != nil {
		t.Fatal(err)
	}
	do(t, ana, "Ana signs up",
		chromedp.Navigate(base+"/signup?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "Ana"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "correct horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, ana, "Ana can add a passkey", `location.pathname === '/@/Ana' && !document.querySelector('[data-testid=add-passkey]').hidden`)
	if !eval[bool](t, ana, `document.querySelector('[data-testid=challenge-box]').hidden`) {
		t.Error("Ana is offered to challenge herself")
	}
	clickJS(t, ana, "Ana adds a passkey", `[data-testid=add-passkey]`)
	waitJS(t, ana, "the passkey is added", `document.querySelector('[data-testid=passkey-status]').textContent === 'Passkey added: you can log in with it.'`)
	clickJS(t, ana, "Ana logs out", `[data-testid=logout]`)
	waitJS(t, ana, "back in the lobby", `location.pathname === '/'`)
	do(t, ana, "Ana opens the login page", chromedp.Navigate(base+"/login?lang=en"))
	waitJS(t, ana, "the passkey button shows", `!document.querySelector('[data-testid=passkey-login]').hidden`)
	clickJS(t, ana, "Ana logs in with her passkey", `[data-testid=passkey-login]`)
	waitJS(t, ana, "Ana is logged in on her profile", `location.pathname === '/@/Ana' && !document.getElementById('own-account').hidden`)

	bo := newPlayer(t, browser)
	do(t, bo, "Bo signs up",
		chromedp.Navigate(base+"/signup?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "Bo"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "battery staple"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, bo, "Bo is on his profile", `location.pathname === '/@/Bo'`)
	do(t, bo, "Bo opens Ana's profile", chromedp.Navigate(base+"/@/Ana?lang=en"))
	waitJS(t, bo, "the challenge button shows", `!document.querySelector('[data-testid=challenge-box]').hidden && document.querySelector('[data-testid=challenge]').textContent === 'Challenge Ana to a rated match'`)
	clickJS(t, bo, "Bo challenges Ana", `[data-testid=challenge]`)
	waitJS(t, bo, "Bo is in the new room", `location.pathname.startsWith('/r/')`)
	code := eval[string](t, bo, `location.pathname.slice(3)`)
	do(t, ana, "Ana reloads her profile", chromedp.Reload())
	waitJS(t, ana, "the challenge is listed", `!document.querySelector('[data-testid=challenges]').hidden && document.querySelector('#challenges a')?.getAttribute('href') === '/r/' + `+jsString(code))
	if got := eval[string](t, ana, `document.querySelector('#challenges a').textContent`); !strings.HasPrefix(got, "Bo challenges you: 9 holes of") {
		t.Errorf("challenge text %q", got)
	}
	shot(t, ana, "profile-challenge")
}

// TestLoginProofOfWork: past the name's budget of failed logins (guesses
// from other addresses), the login form does the proof of work the
// server asks for and logs the owner in, with no more than the right
// password typed.
func TestLoginProofOfWork(t *testing.T) {
	t.Parallel()
	st := inmem.New()
	srv, err := server.New(server.Options{
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		Store:          memstore.New(memstore.Options{}),
		Pages:          web.New(web.Options{Players: st}),
		Accounts:       st,
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
		LoginNameRate:  limit.Rate{PerSecond: 0.0001, Burst: 2},
		ProofBits:      12,
		Limits:         limit.NoLimits(),
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	post := func(ip, path, body string) int {
		d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
		c := &http.Client{Transport: &http.Transport{DialContext: d.DialContext}}
		resp, err := c.Post(ts.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := post("127.0.0.2", "/api/account/signup", `{"name":"Ana","password":"correct horse"}`); st != http.StatusCreated {
		t.Fatalf("signup = %d", st)
	}
	for i, ip := range []string{"127.0.0.3", "127.0.0.4"} {
		if st := post(ip, "/api/account/login", `{"name":"Ana","password":"guess horse"}`); st != http.StatusUnauthorized {
			t.Fatalf("guess %d = %d", i, st)
		}
	}
	browser := newBrowser(t)
	ana := newPlayer(t, browser)
	do(t, ana, "Ana logs in past the name's budget",
		chromedp.Navigate(ts.URL+"/login?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "Ana"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "correct horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, ana, "Ana is logged in on her profile", `location.pathname === '/@/Ana' && !document.getElementById('own-account').hidden`)
}

// TestRenameNotedName: an account kept from before the name rules with a
// reserved name ("GreedyBot") logs in; its profile says why the name is
// noted and offers a new one; a look-alike of another account is refused
// in words, a good one takes it to its new profile with the form gone.
func TestRenameNotedName(t *testing.T) {
	t.Parallel()
	ts, st := newAccountServer(t)
	ctx := context.Background()
	hash, err := accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32}.Hash("correct horse", rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, accounts.Account{Name: "GreedyBot", Key: "greedybot", PasswordHash: hash, NameNote: accounts.NoteReserved}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.Create(ctx, accounts.Account{Name: "victim1", Key: "victim1", Skeleton: accounts.Skeleton("victim1"), PasswordHash: "x"}); err != nil {
		t.Fatal(err)
	}
	browser := newBrowser(t)
	p := newPlayer(t, browser)
	do(t, p, "GreedyBot logs in",
		chromedp.Navigate(ts.URL+"/login?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=acct-name]`)),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-name]`), "GreedyBot"),
		chromedp.SendKeys(chromedp.CSS(`[data-testid=acct-password]`), "correct horse"),
		chromedp.Click(chromedp.CSS(`[data-testid=acct-submit]`)))
	waitJS(t, p, "the profile offers a new name", `location.pathname === '/@/GreedyBot' && !document.getElementById('own-account').hidden && !!document.querySelector('[data-testid=rename]')`)
	if got := eval[string](t, p, `document.querySelector('[data-testid=rename-why]').textContent`); !strings.Contains(got, "(reserved)") {
		t.Errorf("why = %q", got)
	}
	axeCheck(t, p, "profile with a noted name")
	do(t, p, "a look-alike of victim1",
		chromedp.SendKeys(chromedp.CSS(`[data-testid=rename-name]`), "vіctim1"),
		chromedp.Click(chromedp.CSS(`[data-testid=rename-submit]`)))
	waitJS(t, p, "the refusal is in words", `document.querySelector('[data-testid=rename-error]').textContent.length > 10`)
	eval[bool](t, p, `(() => { document.querySelector('[data-testid=rename-name]').value = ''; return true })()`)
	do(t, p, "a good name",
		chromedp.SendKeys(chromedp.CSS(`[data-testid=rename-name]`), "Greta"),
		chromedp.Click(chromedp.CSS(`[data-testid=rename-submit]`)))
	waitJS(t, p, "on the new profile, no form", `location.pathname === '/@/Greta' && !document.getElementById('own-account').hidden && !document.querySelector('[data-testid=rename]')`)
}
