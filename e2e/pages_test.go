package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestPages renders the pages that need no room (lobby, practice, how to
// play, 404) in English and Spanish, on a desktop and on a 360 px phone:
// nothing may stick out sideways. Screenshots are saved.
func TestPages(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	b := newPlayer(t, newBrowser(t))
	for _, size := range []struct {
		name string
		view chromedp.Action[chromedp.Void]
	}{
		{"desktop", chromedp.EmulateViewport(1280, 900)},
		{"phone", phone(360, 740)},
	} {
		do(t, b, size.name, size.view)
		for _, lang := range []string{"en", "es"} {
			for _, p := range []struct{ path, sel, name string }{
				{"/", `[data-testid=create-form]`, "lobby"},
				{"/practice", `[data-testid=practice-form]`, "practice"},
				{"/how-to-play", `[data-testid=howto]`, "howto"},
				{"/nowhere", `[data-testid=notfound]`, "notfound"},
			} {
				name := p.name + "-" + lang + "-" + size.name
				do(t, b, name, chromedp.Navigate(ts.URL+p.path+"?lang="+lang), chromedp.WaitVisible(chromedp.CSS(p.sel)))
				fits(t, b, name, "")
				shot(t, b, name)
			}
		}
	}
}
