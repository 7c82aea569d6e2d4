package e2e_test

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestMatchThroughTheLobby: Ana creates a one-hole match in the lobby, Bo
// joins by code, a spectator watches; Ana plays with the keyboard, Bo with
// clicks and reloads mid-hole, each a few moves before standing (three
// pages redraw every move; whole holes are played in TestPlayScreen and,
// by keys, in TestPracticeHintAndBot); everyone sees the standings at the
// end.
func TestMatchThroughTheLobby(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo, eve := newPlayer(t, browser), newPlayer(t, browser), newPlayer(t, browser)

	do(t, ana, "Ana opens the lobby",
		chromedp.Navigate(ts.URL+"/?lang=en"),
		chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "Ana"),
		chromedp.Click(chromedp.CSS(`[data-testid=open-create]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=create-form]`)),
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
	// The room starts when everyone is ready (the lobby's default): Bo's
	// ready starts it, Ana presses nothing.
	do(t, bo, "Bo is ready", chromedp.Click(chromedp.CSS(`[data-testid=ready]`)))
	waitJS(t, ana, "Ana plays", `!document.getElementById('play').hidden`)
	waitJS(t, bo, "Bo plays", `!document.getElementById('play').hidden`)
	waitJS(t, eve, "Eve sees the boards", `document.querySelectorAll('#boards [data-testid^=board-]').length === 2`)
	if c := eval[string](t, ana, `document.getElementById('commitment').textContent`); len(c) != 64 {
		t.Errorf("commitment = %q, want 64 hex digits", c)
	}
	shot(t, ana, "03-play")
	shot(t, eve, "04-spectator")

	// Ana plays with the keyboard; Bo clicks and reloads after a few moves.
	// Ana's moves redraw Bo's page but not his board: a card replaced
	// between his press and its release would lose the click (it did, in
	// CI, with a bot moving).
	eval[bool](t, bo, `(window.boBoard = document.querySelector('#my-board .board'), true)`)
	playSome(t, ana, "Ana", true, 8, nil)
	waitJS(t, bo, "Bo sees Ana's moves", `Number(document.getElementById('room').dataset.v) >= `+eval[string](t, ana, `document.getElementById('room').dataset.v`))
	if !eval[bool](t, bo, `document.querySelector('#my-board .board') === window.boBoard`) {
		t.Error("Ana's moves redrew Bo's board")
	}
	reloaded := false
	playSome(t, bo, "Bo", false, 8, func(n int) {
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
	// The best possible score: a spectator has no "yours".
	waitJS(t, eve, "the spectator sees the best possible", `document.querySelector('[data-testid=best-summary]').textContent.includes('Best possible')`)
	if got := eval[string](t, eve, `document.querySelector('[data-testid=best-summary]').textContent`); strings.Contains(got, "yours") {
		t.Errorf("the spectator reads %q", got)
	}
	if got := eval[int](t, ana, `document.querySelectorAll('#scorecard [data-testid^=score-row-]').length`); got != 2 {
		t.Errorf("scorecard rows = %d, want 2", got)
	}
	clickJS(t, ana, "Ana verifies the seed", `[data-testid=verify]`)
	waitJS(t, ana, "the seed verifies", `document.querySelector('[data-testid=verify-result]').dataset.ok === 'true'`)
	if got := eval[int](t, ana, `document.querySelectorAll('#chart polyline').length`); got != 2 {
		t.Errorf("chart lines = %d, want 2", got)
	}
	if got := eval[int](t, ana, `[...document.querySelectorAll('#my-board .outcome, #play .outcome')].filter(e => e.textContent.trim()).length`); got != 1 {
		t.Errorf("the outcome is shown %d times, want once", got)
	}
	shot(t, ana, "05-end-of-round")
	shot(t, eve, "06-spectator-end")

	// The records download link gives JSON with the hole's records.
	recs := evalAsync[string](t, ana, `(async () => {
		const a = document.querySelector('[data-testid=download]');
		if (!a.hasAttribute('download')) return 'not a download link';
		const data = await (await fetch(a.href)).json();
		const h = (data.holes || []).find(x => x.number === 1);
		return h && h.records && h.records.length === 2 && h.records.every(r => r.moves && r.moves.length > 0) ? 'ok' : JSON.stringify(data).slice(0, 300);
	})()`)
	if recs != "ok" {
		t.Errorf("records download: %s", recs)
	}

	// The replay: Ana's own hole is shown at once; step with the buttons
	// and the keyboard to the last board, which matches her final board.
	waitJS(t, ana, "the replay shows", `!document.querySelector('[data-testid=replay-player]').hidden && document.querySelector('[data-testid=replay-step]').textContent !== ''`)
	clickJS(t, ana, "next move", `[data-testid=replay-next]`)
	waitJS(t, ana, "step 1", `document.querySelector('[data-testid=replay-player]').dataset.step === '1' && document.querySelector('[data-testid=replay-move]').textContent.length > 0`)
	do(t, ana, "last move by key", chromedp.Focus(chromedp.CSS(`[data-testid=replay-player]`)), chromedp.KeyEvent(kb.End))
	waitJS(t, ana, "the last board", `(() => { const p = document.querySelector('[data-testid=replay-player]'); return p.dataset.step === p.dataset.last && p.dataset.last !== '0'; })()`)
	if !eval[bool](t, ana, `document.querySelector('#replay-view [data-testid=cards-left]').textContent === document.querySelector('#my-board [data-testid=cards-left]').textContent`) {
		t.Error("the replay's last board is not Ana's final board")
	}
	do(t, ana, "back by key", chromedp.KeyEvent(kb.ArrowLeft))
	waitJS(t, ana, "one step back", `(() => { const p = document.querySelector('[data-testid=replay-player]'); return Number(p.dataset.step) === Number(p.dataset.last) - 1; })()`)
	// From the scorecard: Bo's hole.
	clickJS(t, ana, "Bo's score opens his replay", `[data-testid=replay-1-1]`)
	waitJS(t, ana, "Bo's replay", `document.querySelector('[data-testid=replay-seat]').value === '1' && document.querySelector('[data-testid=replay-player]').dataset.step === '0' && document.activeElement === document.querySelector('[data-testid=replay-player]')`)
	shot(t, ana, "07-replay")

	// Rematch: both press it; a new round starts with a new commitment.
	old := eval[string](t, ana, `document.getElementById('commitment').textContent`)
	// Both press it at about the same time: the second press lands in the
	// waiting room the first one opened and counts as "ready".
	const press = `document.querySelector('[data-testid=rematch]').click(), true`
	eval[bool](t, ana, press)
	eval[bool](t, bo, press)
	for _, p := range []struct {
		ctx  context.Context
		name string
	}{{ana, "Ana"}, {bo, "Bo"}} {
		waitJS(t, p.ctx, p.name+" plays the rematch", `(() => { const r = document.getElementById('room'); const c = document.getElementById('commitment').textContent; return r.dataset.status === 'playing' && !document.getElementById('play').hidden && c.length === 64 && c !== `+jsString(old)+`; })()`)
	}
	if got := eval[string](t, bo, `document.getElementById('room-hole').textContent`); !strings.Contains(got, "1") {
		t.Errorf("rematch hole = %q", got)
	}
	shot(t, bo, "08-rematch")
}
