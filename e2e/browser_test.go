package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// chromium finds the browser: /usr/bin/chromium or one on PATH. Without one
// the test skips, or fails when CI is set.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Chromium is required when CI is set")
	}
	t.Skip("Chromium not found")
	return ""
}

// newServer runs the real server, in memory, with the pages.
func newServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv, err := server.New(server.Options{
		// Smaller solver budgets than production: -race slows the solver
		// some thirty times.
		SolveNodes: 200_000, RateNodes: 40_000,
		Store:          memstore.New(memstore.Options{}),
		Pages:          web.New(web.Options{}),
		QuickMatchWait: 2 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts
}

// newBrowser starts a headless Chromium for the test and returns its
// context; each player gets its own browser context (own storage) through
// newPlayer.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("no-default-browser-check", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	if err := chromedp.Do(ctx); err != nil { // start the browser
		t.Fatal(err)
	}
	return ctx
}

// newPlayer opens a tab in a fresh browser context: its own cookies and
// localStorage, like another person's browser.
func newPlayer(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return ctx
}

// artifacts is where screenshots go: $ARTIFACTS_DIR, or the repository's
// ignored artifacts/ directory.
func artifacts(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("ARTIFACTS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "artifacts")
	}
	dir = filepath.Join(dir, "e2e", strings.ReplaceAll(t.Name(), "/", "_"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// shot saves a full-page screenshot as a test artifact.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(artifacts(t), name+".png"), b, 0o644); err != nil {
		t.Log(err)
	}
}

// do runs actions with a deadline.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		shot(t, ctx, "failed-"+sanitize(what))
		t.Fatalf("%s: %v", what, err)
	}
}

