package server_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/coder/websocket"

	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// TestReactions: a player's preset reaction reaches the other player and
// the spectators, is never stored (the room's snapshot does not change), an
// unknown preset and a spectator's reaction are refused in words, and a
// flood is cut by the per-connection limit without closing the socket.
func TestReactions(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	e := newEnv(t)
	grants := e.create(t, ctx, stroke(2, 1, map[string]any{"spectators": true}), "Ana", "Bo")
	code := grants[0].Code
	open := func(token string) *websocket.Conn {
		ws := rawDial(t, ctx, e.ts, nil)
		if err := ws.Write(ctx, websocket.MessageText, helloMsg(code, token)); err != nil {
			t.Fatal(err)
		}
		until(t, ctx, ws, func(m protocol.ServerMessage) bool { return m.Type == protocol.TypeSnapshot })
		return ws
	}
	ana, bo, eve := open(grants[0].Token), open(grants[1].Token), open("")
	send := func(ws *websocket.Conn, seq int64, reaction string) {
		b, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeReact, Seq: seq, Reaction: reaction})
		if err := ws.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
	}
	e.unchanged(t, code, func() {
		send(ana, 1, "gg")
		m := until(t, ctx, ana, func(m protocol.ServerMessage) bool { return m.Seq == 1 })
		if m.Type != protocol.TypeAck {
			t.Fatalf("Ana's reaction: %+v, want an ack", m)
		}
		for name, ws := range map[string]*websocket.Conn{"Bo": bo, "the spectator": eve} {
			r := until(t, ctx, ws, func(m protocol.ServerMessage) bool { return m.Type == protocol.TypeReaction })
			if r.Seat == nil || *r.Seat != 0 || r.Reaction != "gg" {
				t.Errorf("%s got %+v, want seat 0's gg", name, r)
			}
		}
		send(bo, 2, "you are bad")
		if m := until(t, ctx, bo, func(m protocol.ServerMessage) bool { return m.Seq == 2 }); m.Type != protocol.TypeError || m.Code != protocol.ErrCodeInvalid || m.Message == "" {
			t.Errorf("free text: %+v, want an invalid error in words", m)
		}
		send(eve, 3, "gg")
		if m := until(t, ctx, eve, func(m protocol.ServerMessage) bool { return m.Seq == 3 }); m.Type != protocol.TypeError || m.Code != protocol.ErrCodeSpectator {
			t.Errorf("spectator's reaction: %+v, want a spectator error", m)
		}
		// A flood: the burst passes, then too_fast; the socket stays open.
		limited := false
		for seq := int64(10); seq < 20; seq++ {
			send(bo, seq, "wp")
			if m := until(t, ctx, bo, func(m protocol.ServerMessage) bool { return m.Seq == seq }); m.Type == protocol.TypeError {
				if m.Code != protocol.ErrCodeTooFast {
					t.Fatalf("flood: %+v", m)
				}
				limited = true
			}
		}
		if !limited {
			t.Error("ten reactions at once were all sent")
		}
		b, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypePing})
		if err := bo.Write(ctx, websocket.MessageText, b); err != nil {
			t.Fatal(err)
		}
		until(t, ctx, bo, func(m protocol.ServerMessage) bool { return m.Type == protocol.TypePong })
	})
}

// until reads messages until one matches.
func until(t *testing.T, ctx context.Context, ws *websocket.Conn, match func(protocol.ServerMessage) bool) protocol.ServerMessage {
	t.Helper()
	for {
		if m := rawRead(t, ctx, ws); match(m) {
			return m
		}
	}
}

// TestReactionsAcrossInstances: two servers on one store; a reaction sent
// to one reaches a player connected to the other (rooms shared through
// Redis have players on several instances).
func TestReactionsAcrossInstances(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	a := newEnv(t)
	b := newEnvStore(t, a.st)
	grants := a.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	open := func(base, token string) *websocket.Conn {
		ws := rawDial(t, ctx, base, nil)
		if err := ws.Write(ctx, websocket.MessageText, helloMsg(grants[0].Code, token)); err != nil {
			t.Fatal(err)
		}
		until(t, ctx, ws, func(m protocol.ServerMessage) bool { return m.Type == protocol.TypeSnapshot })
		return ws
	}
	ana, bo := open(a.ts, grants[0].Token), open(b.ts, grants[1].Token)
	msg, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeReact, Seq: 1, Reaction: "nice"})
	if err := bo.Write(ctx, websocket.MessageText, msg); err != nil {
		t.Fatal(err)
	}
	r := until(t, ctx, ana, func(m protocol.ServerMessage) bool { return m.Type == protocol.TypeReaction })
	if r.Seat == nil || *r.Seat != 1 || r.Reaction != "nice" {
		t.Errorf("Ana got %+v, want seat 1's nice", r)
	}
}

// TestSoloRematchStarts: in a one-seat room, rematch after the round
// starts the next round at once, with a new commitment (before, the seat
// waited ready and a second ready was refused with no_change).
func TestSoloRematchStarts(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	e := newEnv(t)
	grants := e.create(t, ctx, stroke(1, 1, nil), "Ana")
	c := e.startRoom(t, ctx, grants)[0]
	if err := c.Stand(ctx, 1); err != nil {
		t.Fatal(err)
	}
	first, err := c.WaitView(ctx, func(v *match.View) bool { return v.Status == match.Finished })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Rematch(ctx); err != nil {
		t.Fatal(err)
	}
	v, err := c.WaitView(ctx, func(v *match.View) bool { return v.Round == 2 })
	if err != nil {
		t.Fatal(err)
	}
	if v.Status != match.Playing || v.Board == nil || v.Commitment == first.Commitment {
		t.Fatalf("after rematch: status %s, board %v, commitment %s", v.Status, v.Board != nil, v.Commitment)
	}
}
