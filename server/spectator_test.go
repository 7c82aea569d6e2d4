package server_test

import (
	"testing"
	"time"

	"golfsolitaire/match"
)

// TestSpectatorDelay: spectators see the room the room's delay late;
// players see it at once.
func TestSpectatorDelay(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	const delay = time.Second
	grants := e.create(t, ctx, stroke(2, 1, map[string]any{"spectatorDelay": 1}), "Ana", "Bo")
	spec := dial(t, ctx, e.ts, grants[0].Code, "")
	cs := e.startRoom(t, ctx, grants)
	ack, err := cs[0].Move(ctx, 1, "s")
	if err != nil {
		t.Fatal(err)
	}
	acked := time.Now()
	if _, err := cs[1].WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V }); err != nil {
		t.Fatal(err)
	}
	opponent := time.Since(acked)
	if _, err := spec.WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V }); err != nil {
		t.Fatal(err)
	}
	watched := time.Since(acked)
	if watched < delay-100*time.Millisecond {
		t.Errorf("the spectator saw version %d %v after the ack, before the %v delay", ack.V, watched, delay)
	}
	if opponent >= delay {
		t.Errorf("the opponent waited %v: players must not be delayed", opponent)
	}
}

// TestTwoConnectionsOneSeat: a player with two tabs stays present while one
// of them is open, and both tabs see every move.
func TestTwoConnectionsOneSeat(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	grants := e.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	cs := e.startRoom(t, ctx, grants)
	tab2 := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	if tab2.Seat() != 0 {
		t.Fatalf("second tab got seat %d", tab2.Seat())
	}
	ack, err := tab2.Move(ctx, 1, "s")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cs[0].WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V && v.Board.Moves == 1 }); err != nil {
		t.Fatalf("the first tab did not see the second tab's move: %v", err)
	}
	tab2.Close()
	// Closing one tab does not make the player away: the other is open.
	time.Sleep(300 * time.Millisecond)
	v, err := cs[1].WaitView(ctx, func(v *match.View) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if v.Seats[0].Away {
		t.Errorf("Ana is away with a tab still open")
	}
	cs[0].CloseNow()
	if _, err := cs[1].WaitView(ctx, func(v *match.View) bool { return v.Seats[0].Away }); err != nil {
		t.Fatalf("Ana is not away once every tab is closed: %v", err)
	}
}