// clickJS clicks the element by script. A mouse click aims where the
// element was when it was found; a line arriving in between (the solver's
// best score, shown when it is ready) can move it.
func clickJS(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	if !eval[bool](t, ctx, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e) return false; e.click(); return true })()`) {
		shot(t, ctx, "failed-"+sanitize(what))
		t.Fatalf("%s: no element %s", what, sel)
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, strings.ToLower(s))
}

// eval evaluates a script and decodes its value.
func eval[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](script))
	if err != nil {
		t.Fatalf("eval %q: %v", script, err)
	}
	return v
}

// waitJS waits until the expression is true.
// It retries across page navigations.
func waitJS(t *testing.T, ctx context.Context, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(12 * time.Second)
	for {
		tctx, cancel := context.WithDeadline(ctx, deadline)
		_, err := chromedp.Run(tctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) || !navigating(err) {
			shot(t, ctx, "failed-"+sanitize(what))
			t.Fatalf("%s: %v", what, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// navigating reports whether err comes from a page that navigated away
// while a script ran.
func navigating(err error) bool {
	s := err.Error()
	return strings.Contains(s, "navigated") || strings.Contains(s, "Not attached") || strings.Contains(s, "context") && strings.Contains(s, "not found") || strings.Contains(s, "destroyed") || strings.Contains(s, "Cannot find context")
}

// boardState is what the player's page shows of its board.
type boardState struct {
	V        int    `json:"v"`
	Status   string `json:"status"`
	Playable []int  `json:"playable"`
	CanTurn  bool   `json:"canTurn"`
	Done     bool   `json:"done"`
	Over     bool   `json:"over"`
	Play     bool   `json:"play"`
}

const readBoard = `(() => {
	const room = document.getElementById('room');
	const cards = [...document.querySelectorAll('#my-board [data-move]')];
	return {
		v: Number(room.dataset.v || 0), status: room.dataset.status,
		playable: cards.filter(c => c.dataset.move !== 's' && c.getAttribute('aria-disabled') === 'false').map(c => Number(c.dataset.move)),
		canTurn: !!document.querySelector('#my-board [data-move="s"]:not([disabled])'),
		done: room.dataset.board === 'done',
		over: room.dataset.board === 'over',
		play: !document.getElementById('play').hidden,
	};
})()`

// playHole plays the player's current hole to its end: the lowest free
// card that fits, else the stock. With keys it uses the keyboard (pile
// number, Space); otherwise it clicks. after is called after each move.
func playHole(t *testing.T, ctx context.Context, who string, keys bool, after func(n int)) {
	t.Helper()
	for n := 0; n < 200; n++ {
		s := eval[boardState](t, ctx, readBoard)
		if s.Done || s.Status != "playing" {
			return
		}
		switch {
		case s.Over:
			// Practice (undo on) waits for the player to stand.
			do(t, ctx, who+" stands", chromedp.Click(chromedp.CSS(`[data-testid=stand]`)))
		case len(s.Playable) > 0 && keys && s.Playable[0] <= 10:
			key := fmt.Sprint(s.Playable[0] % 10)
			do(t, ctx, who+" presses "+key, chromedp.KeyEvent(key))
		case len(s.Playable) > 0:
			do(t, ctx, who+" clicks a card", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#my-board [data-move="%d"]`, s.Playable[0]))))
		case s.CanTurn && keys:
			do(t, ctx, who+" presses space", chromedp.KeyEvent(" "))
		case s.CanTurn:
			do(t, ctx, who+" clicks the stock", chromedp.Click(chromedp.CSS(`#my-board [data-move="s"]`)))
		default:
			t.Fatalf("%s: nothing to play and the hole is not over: %+v", who, s)
		}
		waitJS(t, ctx, who+" sees the move", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d`, s.V))
		if after != nil {
			after(n)
		}
	}
	t.Fatalf("%s: the hole did not end", who)
}

// void drops an action's value.
func void[T any](a chromedp.Action[T]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := a(ctx, t)
		return chromedp.Void{}, err
	}
}

// phone emulates a phone in portrait: mobile (overlay scrollbars, the
// viewport meta tag honoured), touch, 2x pixels.
func phone(w, h int64) chromedp.Action[chromedp.Void] {
	return chromedp.EmulateViewport(w, h, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch, chromedp.EmulatePortrait)
}

// overflowJS lists the elements matching the selector whose box reaches
// past the viewport's left or right edge. Elements inside a .scroll-x box
// (a table that scrolls in its own box) are checked through the box.
const overflowJS = `((sel) => {
	const W = Math.min(window.innerWidth, document.documentElement.clientWidth);
	const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '') + (el.dataset.testid ? '[' + el.dataset.testid + ']' : '');
	const out = [];
	if (document.documentElement.scrollWidth > W) out.push('page scrollWidth ' + document.documentElement.scrollWidth + ' > ' + W);
	for (const el of document.querySelectorAll(sel)) {
		if (el.parentElement?.closest('.scroll-x') || el.closest('.sr-only, .skip, .fly')) continue;
		const r = el.getBoundingClientRect();
		if (!r.width && !r.height) continue;
		if (r.right > W + 0.5 || r.left < -0.5) out.push(name(el) + ' ' + Math.round(r.left) + '..' + Math.round(r.right) + ' (viewport ' + W + ')');
	}
	return out.slice(0, 12);
})`

// fits checks that nothing matching sel (default: every element) sticks
// out of the viewport sideways and that the page does not scroll sideways.
func fits(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	if sel == "" {
		sel = "body *"
	}
	b, _ := json.Marshal(sel)
	if bad := eval[[]string](t, ctx, overflowJS+"("+string(b)+")"); len(bad) > 0 {
		shot(t, ctx, "overflow-"+sanitize(what))
		t.Errorf("%s: past the viewport's edge: %s", what, strings.Join(bad, "; "))
	}
}

// boardFits is fits for the play or end view: every pile, card and slot of
// the boards, and the rest of the page.
func boardFits(t *testing.T, ctx context.Context, what string) {
	t.Helper()
	fits(t, ctx, what, `.board, .board .pile, .board .peak, .board .slot, .board .card, .board .pad, body *`)
}

// practiceRoom creates a solo practice room through the API from the page
// (so the seat token lands in this browser's storage) and opens it.
func practiceRoom(t *testing.T, ctx context.Context, base, settings string) {
	t.Helper()
	do(t, ctx, "open the site", chromedp.Navigate(base+"/practice"), chromedp.WaitReady(chromedp.CSS(`#practice-form`)))
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	script := `fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Tester', settings: ` + settings + `})})
		.then(r => r.json()).then(g => {
			if (!g.token) throw new Error(JSON.stringify(g));
			localStorage.setItem('golf.seat.' + g.code, JSON.stringify({token: g.token, seat: g.seat}));
			location.assign('/r/' + g.code);
			return g.code;
		})`
	if _, err := chromedp.Run(tctx, chromedp.Evaluate[string](script, chromedp.EvalAwaitPromise)); err != nil && !navigating(err) {
		t.Fatalf("creating a practice room: %v", err)
	}
	waitJS(t, ctx, "the practice hole starts", `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden`)
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// evalAsync evaluates a script that returns a promise and decodes what it
// resolves to.
func evalAsync[T any](t *testing.T, ctx context.Context, script string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %q: %v", script, err)
	}
	return v
}
