package e2e_test

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/accounts"
	"golfsolitaire/fairplay"
	"golfsolitaire/limit"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// TestModeratorPage: the fair-play review page, signed out and then
// signed in with one flagged player, at desktop and phone sizes, passes
// axe-core with no serious or critical violation and shows the flag with
// its two decisions.
func TestModeratorPage(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	fp := fairplay.NewMemoryStore()
	if err := fp.SetFlag(ctx, fairplay.Flag{Player: "seat:ABCD:Cleo", Name: "Cleo", FlaggedAt: time.Now(), Score: 9.5, Threshold: 4.6, Held: true}); err != nil {
		t.Fatal(err)
	}
	st := memstore.New(memstore.Options{})
	srv, err := server.New(server.Options{
		// Every browser comes from 127.0.0.1: sign-ups unlimited, and
		// its accounts may share rated games.
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		Store: st, Pages: web.New(web.Options{Exists: web.StoreExists(st)}),
		Limits: limit.NoLimits(), Fairplay: &server.Fairplay{Store: fp, ModeratorToken: "moderator-token"},
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
		st.Close()
	})
	browser := newBrowser(t)
	for _, size := range []struct {
		name string
		view chromedp.Action[chromedp.Void]
	}{{"desktop", chromedp.EmulateViewport(1280, 800)}, {"phone", phone(390, 844)}} {
		t.Run(size.name, func(t *testing.T) {
			mod := newPlayer(t, browser)
			do(t, mod, "the moderator opens the page", size.view,
				chromedp.Navigate(ts.URL+"/moderator"),
				chromedp.WaitVisible(chromedp.CSS(`[data-testid=mod-login]`)))
			axeCheck(t, mod, "moderator sign-in ("+size.name+")")
			do(t, mod, "the moderator signs in",
				chromedp.SendKeys(chromedp.CSS(`[data-testid=mod-login] input[name=token]`), "moderator-token"),
				chromedp.Submit(chromedp.CSS(`[data-testid=mod-login]`)))
			waitJS(t, mod, "the flag is listed", `document.querySelector('[data-testid=mod-flag]')?.dataset.player === 'seat:ABCD:Cleo' && !!document.querySelector('[data-testid=mod-clear]') && !!document.querySelector('[data-testid=mod-confirm]')`)
			axeCheck(t, mod, "moderator review ("+size.name+")")
			shot(t, mod, "moderator-"+size.name)
		})
	}
}
