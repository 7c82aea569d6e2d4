package e2e_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// coveredCardsJS lists the cards of the player's board that the element
// (a CSS selector) lies over, when it is shown.
const coveredCardsJS = `((sel) => {
	const el = document.querySelector(sel);
	if (!el || !el.getClientRects().length || el.closest('[hidden]')) return [];
	const a = el.getBoundingClientRect();
	return [...document.querySelectorAll('#my-board .card')].filter((c) => {
		const r = c.getBoundingClientRect();
		return r.width && r.left < a.right - 1 && r.right > a.left + 1 && r.top < a.bottom - 1 && r.bottom > a.top + 1;
	}).map((c) => c.closest('[data-move]')?.dataset.move || c.className);
})`

// TestRoundEnd: a one-hole round played to its end at 1280x800 and on a
// phone. The round's result says the player's own score for the last
// hole (the result card covers the line under the board that said it);
// the board does not move when the round ends (the play layout stays);
// a celebration never lies over the board's cards and never over the
// result.
func TestRoundEnd(t *testing.T) {
	t.Parallel()
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			ctx := newPlayer(t, newBrowser(t))
			do(t, ctx, "viewport", sc.emulate())
			practiceRoom(t, ctx, ts.URL, `{"game": "golf", "options": {"undo": true}, "holes": 1, "format": "stroke", "seats": 1, "public": false, "spectators": false, "deal": 7}`)
			eval[bool](t, ctx, `(() => {
				window.__toastCovers = [];
				const el = document.getElementById('toast');
				new MutationObserver(() => { if (!el.hidden) window.__toastCovers.push(...(`+coveredCardsJS+`)('#toast .toast-text')); })
					.observe(el, {attributes: true, attributeFilter: ['hidden']});
				return true;
			})()`)
			const boardBox = `(() => { const r = document.querySelector('#my-board .board').getBoundingClientRect(); return [Math.round(r.left), Math.round(r.top), Math.round(r.width)].join(','); })()`
			var during string
			playHole(t, ctx, "the player", false, func(int) {
				if eval[string](t, ctx, `document.getElementById('room').dataset.status`) == "playing" {
					during = eval[string](t, ctx, boardBox)
				}
			})
			waitJS(t, ctx, "the round's result", `document.getElementById('room').dataset.status === 'finished' && !document.getElementById('end').hidden`)
			if after := eval[string](t, ctx, boardBox); after != during {
				t.Errorf("the board moved when the round ended: %s during play, %s after", during, after)
			}
			if covers := eval[[]string](t, ctx, `window.__toastCovers`); len(covers) > 0 {
				t.Errorf("a celebration covered the board's cards %v", covers)
			}
			// Whatever celebration is still up stays under the result.
			if bad := eval[string](t, ctx, `(() => { const z = (id) => Number(getComputedStyle(document.getElementById(id)).zIndex) || 0; return z('toast') < z('end') ? '' : 'toast z ' + z('toast') + ', result z ' + z('end'); })()`); bad != "" {
				t.Errorf("a celebration draws over the round's result: %s", bad)
			}
			want := map[string]string{"en": "Your score on hole 1: ", "es": "Tu resultado en el hoyo 1: "}[eval[string](t, ctx, `document.documentElement.lang`)]
			score := eval[string](t, ctx, `document.querySelector('#scorecard [data-testid=score-0-1] .mark')?.textContent.trim() || '?'`)
			got := eval[string](t, ctx, `document.querySelector('#end [data-testid=end-hole]')?.textContent || ''`)
			if !strings.HasPrefix(got, want+score) {
				t.Errorf("the result says %q about the last hole, want %q", got, want+score)
			}
			inView(t, ctx, "the last hole's score", `#end [data-testid=end-hole]`)
			viewShot(t, ctx, "round-end")

			// The replay of the hole comes with its analysis: the best
			// score still reachable move by move, the costly moves marked
			// and listed, each stepping the replay to it.
			waitJSWithin(t, ctx, "the analysis", `!!document.querySelector('#replay [data-testid=analysis-summary]')`, 30*time.Second)
			got = eval[string](t, ctx, `document.querySelector('[data-testid=analysis-summary]').textContent`)
			if eval[bool](t, ctx, `document.getElementById('replay-analysis').textContent.includes('null')`) {
				t.Error("the analysis prints null")
			}
			if !strings.Contains(got, map[string]string{"en": "Best possible", "es": "Lo mejor posible"}[eval[string](t, ctx, `document.documentElement.lang`)]) || !strings.Contains(got, strings.Fields(score)[0]) {
				t.Errorf("the analysis says %q, want the best possible and the score %s", got, score)
			}
			points := eval[int](t, ctx, `document.querySelector('[data-testid=analysis-graph] polyline').getAttribute('points').trim().split(/\s+/).length`)
			moves := eval[int](t, ctx, `Number(document.getElementById('replay-player').dataset.last)`)
			if points != moves+1 {
				t.Errorf("the graph has %d points for %d moves", points, moves)
			}
			marks := eval[int](t, ctx, `document.querySelectorAll('[data-testid=analysis-mark]').length`)
			listed := eval[int](t, ctx, `document.querySelectorAll('[data-testid=analysis-move]').length`)
			if marks != listed || marks == 0 {
				t.Errorf("%d costly moves marked, %d listed (a greedy game of deal 7 loses strokes)", marks, listed)
			}
			if listed > 0 {
				eval[bool](t, ctx, `(document.getElementById('end-close').click(), true)`)
				at := eval[string](t, ctx, `document.querySelector('[data-testid=analysis-move]').dataset.move`)
				clickJS(t, ctx, "the first costly move", `[data-testid=analysis-move]`)
				waitJS(t, ctx, "the replay steps to it", `document.getElementById('replay-player').dataset.step === `+jsString(at))
			}
			viewShot(t, ctx, "analysis")
		})
	}
}

