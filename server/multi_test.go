package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// matchRoom creates a room on in with a host and a second player (who
// joins through join) and returns their grants.
func matchRoom(t *testing.T, ctx context.Context, in, join *instance, set map[string]any) (a, b protocol.SeatGrant) {
	t.Helper()
	a, err := in.api.CreateRoom(ctx, set, "Ana")
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	b, err = join.api.Join(ctx, a.Code, "Bo")
	if err != nil {
		t.Fatalf("join: %v", err)
	}
	return a, b
}

// readyAll says ready for each player; the room starts by itself.
func readyAll(t *testing.T, ctx context.Context, ps ...*seatPlayer) {
	t.Helper()
	for _, p := range ps {
		if err := p.c.Ready(ctx, true); err != nil {
			t.Fatalf("%s: ready: %v", p.name, err)
		}
	}
	for _, p := range ps {
		if _, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Playing && v.Board != nil }); err != nil {
			t.Fatalf("%s: waiting for play: %v", p.name, err)
		}
	}
}

func noErrors(t *testing.T, errs []error) {
	t.Helper()
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
}

// TestTwoInstances plays a match across two server instances sharing one
// store: Ana on the first, Bo and a spectator on the second. Everyone
// receives every event, in order, including each of the other player's
// moves; everyone ends with the same standings; the records replay to the
// scores.
func TestTwoInstances(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		i1 := startInstance(t, cl.store(t), cl.own)
		i2 := startInstance(t, cl.store(t), cl.own)
		ga, gb := matchRoom(t, ctx, i1, i2, map[string]any{"format": "match", "holes": 3, "seats": 2, "spectators": true})
		a := newSeatPlayer("Ana", dial(t, ctx, i1.url, ga.Code, ga.Token))
		b := newSeatPlayer("Bo", dial(t, ctx, i2.url, gb.Code, gb.Token))
		specConn := dial(t, ctx, i2.url, ga.Code, "")
		spec := newWatcher("spectator")
		spec.follow(specConn)
		readyAll(t, ctx, a, b)

		noErrors(t, parallel(func() error { return a.playOut(ctx) }, func() error { return b.playOut(ctx) }))

		va := waitFinished(t, ctx, "Ana", a.c)
		vb := waitFinished(t, ctx, "Bo", b.c)
		vs := waitFinished(t, ctx, "spectator", specConn)
		if va.V != vb.V || va.V != vs.V {
			t.Errorf("final versions: Ana %d, Bo %d, spectator %d", va.V, vb.V, vs.V)
		}
		if sa, sb, ss := standingsJSON(va), standingsJSON(vb), standingsJSON(vs); sa != sb || sa != ss {
			t.Errorf("final standings differ:\nAna       %s\nBo        %s\nspectator %s", sa, sb, ss)
		}
		if va.Standings.Match == nil || !va.Standings.Match.Decided {
			t.Errorf("the match is not decided: %+v", va.Standings.Match)
		}
		// Every event arrived everywhere, in order (a, b and the
		// spectator's watchers), up to the final version.
		waitVersion(t, a.w, va.V)
		waitVersion(t, b.w, va.V)
		waitVersion(t, spec, va.V)
		recs := checkRecords(t, ctx, i2.api, ga.Code, []*seatPlayer{a, b})
		for _, h := range recs.Holes {
			for seat, p := range []*seatPlayer{a, b} {
				for _, w := range []*watcher{a.w, b.w, spec} {
					if got := w.movesSeen(seat, h.Number); got != p.moves[h.Number] {
						t.Errorf("%s saw %d moves of %s on hole %d, %s made %d", w.name, got, p.name, h.Number, p.name, p.moves[h.Number])
					}
				}
			}
		}
		if got := len(cl.log(t, ga.Code)); int64(got) != va.V {
			t.Errorf("the log has %d events, the room is at v%d", got, va.V)
		}
	})
}

