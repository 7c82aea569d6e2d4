package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/protocol/patch"
)

// wireMove is the first legal move of a board ("" when none).
func wireMove(b *match.Board) string {
	switch {
	case b == nil || b.Done:
		return ""
	case len(b.Playable) > 0:
		return golf.PlayPile(b.Playable[0]).String()
	case b.CanTurn:
		return "s"
	case b.CanRedeal:
		return "r"
	}
	return ""
}

// wirePlay makes n moves of c's seat (fewer when its hole ends).
func wirePlay(t *testing.T, ctx context.Context, c *client.Conn, n int) {
	t.Helper()
	for range n {
		v := c.View()
		mv := wireMove(v.Board)
		if mv == "" {
			return
		}
		if _, err := c.Move(ctx, v.Hole, mv); err != nil {
			t.Fatalf("move %s: %v", mv, err)
		}
		if _, err := c.WaitView(ctx, func(w *match.View) bool { return w.V > v.V }); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPatchesOfOwnViews: every live event a spectator and an opponent are
// sent is a patch, and that patch is exactly the difference between two
// views of that same connection, the one before and the one after, as
// whole frames would carry them: so it holds no value its full view does
// not (every string of a patch is one of the new view's), and no length
// or member of anyone else's view. At the end each connection's view,
// rebuilt from its patches, is the snapshot a new connection of the same
// viewer gets.
func TestPatchesOfOwnViews(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := newEnv(t)
	g := e.create(t, ctx, map[string]any{"holes": 2, "format": "match"}, "Ana", "Bo")
	recBo, recSpec := &recorder{name: "Bo"}, &recorder{name: "spectator"}
	ana := dial(t, ctx, e.ts, g[0].Code, g[0].Token)
	bo := dialRec(t, ctx, e.ts, client.Options{Room: g[1].Code, Token: g[1].Token}, recBo)
	spec := dialRec(t, ctx, e.ts, client.Options{Room: g[0].Code}, recSpec)
	if err := bo.Ready(ctx, true); err != nil {
		t.Fatal(err)
	}
	if err := ana.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client.Conn{ana, bo} {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil }); err != nil {
			t.Fatal(err)
		}
	}
	// Ana runs ahead (her board is settled for the others), Bo follows.
	wirePlay(t, ctx, ana, 12)
	wirePlay(t, ctx, bo, 5)
	wirePlay(t, ctx, ana, 6)
	wirePlay(t, ctx, bo, 8)
	final := ana.Version()
	for _, c := range []*client.Conn{bo, spec} {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.V >= final }); err != nil {
			t.Fatal(err)
		}
	}

	for _, w := range []struct {
		rec   *recorder
		c     *client.Conn
		token string
	}{{recBo, bo, g[1].Token}, {recSpec, spec, ""}} {
		// A new connection of the same viewer, once the recorded one has
		// its version (a player's new socket may itself be an event).
		fresh := dial(t, ctx, e.ts, g[0].Code, w.token)
		got, err := fresh.WaitView(ctx, func(*match.View) bool { return true })
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.c.WaitView(ctx, func(v *match.View) bool { return v.V >= got.V }); err != nil {
			t.Fatal(err)
		}
		raw := w.rec.messages()
		msgs, errs := decodeFrames(raw)
		var prev, sent []byte
		patches := 0
		for i, m := range msgs {
			if errs[i] != nil {
				t.Fatalf("%s frame %d: %v\n%s", w.rec.name, i, errs[i], raw[i])
			}
			var err error
			if sent, err = leanFrame(raw[i], sent); err != nil {
				t.Errorf("%s frame %d: %v\n%s", w.rec.name, i, err, raw[i])
			}
			if m.View == nil {
				continue
			}
			next, _ := json.Marshal(m.View)
			var f struct {
				View json.RawMessage `json:"view"`
			}
			json.Unmarshal(raw[i], &f)
			if f.View != nil {
				prev = f.View
				continue
			}
			if m.Patch == nil {
				t.Fatalf("%s frame %d: a view with neither patch nor view", w.rec.name, i)
			}
			patches++
			// next (re-encoded) has the members in the same order as
			// the server's encoding: the patch of prev to it is the one
			// the server computed.
			want, err := patch.Diff(prev, next)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(m.Patch, want) {
				t.Errorf("%s frame %d: patch %s, but the difference of its own views is %s", w.rec.name, i, m.Patch, want)
			}
			strs := map[string]bool{}
			var all any
			json.Unmarshal(next, &all)
			walkStrings(all, func(s string) { strs[s] = true })
			var p any
			json.Unmarshal(m.Patch, &p)
			walkStrings(p, func(s string) {
				if !strs[s] {
					t.Errorf("%s frame %d: the patch holds %q, which its full view does not", w.rec.name, i, s)
				}
			})
			prev = next
		}
		if patches < 10 {
			t.Errorf("%s: %d patches, want every live event to be one", w.rec.name, patches)
		}
		a, _ := json.Marshal(got)
		b, _ := json.Marshal(msgs[len(msgs)-1].View)
		for j := len(msgs) - 1; j >= 0 && msgs[j].View == nil; j-- {
			b, _ = json.Marshal(msgs[j-1].View)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s: the view rebuilt from patches\n%s\nis not a new connection's snapshot\n%s", w.rec.name, b, a)
		}
	}
}

