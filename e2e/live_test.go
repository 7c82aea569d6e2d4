package e2e_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/server"
	"golfsolitaire/tourney"
)

// TestHomeLive: the home page shows what is on now from GET /api/live:
// the counts, no game to watch on an empty server, and the next scheduled
// tournaments (the hourly one first) with a countdown that ticks.
func TestHomeLive(t *testing.T) {
	t.Parallel()
	// Hourly and a daily at half past, three hours on: the hourly one is
	// always the soonest (the default's daily at 20:00 ties with the
	// hourly one between 19:00 and 20:00).
	sc, err := tourney.ParseSchedule(fmt.Sprintf("hourly,daily@%02d:30", (time.Now().UTC().Hour()+3)%24))
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t, func(o *server.Options) { o.Schedule = sc })
	b := newPlayer(t, newBrowser(t))
	do(t, b, "home", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live]`)))
	// The page asks again every 2 s: the schedule is listed by then.
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
