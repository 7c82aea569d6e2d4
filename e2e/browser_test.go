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
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"

	"golfsolitaire/accounts"
	"golfsolitaire/client"
	"golfsolitaire/fold"
	"golfsolitaire/limit"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
	"golfsolitaire/store/memstore"
	"golfsolitaire/web"
)

// chromium finds the browser: the path at the start of GOLF_CHROMIUM (set
// by .ci/run to the browser's path and version, so that the test cache key
// changes when a browser is installed or upgraded: go test does not replay
// a run that skipped for want of one), else Chromium's headless shell
// (Debian's chromium-headless-shell), else /usr/bin/chromium or one on
// PATH. The headless shell is the same Blink and V8 without the browser's
// windows and their WebUI pages: the package ran in 57 s alone against
// 80 s in the whole browser (Chromium 156, two cores). Without a browser
// the test skips, saying so loudly, or fails when CI is set.
func chromium(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("a browser test: not in the inner loop (go test -short)")
	}
	if v := strings.Fields(os.Getenv("GOLF_CHROMIUM")); len(v) > 0 {
		if _, err := os.Stat(v[0]); err == nil {
			return v[0]
		}
	}
	for _, p := range []string{"/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	for _, name := range []string{"chromium-headless-shell", "chrome-headless-shell", "chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatal("Chromium is required when CI is set")
	}
	msg := "SKIP: Chromium not found, so the browser test " + t.Name() + " does not run (install chromium, or run .ci/run)"
	t.Log(msg)
	fmt.Fprintln(os.Stderr, "e2e: "+msg)
	t.SkipNow()
	return ""
}

// newServer runs the real server, in memory, with the pages.
func newServer(t *testing.T, mod ...func(*server.Options)) *httptest.Server {
	t.Helper()
	st := memstore.New(memstore.Options{Replay: fold.Replay}) // as cli/cmd_serve.go
	opts := server.Options{
		// Every browser comes from 127.0.0.1: sign-ups unlimited, and
		// its accounts may share rated games.
		SignupRate: limit.Rate{PerSecond: limit.Unlimited}, AllowLinkedAccounts: true,
		// Smaller solver budgets than production: -race slows the solver
		// some thirty times.
		SolveNodes: 200_000, RateNodes: 40_000,
		Store:          st,
		Pages:          web.New(web.Options{Exists: web.StoreExists(st)}),
		QuickMatchWait: 2 * time.Second,
		Limits:         limit.NoLimits(), // every browser comes from 127.0.0.1
		// Bots think briefly: the tests wait on them.
		BotThink: 10 * time.Millisecond,
		// argon2id's cheapest costs: every server computes a dummy hash,
		// seconds at RFC 9106's 64 MiB under -race.
		PasswordParams: accounts.Params{Time: 1, Memory: 64, Threads: 1, SaltLen: 16, KeyLen: 32},
	}
	for _, f := range mod {
		f(&opts)
	}
	srv, err := server.New(opts)
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

// The package's one Chromium, started by the first test that needs it and
// shared by all: starting a browser per test cost a second or more of both
// cores each. Tests stay apart all the same: every player is a tab in its
// own browser context (newPlayer), with its own cookies, storage and cache,
// emptied at the end of the test before another test gets it; and every
// test has its own server (its own origin).
var shared struct {
	mu     sync.Mutex
	ctx    context.Context // the browser's first tab; done when the browser is gone
	cancel func()
	dir    string
}

// TestMain stops the shared browser after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	closeBrowser()
	os.Exit(code)
}

func closeBrowser() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.cancel != nil {
		shared.cancel()
		shared.cancel, shared.ctx = nil, nil
	}
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
		shared.dir = ""
	}
}

// newBrowser returns the context of the package's headless Chromium,
// starting it if it is not running (the first time, or after a crash);
// each player gets its own browser context (own storage) through
// newPlayer.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromium(t)
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if shared.ctx != nil && shared.ctx.Err() == nil {
		return shared.ctx
	}
	if shared.cancel != nil { // it crashed: start another
		shared.cancel()
		os.RemoveAll(shared.dir)
	}
	dir, err := os.MkdirTemp("", "golf-e2e-chromium-")
	if err != nil {
		t.Fatal(err)
	}
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
		// Chromium 156 (Debian's 156.0.8078.114) opens, for every window
		// (so for every player's browser context), the omnibox popups as
		// WebUI pages in renderers of their own, headless or not: about
		// 0.4 s of a core each at start, and they stay. Nobody sees them
		// here.
		chromedp.Flag("disable-features", "WebUIOmniboxPopup,WebUIOmniboxAimPopup,PreloadTopChromeWebUI"),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(1280, 900),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	if err := chromedp.Do(ctx); err != nil { // start the browser
		cancel()
		cancelAlloc()
		os.RemoveAll(dir)
		t.Fatal(err)
	}
	shared.ctx, shared.dir = ctx, dir
	shared.cancel = func() {
		cancel()
		cancelAlloc()
	}
	return ctx
}