// TestHoleSummaryOutOfTheWay: the summary of a hole shows while the next
// hole is already dealt: it lies over none of the board's cards, and a
// click on the board plays at once (it used to cover the middle columns
// and take the clicks).
func TestHoleSummaryOutOfTheWay(t *testing.T) {
	t.Parallel()
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			ctx := newPlayer(t, newBrowser(t))
			do(t, ctx, "viewport", sc.emulate())
			practiceRoom(t, ctx, ts.URL, `{"game": "golf", "options": {"undo": true}, "holes": 2, "format": "stroke", "seats": 1, "public": false, "spectators": false, "deal": 7}`)
			playHole(t, ctx, "the player", false, nil)
			waitJS(t, ctx, "the hole summary over hole 2", `!document.getElementById('hole-summary').hidden && document.getElementById('room').dataset.hole === '2'`)
			inView(t, ctx, "the hole summary", `#hole-summary .moment-card`)
			if covers := eval[[]string](t, ctx, coveredCardsJS+`('#hole-summary .moment-card')`); len(covers) > 0 {
				failShot(t, ctx, "summary-covers")
				t.Errorf("the hole summary covers the cards %v of the live hole", covers)
			}
			viewShot(t, ctx, "summary")
			// A real click (at the card's middle) on the board plays.
			s := eval[boardState](t, ctx, readBoard)
			sel := `#my-board [data-move="s"]`
			if len(s.Playable) > 0 {
				sel = fmt.Sprintf(`#my-board [data-move="%d"]`, s.Playable[0])
			}
			do(t, ctx, "click the board", chromedp.Click(chromedp.CSS(sel)))
			waitJSWithin(t, ctx, "the click plays", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d`, s.V), 8*time.Second)
		})
	}
}

// TestAutoStart: a room made with "Start when everyone is ready" (ticked
// by default) starts when the guest says ready, without the host pressing
// Start.
func TestAutoStart(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo := newPlayer(t, browser), newPlayer(t, browser)
	do(t, ana, "Ana opens the lobby", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)))
	code, _ := newRoomInPage(t, ana, `{"game": "golf", "holes": 1, "format": "stroke", "seats": 2, "public": false, "spectators": true, "autoStart": true}`)
	do(t, ana, "Ana opens her room", chromedp.Navigate(ts.URL+"/r/"+code))
	waitJS(t, ana, "the waiting room", `document.getElementById('room')?.dataset.status === 'waiting' && !document.getElementById('waiting').hidden`)
	do(t, bo, "Bo opens the link", chromedp.Navigate(ts.URL+"/r/"+code))
	waitJS(t, bo, "the invitation", `!document.getElementById('invitation').hidden`)
	do(t, bo, "Bo names himself", chromedp.SendKeys(chromedp.CSS(`#invite-name`), "Bo"))
	clickJS(t, bo, "join", `[data-testid=invite-join]`)
	waitJS(t, bo, "Bo has seat 1", `document.getElementById('room').dataset.you === '1' && !document.getElementById('ready').hidden`)
	clickJS(t, bo, "Bo is ready", `[data-testid=ready]`)
	for _, p := range []context.Context{bo, ana} {
		waitJSWithin(t, p, "the round starts by itself", `document.getElementById('room').dataset.status === 'playing'`, 20*time.Second)
	}
}

// TestSiteWords: the interface in words a player reads at a glance, and
// the forms and bars that behave: an invitation offers the lobby in its
// own words (not the 404 page's); the rail says how a finished hole ended;
// a board held back by a stock turn says so plainly; typing a preset's
// number of holes picks that preset; no page asks the server a question
// that fails for a guest (a 401 in the console); on a phone the site's bar
// is one slim strip and the play title is not cut.
func TestSiteWords(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo := newPlayer(t, browser), newPlayer(t, browser)
	do(t, ana, "Ana opens the lobby", chromedp.Navigate(ts.URL+"/"), chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)))
	// No failed request for a guest on the lobby.
	failed := `performance.getEntriesByType('resource').filter((e) => e.responseStatus >= 400).map((e) => e.name + ' ' + e.responseStatus)`
	waitJS(t, ana, "the account check is done", `performance.getEntriesByType('resource').some((e) => e.name.includes('/api/'))`)
	if bad := eval[[]string](t, ana, failed); len(bad) > 0 {
		t.Errorf("the lobby's requests failed for a guest: %v", bad)
	}
	// Typing 3 in the holes box picks the 3 preset; 7 picks Custom.
	clickJS(t, ana, "open create", `[data-testid=open-create]`)
	waitJS(t, ana, "the create dialog", `document.getElementById('create-dialog').open`)
	for _, tc := range []struct{ typed, want string }{{"3", "3"}, {"7", "custom"}, {"18", "18"}} {
		eval[bool](t, ana, `(document.querySelector('#create-form [data-testid=set-holes]').value = '', true)`)
		do(t, ana, "type "+tc.typed, chromedp.SendKeys(chromedp.CSS(`#create-form [data-testid=set-holes]`), tc.typed))
		if got := eval[string](t, ana, `document.getElementById('create-form').elements.holesPreset.value`); got != tc.want {
			t.Errorf("typing %s in the holes box picks %q, want %q", tc.typed, got, tc.want)
		}
	}
	// The rail's and the held board's words.
	got := evalAsync[[]string](t, ana, `import('/static/i18n.js').then((m) => [m.t('race.holeDone', {score: 8}), m.t('wait.you', {n: 2}), m.t('wait.turn', {who: 'Ana', n: 2})])`)
	if strings.Contains(got[0], "holed") {
		t.Errorf("the rail says %q for a hole that ended with cards left", got[0])
	}
	if strings.HasPrefix(got[1], "Waiting for you") || strings.HasPrefix(got[2], "Waiting for") {
		t.Errorf("a held board reads %q / %q", got[1], got[2])
	}
	// The invitation.
	code, _ := newRoomInPage(t, ana, `{"game": "golf", "holes": 3, "format": "stroke", "seats": 2, "public": false, "spectators": true}`)
	do(t, bo, "Bo opens the link", chromedp.Navigate(ts.URL+"/r/"+code))
	waitJS(t, bo, "the invitation", `!document.getElementById('invitation').hidden`)
	if got := eval[string](t, bo, `[...document.querySelectorAll('#invitation a')].map((a) => a.textContent).join('|')`); strings.Contains(got, "nothing here") || got == "" {
		t.Errorf("the invitation's way out reads %q", got)
	}
	if bad := eval[[]string](t, bo, failed); len(bad) > 0 {
		t.Errorf("the invitation's requests failed for a guest: %v", bad)
	}

	// A phone in Spanish: a slim bar, and a play title that is not cut.
	do(t, bo, "phone", phone(390, 844), chromedp.Navigate(ts.URL+"/?lang=es"), chromedp.WaitVisible(chromedp.CSS(`#quickmatch`)))
	if h := box(t, bo, `header.top`).Height; h > 100 {
		viewShot(t, bo, "phone-bar")
		t.Errorf("the site's bar is %.0f px high on a phone, want at most 100", h)
	}
	touchTargets(t, bo, "the site's bar", `header.top`)
	practiceRoom(t, bo, ts.URL, `{"game": "golf", "options": {"undo": true}, "holes": 3, "format": "stroke", "seats": 1, "public": false, "spectators": false}`)
	if cut := eval[string](t, bo, `(() => { const h = document.getElementById('room-title'); return h.scrollWidth > h.clientWidth + 1 || h.scrollHeight > h.clientHeight + 1 ? h.textContent : ''; })()`); cut != "" {
		viewShot(t, bo, "phone-title")
		t.Errorf("the play title %q is cut on a phone", cut)
	}
	if head := box(t, bo, `.room-head`); head.Height > 60 {
		t.Errorf("the play header is %.0f px high on a phone", head.Height)
	}
}
