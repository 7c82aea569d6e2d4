package e2e_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// noHScroll is true when the page is no wider than the viewport.
const noHScroll = `document.documentElement.scrollWidth <= window.innerWidth`

// TestPhonePractice: on a phone-sized viewport, quick practice opens a
// solo room that starts at once; the whole board fits without horizontal
// scroll, the cards are big enough to tap, and a hole is played to its
// end with taps.
func TestPhonePractice(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	phone := newPlayer(t, newBrowser(t))
	do(t, phone, "the phone opens the lobby",
		chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)),
		chromedp.Navigate(ts.URL+"/?lang=es"),
		chromedp.WaitVisible(chromedp.CSS(`#quickpractice`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "Cai"),
	)
	if !eval[bool](t, phone, noHScroll) {
		t.Error("the lobby scrolls sideways on a phone")
	}
	shot(t, phone, "01-lobby-phone-es")
	do(t, phone, "quick practice", chromedp.Click(chromedp.CSS(`#quickpractice`)))
	waitJS(t, phone, "the practice hole starts", `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden`)
	if !eval[bool](t, phone, noHScroll) {
		t.Error("the play view scrolls sideways on a phone")
	}
	w := eval[float64](t, phone, `Math.min(...[...document.querySelectorAll('#my-board [data-move]')].map(b => b.getBoundingClientRect().width))`)
	hgt := eval[float64](t, phone, `Math.min(...[...document.querySelectorAll('#my-board [data-move]')].map(b => b.getBoundingClientRect().height))`)
	if w < 44 || hgt < 44 {
		t.Errorf("smallest card target is %.0fx%.0f px, want at least 44x44", w, hgt)
	}
	if !eval[bool](t, phone, `document.querySelector('#my-board [data-move="1"] [role=img]').getAttribute('aria-label').includes(' de ')`) {
		t.Error("cards have no Spanish names")
	}
	shot(t, phone, "02-play-phone")
	playHole(t, phone, "the phone", false, nil)
	waitJS(t, phone, "the round ends", `document.getElementById('room').dataset.status === 'finished'`)
	if !eval[bool](t, phone, noHScroll) {
		t.Error("the end of round scrolls sideways on a phone")
	}
	shot(t, phone, "03-end-phone")
}

// TestPages renders the static pages in a browser and saves screenshots.
func TestPages(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	b := newPlayer(t, newBrowser(t))
	for _, p := range []struct{ path, sel, name string }{
		{"/how-to-play", `[data-testid=howto]`, "howto"},
		{"/how-to-play?lang=es", `[data-testid=howto]`, "howto-es"},
		{"/practice?lang=en", `[data-testid=practice-form]`, "practice"},
		{"/nowhere", `[data-testid=notfound]`, "notfound"},
	} {
		do(t, b, p.path, chromedp.Navigate(ts.URL+p.path), chromedp.WaitVisible(chromedp.CSS(p.sel)))
		shot(t, b, p.name)
	}
}