// newPlayer gives the test a tab in a browser context of its own: its own
// cookies and localStorage, like another person's browser. Tabs are
// reused: a new browser context with its tab costs Chromium some 1.4 s of
// CPU (measured: ten players opening the lobby, 15.6 CPU-s; one player
// opening it ten times, 4.5), and the package opens some 55 players. When
// the test ends the tab goes back to a pool, emptied (reset below) of
// everything the test left in it; a test that failed closes its tab.
func newPlayer(t *testing.T, browser context.Context) context.Context {
	t.Helper()
	p := takePlayer(browser)
	if p == nil {
		ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
		if err := chromedp.Do(ctx, recordCSPViolations); err != nil {
			cancel()
			t.Fatal(err)
		}
		p = &player{ctx: ctx, cancel: cancel, browser: browser}
	}
	t.Cleanup(func() {
		if t.Failed() || p.noReuse || !resetPlayer(p) {
			p.cancel()
			return
		}
		players.mu.Lock()
		players.free = append(players.free, p)
		players.mu.Unlock()
	})
	players.mu.Lock()
	players.inUse[p.ctx] = p
	players.mu.Unlock()
	return p.ctx
}

// player is a tab in its own browser context.
type player struct {
	ctx     context.Context
	cancel  func()
	browser context.Context // the shared browser it lives in
	noReuse bool            // closed at the test's end, not reused
}

// players are the tabs not in use, for newPlayer to hand out again.
var players = struct {
	mu    sync.Mutex
	free  []*player
	inUse map[context.Context]*player
}{inUse: map[context.Context]*player{}}

// takePlayer takes a free tab of the browser, or nil.
func takePlayer(browser context.Context) *player {
	players.mu.Lock()
	defer players.mu.Unlock()
	for len(players.free) > 0 {
		p := players.free[len(players.free)-1]
		players.free = players.free[:len(players.free)-1]
		if p.browser == browser && p.ctx.Err() == nil {
			return p
		}
		p.cancel() // a tab of a browser that is gone
	}
	return nil
}

// doNotReuse closes the player's tab at the end of the test instead of
// handing it to another: for what the reset does not undo (a virtual
// authenticator, say).
func doNotReuse(ctx context.Context) {
	players.mu.Lock()
	defer players.mu.Unlock()
	if p := players.inUse[ctx]; p != nil {
		p.noReuse = true
	}
}

// resetPlayer empties a tab for another test: it leaves the page (its
// socket and timers go), clears the cookies and the HTTP cache of its
// browser context and the storage of the origin it was on (localStorage,
// sessionStorage, IndexedDB, caches: another test server could get the
// same port), and
// drops the emulated viewport, touch and media. It reports whether all
// went well.
func resetPlayer(p *player) bool {
	players.mu.Lock()
	delete(players.inUse, p.ctx)
	players.mu.Unlock()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	origin, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.origin`))
	if err != nil {
		return false
	}
	err = chromedp.Do(ctx,
		chromedp.Navigate("about:blank"),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			if strings.HasPrefix(origin, "http") {
				if _, err := cdp.Call(ctx, t, storage.ClearDataForOrigin, storage.ClearDataForOriginParams{Origin: origin, StorageTypes: "all"}); err != nil {
					return err
				}
			}
			if _, err := cdp.Call(ctx, t, network.ClearBrowserCookies, cdp.Empty{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, t, network.ClearBrowserCache, cdp.Empty{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, t, emulation.ClearDeviceMetricsOverride, cdp.Empty{}); err != nil {
				return err
			}
			if _, err := cdp.Call(ctx, t, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: false}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{}})
			return err
		}),
	)
	return err == nil
}

// recordCSPViolations makes every page the tab opens keep what its
// Content-Security-Policy refused (window.__csp); axeCheck fails on any.
var recordCSPViolations = chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
	_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')));`})
	return err
})

// artifacts is where screenshots go: $ARTIFACTS_DIR, or the repository's
// ignored artifacts/ directory (failure screenshots only).
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

