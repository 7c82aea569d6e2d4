package server

import (
	"context"
	"time"

	"golang.org/x/time/rate"

	"golfsolitaire/protocol"
)

// Reactions: a player's preset message ("Good game", ...) goes through the
// store as a notice on the room's own subscription (NotifyRoom: never
// stored) to every instance's connections to the room, spectators after
// their delay. Each connection may send reactionBurst at once and then
// one every reactionEvery.
const (
	reactionEvery = 2 * time.Second
	reactionBurst = 3
)

// newReactionLimiter is a connection's reaction allowance.
func newReactionLimiter() *rate.Limiter {
	return rate.NewLimiter(rate.Every(reactionEvery), reactionBurst)
}

// react checks and broadcasts a reaction; the sender gets an ack, or an
// error in words (spectator, unknown preset, too fast).
// It runs on the connection's reader goroutine, the only one that touches
// c.reactions.
func (c *conn) react(ctx context.Context, h *hub, seat int, m protocol.ClientMessage) {
	if c.reactions == nil {
		c.reactions = newReactionLimiter()
	}
	switch {
	case seat < 0:
		c.enqueue(c.errorMsg(m.Seq, errSpectator))
		return
	case !protocol.ValidReaction(m.Reaction):
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeInvalid, "unknown reaction "+jsonQuote(m.Reaction)+"; the presets are gg, nice, wp and gl"))
		return
	case !c.reactions.Allow():
		c.enqueue(codeMsg(m.Seq, protocol.ErrCodeTooFast, "too many reactions: wait a moment"))
		return
	}
	s := seat
	msg := protocol.ServerMessage{Type: protocol.TypeReaction, Seat: &s, Reaction: m.Reaction}.Marshal()
	// Through the store, on the room's own subscription, so every
	// instance with connections to the room passes it on (hub.Notice).
	if err := c.s.store.NotifyRoom(ctx, h.code, msg); err != nil {
		c.enqueue(c.errorMsg(m.Seq, err))
		return
	}
	c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq}.Marshal())
}

// Notice passes a reaction of the room, from any instance (store.Bus's
// NotifyRoom, on the room's own subscription), to the hub's connections
// (spectators after their delay). Runs on the hub's loop.
func (h *hub) Notice(data []byte) {
	now := h.s.now()
	for c := range h.conns {
		h.deliver(c, data, now)
	}
}
