package server_test

import (
	"context"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store/memstore"
)

// replayed reads Updates up to the first snapshot and returns the events
// before it and the snapshot.
func replayed(t *testing.T, ctx context.Context, c *client.Conn) ([]protocol.ServerMessage, protocol.ServerMessage) {
	t.Helper()
	var evs []protocol.ServerMessage
	for {
		select {
		case m, ok := <-c.Updates():
			if !ok {
				t.Fatalf("closed: %v", c.Err())
			}
			switch m.Type {
			case protocol.TypeSnapshot:
				return evs, m
			case protocol.TypeEvent:
				evs = append(evs, m)
			}
		case <-ctx.Done():
			t.Fatal("no snapshot")
		}
	}
}

// TestReconnect: a player drops mid-hole; the opponent sees them away (with
// a grace deadline once the opponent has finished); redialing with Since
// brings exactly the missed events, then a snapshot.
func TestReconnect(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 2, map[string]any{"grace": 600}), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	for range 2 {
		if _, err := cs[1].Move(ctx, 1, "s"); err != nil {
			t.Fatal(err)
		}
	}
	cs[1].CloseNow()
	<-cs[1].Done()
	since := cs[1].Version()
	v, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Seats[1].Away })
	if err != nil {
		t.Fatal(err)
	}
	if !v.Seats[1].GraceEnds.IsZero() {
		t.Errorf("grace running while the opponent still plays: %v", v.Seats[1].GraceEnds)
	}
	// The opponent plays on and finishes the hole.
	for range 3 {
		if _, err := cs[0].Move(ctx, 1, "s"); err != nil {
			t.Fatal(err)
		}
	}
	if err := cs[0].Stand(ctx, 1); err != nil {
		t.Fatal(err)
	}
	v, err = cs[0].WaitView(ctx, func(v *match.View) bool { return !v.Seats[1].GraceEnds.IsZero() })
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Until(v.Seats[1].GraceEnds); d < 590*time.Second || d > 601*time.Second {
		t.Errorf("grace ends in %v, want about 600s", d)
	}
	if v.Board.Hole != 1 || v.Progress[1].Done {
		t.Fatalf("hole ended early: %+v", v.Progress)
	}

	c1, err := client.Dial(ctx, e.ts, &client.Options{Room: g[1].Code, Token: g[1].Token, Since: since})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c1.CloseNow() })
	evs, snap := replayed(t, ctx, c1)
	if len(evs) == 0 {
		t.Fatal("no events replayed")
	}
	for i, ev := range evs {
		if ev.V != since+1+int64(i) || ev.Event == nil || ev.Event.V != ev.V {
			t.Fatalf("event %d has version %d, want %d", i, ev.V, since+1+int64(i))
		}
	}
	if last := evs[len(evs)-1].V; snap.V != last || snap.View.V != last {
		t.Fatalf("snapshot at %d, last event %d", snap.V, last)
	}
	kinds := map[match.Kind]int{}
	for _, ev := range evs {
		kinds[ev.Event.Kind]++
		if ev.Event.Kind == match.KindMove && ev.Event.Seat == 0 && (ev.Event.Move != "" || ev.Event.Card != "") {
			t.Errorf("the opponent's move is shown during the hole: %+v", ev.Event)
		}
	}
	if kinds[match.KindAway] != 1 || kinds[match.KindMove] != 3 || kinds[match.KindStand] != 1 {
		t.Errorf("replayed kinds %v", kinds)
	}
	if snap.View.Board.Moves != 2 || snap.View.Board.Done {
		t.Errorf("snapshot board %+v", snap.View.Board)
	}
	// Back: the opponent sees it.
	if _, err := cs[0].WaitView(ctx, func(v *match.View) bool { return !v.Seats[1].Away && v.Seats[1].GraceEnds.IsZero() }); err != nil {
		t.Fatal(err)
	}
	// A later move by the returning player works.
	if _, err := c1.Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
}

// TestReconnectTooOld: with Since older than the capped history the
// client gets just a snapshot.
func TestReconnectTooOld(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	st := memstore.New(memstore.Options{HistoryLen: 3})
	t.Cleanup(func() { st.Close() })
	e := newEnvStore(t, st)
	g := e.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	cs[1].CloseNow()
	<-cs[1].Done()
	since := cs[1].Version()
	for range 6 {
		if _, err := cs[0].Move(ctx, 1, "s"); err != nil {
			t.Fatal(err)
		}
	}
	c1, err := client.Dial(ctx, e.ts, &client.Options{Room: g[1].Code, Token: g[1].Token, Since: since})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c1.CloseNow() })
	evs, snap := replayed(t, ctx, c1)
	if len(evs) != 0 {
		t.Errorf("%d events replayed from beyond the history", len(evs))
	}
	// Ana's six turns are not Bo's to see before Bo turns a card: her
	// settled board waits for Bo's first turn.
	if len(snap.View.Boards) != 1 {
		t.Fatalf("snapshot at %d: %d boards, want Ana's", snap.V, len(snap.View.Boards))
	}
	if p := snap.View.Boards[0]; snap.V < since+7 || p.Seat != 0 || p.Moves != 0 || p.Wait == nil || p.Wait.Seat != 1 || p.Wait.Card != 1 {
		t.Errorf("snapshot at %d: %+v", snap.V, p)
	}
	// Since ahead of the room (a stale client): a snapshot too.
	c2, err := client.Dial(ctx, e.ts, &client.Options{Room: g[1].Code, Token: g[1].Token, Since: snap.V + 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c2.CloseNow() })
	if evs, _ := replayed(t, ctx, c2); len(evs) != 0 {
		t.Errorf("%d events replayed for a version ahead of the room", len(evs))
	}
}