// shot saves a full-page screenshot of a stage when ARTIFACTS_DIR is set
// (screenshots are opt-in: they cost time).
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv("ARTIFACTS_DIR") == "" {
		return
	}
	capture(t, ctx, name, chromedp.FullScreenshot(100))
}

// viewShot saves what the viewport shows (no scrolling) when ARTIFACTS_DIR
// is set: for what must be in view without scrolling.
func viewShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	if os.Getenv("ARTIFACTS_DIR") == "" {
		return
	}
	capture(t, ctx, name, chromedp.CaptureScreenshot())
}

// failShot saves a screenshot of a failure, always (to $ARTIFACTS_DIR or
// the ignored artifacts/ directory).
func failShot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	capture(t, ctx, name, chromedp.FullScreenshot(100))
}

func capture(t *testing.T, ctx context.Context, name string, a chromedp.Action[[]byte]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	b, err := chromedp.Run(tctx, a)
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
		failShot(t, ctx, "failed-"+sanitize(what))
		t.Fatalf("%s: %v", what, err)
	}
}

// clickJS clicks the element by script. A mouse click aims where the
// element was when it was found; a line arriving in between (the solver's
// best score, shown when it is ready) can move it.
func clickJS(t *testing.T, ctx context.Context, what, sel string) {
	t.Helper()
	if !eval[bool](t, ctx, `(() => { const e = document.querySelector(`+jsString(sel)+`); if (!e) return false; e.click(); return true })()`) {
		failShot(t, ctx, "failed-"+sanitize(what))
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
	waitJSWithin(t, ctx, what, expr, 12*time.Second)
}

// waitJSWithin is waitJS with its own limit, for what takes long on a
// busy machine (a bot's whole hole, a quick match's long poll).
func waitJSWithin(t *testing.T, ctx context.Context, what, expr string, limit time.Duration) {
	t.Helper()
	deadline := time.Now().Add(limit)
	// A page still loading (its address already the new one, its body not
	// yet parsed) makes many predicates throw: that counts as "not yet".
	// The error, if any, is reported when the wait fails.
	guarded := `(() => { try { return !!(` + expr + `); } catch (e) { return false; } })()`
	for {
		tctx, cancel := context.WithDeadline(ctx, deadline)
		_, err := chromedp.Run(tctx, chromedp.Poll[bool](guarded, chromedp.WithPollingTimeout(time.Until(deadline)), chromedp.WithPollingInterval(20*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) || !navigating(err) {
			failShot(t, ctx, "failed-"+sanitize(what))
			lctx, lcancel := context.WithTimeout(ctx, 2*time.Second)
			last, lerr := chromedp.Run(lctx, chromedp.Evaluate[any](expr))
			lcancel()
			t.Fatalf("%s: %v (the predicate now: %v, %v)", what, err, last, lerr)
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
	Summary  bool   `json:"summary"`
	Hole     int    `json:"hole"`
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
		summary: !document.getElementById('hole-summary').hidden,
		hole: Number(room.dataset.hole || 0),
	};
})()`

// playHole plays the player's current hole to its end: the lowest free
// card that fits, else the stock. With keys it uses the keyboard (pile
// number, Space); otherwise it clicks. after is called after each move.
func playHole(t *testing.T, ctx context.Context, who string, keys bool, after func(n int)) {
	t.Helper()
	if !playMoves(t, ctx, who, keys, 200, after) {
		t.Fatalf("%s: the hole did not end", who)
	}
}

// playMoves is playHole for at most max moves; it reports whether the
// hole is over.
func playMoves(t *testing.T, ctx context.Context, who string, keys bool, max int, after func(n int)) bool {
	t.Helper()
	hole := 0
	for n := 0; ; n++ {
		s := eval[boardState](t, ctx, readBoard)
		if hole == 0 {
			hole = s.Hole
		}
		if s.Done || s.Status != "playing" || s.Hole != hole {
			return true // the hole is over (the next may have started)
		}
		if n == max {
			return false
		}
		if s.Summary {
			clickJS(t, ctx, who+" closes the hole summary", `[data-testid=summary-close]`)
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
		// The move's event and then its ack: the page takes the next one.
		waitJS(t, ctx, who+" sees the move", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d && document.getElementById('room').dataset.pending !== 'true'`, s.V))
		if after != nil {
			after(n)
		}
	}
}

