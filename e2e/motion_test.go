package e2e_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// reducedMotion emulates prefers-reduced-motion: reduce (or clears it).
func reducedMotion(on bool) chromedp.Action[chromedp.Void] {
	v := ""
	if on {
		v = "reduce"
	}
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: v}}})
		return err
	})
}

// countFlights starts counting the flying cards the page adds.
const countFlights = `(() => {
	window.__flights = 0; window.__flips = 0;
	new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) if (n.classList?.contains('fly')) {
		window.__flights++;
		// A turned stock card turns over on its way.
		queueMicrotask(() => { if (n.getAnimations().some(a => a.effect.getKeyframes().some(k => String(k.transform).includes('rotateY')))) window.__flips++; });
	} }).observe(document.body, {childList: true});
	return true;
})()`

// countSounds counts the audio contexts the page makes and the sounds it
// starts in them (oscillators and noise buffers: Web Audio synthesis).
const countSounds = `(() => {
	window.__contexts = 0; window.__sounds = 0;
	const AC = window.AudioContext;
	window.AudioContext = class extends AC {
		constructor(...a) { super(...a); window.__contexts++; }
		createOscillator() { window.__sounds++; return super.createOscillator(); }
		createBufferSource() { window.__sounds++; return super.createBufferSource(); }
	};
	return true;
})()`

// TestMotionAndSound: a played card flies to the waste and a turned stock
// card flips over (Web Animations), on a desktop and at phone size, and
// with prefers-reduced-motion nothing moves (no flight, no pulse, no CSS
// animation); sound is off by default (no audio context at all), is
// synthesised with Web Audio once on (no audio file, no <audio>), and the
// choice is remembered across a reload.
func TestMotionAndSound(t *testing.T) {
	t.Parallel()
	for _, reduce := range []bool{false, true} {
		t.Run(fmt.Sprintf("reduce=%v", reduce), func(t *testing.T) {
			t.Parallel()
			ts := newServer(t)
			ctx := newPlayer(t, newBrowser(t))
			do(t, ctx, "media", reducedMotion(reduce), chromedp.EmulateViewport(1280, 800))
			practiceRoom(t, ctx, ts.URL, `{"game": "golf", "options": {"undo": true}, "holes": 1, "format": "stroke", "seats": 1, "public": false, "spectators": false, "deal": 3}`)
			if eval[string](t, ctx, `document.getElementById('sound').getAttribute('aria-pressed')`) != "false" {
				t.Error("sound is on by default")
			}
			eval[bool](t, ctx, countFlights)
			eval[bool](t, ctx, countSounds)
			// Two moves on a desktop and two at phone size: the stock (a
			// flip) or, when one fits, a card.
			for _, size := range []struct {
				name string
				view chromedp.Action[chromedp.Void]
			}{{"desktop", chromedp.EmulateViewport(1280, 800)}, {"phone", phone(390, 844)}} {
				do(t, ctx, size.name, size.view)
				eval[bool](t, ctx, `window.__flights = 0, window.__flips = 0, true`)
				turns := 0
				for i := 0; i < 2; i++ {
					s := eval[boardState](t, ctx, readBoard)
					// One stock turn (a flip) and one card when one fits.
					if len(s.Playable) > 0 && (i == 1 || !s.CanTurn) {
						clickJS(t, ctx, "play a card", fmt.Sprintf(`#my-board [data-move="%d"]`, s.Playable[0]))
					} else {
						turns++
						clickJS(t, ctx, "turn the stock", `#my-board [data-move="s"]`)
					}
					waitJS(t, ctx, "the move lands", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d`, s.V))
				}
				flights := eval[int](t, ctx, `window.__flights`)
				if reduce && flights != 0 {
					t.Errorf("%s: %d cards flew with reduced motion", size.name, flights)
				}
				if !reduce && flights != 2 {
					t.Errorf("%s: %d cards flew for two moves, want 2", size.name, flights)
				}
				if flips := eval[int](t, ctx, `window.__flips`); !reduce && (flips != turns || turns == 0) {
					t.Errorf("%s: %d cards turned over for %d stock turns", size.name, flips, turns)
				}
				if reduce {
					if running := eval[[]string](t, ctx, `document.getAnimations().filter(a => a.playState === 'running').map(a => (a.animationName || 'script') + ' on ' + (a.effect?.target?.className || ''))`); len(running) > 0 {
						t.Errorf("%s: with reduced motion these run: %v", size.name, running)
					}
				}
			}
			// Sound: nothing at all while off; synthesised once on.
			if n := eval[int](t, ctx, `window.__contexts`); n != 0 {
				t.Errorf("sound off, yet the page made %d audio contexts", n)
			}
			clickJS(t, ctx, "sound on", `#sound`)
			waitJS(t, ctx, "a sound is synthesised", `window.__contexts === 1 && window.__sounds > 0`)
			s := eval[boardState](t, ctx, readBoard)
			before := eval[int](t, ctx, `window.__sounds`)
			if len(s.Playable) > 0 {
				clickJS(t, ctx, "play a card", fmt.Sprintf(`#my-board [data-move="%d"]`, s.Playable[0]))
			} else {
				clickJS(t, ctx, "turn the stock", `#my-board [data-move="s"]`)
			}
			waitJS(t, ctx, "the move sounds", fmt.Sprintf(`window.__sounds > %d`, before))
			if files := eval[[]string](t, ctx, `[...performance.getEntriesByType('resource').map(e => e.name).filter(n => /\.(mp3|ogg|oga|wav|m4a|aac|flac|opus|weba)(\?|$)/i.test(n)), ...[...document.querySelectorAll('audio')].map(a => a.outerHTML)]`); len(files) > 0 {
				t.Errorf("audio files: %v", files)
			}
			// Remembered.
			do(t, ctx, "reload", chromedp.Reload())
			waitJS(t, ctx, "sound stays on", `document.getElementById('sound')?.getAttribute('aria-pressed') === 'true' && localStorage.getItem('golf.sound') === '1'`)
		})
	}
}
