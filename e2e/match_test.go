package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestMatchThroughTheLobby: Ana creates a one-hole match in the lobby, Bo
// joins by code, a spectator watches; Ana plays with the keyboard, Bo with
// clicks and reloads mid-hole; everyone sees the standings at the end.
func TestMatchThroughTheLobby(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo, eve := newPlayer(t, browser), newPlayer(t, browser), newPlayer(t, browser)

	do(t, ana, "Ana opens the lobby",
		chromedp.Navigate(ts.URL+"/?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=create-form]`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "Ana"),
		chromedp.Click(chromedp.CSS(`#create-form input[name=holesPreset][value="1"]`)),
	)
	shot(t, ana, "01-lobby")
	do(t, ana, "Ana creates the room",
		chromedp.Click(chromedp.CSS(`[data-testid=create-submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=waiting]`)),
	)
	code := eval[string](t, ana, `document.getElementById('room').dataset.code`)
	if code == "" {
		t.Fatal("no room code")
	}
	if got := eval[string](t, ana, `document.querySelector('[data-testid=invite-link]').value`); got != ts.URL+"/r/"+code {
		t.Errorf("invite link = %q, want %q", got, ts.URL+"/r/"+code)
	}

	do(t, bo, "Bo joins by code",
		chromedp.Navigate(ts.URL+"/"),
		chromedp.WaitVisible(chromedp.CSS(`#join-code`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "Bo"),
		chromedp.SendKeys(chromedp.CSS(`#join-code`), code),
		chromedp.Click(chromedp.CSS(`[data-testid=join-submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=waiting]`)),
	)
	waitJS(t, bo, "Bo has seat 1", `document.getElementById('room').dataset.you === '1'`)
	do(t, eve, "Eve watches",
		chromedp.Navigate(ts.URL+"/watch/"+code),
		chromedp.WaitReady(chromedp.CSS(`#room`)),
	)
	waitJS(t, ana, "Ana sees Bo", `document.querySelector('[data-testid=seat-1]')?.textContent.includes('Bo')`)
	shot(t, ana, "02-waiting-room")
	do(t, bo, "Bo is ready", chromedp.Click(chromedp.CSS(`[data-testid=ready]`)))
	waitJS(t, ana, "Ana sees Bo ready", `document.querySelector('[data-testid=seat-1]')?.dataset.ready === 'true'`)
	do(t, ana, "Ana starts", chromedp.Click(chromedp.CSS(`[data-testid=start]`)))
	waitJS(t, ana, "Ana plays", `!document.getElementById('play').hidden`)
	waitJS(t, bo, "Bo plays", `!document.getElementById('play').hidden`)
	waitJS(t, eve, "Eve sees the boards", `document.querySelectorAll('#boards [data-testid^=board-]').length === 2`)
	if c := eval[string](t, ana, `document.getElementById('commitment').textContent`); len(c) != 64 {
		t.Errorf("commitment = %q, want 64 hex digits", c)
	}
	shot(t, ana, "03-play")
	shot(t, eve, "04-spectator")

	// Ana plays with the keyboard; Bo clicks and reloads after a few moves.
	playHole(t, ana, "Ana", true, nil)
	reloaded := false
	playHole(t, bo, "Bo", false, func(n int) {
		if n == 3 && !reloaded {
			reloaded = true
			do(t, bo, "Bo reloads", chromedp.Reload(), chromedp.WaitVisible(chromedp.CSS(`[data-testid=play]`)))
			waitJS(t, bo, "Bo keeps his seat", `document.getElementById('room').dataset.you === '1'`)
		}
	})
	if !reloaded {
		t.Log("Bo's hole ended before the reload")
	}

	waitJS(t, ana, "Ana sees the end", `document.getElementById('room').dataset.status === 'finished'`)
	waitJS(t, bo, "Bo sees the end", `document.getElementById('room').dataset.status === 'finished'`)
	waitJS(t, eve, "Eve sees the end", `document.getElementById('room').dataset.status === 'finished'`)
	if got := eval[int](t, eve, `document.querySelectorAll('#standings [data-testid^=standing-]').length`); got != 2 {
		t.Errorf("spectator standings rows = %d, want 2", got)
	}
	if got := eval[string](t, eve, `document.getElementById('match-status').textContent`); got == "" {
		t.Error("spectator sees no match status")
	}
	if got := eval[int](t, ana, `document.querySelectorAll('#scorecard [data-testid^=score-row-]').length`); got != 2 {
		t.Errorf("scorecard rows = %d, want 2", got)
	}
	do(t, ana, "Ana verifies the seed", chromedp.Click(chromedp.CSS(`[data-testid=verify]`)))
	waitJS(t, ana, "the seed verifies", `document.querySelector('[data-testid=verify-result]').dataset.ok === 'true'`)
	if got := eval[int](t, ana, `document.querySelectorAll('#chart polyline').length`); got != 2 {
		t.Errorf("chart lines = %d, want 2", got)
	}
	shot(t, ana, "05-end-of-round")
	shot(t, eve, "06-spectator-end")
}