// leanFrame checks the shape of a frame that keeps the wire small
// (docs/protocol.md "Live events"), given the view as sent
// before it (raw JSON, as the server wrote it), and returns the view
// after it: an event does not repeat the frame's v; a patch frame's event
// has no at and its base is left out when it is v-1; an event with the
// whole view, or none, has its at; progress rows are seat, done, score and
// end only; a wait is seat and card only (the client words it).
func leanFrame(b, view []byte) ([]byte, error) {
	var f struct {
		Type  string                     `json:"type"`
		V     int64                      `json:"v"`
		Base  *int64                     `json:"base"`
		Event map[string]json.RawMessage `json:"event"`
		View  json.RawMessage            `json:"view"`
		Patch json.RawMessage            `json:"patch"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return view, err
	}
	if f.Event != nil {
		_, hasAt := f.Event["at"]
		switch {
		case f.Event["v"] != nil:
			return view, fmt.Errorf("the event repeats the frame's v")
		case f.Patch != nil && hasAt:
			return view, fmt.Errorf("a patch frame's event has at")
		case f.Patch == nil && !hasAt:
			return view, fmt.Errorf("an event without a patch has no at")
		case f.Base != nil && *f.Base == f.V-1:
			return view, fmt.Errorf("base %d written out for v%d", *f.Base, f.V)
		}
	}
	switch {
	case f.View != nil:
		view = f.View
	case f.Patch != nil:
		var err error
		if view, err = patch.Apply(view, f.Patch); err != nil {
			return view, err
		}
	default:
		return view, nil
	}
	var v struct {
		Progress []map[string]any `json:"progress"`
		Board    map[string]any   `json:"board"`
		Boards   []map[string]any `json:"boards"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		return view, err
	}
	only := func(what string, m map[string]any, keys ...string) error {
		for k := range m {
			if !slices.Contains(keys, k) {
				return fmt.Errorf("%s has %q: %v", what, k, m)
			}
		}
		return nil
	}
	for _, p := range v.Progress {
		if err := only("a progress row", p, "seat", "done", "score", "end"); err != nil {
			return view, err
		}
	}
	for _, b := range append(v.Boards, v.Board) {
		if w, ok := b["wait"].(map[string]any); ok {
			if err := only("a wait", w, "seat", "card"); err != nil {
				return view, err
			}
		}
	}
	return view, nil
}

// TestResync: a client that skips an event (its view is then not the next
// patch's base) sends resync and gets a snapshot, to which the following
// patches apply; the frames are read on a bare socket, as any client's.
func TestResync(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e := newEnv(t)
	g := e.create(t, ctx, map[string]any{"holes": 2, "format": "match"}, "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	ws := rawDial(t, ctx, e.ts, nil)
	if err := ws.Write(ctx, 1, helloMsg(g[0].Code, "")); err != nil {
		t.Fatal(err)
	}
	// next reads frames until one of type typ.
	next := func(typ string) ([]byte, protocol.ServerMessage) {
		t.Helper()
		for {
			_, b, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("read: %v", err)
			}
			var f struct {
				protocol.ServerMessage
				View json.RawMessage `json:"view"`
			}
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			if f.Type == typ {
				return f.View, f.ServerMessage
			}
		}
	}
	view, snap := next(protocol.TypeSnapshot)
	viewV := snap.V
	move := func() {
		t.Helper()
		wirePlay(t, ctx, cs[0], 1)
	}

	move()
	_, skipped := next(protocol.TypeEvent) // missed
	if skipped.Patch == nil || skipped.PatchBase() != viewV {
		t.Fatalf("event %+v: want a patch of v%d", skipped, viewV)
	}
	move()
	_, m := next(protocol.TypeEvent)
	if m.PatchBase() == viewV {
		t.Fatalf("the patch after a missed one has the base v%d of the view held", m.PatchBase())
	}
	if _, err := patch.Apply(view, m.Patch); err == nil && m.PatchBase() != viewV {
		// It may apply by chance; what tells the client is the base.
		t.Logf("the patch happens to apply to the older view")
	}
	if err := ws.Write(ctx, 1, []byte(`{"type":"resync"}`)); err != nil {
		t.Fatal(err)
	}
	view, snap = next(protocol.TypeSnapshot)
	if snap.V != cs[0].Version() {
		t.Fatalf("snapshot of v%d, the room is at v%d", snap.V, cs[0].Version())
	}
	for range 3 {
		move()
		_, m = next(protocol.TypeEvent)
		if m.PatchBase() != viewV && m.PatchBase() != snap.V {
			t.Fatalf("patch of base v%d after a snapshot of v%d", m.PatchBase(), snap.V)
		}
		b, err := patch.Apply(view, m.Patch)
		if err != nil {
			t.Fatalf("patch %s after the snapshot: %v", m.Patch, err)
		}
		var v match.View
		json.Unmarshal(b, &v)
		view, viewV, snap.V = b, v.V, v.V
	}
	fresh := dial(t, ctx, e.ts, g[0].Code, "")
	got, _ := fresh.WaitView(ctx, func(v *match.View) bool { return v.V == viewV })
	var mine match.View
	json.Unmarshal(view, &mine)
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(mine)
	if !bytes.Equal(a, b) {
		t.Errorf("view after the resync and three patches\n%s\nwant (a new connection's)\n%s", b, a)
	}
}