// waitVersion waits until the watcher has received everything up to v and
// reports any version out of order.
func waitVersion(t *testing.T, w *watcher, v int64) {
	t.Helper()
	// Generous: the versions will arrive; only a loaded machine (the
	// whole suite under -race on two cores) makes them late.
	deadline := time.Now().Add(time.Minute)
	for {
		w.mu.Lock()
		last := w.last
		w.mu.Unlock()
		if last >= v {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("%s: received up to v%d, want v%d", w.name, last, v)
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	w.check(t)
}

// moveMsg is a move command with its own sequence number.
func moveMsg(seq int64, hole int, move string) protocol.ClientMessage {
	return protocol.ClientMessage{Type: protocol.TypeMove, Seq: seq, Hole: hole, Move: move}
}

// TestInstanceShutdownMidHole stops the instance of Ana and a spectator in
// the middle of a hole while Bo plays on the other. They reconnect to the
// other instance with the last version they saw and Ana resends her
// unacknowledged moves with the same sequence numbers: a move the first
// instance applied is acknowledged as a duplicate, a move it never got is
// applied, each exactly once. The match finishes with every move counted.
func TestInstanceShutdownMidHole(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		i1 := startInstance(t, cl.store(t), cl.own)
		i2 := startInstance(t, cl.store(t), cl.own)
		ga, gb := matchRoom(t, ctx, i1, i2, map[string]any{"format": "stroke", "holes": 2, "seats": 2, "spectators": true})
		a := newSeatPlayer("Ana", dial(t, ctx, i1.url, ga.Code, ga.Token))
		b := newSeatPlayer("Bo", dial(t, ctx, i2.url, gb.Code, gb.Token))
		spec := &seatPlayer{name: "spectator", c: dial(t, ctx, i1.url, ga.Code, ""), w: newWatcher("spectator")}
		spec.w.follow(spec.c)
		readyAll(t, ctx, a, b)

		// Bo plays the whole match on the second instance meanwhile.
		bDone := make(chan error, 1)
		go func() { bDone <- b.playOut(ctx) }()

		// Ana makes three moves on the first instance; the stock is far
		// from empty, so none of them (nor the two below) can end her hole.
		if over, err := a.play(ctx, 1, 3); err != nil || over {
			t.Fatalf("Ana's first moves: over %v, %v", over, err)
		}
		// Move A reaches the first instance, which applies it, but Ana
		// does not wait for the acknowledgement.
		board, _, err := a.board(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if board.StockLeft < 4 {
			t.Fatalf("stock %d too low for the test", board.StockLeft)
		}
		seqA, moveA := a.c.NextSeq(), chooseMove(board)
		msg, _ := json.Marshal(moveMsg(seqA, 1, moveA))
		if err := a.c.WriteRaw(ctx, msg); err != nil {
			t.Fatal(err)
		}
		// A busy store may answer "unavailable": a real client sends the
		// same command, with the same seq, again.
		waitFor(t, time.Minute, "move A stored", func() bool {
			if m, ok := a.w.takeRefusal(seqA); ok {
				if m.Code != protocol.ErrCodeUnavailable {
					t.Fatalf("move A refused: %s: %s", m.Code, m.Message)
				}
				a.retries++
				if err := a.c.WriteRaw(ctx, msg); err != nil {
					t.Fatal(err)
				}
			}
			return cl.room(t, ga.Code).Seats[0].LastSeq == seqA
		})
		movesBefore := len(cl.room(t, ga.Code).Holes[0].Games[0].Moves)

		i1.stop(t)
		for _, c := range []*client.Conn{a.c, spec.c} {
			select {
			case <-c.Done():
			case <-ctx.Done():
				t.Fatal("the stopped instance did not close its connections")
			}
		}
		// Move B is numbered but never reaches a server.
		seqB := a.c.NextSeq()
		if _, err := a.c.DoSeq(ctx, moveMsg(seqB, 1, "s")); err == nil {
			t.Fatal("a command on the closed connection succeeded")
		}

		a.reconnect(t, ctx, i2.url, ga.Code, ga.Token)
		spec.reconnect(t, ctx, i2.url, ga.Code, "")

		// Move A again: applied already, acknowledged as a duplicate.
		r, err := a.c.DoSeq(ctx, moveMsg(seqA, 1, moveA))
		if err != nil || !r.Duplicate {
			t.Fatalf("resending move A: %+v, %v; want a duplicate ack", r, err)
		}
		a.moves[1]++
		if got := len(cl.room(t, ga.Code).Holes[0].Games[0].Moves); got != movesBefore {
			t.Fatalf("resending move A changed the moves from %d to %d", movesBefore, got)
		}
		// Move B, chosen now: applied once.
		board, over, err := a.board(ctx, 1)
		if err != nil || over {
			t.Fatalf("Ana's board after reconnecting: over %v, %v", over, err)
		}
		moveB := chooseMove(board)
		if r, err := a.c.DoSeq(ctx, moveMsg(seqB, 1, moveB)); err != nil || r.Duplicate {
			t.Fatalf("sending move B: %+v, %v; want an ack", r, err)
		}
		a.moves[1]++
		if r, err := a.c.DoSeq(ctx, moveMsg(seqB, 1, moveB)); err != nil || !r.Duplicate {
			t.Fatalf("resending move B: %+v, %v; want a duplicate ack", r, err)
		}
		if got := len(cl.room(t, ga.Code).Holes[0].Games[0].Moves); got != movesBefore+1 {
			t.Fatalf("after move B Ana has %d moves, want %d", got, movesBefore+1)
		}

		if err := a.playOut(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-bDone; err != nil {
			t.Fatal(err)
		}
		va := waitFinished(t, ctx, "Ana", a.c)
		vb := waitFinished(t, ctx, "Bo", b.c)
		vs := waitFinished(t, ctx, "spectator", spec.c)
		if sa, sb, ss := standingsJSON(va), standingsJSON(vb), standingsJSON(vs); sa != sb || sa != ss {
			t.Errorf("final standings differ:\nAna       %s\nBo        %s\nspectator %s", sa, sb, ss)
		}
		waitVersion(t, a.w, va.V)
		waitVersion(t, b.w, va.V)
		waitVersion(t, spec.w, va.V)
		checkRecords(t, ctx, i2.api, ga.Code, []*seatPlayer{a, b})
		// Each player's last move ended their last hole, one of them the
		// round; sent again (its ack lost, say), it is a duplicate.
		for _, p := range []*seatPlayer{a, b} {
			if r, err := p.c.DoSeq(ctx, p.last); err != nil || !r.Duplicate || r.V != va.V {
				t.Errorf("%s's last move sent again: %+v, %v; want a duplicate ack at v%d", p.name, r, err, va.V)
			}
		}
		for seat, p := range []*seatPlayer{a, b} {
			for h := 1; h <= 2; h++ {
				if got := spec.w.movesSeen(seat, h); got != p.moves[h] {
					t.Errorf("the spectator saw %d moves of %s on hole %d, %s made %d", got, p.name, h, p.name, p.moves[h])
				}
			}
		}
	})
}

// TestServerRestart stops the only instance in the middle of a hole and
// starts a new one on the same store: the room is where it was, its
// version goes on from there, and the players reconnect and finish.
func TestServerRestart(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		i1 := startInstance(t, cl.store(t), cl.own)
		ga, gb := matchRoom(t, ctx, i1, i1, map[string]any{"format": "match", "holes": 2, "seats": 2, "spectators": true})
		a := newSeatPlayer("Ana", dial(t, ctx, i1.url, ga.Code, ga.Token))
		b := newSeatPlayer("Bo", dial(t, ctx, i1.url, gb.Code, gb.Token))
		readyAll(t, ctx, a, b)
		for _, p := range []*seatPlayer{a, b} {
			if over, err := p.play(ctx, 1, 4); err != nil || over {
				t.Fatalf("%s: first moves: over %v, %v", p.name, over, err)
			}
		}
		seen := a.c.Version()
		before := cl.room(t, ga.Code)

		i1.stop(t)
		i2 := startInstance(t, cl.store(t), cl.own)

		var info protocol.RoomInfo
		if _, err := i2.api.Call(ctx, "GET", "/api/rooms/"+ga.Code, nil, &info); err != nil {
			t.Fatal(err)
		}
		// The old instance recorded both players leaving; nothing else.
		if info.V < seen || info.Status != match.Playing || info.Hole != 1 {
			t.Fatalf("after the restart the room is at v%d, %s, hole %d; before at v%d, playing, hole 1", info.V, info.Status, info.Hole, seen)
		}
		after := cl.room(t, ga.Code)
		for i := range 2 {
			if got, want := len(after.Holes[0].Games[i].Moves), len(before.Holes[0].Games[i].Moves); got != want || want != 4 {
				t.Errorf("seat %d has %d moves after the restart, %d before (4 made)", i, got, want)
			}
		}
		a.reconnect(t, ctx, i2.url, ga.Code, ga.Token)
		b.reconnect(t, ctx, i2.url, gb.Code, gb.Token)
		if v := a.c.View(); v.Board == nil || v.Board.Moves != 4 || v.V < info.V {
			t.Fatalf("Ana's view after reconnecting: v%d, board %+v", v.V, v.Board)
		}
		noErrors(t, parallel(func() error { return a.playOut(ctx) }, func() error { return b.playOut(ctx) }))
		va := waitFinished(t, ctx, "Ana", a.c)
		vb := waitFinished(t, ctx, "Bo", b.c)
		if standingsJSON(va) != standingsJSON(vb) {
			t.Errorf("final standings differ:\nAna %s\nBo  %s", standingsJSON(va), standingsJSON(vb))
		}
		waitVersion(t, a.w, va.V)
		waitVersion(t, b.w, va.V)
		checkRecords(t, ctx, i2.api, ga.Code, []*seatPlayer{a, b})
		if got := len(cl.log(t, ga.Code)); int64(got) != va.V {
			t.Errorf("the log has %d events, the room is at v%d", got, va.V)
		}
	})
}

