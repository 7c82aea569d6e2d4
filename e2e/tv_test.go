package e2e_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/limit"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server"
)

// tvGame is a public two-seat match of one hole that spectators may
// watch, started, its players' connections open.
func tvGame(t *testing.T, ctx context.Context, base string, names ...string) (string, []*client.Conn) {
	t.Helper()
	api := &client.API{BaseURL: base}
	set := map[string]any{"format": "match", "holes": 1, "seats": 2, "public": true, "spectators": true, "autoStart": false}
	g, err := api.CreateRoom(ctx, set, names[0])
	if err != nil {
		t.Fatal(err)
	}
	g2, err := api.Join(ctx, g.Code, names[1])
	if err != nil {
		t.Fatal(err)
	}
	var cs []*client.Conn
	for _, gr := range []protocol.SeatGrant{g, g2} {
		c, err := client.Dial(ctx, base, &client.Options{Room: gr.Code, Token: gr.Token})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.CloseNow() })
		cs = append(cs, c)
	}
	if err := cs[1].Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := cs[0].Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Playing && v.Board != nil }); err != nil {
			t.Fatal(err)
		}
	}
	return g.Code, cs
}

// playOutHole plays a seat's hole 1 to its end: the first playable card,
// else the stock, else a redeal.
func playOutHole(t *testing.T, ctx context.Context, c *client.Conn) {
	t.Helper()
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil || v.Status == match.Finished })
		if err != nil {
			t.Fatal(err)
		}
		b := v.Board
		if v.Status != match.Playing || b == nil || b.Done {
			return
		}
		move := "s"
		switch {
		case len(b.Playable) > 0:
			move = golf.PlayPile(b.Playable[0]).String()
		case b.CanTurn:
		case b.CanRedeal:
			move = "r"
		}
		if _, err := c.Move(ctx, 1, move); err != nil {
			if client.IsCode(err, protocol.ErrCodeHoleDone) || client.IsCode(err, protocol.ErrCodeNotPlaying) {
				return
			}
			t.Fatalf("move %s: %v", move, err)
		}
	}
}

// TestTV: /tv shows the featured game as a spectator sees it (settled
// boards only, nothing to press: a stock card Ana turned is not on her
// board while Bo has turned none), says "Game over … Switching to …" when
// it ends and switches to the next featured game; /tv/@/{name} says the
// player is not playing, then picks them up when their game starts.
func TestTV(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// The players here are the test's clients, which play a hole out as
	// fast as they can: no per-connection message limit.
	ts := newServer(t, func(o *server.Options) { o.PlayerRate = limit.Rate{PerSecond: 1e6, Burst: 1e6} })
	first, cs := tvGame(t, ctx, ts.URL, "Ana", "Bo")

	tv := newPlayer(t, newBrowser(t))
	do(t, tv, "open the TV", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/tv?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=tv]`)))
	waitJS(t, tv, "the TV watches the featured game", `document.querySelector('#tv').dataset.code === `+jsString(first)+
		` && document.querySelectorAll('#tv-boards [data-testid^=board-]').length === 2`)
	if n := eval[int](t, tv, `document.querySelectorAll('#tv button, #tv [data-move], #tv [data-testid=turn]').length`); n != 0 {
		t.Errorf("the TV has %d controls; a spectator's view has none", n)
	}
	stock := eval[string](t, tv, `document.querySelector('[data-testid=watch-seat-0] [data-testid=stock-left]').textContent`)

	// Ana turns a stock card that Bo has not reached.
	if _, err := cs[0].Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
	at := cs[0].Version()
	waitJS(t, tv, "the TV has the view of Ana's turn", `Number(document.querySelector('#tv').dataset.v) >= `+strconv.FormatInt(at, 10))
	if got := eval[string](t, tv, `document.querySelector('[data-testid=watch-seat-0] [data-testid=stock-left]').textContent`); got != stock {
		t.Errorf("Ana's stock on the TV is %s after her turn, was %s: her turned card shows before Bo turned one", got, stock)
	}

	// The next game, and the first one's end.
	second, _ := tvGame(t, ctx, ts.URL, "Cy", "Di")
	done := make(chan struct{})
	go func() {
		defer close(done)
		playOutHole(t, ctx, cs[1])
	}()
	playOutHole(t, ctx, cs[0])
	<-done
	waitJSWithin(t, tv, "Game over … Switching to …", `document.querySelector('[data-testid=tv-status]').textContent.startsWith('Game over: ') && document.querySelector('[data-testid=tv-status]').textContent.includes('Switching to Cy · Di')`, 20*time.Second)
	shot(t, tv, "tv-switching")
	waitJSWithin(t, tv, "the TV switched to the next game", `document.querySelector('#tv').dataset.code === `+jsString(second)+
		` && document.querySelectorAll('#tv-boards [data-testid^=board-]').length === 2`, 20*time.Second)
	fits(t, tv, "tv", "")
	axeCheck(t, tv, "the TV")

	// Following Eve: not playing, then her game.
	do(t, tv, "follow Eve", chromedp.Navigate(ts.URL+"/tv/@/Eve?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=tv]`)))
	waitJS(t, tv, "Eve is not playing", `document.querySelector('[data-testid=tv-status]').textContent.startsWith('Eve is not playing now.')`)
	third, _ := tvGame(t, ctx, ts.URL, "Fay", "Eve")
	waitJSWithin(t, tv, "the TV picks Eve up", `document.querySelector('#tv').dataset.code === `+jsString(third)+
		` && document.querySelectorAll('#tv-boards [data-testid^=board-]').length === 2`, 20*time.Second)
	if got := eval[string](t, tv, `document.querySelector('h1').textContent`); got != "Following Eve" {
		t.Errorf("title %q", got)
	}
}

// TestHomeFeaturedBoard: the home page's live panel draws the featured
// game's settled boards and follows them live, and links to the TV.
func TestHomeFeaturedBoard(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ts := newServer(t)
	code, cs := tvGame(t, ctx, ts.URL, "Ana", "Bo")
	b := newPlayer(t, newBrowser(t))
	do(t, b, "home", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(ts.URL+"/?lang=en"), chromedp.WaitVisible(chromedp.CSS(`[data-testid=live]`)))
	waitJS(t, b, "the featured game's boards", `document.querySelector('#live-board').dataset.code === `+jsString(code)+
		` && document.querySelectorAll('#live-board [data-testid^=board-]').length === 2`)
	if n := eval[int](t, b, `document.querySelectorAll('#live-board button, #live-board [data-move]').length`); n != 0 {
		t.Errorf("the mini-board has %d controls", n)
	}
	if got := eval[string](t, b, `document.querySelector('[data-testid=live-tv]').getAttribute('href')`); got != "/tv" {
		t.Errorf("TV link %q", got)
	}
	// Both turn a stock card: the mini-board moves with them.
	stock := eval[string](t, b, `document.querySelector('#live-board [data-testid=watch-seat-0] [data-testid=stock-left]').textContent`)
	for _, c := range cs {
		if _, err := c.Move(ctx, 1, "s"); err != nil {
			t.Fatal(err)
		}
	}
	waitJS(t, b, "the mini-board follows the game", `document.querySelector('#live-board [data-testid=watch-seat-0] [data-testid=stock-left]').textContent !== `+jsString(stock))
	if got := eval[string](t, b, `document.querySelector('[data-testid=live-top]').textContent`); got != "No rated players yet." {
		t.Errorf("top rated %q", got)
	}
}
