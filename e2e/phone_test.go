package e2e_test

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// noHScroll is true when the page is no wider than the viewport.
const noHScroll = `document.documentElement.scrollWidth <= Math.min(window.innerWidth, document.documentElement.clientWidth)`

// TestPhonePractice: on phone-sized viewports (390x844 in Spanish, 360x740
// in English), quick practice opens a solo room that starts at once; every
// pile and card of the seven columns lies inside the viewport, the page
// does not scroll sideways, the column targets are big enough to tap, and
// a few moves are tapped and the player stands (TestPlayScreen taps a
// whole hole at 390x844); the end view fits too.
func TestPhonePractice(t *testing.T) {
	t.Parallel()
	for _, size := range []struct {
		w, h int64
		lang string
	}{{390, 844, "es"}, {360, 740, "en"}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			ctx := newPlayer(t, newBrowser(t))
			do(t, ctx, "the phone opens the lobby",
				phone(size.w, size.h),
				chromedp.Navigate(ts.URL+"/?lang="+size.lang),
				chromedp.WaitVisible(chromedp.CSS(`#quickpractice`)),
				chromedp.SendKeys(chromedp.CSS(`#name`), "Cai"),
			)
			fits(t, ctx, "lobby", "")
			shot(t, ctx, "01-lobby")
			do(t, ctx, "quick practice", chromedp.Click(chromedp.CSS(`#quickpractice`)))
			waitJS(t, ctx, "the practice hole starts", `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden`)
			if n := eval[int](t, ctx, `document.querySelectorAll('#my-board .pile').length`); n != 7 {
				t.Fatalf("piles = %d, want 7", n)
			}
			boardFits(t, ctx, "play view")
			if !eval[bool](t, ctx, noHScroll) {
				t.Error("the play view scrolls sideways")
			}
			// A column's target is its whole visible strip of cards.
			w := eval[float64](t, ctx, `Math.min(...[...document.querySelectorAll('#my-board .pile')].map(b => b.getBoundingClientRect().width))`)
			hgt := eval[float64](t, ctx, `Math.min(...[...document.querySelectorAll('#my-board .pile')].map(b => b.getBoundingClientRect().height))`)
			if w < 44 || hgt < 44 {
				t.Errorf("smallest column target is %.0fx%.0f px, want at least 44x44", w, hgt)
			}
			if size.lang == "es" && !eval[bool](t, ctx, `document.querySelector('#my-board [data-move="1"] [role=img]').getAttribute('aria-label').includes(' de ')`) {
				t.Error("cards have no Spanish names")
			}
			shot(t, ctx, "02-play")
			playSome(t, ctx, "the phone", false, 4, nil)
			waitJS(t, ctx, "the round ends", `document.getElementById('room').dataset.status === 'finished'`)
			boardFits(t, ctx, "end view")
			if !eval[bool](t, ctx, noHScroll) {
				t.Error("the end of round scrolls sideways")
			}
			shot(t, ctx, "03-end")
		})
	}
}

// TestPhoneLayouts: the pyramid-like layouts and the foundation games fit
// a 360 px wide phone without horizontal scroll, and a 1280x800 desktop
// with the whole board in view.
func TestPhoneLayouts(t *testing.T) {
	t.Parallel()
	for _, sc := range []screen{{"phone", 360, 740, true, "en"}, {"desktop", 1280, 800, false, "en"}} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			ctx := newPlayer(t, newBrowser(t))
			do(t, ctx, "viewport", sc.emulate())
			for _, game := range []string{"tripeaks", "pyramid-golf", "black-hole", "double-golf", "all-in-a-row"} {
				practiceRoom(t, ctx, ts.URL, `{"game": "`+game+`", "options": {"undo": true}, "holes": 1, "format": "stroke", "seats": 1, "public": false, "spectators": false}`)
				if got := eval[int](t, ctx, `document.querySelectorAll('#my-board .card').length`); got == 0 {
					t.Errorf("%s: no cards drawn", game)
				}
				boardFits(t, ctx, game)
				if !eval[bool](t, ctx, noHScroll) {
					t.Errorf("%s: the play view scrolls sideways", game)
				}
				if !sc.phone {
					inView(t, ctx, game+": the board", `#my-board .board`)
					if bad := eval[[]string](t, ctx, `(() => { const t = document.querySelector('#my-board .tableau').getBoundingClientRect(); return [...document.querySelectorAll('#my-board .tableau .card')].filter(c => { const r = c.getBoundingClientRect(); return r.right > t.right + 1 || r.left < t.left - 1 || r.bottom > t.bottom + 1; }).map(c => c.dataset.card); })()`); len(bad) > 0 {
						t.Errorf("%s: cards outside the tableau: %v", game, bad)
					}
				}
				viewShot(t, ctx, game)
			}
		})
	}
}