// TestTransitionsExactlyOnce races every instance's hole clock (one
// second) against both players ending the hole at the clock's deadline
// from two instances, in several rooms at once: the log of each room holds
// exactly one holeStarted and one holeEnded notice per hole and one
// roundEnded, and every watcher receives each of them once.
func TestTransitionsExactlyOnce(t *testing.T) {
	t.Parallel()
	const holes, rooms, instances = 3, 3, 4
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		var ins []*instance
		for range instances {
			ins = append(ins, startInstance(t, cl.store(t), cl.own))
		}
		var fs []func() error
		check := func() {}
		for r := range rooms {
			set := map[string]any{"format": "stroke", "holes": holes, "seats": 2, "holeClock": 1, "spectators": true}
			ga, gb := matchRoom(t, ctx, ins[0], ins[1], set)
			a := newSeatPlayer("Ana", dial(t, ctx, ins[r%instances].url, ga.Code, ga.Token))
			b := newSeatPlayer("Bo", dial(t, ctx, ins[(r+1)%instances].url, gb.Code, gb.Token))
			// A spectator on every instance: each has a hub of the room,
			// whose clock ticks.
			var specs []*watcher
			for i, in := range ins {
				w := newWatcher(fmt.Sprintf("room %d, spectator %d", r, i))
				w.follow(dial(t, ctx, in.url, ga.Code, ""))
				specs = append(specs, w)
			}
			// The stands land around the deadline: just before it, between
			// it and the ticks, and with the ticks (10ms after it).
			offset := time.Duration(6*r-2) * time.Millisecond
			for _, p := range []*seatPlayer{a, b} {
				fs = append(fs, func() error {
					if err := p.c.Ready(ctx, true); err != nil {
						return fmt.Errorf("%s: ready: %w", p.name, err)
					}
					return standAtDeadline(ctx, p, holes, offset)
				})
			}
			prev := check
			check = func() {
				prev()
				checkTransitions(t, cl, ga.Code, holes, append(specs, a.w, b.w))
			}
		}
		noErrors(t, parallel(fs...))
		check()
	})
}

