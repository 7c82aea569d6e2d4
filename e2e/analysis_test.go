package e2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestPracticeHintAndBot: in practice the deal's difficulty shows, the
// Hint button (and the H key) suggests a legal move, and after the hole the
// end of round says the best possible score and steps through the best
// line (the player clicks a few moves and stands). Then the host of a
// match room adds a greedy bot in the waiting room, starts, and plays the
// match against it to the end; the bot is marked as a bot and the
// scorecard has the best possible row.
func TestPracticeHintAndBot(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ctx := newPlayer(t, browser)

	practiceRoom(t, ctx, ts.URL, `{"format": "stroke", "seats": 1, "holes": 1, "options": {"undo": true}, "public": false, "spectators": false}`)
	do(t, ctx, "press Hint", chromedp.Click(chromedp.CSS(`[data-testid=hint]`)))
	waitJS(t, ctx, "a hint shows", `!!document.querySelector('[data-testid=hint-text]').dataset.move`)
	mv := eval[string](t, ctx, `document.querySelector('[data-testid=hint-text]').dataset.move`)
	if eval[bool](t, ctx, `!document.querySelector('#my-board [data-move="`+mv+`"]')`) {
		t.Errorf("the hint %q is not a move on the board", mv)
	}
	v := eval[string](t, ctx, `document.getElementById('room').dataset.v`)
	do(t, ctx, "play the hint", chromedp.Click(chromedp.CSS(`#my-board [data-move="`+mv+`"]`)))
	waitJS(t, ctx, "the move is played", `document.getElementById('room').dataset.v !== `+jsString(v))
	waitJS(t, ctx, "the old hint is gone", `!document.querySelector('[data-testid=hint-text]').dataset.move`)
	do(t, ctx, "press H", chromedp.KeyEvent("h"))
	waitJS(t, ctx, "a hint shows again", `!!document.querySelector('[data-testid=hint-text]').dataset.move || document.querySelector('[data-testid=hint]').hidden`)
	shot(t, ctx, "01-practice-hint")
	playSome(t, ctx, "the player", false, 4, nil)
	waitJS(t, ctx, "the round ends", `document.getElementById('room').dataset.status === 'finished'`)
	waitJS(t, ctx, "the best possible score shows", `document.querySelector('[data-testid=best-summary]').textContent.includes('Best possible')`)
	// The deal's difficulty, once its hole is over (it would tell what the
	// stock holds before).
	waitJS(t, ctx, "the difficulty shows", `!document.querySelector('[data-testid=room-difficulty]').hidden && Number(document.querySelector('[data-testid=room-difficulty]').dataset.level) >= 1`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=room-difficulty]').textContent`); !strings.Contains(got, "Difficulty") {
		t.Errorf("difficulty label %q", got)
	}
	// The round's result is over the board: "Replays" leads to them.
	clickJS(t, ctx, "to the replays", `[data-testid=to-replays]`)
	waitJS(t, ctx, "the result gives way", `document.getElementById('end').hidden`)
	// (By script: the page is still scrolling smoothly to the replays.)
	clickJS(t, ctx, "step through the best line", `[data-testid=replay-best]`)
	waitJS(t, ctx, "the best line loads", `document.querySelector('[data-testid=replay-player]').dataset.best === 'true' && !document.querySelector('[data-testid=replay-player]').hidden`)
	do(t, ctx, "go to its end", chromedp.Click(chromedp.CSS(`[data-testid=replay-last]`)))
	shot(t, ctx, "02-best-line")

	// A match against a bot.
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	script := `fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Ana', settings: {format: 'match', holes: 1, public: false}})})
		.then(r => r.json()).then(g => {
			localStorage.setItem('golf.seat.' + g.code, JSON.stringify({token: g.token, seat: g.seat}));
			location.assign('/r/' + g.code + '?lang=en');
			return g.code;
		})`
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise)); err != nil && !navigating(err) {
		t.Fatalf("creating a match room: %v", err)
	}
	waitJS(t, ctx, "the waiting room offers a bot", `document.getElementById('room')?.dataset.status === 'waiting' && !document.querySelector('[data-testid=bot-form]').hidden`)
	do(t, ctx, "add a greedy bot", chromedp.SetValue(chromedp.CSS(`[data-testid=bot-level]`), "greedy"), chromedp.Click(chromedp.CSS(`[data-testid=bot-add]`)))
	waitJS(t, ctx, "the bot is seated", `(document.querySelector('[data-testid=seat-1]')?.textContent || '').includes('Bot (greedy)') && document.querySelector('[data-testid=bot-form]').hidden`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=seat-1]').textContent`); !strings.Contains(got, "bot") {
		t.Errorf("seat 1 is not marked as a bot: %q", got)
	}
	shot(t, ctx, "03-bot-seated")
	do(t, ctx, "start", chromedp.Click(chromedp.CSS(`[data-testid=start]`)))
	waitJS(t, ctx, "the hole starts", `document.getElementById('room').dataset.status === 'playing' && !document.getElementById('play').hidden`)
	if eval[bool](t, ctx, `!document.querySelector('[data-testid=hint]').hidden`) {
		t.Error("a match room offers hints")
	}
	playHole(t, ctx, "Ana", true, nil)
	// The bot's hole can take longer than one waitJS on a busy machine.
	waitJSWithin(t, ctx, "the bot finishes its hole", `document.getElementById('room').dataset.status === 'finished'`, 90*time.Second)
	waitJS(t, ctx, "the scorecard has the best possible row", `!!document.querySelector('[data-testid=best-row]') && !!document.querySelector('[data-testid=vsbest-1-1]')`)
	shot(t, ctx, "04-bot-match-end")
}
