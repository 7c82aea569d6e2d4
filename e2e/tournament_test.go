package e2e_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chromedp/chromedp"
)

// postJSON calls the API from the test (the host's side).
func postJSON(t *testing.T, url string, body, out any) {
	t.Helper()
	b, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode >= 300 {
		t.Fatalf("POST %s: %s", url, res.Status)
	}
	if out != nil {
		if err := json.NewDecoder(res.Body).Decode(out); err != nil {
			t.Fatal(err)
		}
	}
}

// TestTournamentInTheBrowser: a player enters a stroke-play tournament on
// its page, plays hole 1 in their tournament room by clicking (a few
// moves, then Stand), and a second browser watching the tournament page
// sees the leaderboard update live; the list page shows the tournament as
// live.
func TestTournamentInTheBrowser(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	var grant struct {
		ID        string `json:"id"`
		HostToken string `json:"hostToken"`
	}
	postJSON(t, ts.URL+"/api/tournaments", map[string]any{"settings": map[string]any{"name": "Browser Open", "holes": 9}}, &grant)

	ana := newPlayer(t, browser)
	do(t, ana, "Ana opens the tournament", chromedp.Navigate(ts.URL+"/t/"+grant.ID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=t-join]`)))
	waitJS(t, ana, "the rules are shown", `document.querySelector('[data-testid=t-name]').textContent === 'Browser Open' && document.querySelectorAll('[data-testid=t-commitments] li').length === 1`)
	do(t, ana, "Ana enters",
		chromedp.SetValue(chromedp.CSS(`[data-testid=t-join-name]`), "Ana"),
		chromedp.Click(chromedp.CSS(`[data-testid=t-join-submit]`)),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=t-you]`)))
	shot(t, ana, "01-entered")
	axeCheck(t, ana, "tournament entered")

	watcher := newPlayer(t, browser)
	do(t, watcher, "the watcher opens the tournament", chromedp.Navigate(ts.URL+"/t/"+grant.ID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=t-board]`)))

	postJSON(t, ts.URL+"/api/tournaments/"+grant.ID+"/start", map[string]any{"token": grant.HostToken}, nil)
	waitJS(t, ana, "Ana may play hole 1", `!document.querySelector('[data-testid=t-play]').hidden`)
	shot(t, ana, "02-ready")
	do(t, ana, "Ana plays", chromedp.Click(chromedp.CSS(`[data-testid=t-play]`)))
	waitJS(t, ana, "hole 1 starts", `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden`)
	shot(t, ana, "03-hole-1")
	axeCheck(t, ana, "tournament hole")
	boardFits(t, ana, "a tournament hole")

	// Play hole 1 by clicking (a few moves, then Stand); the leaderboard
	// then has its result.
	playSome(t, ana, "Ana", false, 4, nil)

	waitJS(t, watcher, "the watcher's leaderboard shows Ana thru 1",
		`[...document.querySelectorAll('[data-testid=lb-row]')].some(r => r.children[1].textContent === 'Ana' && r.children[3].textContent === '1')`)
	shot(t, watcher, "04-leaderboard")
	axeCheck(t, watcher, "tournament leaderboard")

	// Hole 1 is safe (its only entrant has finished it): watching Ana, the
	// watcher can step through her hole 1 board by board.
	do(t, watcher, "the watcher watches Ana", chromedp.Click(chromedp.CSS(`[data-testid=lb-row] button`)))
	waitJS(t, watcher, "hole 1 can be replayed", `!!document.querySelector('[data-testid=t-watch-replay] button[data-hole="1"]')`)
	clickJS(t, watcher, "the watcher replays hole 1", `[data-testid=t-watch-replay] button[data-hole="1"]`)
	waitJS(t, watcher, "the deal is drawn", `document.querySelectorAll('#t-replay-view .card').length > 0`)
	clickJS(t, watcher, "to the last board", `[data-testid=t-replay-last]`)
	waitJS(t, watcher, "the last board is shown", `(() => { const m = document.getElementById('t-replay-step').textContent.match(/(\d+)\D+(\d+)/); return !!m && m[1] === m[2] && m[1] !== '0'; })()`)
	shot(t, watcher, "04b-replay")
	axeCheck(t, watcher, "tournament replay")

	do(t, ana, "Ana goes back to the tournament", chromedp.Navigate(ts.URL+"/t/"+grant.ID), chromedp.WaitVisible(chromedp.CSS(`[data-testid=t-you]`)))
	waitJS(t, ana, "her next hole is 2", `document.querySelector('[data-testid=t-play]').textContent.includes('2') && document.querySelector('[data-testid=t-you-row]').textContent.includes('1')`)

	do(t, watcher, "the list of tournaments", chromedp.Navigate(ts.URL+"/tournaments"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=tour-form]`)))
	waitJS(t, watcher, "the tournament is listed as live", `[...document.querySelectorAll('[data-testid=list-live] a')].some(a => a.textContent === 'Browser Open')`)
	shot(t, watcher, "05-list")
}
