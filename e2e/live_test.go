package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"

	"golfsolitaire/server"
	"golfsolitaire/tourney"
)

// TestHomeLive: the home page shows what is on now from GET /api/live:
// the counts, no game to watch on an empty server, and the next scheduled
// tournaments (the hourly one first) with a countdown that ticks.
func TestHomeLive(t *testing.T) {
	t.Parallel()
	sc, err := tourney.ParseSchedule(tourney.DefaultSchedule)
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, func(o *server.Options) { o.Schedule = sc })
	b := newPlayer(t, newBrowser(t))
	do(t, b, "home", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live]`)))
	// The page asks again every 10 s: the schedule is listed by then.
	waitJS(t, b, "the next tournaments", `document.querySelectorAll('[data-testid=live-tournament]').length >= 3`)
	if got := eval[string](t, b, `document.querySelector('[data-testid=live-counts]').textContent`); got != "0 playing · 0 games in play · 0 watching" {
		t.Errorf("counts %q", got)
	}
	if got := eval[string](t, b, `document.querySelector('[data-testid=live-featured]').textContent`); got != "No public game to watch right now." {
		t.Errorf("featured %q", got)
	}
	first := eval[string](t, b, `document.querySelector('[data-testid=live-tournament] a').textContent`)
	if len(first) < 6 || first[:6] != "Hourly" {
		t.Errorf("the first listed is %q, want the hourly one", first)
	}
	cd := eval[string](t, b, `document.querySelector('[data-testid=live-countdown]').textContent`)
	waitJS(t, b, "the countdown ticks", `document.querySelector('[data-testid=live-countdown]').textContent !== `+jsString(cd)+` && document.querySelector('[data-testid=live-countdown]').textContent.startsWith('starts in ')`)
	if !eval[bool](t, b, `document.querySelector('[data-testid=live-tournament] a').getAttribute('href').startsWith('/t/T')`) {
		t.Error("the tournament does not link to its page")
	}
	fits(t, b, "home-live", "")
}
