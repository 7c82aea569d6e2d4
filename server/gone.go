package server

import (
	"github.com/coder/websocket"

	"golfsolitaire/protocol"
)

// vanish ends the hub of a room whose state is no longer in the store (it
// expired, or Redis restarted without its data): every connection is told
// room_not_found, unasked, and closed with 1008, as a hello naming an
// unknown room is. It logs one line and marks the hub gone, so the store
// is not asked for the room again (no retries, no log line per check);
// the hub stops once its last connection has let go. GET
// /api/rooms/{code} says 404 from then on as well.
func (h *hub) vanish() {
	if h.gone {
		return
	}
	h.gone, h.stale = true, false
	h.Core.Schedule(h.s.now(), false)
	h.Log.Warn("the room no longer exists in the store (it expired, or the store lost it); its clients are told room_not_found",
		"connections", len(h.conns))
	msg := codeMsg(0, protocol.ErrCodeRoomNotFound, "this room no longer exists")
	for c := range h.conns {
		delete(h.conns, c)
		h.s.metrics.conns.Dec()
		c.fail(msg, websocket.StatusPolicyViolation, "no such room")
	}
	h.spectators = 0
}
