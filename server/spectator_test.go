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
	if _, err := cs[1].WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V }); err != nil {
		t.Fatal(err)
	}
	opponentAt := time.Now()
	// The spectator's copy of the move's event: measured from the time the
	// server gave the event (its At), not from when this client read the
	// ack, which a loaded machine may deliver late.
	var ev *match.EventView
	var spectatorAt time.Time
	for ev == nil {
		select {
		case m, ok := <-spec.Updates():
			if !ok {
				t.Fatalf("spectator connection ended: %v", spec.Err())
			}
			if m.Event != nil && m.V >= ack.V {
				ev, spectatorAt = m.Event, time.Now()
			}
		case <-ctx.Done():
			t.Fatal("the spectator never saw the move")
		}
	}
	// The server holds the spectator's copy for the delay after the event:
	// it cannot arrive sooner (a few ms of slack for the wall clock).
	if watched := spectatorAt.Sub(ev.Time()); watched < delay-10*time.Millisecond {
		t.Errorf("the spectator saw version %d %v after the server's event time, before the %v delay", ev.V, watched, delay)
	}
	// Players are not delayed: the opponent had the move before the
	// spectator, who waited the delay.
	if !opponentAt.Before(spectatorAt) {
		t.Errorf("the opponent saw the move at %v, the spectator at %v: players must not be delayed", opponentAt.Sub(ev.Time()), spectatorAt.Sub(ev.Time()))
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
