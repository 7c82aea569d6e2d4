package e2e_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// TestRoomCodesAgree: the browser's normalizeCode (static/code.js) reads
// every row of roomcode/testdata/codes.json as Go's roomcode.Normalize
// does (roomcode's TestNormalizeTable checks the Go side on the same
// table).
func TestRoomCodesAgree(t *testing.T) {
	t.Parallel()
	table, err := os.ReadFile("../roomcode/testdata/codes.json")
	if err != nil {
		t.Fatal(err)
	}
	ts := newServer(t)
	ctx := newPlayer(t, newBrowser(t))
	do(t, ctx, "open the lobby", chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(chromedp.CSS(`#quickmatch`)))
	bad := evalAsync[[]string](t, ctx, `import('/static/code.js').then(({ normalizeCode }) => `+string(table)+`
		.filter((r) => normalizeCode(r.in) !== r.want).map((r) => JSON.stringify(r.in) + ' -> ' + JSON.stringify(normalizeCode(r.in)) + ', want ' + JSON.stringify(r.want)))`)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestRenderers: the how-to-play diagrams are drawn by the room page's own
// renderers (board.js, scorecard.js), the only ones: the example board's
// piles, free cards and names; a spectator's board has no buttons; the
// pyramid layouts place 27 cards without two on one spot; the scorecard
// marks scores with signs, not colour only.
func TestRenderers(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	ctx := newPlayer(t, newBrowser(t))
	do(t, ctx, "open how to play", chromedp.Navigate(ts.URL+"/how-to-play?lang=en"), chromedp.WaitReady(chromedp.CSS(`[data-testid=howto]`)))
	waitJS(t, ctx, "the diagrams are drawn", `!!document.querySelector('#howto-board [data-testid=board-0]') && !!document.querySelector('#howto-scorecard [data-testid=scorecard]') && document.querySelectorAll('#howto-kings .card').length === 7`)
	type pile struct {
		Label    string `json:"label"`
		Playable bool   `json:"playable"`
	}
	piles := eval[[]pile](t, ctx, `[...document.querySelectorAll('#howto-board [data-pile] .top')].map((e) => ({ label: e.querySelector('.card').getAttribute('aria-label'), playable: e.classList.contains('playable') }))`)
	want := []pile{{"six of clubs", true}, {"two of spades", false}, {"eight of diamonds", true}}
	if fmt.Sprint(piles) != fmt.Sprint(want) {
		t.Errorf("example piles = %v, want %v", piles, want)
	}
	if got := eval[string](t, ctx, `document.querySelector('#howto-board [data-testid=cards-left]').textContent`); got != "8" {
		t.Errorf("cards left = %q, want 8", got)
	}
	if !eval[bool](t, ctx, `!!document.querySelector('#howto-board .waste [aria-label="seven of hearts"]')`) {
		t.Error("the waste card has no name")
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('#howto-board button').length`); n != 0 {
		t.Errorf("a board drawn for looking at has %d buttons", n)
	}
	if got := eval[string](t, ctx, `document.querySelector('#howto-scorecard [data-testid=topar-1]').textContent`); got != "+1" {
		t.Errorf("Bo's to par = %q, want +1 (a sign, not colour only)", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#howto-scorecard [data-testid=topar-0]').classList.contains('under')`) {
		t.Error("Ana's to par is not marked under par")
	}
	if got := eval[string](t, ctx, `document.querySelector('#howto-scorecard [data-testid=score-0-2] .mark').className`); got != "mark eagle" {
		t.Errorf("Ana's hole 2 (−2 strokes: 7 under par) is marked %q, want mark eagle", got)
	}
	// Peaks: every position of both shapes on its own spot, inside the
	// width, and the drawn board carries 27 cards for 27 piles.
	collisions := evalAsync[[]string](t, ctx, `import('/static/board.js').then(({ peakPosition, renderBoard }) => {
		const out = [];
		for (const shape of ['tripeaks', 'pyramid-golf']) {
			const seen = new Map();
			for (let p = 0; p < 28; p++) {
				const { x, y, w } = peakPosition(shape, p);
				if (x < 0 || x + 2 > w) out.push(shape + ' ' + p + ' outside: ' + x);
				if (seen.has(x + ',' + y)) out.push(shape + ' ' + p + ' on ' + seen.get(x + ',' + y));
				seen.set(x + ',' + y, p);
			}
			const piles = Array.from({ length: 28 }, (_, i) => (i ? ['5H'] : ['']));
			const el = renderBoard({ seat: 0, layout: shape, piles, waste: ['4C'], playable: [20], stockLeft: 3, canTurn: true, cardsLeft: 27, run: 0 }, { interactive: true });
			const n = el.querySelectorAll('.peak').length;
			if (n !== 27) out.push(shape + ': ' + n + ' cards drawn, want 27');
		}
		return out;
	})`)
	for _, c := range collisions {
		t.Error(c)
	}
	axeCheck(t, ctx, "howto")
}

// clearingDeal finds a numbered Golf deal the solver clears, and the line
// that clears it (record form: "3", "s", ...).
func clearingDeal(t *testing.T, settings string) (int, []string) {
	t.Helper()
	for n := 1; n <= 60; n++ {
		var s match.Settings
		if err := json.Unmarshal([]byte(fmt.Sprintf(settings, n)), &s); err != nil {
			t.Fatal(err)
		}
		d := golf.NewDeal(s.Variant, golf.NumberedSeed(n))
		sol := golf.Solve(&d, &golf.SolveOptions{MaxNodes: 50_000})
		if sol.Cleared {
			moves := make([]string, len(sol.Moves))
			for i, m := range sol.Moves {
				moves[i] = m.String()
			}
			return n, moves
		}
	}
	t.Fatal("no clearing deal among the first 60")
	return 0, nil
}

// TestHoleOutCelebration: holing out (clearing the tableau) at phone size
// (English) and on a desktop (Spanish) says so over the board with a burst
// of suits; with prefers-reduced-motion the words come without the burst
// and without any animation running. The clearing line is played through
// the API up to its last move, which the player clicks in the page (the
// celebration follows the event of that move): clicking a whole hole is
// played out elsewhere (TestPlayScreen, TestPhonePractice).
func TestHoleOutCelebration(t *testing.T) {
	t.Parallel()
	const settings = `{"game": "golf", "options": {"undo": true}, "holes": 1, "format": "stroke", "seats": 1, "public": false, "spectators": false, "deal": %d}`
	n, line := clearingDeal(t, settings)
	ts := newServer(t)
	browser := newBrowser(t)
	for _, tc := range []struct {
		sc     screen
		reduce bool
	}{{screens[1], false}, {screens[1], true}, {screens[0], false}} {
		reduce, sc := tc.reduce, tc.sc
		sc.lang = map[bool]string{true: "en", false: "es"}[sc.phone]
		ctx := newPlayer(t, browser)
		do(t, ctx, sc.name, reducedMotion(reduce), sc.emulate(), chromedp.Navigate(ts.URL+"/?lang="+sc.lang), chromedp.WaitReady(chromedp.CSS(`#quickmatch`)))
		code, token := newRoomInPage(t, ctx, fmt.Sprintf(settings, n))
		playByAPI(t, ts.URL, code, token, true, 1, line[:len(line)-1])
		do(t, ctx, "open the room", chromedp.Navigate(ts.URL+"/r/"+code+"?lang="+sc.lang))
		waitJS(t, ctx, "the hole is one move from holing out", `document.getElementById('room')?.dataset.status === 'playing' && !document.getElementById('play').hidden && document.querySelector('#my-board [data-testid=cards-left]')?.textContent === '1'`)
		eval[bool](t, ctx, `(() => { window.__holed = null; new MutationObserver(() => { const el = document.getElementById('toast'); if (!el.hidden && el.dataset.kind === 'holed' && !window.__holed) { const r = el.getBoundingClientRect(); window.__holed = { text: el.querySelector('.toast-text')?.textContent || '', burst: el.querySelectorAll('.spark').length, moving: document.getAnimations().length, inView: r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= document.documentElement.clientWidth && r.bottom <= innerHeight }; } }).observe(document.getElementById('toast'), { attributes: true, childList: true, subtree: true }); return true })()`)
		mv := line[len(line)-1]
		v := eval[int](t, ctx, `Number(document.getElementById('room').dataset.v)`)
		waitJS(t, ctx, fmt.Sprintf("the last move (%s) can be made", mv), fmt.Sprintf(`(() => { const b = document.querySelector('#my-board [data-move="%s"]'); return document.getElementById('room').dataset.pending !== 'true' && !!b && !b.disabled && b.getAttribute('aria-disabled') !== 'true' })()`, mv))
		clickJS(t, ctx, "move "+mv, fmt.Sprintf(`#my-board [data-move="%s"]`, mv))
		waitJS(t, ctx, "the move lands", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d`, v))
		waitJS(t, ctx, "the celebration shows", `!!window.__holed`)
		type holed struct {
			Text   string `json:"text"`
			Burst  int    `json:"burst"`
			Moving int    `json:"moving"`
			InView bool   `json:"inView"`
		}
		h := eval[holed](t, ctx, `window.__holed`)
		if want := map[string]string{"en": "Holed out!", "es": "¡Hoyo limpio!"}[sc.lang]; h.Text != want {
			t.Errorf("%s reduce=%v: the celebration says %q, want %q", sc.name, reduce, h.Text, want)
		}
		if !reduce && h.Burst == 0 {
			t.Errorf("holing out on the %s: no burst of suits", sc.name)
		}
		if reduce && (h.Burst != 0 || h.Moving != 0) {
			t.Errorf("reduced motion: %d sparks and %d animations at the celebration", h.Burst, h.Moving)
		}
		if !h.InView {
			t.Errorf("%s reduce=%v: the celebration is not wholly in view", sc.name, reduce)
		}
		viewShot(t, ctx, fmt.Sprintf("holed-%s-reduce-%v", sc.name, reduce))
	}
}

// seatVia takes a seat through the API in the player's browser (creating
// the room with settings when code is empty), keeps the seat token as the
// lobby does and opens the room page; it returns the room's code.
func seatVia(t *testing.T, ctx context.Context, base, code, settings, name string) string {
	t.Helper()
	return seatViaLang(t, ctx, base, code, settings, name, "en")
}

// seatViaLang is seatVia with the pages in the language lang.
func seatViaLang(t *testing.T, ctx context.Context, base, code, settings, name, lang string) string {
	t.Helper()
	do(t, ctx, name+" opens the site", chromedp.Navigate(base+"/?lang="+lang), chromedp.WaitReady(chromedp.CSS(`#quickmatch`)))
	path, body := "/api/rooms/"+code+"/join", `{name: `+jsString(name)+`}`
	if code == "" {
		path, body = "/api/rooms", `{name: `+jsString(name)+`, settings: `+settings+`}`
	}
	code = evalAsync[string](t, ctx, `fetch(`+jsString(path)+`, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(`+body+`)})
		.then((r) => r.json()).then((g) => {
			if (!g.token) throw new Error(JSON.stringify(g));
			localStorage.setItem('golf.seat.' + g.code, JSON.stringify({token: g.token, seat: g.seat}));
			return g.code;
		})`)
	do(t, ctx, name+" opens the room", chromedp.Navigate(base+"/r/"+code+"?lang="+lang), chromedp.WaitReady(chromedp.CSS(`#room`)))
	waitJS(t, ctx, name+" is seated", `Number(document.getElementById('room').dataset.you) >= 0`)
	return code
}

// TestRailMinis: in a stroke room each player sees the other's board once,
// in miniature in the race rail (never again full size below), and it is
// the settled board of docs/fairplay.md: while Bo has turned no stock
// card, Ana's miniature stays at her deal however far she plays (with the
// reason it waits); once Bo turns one, it shows Ana's board just after her
// first turn, not her plays after it.
func TestRailMinis(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo := newPlayer(t, browser), newPlayer(t, browser)
	code := seatVia(t, ana, ts.URL, "", `{"game": "golf", "holes": 1, "format": "stroke", "seats": 2}`, "Ana")
	seatVia(t, bo, ts.URL, code, "", "Bo")
	clickJS(t, bo, "Bo is ready", `[data-testid=ready]`)
	// The room starts itself once everyone is ready (the host is).
	waitJS(t, ana, "the round starts when Bo is ready", `document.getElementById('room')?.dataset.status === 'playing'`)
	for _, p := range []struct {
		ctx       context.Context
		who, them string
	}{{ana, "Ana", "1"}, {bo, "Bo", "0"}} {
		waitJS(t, p.ctx, p.who+" plays and sees the other's miniature", `!document.getElementById('play').hidden && !!document.querySelector('#race [data-testid=mini-`+p.them+`] [data-testid=board-`+p.them+`]')`)
		if !eval[bool](t, p.ctx, `document.getElementById('boards').hidden && document.querySelectorAll('[data-testid=board-`+p.them+`]').length === 1`) {
			t.Errorf("%s sees the other's board more than once", p.who)
		}
	}
	const anaCards = `document.querySelector('#my-board [data-testid=cards-left]').textContent`
	const anaWaste = `document.querySelector('#my-board .waste .card').dataset.card`
	const miniCards = `document.querySelector('[data-testid=mini-0] [data-testid=cards-left]').textContent`
	const miniWaste = `document.querySelector('[data-testid=mini-0] .waste .card').dataset.card`
	dealCards, dealWaste := eval[string](t, ana, anaCards), eval[string](t, ana, anaWaste)
	if got := eval[string](t, bo, miniCards); got != dealCards {
		t.Errorf("Bo's miniature of Ana: %s cards left, want her deal's %s", got, dealCards)
	}
	// Ana plays what fits, turns the stock, plays again and turns again.
	var firstCards, firstWaste string
	turns := 0
	for n := 0; n < 60 && turns < 2; n++ {
		s := eval[boardState](t, ana, readBoard)
		if s.Done || s.Over {
			break
		}
		mv := "s"
		if len(s.Playable) > 0 {
			mv = fmt.Sprint(s.Playable[0])
		} else if !s.CanTurn {
			break
		}
		clickJS(t, ana, "Ana moves", `#my-board [data-move="`+mv+`"]`)
		waitJS(t, ana, "Ana's move lands", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d && document.getElementById('room').dataset.pending !== 'true'`, s.V))
		if mv == "s" {
			turns++
			if turns == 1 {
				firstCards, firstWaste = eval[string](t, ana, anaCards), eval[string](t, ana, anaWaste)
			}
		}
	}
	if turns < 2 {
		t.Skip("the deal ended before Ana turned twice")
	}
	v := eval[int](t, ana, `Number(document.getElementById('room').dataset.v)`)
	waitJS(t, bo, "Bo has every event of Ana's", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) >= %d`, v))
	if got, gotW := eval[string](t, bo, miniCards), eval[string](t, bo, miniWaste); got != dealCards || gotW != dealWaste {
		t.Errorf("before Bo turns, his miniature of Ana shows %s cards left and %s on the waste, want her deal's %s and %s", got, gotW, dealCards, dealWaste)
	}
	if !eval[bool](t, bo, `!!document.querySelector('[data-testid=mini-0] [data-testid=wait-0]')`) {
		t.Error("Bo's miniature of Ana does not say why it waits")
	}
	// The race rows count from the boards (the view's progress rows do not
	// repeat them): Ana's settled board, and Bo's own.
	for seat, want := range map[string]string{"0": dealCards, "1": eval[string](t, bo, anaCards)} {
		if got := eval[string](t, bo, `document.querySelector('[data-testid=race-state-`+seat+`]').textContent`); got != "playing, "+want+" cards left" {
			t.Errorf("Bo's race row of seat %s says %q, want %s cards left", seat, got, want)
		}
	}
	if !eval[bool](t, bo, `document.querySelector('[data-testid=race-1]').classList.contains('me') && !document.querySelector('[data-testid=race-0]').classList.contains('me')`) {
		t.Error("Bo's own race row is not marked as his")
	}
	clickJS(t, bo, "Bo turns the stock", `#my-board [data-move="s"]`)
	waitJS(t, bo, "Ana's miniature moves to her first turn", `(`+miniWaste+`) === `+jsString(firstWaste))
	if got := eval[string](t, bo, miniCards); got != firstCards {
		t.Errorf("after Bo's turn, his miniature of Ana shows %s cards left, want %s (her board at her first turn)", got, firstCards)
	}
	axeCheck(t, bo, "rail")
}

// TestLeaveAndKick: before the first round the host removes a seat (that
// player is told and sees the invitation again) and a player leaves (back
// to the lobby); the host's list shows who is left.
func TestLeaveAndKick(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	browser := newBrowser(t)
	ana, bo, cy := newPlayer(t, browser), newPlayer(t, browser), newPlayer(t, browser)
	code := seatVia(t, ana, ts.URL, "", `{"game": "golf", "holes": 1, "format": "stroke", "seats": 3, "public": false}`, "Ana")
	seatVia(t, bo, ts.URL, code, "", "Bo")
	seatVia(t, cy, ts.URL, code, "", "Cy")
	waitJS(t, ana, "Ana sees Bo and Cy, with buttons to remove them", `!!document.querySelector('[data-testid=kick-1]') && !!document.querySelector('[data-testid=kick-2]')`)
	if eval[bool](t, bo, `!!document.querySelector('[data-testid^=kick-]')`) {
		t.Error("Bo, not the host, has a remove button")
	}
	if !eval[bool](t, bo, `!document.querySelector('[data-testid=leave]').hidden`) {
		t.Error("Bo has no leave button")
	}
	axeCheck(t, ana, "waiting-host")
	clickJS(t, ana, "Ana removes Cy", `[data-testid=kick-2]`)
	waitJS(t, cy, "Cy is told and invited again", `document.getElementById('room').dataset.you === '-1' && document.querySelector('[data-testid=invite-error]').textContent === 'You no longer have a seat in this room.' && !document.querySelector('[data-testid=invitation]').hidden`)
	if eval[string](t, cy, `localStorage.getItem('golf.seat.`+code+`') || ''`) != "" {
		t.Error("Cy's browser keeps the seat token")
	}
	clickJS(t, bo, "Bo leaves", `[data-testid=leave]`)
	waitJS(t, bo, "Bo is back in the lobby", `location.pathname === '/'`)
	waitJS(t, ana, "Ana is alone", `document.querySelectorAll('#seats [data-ready]').length === 1 && !document.querySelector('[data-testid^=kick-]')`)
}

// TestRatedQuickMatchInTheBrowser: two players with accounts see their
// names (and "Log out") in the navigation instead of "Log in", tick
// "rated" in the lobby and press Play now: they are paired into one rated
// room, each seated under the account's name. A guest is offered the login
// page instead of the option; logging out from the navigation works.
func TestRatedQuickMatchInTheBrowser(t *testing.T) {
	t.Parallel()
	ts, _ := newAccountServer(t)
	browser := newBrowser(t)
	guest := newPlayer(t, browser)
	do(t, guest, "a guest opens the lobby", chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitReady(chromedp.CSS(`#quickmatch`)))
	waitJS(t, guest, "the guest is pointed to the login page", `!document.querySelector('[data-testid=rated-login]').hidden && document.querySelector('[data-testid=rated-box]').hidden && !document.querySelector('[data-testid=nav-login]').hidden && document.querySelector('[data-testid=nav-logout]').hidden`)
	players := map[string]context.Context{"Ana": newPlayer(t, browser), "Bo": newPlayer(t, browser)}
	for name, ctx := range players {
		do(t, ctx, name+" opens the site", chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitReady(chromedp.CSS(`#quickmatch`)))
		evalAsync[bool](t, ctx, `fetch('/api/account/signup', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({name: `+jsString(name)+`, password: 'correct horse'})}).then((r) => { if (r.status !== 201) throw new Error('signup: ' + r.status); return true; })`)
		do(t, ctx, name+" reloads the lobby", chromedp.Reload())
		waitJS(t, ctx, name+"'s name is in the navigation", `(() => { const a = document.querySelector('[data-testid=nav-account]'); return !a.hidden && a.textContent === `+jsString(name)+` && a.getAttribute('href') === '/@/`+name+`' && document.querySelector('[data-testid=nav-login]').hidden && !document.querySelector('[data-testid=nav-logout]').hidden; })()`)
		waitJS(t, ctx, name+" is offered rated play", `!document.querySelector('[data-testid=rated-box]').hidden && document.getElementById('name').value === `+jsString(name))
		clickJS(t, ctx, name+" ticks rated", `[data-testid=qm-rated]`)
	}
	axeCheck(t, players["Ana"], "lobby-account")
	for name, ctx := range players {
		clickJS(t, ctx, name+" presses Play now", `[data-testid=quickmatch]`)
	}
	codes := map[string]string{}
	for name, ctx := range players {
		waitJSWithin(t, ctx, name+" is paired", `location.pathname.startsWith('/r/') && Number(document.getElementById('room')?.dataset.you) >= 0`, 45*time.Second)
		codes[name] = eval[string](t, ctx, `document.getElementById('room').dataset.code`)
	}
	if codes["Ana"] != codes["Bo"] {
		t.Fatalf("Ana and Bo were sent to different rooms: %v", codes)
	}
	type roomInfo struct {
		Settings struct {
			Rated bool `json:"rated"`
		} `json:"settings"`
		Seats []struct {
			Name string `json:"name"`
		} `json:"seats"`
	}
	room := evalAsync[roomInfo](t, players["Ana"], `fetch('/api/rooms/`+codes["Ana"]+`').then((r) => r.json())`)
	if !room.Settings.Rated {
		t.Error("the quick match room is not rated")
	}
	if len(room.Seats) != 2 || fmt.Sprint(room.Seats) == "" {
		t.Errorf("seats = %+v", room.Seats)
	}
	for _, s := range room.Seats {
		if s.Name != "Ana" && s.Name != "Bo" {
			t.Errorf("a seat is named %q, not by its account", s.Name)
		}
	}
	clickJS(t, players["Bo"], "Bo logs out from the navigation", `[data-testid=nav-logout]`)
	waitJS(t, players["Bo"], "Bo is a guest in the lobby", `location.pathname === '/' && !document.querySelector('[data-testid=rated-login]').hidden && !document.querySelector('[data-testid=nav-login]').hidden`)
}

// TestDailyOnHome: the lobby shows the daily challenge: a link to today's
// tournament (the one GET /api/daily names) and its leaderboard, empty
// until someone finishes a hole.
func TestDailyOnHome(t *testing.T) {
	t.Parallel()
	ts, _ := newAccountServer(t)
	ctx := newPlayer(t, newBrowser(t))
	do(t, ctx, "open the lobby", chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitReady(chromedp.CSS(`[data-testid=daily]`)))
	waitJS(t, ctx, "the daily challenge's link and empty board", `(() => {
		const a = document.querySelector('[data-testid=daily-link]');
		const b = document.querySelector('[data-testid=daily-board]');
		return a && !a.hidden && b.textContent.includes('Nobody has finished a hole today yet.');
	})()`)
	id := evalAsync[string](t, ctx, `fetch('/api/daily').then((r) => r.json()).then((d) => d.id)`)
	href := eval[string](t, ctx, `document.querySelector('[data-testid=daily-link]').getAttribute('href')`)
	if id == "" || !strings.Contains(href, id) {
		t.Fatalf("the daily link %q does not name today's tournament %q", href, id)
	}
	axeCheck(t, ctx, "lobby-daily")
}
