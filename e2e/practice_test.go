package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestQuickMatch: two people press quick match and land in one room, in
// seats 0 and 1.
func TestQuickMatch(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo := newPlayer(t, browser), newPlayer(t, browser)
	do(t, ana, "Ana opens the lobby", chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)), chromedp.SendKeys(chromedp.CSS(`#name`), "Ana"))
	do(t, bo, "Bo opens the lobby", phone(360, 740), chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)), chromedp.SendKeys(chromedp.CSS(`#name`), "Bo"))
	do(t, ana, "Ana presses quick match", chromedp.Click(chromedp.CSS(`#quickmatch`)))
	waitJS(t, ana, "Ana waits", `!document.querySelector('[data-testid=qm-status]').hidden || !!document.getElementById('room')`)
	do(t, bo, "Bo presses quick match", chromedp.Click(chromedp.CSS(`#quickmatch`)))
	inRoom := `(() => { const r = document.getElementById('room'); return !!r && r.dataset.you !== undefined && r.dataset.status !== 'loading'; })()`
	waitJS(t, ana, "Ana is in a room", inRoom)
	waitJS(t, bo, "Bo is in a room", inRoom)
	a := eval[string](t, ana, `document.getElementById('room').dataset.code + ' ' + document.getElementById('room').dataset.you`)
	b := eval[string](t, bo, `document.getElementById('room').dataset.code + ' ' + document.getElementById('room').dataset.you`)
	ac, as, _ := strings.Cut(a, " ")
	bc, bs, _ := strings.Cut(b, " ")
	if ac != bc || ac == "" {
		t.Fatalf("quick match put Ana in %q and Bo in %q", ac, bc)
	}
	if as == bs || (as != "0" && as != "1") || (bs != "0" && bs != "1") {
		t.Errorf("seats: Ana %s, Bo %s; want 0 and 1", as, bs)
	}
	fits(t, bo, "the room on a phone", "")
	shot(t, bo, "quick-match-phone")
}

// TestPracticeDeals: a shared link /practice?deal=N starts deal N (the
// room says so, and two browsers get the same board); the practice form's
// "deal of the day" starts the daily deal. In the numbered room the
// connection is dropped: the banner shows, a move made meanwhile is sent
// after the reconnect, without a reload.
func TestPracticeDeals(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	one, two := newPlayer(t, browser), newPlayer(t, browser)
	started := `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden`
	tops := `[...document.querySelectorAll('#my-board .pile')].map(p => [...p.querySelectorAll('[data-card]')].map(c => c.dataset.card).join(' ')).join('|')`
	var boards []string
	for _, c := range []context.Context{one, two} {
		do(t, c, "open the deal link", chromedp.Navigate(ts.URL+"/practice?deal=42&game=golf&lang=en"))
		waitJS(t, c, "the deal starts", started)
		if got := eval[string](t, c, `document.querySelector('[data-testid=room-deal]').textContent`); !strings.Contains(got, "Deal #42") {
			t.Errorf("room header says %q, want Deal #42", got)
		}
		if got := eval[string](t, c, `document.querySelector('[data-testid=deal-link]').getAttribute('href')`); !strings.Contains(got, "deal=42") {
			t.Errorf("deal link = %q", got)
		}
		boards = append(boards, eval[string](t, c, tops))
	}
	if boards[0] != boards[1] || boards[0] == "" {
		t.Errorf("deal 42 differs between browsers:\n%s\n%s", boards[0], boards[1])
	}
	fits(t, one, "desktop room", "")
	shot(t, one, "deal-42")

	// The connection drops; a move made meanwhile is sent after the
	// reconnect, without a reload.
	v := eval[int](t, one, `Number(document.getElementById('room').dataset.v)`)
	eval[bool](t, one, `window.__golfReloaded = false; window.__golfSocket.close(), true`)
	waitJS(t, one, "the banner shows", `document.getElementById('room').dataset.conn === 'down' && !document.querySelector('[data-testid=banner]').hidden`)
	shot(t, one, "reconnecting")
	s := eval[boardState](t, one, readBoard)
	mv := `s`
	if len(s.Playable) > 0 {
		mv = fmt.Sprint(s.Playable[0])
	}
	eval[bool](t, one, `document.querySelector('#my-board [data-move="`+mv+`"]').click(), true`)
	waitJS(t, one, "reconnected", `document.getElementById('room').dataset.conn === 'up' && document.querySelector('[data-testid=banner]').hidden`)
	waitJS(t, one, "the move went through", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d`, v))
	if eval[bool](t, one, `window.__golfReloaded !== false`) {
		t.Error("the page reloaded")
	}

	// The deal of the day from the practice form.
	do(t, two, "the practice form",
		chromedp.Navigate(ts.URL+"/practice?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`[data-testid=practice-form]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=deal-today]`)),
		chromedp.Click(chromedp.CSS(`[data-testid=practice-submit]`)),
	)
	waitJS(t, two, "the daily deal starts", started)
	if got := eval[string](t, two, `document.querySelector('[data-testid=room-deal]').textContent`); !strings.Contains(got, "Mano del día") {
		t.Errorf("room header says %q, want Mano del día", got)
	}
	shot(t, two, "daily-es")
}
