package server_test

import (
	"testing"

	"github.com/coder/websocket"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// TestSeqAcrossDevices: the welcome tells a seat its last applied seq; a
// second device whose counter is far behind continues above it (the Go
// client does so), and a raw client that does not gets stale_seq, never an
// ack, for a lower seq or for a used seq with another move.
func TestSeqAcrossDevices(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t)
	g := e.create(t, ctx, stroke(2, 1, nil), "Ana", "Bo")
	cs := e.startRoom(t, ctx, g)
	code := g[0].Code
	first := protocol.ClientMessage{Type: protocol.TypeMove, Hole: 1, Move: "s", Seq: 1_000_000}
	if _, err := cs[0].DoSeq(ctx, first); err != nil {
		t.Fatal(err)
	}
	// A raw second device: the welcome says 1000000.
	ws := rawDial(t, ctx, e.ts, nil)
	if err := ws.Write(ctx, websocket.MessageText, helloMsg(code, g[0].Token)); err != nil {
		t.Fatal(err)
	}
	if m := rawRead(t, ctx, ws); m.Type != protocol.TypeWelcome || m.LastSeq != first.Seq {
		t.Fatalf("welcome %+v, want lastSeq %d", m, first.Seq)
	}
	// Spectators are told nothing of seqs.
	sc := rawDial(t, ctx, e.ts, nil)
	sc.Write(ctx, websocket.MessageText, helloMsg(code, ""))
	if m := rawRead(t, ctx, sc); m.Type != protocol.TypeWelcome || m.LastSeq != 0 {
		t.Fatalf("spectator welcome %+v", m)
	}
	// Stale seqs from a device that does not continue above it.
	for _, m := range []protocol.ClientMessage{
		{Type: protocol.TypeMove, Hole: 1, Move: "s", Seq: 7},
		{Type: protocol.TypeMove, Hole: 1, Move: "1", Seq: first.Seq},
	} {
		e.unchanged(t, code, func() {
			_, err := cs[0].DoSeq(ctx, m)
			wantCode(t, err, protocol.ErrCodeStaleSeq)
		})
	}
	// The Go client with a counter far behind continues above lastSeq.
	c2, err := client.Dial(ctx, e.ts, &client.Options{Room: code, Token: g[0].Token, FirstSeq: 5})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c2.CloseNow() })
	ack, err := c2.Move(ctx, 1, "s")
	if err != nil || ack.Duplicate || ack.Seq <= first.Seq {
		t.Fatalf("second device's move: %+v %v", ack, err)
	}
	if v, err := c2.WaitView(ctx, func(v *match.View) bool { return v.V >= ack.V }); err != nil || v.Board.Moves != 2 {
		t.Fatalf("after the second device's move: %+v %v", v, err)
	}
}
