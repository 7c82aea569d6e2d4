package e2e_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/chromedp/chromedp"

	"golfsolitaire/protocol/patch"
)

// wirePairs are old and new documents shaped like views.
var wirePairs = [][2]string{
	{`{"v":6,"board":{"piles":[["2C","KD","3S"],["9D"]],"waste":["KH"],"moves":5,"run":1,"playable":[1]},"progress":[{"seat":0,"moves":5}]}`,
		`{"v":7,"board":{"piles":[["2C","KD"],["9D"]],"waste":["KH","3S"],"moves":6,"run":2,"playable":[]},"progress":[{"seat":0,"moves":6}]}`},
	{`{"v":7,"board":{"piles":[["","4C"]],"waste":["5D"],"end":"stuck"},"boards":[{"wait":{"seat":1,"text":"x"}}],"best":[]}`,
		`{"v":8,"board":{"piles":[["",""]],"waste":["5D","4C"]},"boards":[{}],"best":[{"hole":1,"best":3}],"seed":"ab"}`},
	{`{"v":1,"scores":[3,null,null],"standings":{"rows":[{"a":1},{"b":2}]}}`,
		`{"v":2,"scores":[3,4,null],"standings":{"rows":[{"a":1}]},"board":null}`},
	{`{"v":2,"board":{"piles":[["2C"]]}}`, `{"v":3}`},
}

// TestPatchJS: the browser's patch.js applies the Go server's patches
// (protocol/patch.Diff) to the same result as the Go Apply.
func TestPatchJS(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	ctx := newPlayer(t, newBrowser(t))
	do(t, ctx, "open the site", chromedp.Navigate(ts.URL+"/"), chromedp.WaitReady(chromedp.CSS(`body`)))
	for _, pr := range wirePairs {
		p, err := patch.Diff([]byte(pr[0]), []byte(pr[1]))
		if err != nil {
			t.Fatal(err)
		}
		got := evalAsync[string](t, ctx, fmt.Sprintf(`import('/static/patch.js').then(m => JSON.stringify(m.apply(%s, %s)))`, pr[0], p))
		var a, b any
		json.Unmarshal([]byte(got), &a)
		json.Unmarshal([]byte(pr[1]), &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("apply(%s, %s) in the browser = %s, want %s", pr[0], p, got, pr[1])
		}
	}
	// A patch that does not fit throws.
	threw := evalAsync[bool](t, ctx, `import('/static/patch.js').then(m => { try { m.apply({a: [1]}, {a: {"3": 1}}); return false; } catch { return true; } })`)
	if !threw {
		t.Error("a patch editing index 3 of a one-element array did not throw")
	}
}

// TestRoomResyncs: a room page whose view is not the next event's base
// (here a patch injected into its socket changed the view's v) asks for a
// snapshot once and goes on from it: the moves that follow are drawn.
func TestRoomResyncs(t *testing.T) {
	t.Parallel()
	ts := newServer(t)
	ctx := newPlayer(t, newBrowser(t))
	practiceRoom(t, ctx, ts.URL, `{"format": "stroke", "seats": 1, "holes": 1, "public": false, "spectators": false, "deal": 7}`)
	// Record what the page sends and receives on its socket.
	eval[bool](t, ctx, `(() => {
		const s = window.__golfSocket;
		window.__sent = []; window.__got = [];
		const send = s.send.bind(s);
		s.send = (d) => { window.__sent.push(JSON.parse(d).type); send(d); };
		const on = s.onmessage;
		s.onmessage = (e) => { window.__got.push(JSON.parse(e.data)); on(e); };
		return true;
	})()`)
	move := func(what string) int {
		t.Helper()
		s := eval[boardState](t, ctx, readBoard)
		switch {
		case len(s.Playable) > 0:
			do(t, ctx, what, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#my-board [data-move="%d"]`, s.Playable[0]))))
		case s.CanTurn:
			do(t, ctx, what, chromedp.Click(chromedp.CSS(`#my-board [data-move="s"]`)))
		default:
			t.Fatalf("%s: nothing to play: %+v", what, s)
		}
		return s.V
	}
	v := move("a first move")
	waitJS(t, ctx, "the first move is drawn", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d && document.getElementById('room').dataset.pending !== 'true'`, v))
	// A patch of the page's own view (its base) that moves its v away:
	// the next real patch's base is then not the page's view.
	eval[bool](t, ctx, `(() => {
		const v = Number(document.getElementById('room').dataset.v);
		window.__golfSocket.onmessage({ data: JSON.stringify({ type: 'event', v, base: v, event: { v, kind: 'tick', seat: -1 }, patch: { v: v + 1000 } }) });
		return true;
	})()`)
	v = move("a move after the view went wrong")
	waitJS(t, ctx, "the page asks for a snapshot and draws the move", fmt.Sprintf(`window.__sent.includes('resync') && window.__got.some(m => m.type === 'snapshot') && Number(document.getElementById('room').dataset.v) > %d && document.getElementById('room').dataset.pending !== 'true'`, v))
	for i := range 3 {
		v = move(fmt.Sprintf("move %d after the snapshot", i+1))
		waitJS(t, ctx, "the page draws it from a patch", fmt.Sprintf(`Number(document.getElementById('room').dataset.v) > %d && document.getElementById('room').dataset.pending !== 'true'`, v))
	}
	if n := eval[int](t, ctx, `window.__sent.filter(x => x === 'resync').length`); n != 1 {
		t.Errorf("the page asked for %d snapshots, want 1", n)
	}
	if n := eval[int](t, ctx, `window.__got.filter(m => m.type === 'event' && m.patch !== undefined).length`); n < 4 {
		t.Errorf("%d events with a patch, want every live event to be one", n)
	}
}