// standAtDeadline plays each hole as a player racing the clock: a couple
// of moves, then a stand at offset from the hole clock's deadline (hole 1
// is left to the clock alone). On a slow machine a hole may be over before
// the player gets to it: it goes on with the next.
func standAtDeadline(ctx context.Context, p *seatPlayer, holes int, offset time.Duration) error {
	for h := 1; h <= holes; h++ {
		v, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Hole >= h })
		if err != nil {
			return fmt.Errorf("%s: waiting for hole %d: %w", p.name, h, err)
		}
		if v.Status == match.Finished {
			return nil
		}
		if v.Hole > h {
			continue
		}
		if h > 1 && v.HoleClock != nil {
			if _, err := p.play(ctx, h, 2); err != nil {
				return err
			}
			time.Sleep(time.Until(v.HoleClock.Deadline.Add(offset)))
			err := p.c.Stand(ctx, h)
			if err != nil && !client.IsCode(err, protocol.ErrCodeHoleDone) && !client.IsCode(err, protocol.ErrCodeWrongHole) &&
				!client.IsCode(err, protocol.ErrCodeNotPlaying) {
				return fmt.Errorf("%s: stand on hole %d: %w", p.name, h, err)
			}
		}
		if _, err := p.c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished || v.Hole > h }); err != nil {
			return fmt.Errorf("%s: waiting for the end of hole %d: %w", p.name, h, err)
		}
	}
	return nil
}