// TestGrace: with grace 1s and the opponent finished, the away player's
// hole is scored as it stands (end "away") and the next hole starts.
func TestGrace(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 2, map[string]any{"grace": 1}), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	if _, err := cs[1].Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
	cs[1].CloseNow()
	if _, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Seats[1].Away }); err != nil {
		t.Fatal(err)
	}
	if err := cs[0].Stand(ctx, 1); err != nil {
		t.Fatal(err)
	}
	done := time.Now()
	v, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.Hole == 2 })
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(done); d < 900*time.Millisecond {
		t.Errorf("scored after %v, before the grace period", d)
	}
	r := e.room(t, g[0].Code)
	g1 := r.Holes[0].Games[1]
	if !g1.Done || g1.End != match.EndAway || len(g1.Moves) != 1 || g1.Score != 35 {
		t.Errorf("away game: %+v", g1)
	}
	if v.Board.Hole != 2 || v.Board.Done || v.Status != match.Playing {
		t.Errorf("hole 2 not in play: %+v", v.Board)
	}
	// Still away in hole 2: no grace until the opponent finishes it.
	if !v.Seats[1].Away || !v.Seats[1].GraceEnds.IsZero() {
		t.Errorf("seat 1 in hole 2: %+v", v.Seats[1])
	}
}

// TestHoleClock: when the hole clock runs out every unfinished hole is
// scored as it stands (end "clock") and the next hole starts.
func TestHoleClock(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 2, map[string]any{"holeClock": 1}), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	v := cs[0].View()
	if v.HoleClock == nil || v.HoleClock.Deadline.Sub(v.HoleClock.Started) != time.Second {
		t.Fatalf("clock %+v", v.HoleClock)
	}
	if _, err := cs[0].Move(ctx, 1, "s"); err != nil {
		t.Fatal(err)
	}
	if err := cs[1].Stand(ctx, 1); err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		if _, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished }); err != nil {
			t.Fatal(err)
		}
	}
	r := e.room(t, g[0].Code)
	if len(r.Holes) != 2 {
		t.Fatalf("%d holes", len(r.Holes))
	}
	h1 := r.Holes[0]
	if h1.Games[0].End != match.EndClock || len(h1.Games[0].Moves) != 1 || h1.Games[1].End != match.EndStuck {
		t.Errorf("hole 1: %+v %+v", h1.Games[0], h1.Games[1])
	}
	if d := h1.Games[0].Finished.Sub(h1.Started); d < time.Second || d > 3*time.Second {
		t.Errorf("clock ran %v", d)
	}
	for i, gm := range r.Holes[1].Games {
		if gm.End != match.EndClock || gm.Score != 35 {
			t.Errorf("hole 2 seat %d: %+v", i, gm)
		}
	}
	// A move after the clock: refused.
	_, err := cs[0].Move(ctx, 2, "s")
	wantCode(t, err, protocol.ErrCodeNotPlaying)
}

// TestDuplicateSeq: a command resent with the same seq is acknowledged as
// a duplicate and applied once, even the move that ends the hole.
func TestDuplicateSeq(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 2, nil), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	c := cs[0]
	move := protocol.ClientMessage{Type: protocol.TypeMove, Hole: 1, Move: "s", Seq: c.NextSeq()}
	first, err := c.DoSeq(ctx, move)
	if err != nil || first.Duplicate {
		t.Fatalf("first: %+v %v", first, err)
	}
	e.unchanged(t, g[0].Code, func() {
		for range 2 {
			again, err := c.DoSeq(ctx, move)
			if err != nil || !again.Duplicate || again.Type != protocol.TypeAck {
				t.Fatalf("resent: %+v %v", again, err)
			}
		}
	})
	if r := e.room(t, g[0].Code); len(r.Holes[0].Games[0].Moves) != 1 {
		t.Errorf("moves %v", r.Holes[0].Games[0].Moves)
	}
	// An older seq that was never applied is refused as stale_seq, never
	// acknowledged, and changes nothing.
	e.unchanged(t, g[0].Code, func() {
		older := move
		older.Seq--
		_, err := c.DoSeq(ctx, older)
		wantCode(t, err, protocol.ErrCodeStaleSeq)
	})
	// Play out the hole; resend the move that ended it: a duplicate, not
	// hole_done.
	var last protocol.ClientMessage
	for {
		v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil })
		if err != nil {
			t.Fatal(err)
		}
		if v.Board.Done {
			break
		}
		m := "s"
		if len(v.Board.Playable) > 0 {
			m = itoa(v.Board.Playable[0])
		} else if !v.Board.CanTurn {
			t.Fatalf("stuck but not done: %+v", v.Board)
		}
		last = protocol.ClientMessage{Type: protocol.TypeMove, Hole: 1, Move: m, Seq: c.NextSeq()}
		if _, err := c.DoSeq(ctx, last); err != nil {
			t.Fatal(err)
		}
	}
	e.unchanged(t, g[0].Code, func() {
		again, err := c.DoSeq(ctx, last)
		if err != nil || !again.Duplicate {
			t.Fatalf("resent last move: %+v %v", again, err)
		}
	})
}
