package server

import (
	"net/http"
	"strconv"

	"golfsolitaire/protocol"
)

// getReplay serves GET /api/rooms/{code}/holes/{hole}/replay?seat=i: one
// player's game of a hole, board by board, once everyone has finished that
// hole.
func (s *Server) getReplay(w http.ResponseWriter, r *http.Request) {
	hole, err1 := strconv.Atoi(r.PathValue("hole"))
	seat, err2 := strconv.Atoi(r.URL.Query().Get("seat"))
	if err1 != nil || err2 != nil {
		writeError(w, http.StatusBadRequest, protocol.ErrCodeBadMessage, "want /api/rooms/{code}/holes/{hole}/replay?seat=N")
		return
	}
	room, ok := s.pathRoom(w, r)
	if !ok {
		return
	}
	rp, ok := room.Replay(hole, seat)
	if !ok {
		writeError(w, http.StatusNotFound, protocol.ErrCodeNotFinished, "that hole is not over for everyone yet, or there is no such hole or seat")
		return
	}
	writeJSON(w, http.StatusOK, rp)
}
