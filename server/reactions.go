package server

import (
	"context"
	"log/slog"
	"time"

	"golang.org/x/time/rate"

	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// Reactions: a player's preset message ("Good game", ...) goes through the
// store's notifications (never stored) to every instance's connections to
// the room, spectators after their delay. Each connection may send reactionBurst at once and
// then one every reactionEvery.
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
	// Through the store, so every instance with connections to the room
	// passes it on (listenReactions).
	if err := c.s.store.Notify(ctx, reactionTopic(h.code), msg); err != nil {
		c.enqueue(c.errorMsg(m.Seq, err))
		return
	}
	c.enqueue(protocol.ServerMessage{Type: protocol.TypeAck, Seq: m.Seq}.Marshal())
}

func reactionTopic(code string) string { return "reactions:" + code }

// listenReactions passes the room's reactions, from any instance, to the
// hub's connections (spectators after their delay) until the hub stops.
// The first subscription is made before the hub serves anyone, so that a
// reaction sent once a connection has the room's snapshot is heard; if
// the store cannot listen then, it listens again (keepListening).
func (h *hub) listenReactions() {
	ctx, cancel := context.WithCancel(context.Background())
	sub, err := h.s.store.Listen(ctx, reactionTopic(h.code))
	if err != nil {
		h.Log.Warn("cannot listen for reactions; trying again", "err", err)
	}
	h.s.hubLoops.Go(func() { // Close waits for it as for the hub's loop
		defer cancel()
		h.s.keepListening(ctx, h.Stopping(), reactionTopic(h.code), slog.LevelDebug, sub, func(e store.Entry) {
			h.Do(ctx, func() {
				now := h.s.now()
				for c := range h.conns {
					h.deliver(c, e.Data, now)
				}
			})
		})
	})
}