// playSome plays a few moves of the player's current hole as playHole
// does (keys or clicks), then stands in the page (the Stand button and its
// dialog) unless the hole is over by then: for holes whose every move no
// check is about (playing whole holes by click is TestPlayScreen's,
// TestPhonePractice's and TestTournamentInTheBrowser's).
func playSome(t *testing.T, ctx context.Context, who string, keys bool, moves int, after func(n int)) {
	t.Helper()
	if playMoves(t, ctx, who, keys, moves, after) {
		return
	}
	hole := eval[int](t, ctx, `Number(document.getElementById('room').dataset.hole)`)
	clickJS(t, ctx, who+" stands", `[data-testid=stand]`)
	over := fmt.Sprintf(`(() => { const r = document.getElementById('room'); return r.dataset.board === 'done' || r.dataset.status !== 'playing' || Number(r.dataset.hole) !== %d; })()`, hole)
	waitJS(t, ctx, who+"'s stand dialog opens or the hole is over", `document.getElementById('stand-dialog').open || `+over)
	if eval[bool](t, ctx, `document.getElementById('stand-dialog').open`) {
		clickJS(t, ctx, who+" confirms", `[data-testid=stand-confirm]`)
	}
	waitJS(t, ctx, who+"'s hole is over", over)
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
		failShot(t, ctx, "overflow-"+sanitize(what))
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

// newRoomInPage creates a room through the API from the page (the seat
// token lands in this browser's storage, as the lobby keeps it) without
// opening it; it returns the room's code and the seat token.
func newRoomInPage(t *testing.T, ctx context.Context, settings string) (code, token string) {
	t.Helper()
	g := evalAsync[protocol.SeatGrant](t, ctx, `fetch('/api/rooms', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: 'Tester', settings: `+settings+`})})
		.then((r) => r.json()).then((g) => {
			if (!g.token) throw new Error(JSON.stringify(g));
			localStorage.setItem('golf.seat.' + g.code, JSON.stringify({token: g.token, seat: g.seat}));
			return g;
		})`)
	return g.Code, g.Token
}

// playByAPI plays moves for a seat through the Go WebSocket client, not
// the page: for the moves of a hole whose clicks no check is about (the
// click path is played out elsewhere), which cost a browser a redraw and
// several DevTools round trips each. With start it first starts the round
// (host only). Call it while no page holds the seat, or reload the page
// after: a page continues above the seat's last sequence number only when
// it (re)connects.
func playByAPI(t *testing.T, base, code, token string, start bool, hole int, moves []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var c *client.Conn
	for i, n := 0, 0; i < len(moves) || start; n++ {
		// A connection may send 40 messages at once (server.Options's
		// PlayerRate): a new one every 30 keeps under it without waiting.
		if n%30 == 0 {
			if c != nil {
				c.CloseNow()
			}
			var err error
			if c, err = client.Dial(ctx, base, &client.Options{Room: code, Token: token}); err != nil {
				t.Fatalf("dialling room %s: %v", code, err)
			}
		}
		if start {
			if err := c.Start(ctx); err != nil {
				t.Fatalf("starting room %s: %v", code, err)
			}
			start = false
			continue
		}
		if _, err := c.Move(ctx, hole, moves[i]); err != nil {
			t.Fatalf("move %d (%s) by the API: %v", i+1, moves[i], err)
		}
		i++
	}
	if c != nil {
		c.CloseNow()
	}
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

// checkRedraws turns on the room page's redraw check (static/room.js,
// stale) in the tab: from its next render on, every part the page draws
// only when its inputs change is drawn again all the same, and a part
// that then shows something else is recorded (its inputs missed what it
// shows). The tab must be on the site's origin.
func checkRedraws(t *testing.T, ctx context.Context) {
	t.Helper()
	eval[bool](t, ctx, `(localStorage.setItem('golf.checkRedraw', '1'), true)`)
}

// redrawsOK fails the test on every part the redraw check caught in the
// tab, and when the check compared nothing.
func redrawsOK(t *testing.T, ctx context.Context, who string) {
	t.Helper()
	got := eval[struct {
		Checks int
		Errors []string
	}](t, ctx, `({checks: window.__redrawChecks || 0, errors: window.__redrawErrors || []})`)
	for _, e := range got.Errors {
		t.Errorf("%s's page: a part drawn only when its inputs change was out of date: %s", who, e)
	}
	if got.Checks == 0 {
		t.Errorf("%s's page: the redraw check compared no part", who)
	}
	t.Logf("%s's page: %d parts drawn again from the same inputs, %d out of date", who, got.Checks, len(got.Errors))
}