// checkTransitions counts the room's transitions in its log and in what
// each watcher received.
func checkTransitions(t *testing.T, cl *cluster, code string, holes int, ws []*watcher) {
	t.Helper()
	want := map[string]int{"started": 1, "roundEnded": 1}
	for h := 1; h <= holes; h++ {
		want[fmt.Sprintf("holeStarted %d", h)] = 1
		want[fmt.Sprintf("holeEnded %d", h)] = 1
	}
	got := map[string]int{}
	log := cl.log(t, code)
	for _, l := range log {
		for _, n := range l.Notices {
			switch n.Kind {
			case "holeEnded", "holeStarted":
				got[fmt.Sprintf("%s %d", n.Kind, n.Hole)]++
			case "roundEnded", "started":
				got[string(n.Kind)]++
			}
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("room %s: transitions in the log %v, want %v", code, got, want)
	}
	r := cl.room(t, code)
	if r.Status != match.Finished || len(r.Holes) != holes {
		t.Errorf("room %s: %s with %d holes", code, r.Status, len(r.Holes))
	}
	for _, w := range ws {
		waitVersion(t, w, int64(len(log)))
		w.mu.Lock()
		seen := fmt.Sprint(w.notices)
		w.mu.Unlock()
		if seen != fmt.Sprint(want) {
			t.Errorf("room %s, %s received transitions %s, want %v", code, w.name, seen, want)
		}
	}
}

// TestOneHoleMatchStores is TestOneHoleMatch on every store, with the
// players on two instances.
func TestOneHoleMatchStores(t *testing.T) {
	t.Parallel()
	eachBackend(t, func(t *testing.T, cl *cluster) {
		ctx := testCtx(t)
		i1 := startInstance(t, cl.store(t), cl.own)
		i2 := startInstance(t, cl.store(t), cl.own)
		ga, gb := matchRoom(t, ctx, i1, i2, map[string]any{"game": "golf", "holes": 1, "format": "match", "seats": 2})
		c1 := dial(t, ctx, i1.url, ga.Code, ga.Token)
		c2 := dial(t, ctx, i2.url, gb.Code, gb.Token)
		spec := dial(t, ctx, i2.url, ga.Code, "")
		if c1.Seat() != 0 || c2.Seat() != 1 || spec.Seat() != -1 {
			t.Fatalf("seats %d %d %d", c1.Seat(), c2.Seat(), spec.Seat())
		}
		a, b := newSeatPlayer("Ana", c1), newSeatPlayer("Bo", c2)
		readyAll(t, ctx, a, b)
		noErrors(t, parallel(func() error { return a.playOut(ctx) }, func() error { return b.playOut(ctx) }))
		for _, c := range []*client.Conn{c1, c2, spec} {
			v := waitFinished(t, ctx, "conn", c)
			if v.Seed == "" || v.Standings.Match == nil || !v.Standings.Match.Decided {
				t.Errorf("end view: seed %q, match %+v", v.Seed, v.Standings.Match)
			}
		}
		checkRecords(t, ctx, i1.api, ga.Code, []*seatPlayer{a, b})
	})
}
