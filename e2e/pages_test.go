package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPages renders the pages that need no room (lobby, practice, how to
// play, tournaments, 404: an unknown path, a missing room, watch page and
// tournament, each offering the lobby) in English and Spanish, on a
// desktop and on a 360 px phone: nothing may stick out sideways, and
// axe-core finds no serious or critical violation. The markup is the same
// in both languages but for the words, so axe runs once per page and
// layout, in English on the desktop and in Spanish on the phone: every
// page is checked in each layout (contrast, structure) and in each
// language (names, lang), at half the cost of all four. Screenshots are
// saved (ARTIFACTS_DIR).
func TestPages(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	b := newPlayer(t, newBrowser(t))
	for _, size := range []struct {
		name    string
		view    chromedp.Action[chromedp.Void]
		axeLang string
	}{
		{"desktop", chromedp.EmulateViewport(1280, 900), "en"},
		{"phone", phone(360, 740), "es"},
	} {
		do(t, b, size.name, size.view)
		for _, lang := range []string{"en", "es"} {
			for _, p := range []struct{ path, sel, name string }{
				{"/", `[data-testid=quickmatch]`, "lobby"},
				{"/practice", `[data-testid=practice-form]`, "practice"},
				{"/how-to-play", `[data-testid=howto]`, "howto"},
				{"/nowhere", `[data-testid=notfound]`, "notfound"},
				{"/r/ZZZ-ZZZ-ZZZ", `[data-testid=notfound]`, "room-notfound"},
				{"/watch/ZZZ-ZZZ-ZZZ", `[data-testid=notfound]`, "watch-notfound"},
				{"/t/T000000000", `[data-testid=notfound]`, "tournament-notfound"},
				{"/tournaments", `main`, "tournaments"},
			} {
				name := p.name + "-" + lang + "-" + size.name
				do(t, b, name, chromedp.Navigate(ts.URL+p.path+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(p.sel)))
				fits(t, b, name, "")
				if p.sel == `[data-testid=notfound]` && !eval[bool](t, b, `!!document.querySelector('[data-testid=notfound] a[href="/"]')`) {
					t.Errorf("%s: the not-found page does not offer the lobby", name)
				}
				if lang == size.axeLang {
					axeCheck(t, b, name)
				} else {
					cspCheck(t, b, name)
				}
				shot(t, b, name)
			}
		}
	}
}
