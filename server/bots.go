// Bots a host adds to a practice room (addBot). Package botrun runs them
// and makes them outlive the instance that runs them (its doc says how).

package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/botrun"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/server/internal/hubs"
	"golfsolitaire/store"
)

// errNotForBots is the refusal of a bot in a tournament room.
var errNotForBots = fmt.Errorf("%w: bots play in practice rooms, not in tournaments", match.ErrInvalid)

// addBot serves POST /api/rooms/{code}/bots: the host adds a bot to the
// waiting room. The bot takes the next seat (ready, marked as a bot) and
// plays through the WebSocket with its own seat token, from its own view,
// like any client.
//
// The bot's lease is taken and its record written before it joins, so an
// instance stopping at any point leaves either no seat or a seat that some
// instance resumes (a record whose token no seat holds is forgotten once
// the room has started).
func (s *Server) addBot(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok || !s.allow(w, r, limitBots) {
		return
	}
	var req protocol.AddBotRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	level, err := bot.ParseLevel(req.Level)
	if err != nil {
		s.fail(w, fmt.Errorf("%w: %v", match.ErrInvalid, err))
		return
	}
	h, err := s.rooms.Acquire(r.Context(), code)
	if err != nil {
		s.fail(w, notFound(err))
		return
	}
	_, err = hubs.ReadErr(r.Context(), &h.Core, func() (struct{}, error) {
		room := h.room
		switch {
		case room.Tournament != "":
			return struct{}{}, errNotForBots
		case room.Settings.Rated:
			return struct{}{}, errRatedNoBots
		case req.Token == "" || room.SeatOf(hashToken(req.Token)) != 0:
			return struct{}{}, match.ErrNotHost
		case room.Status != match.Waiting:
			return struct{}{}, match.ErrNotWaiting
		}
		return struct{}{}, nil
	})
	s.rooms.Release(h)
	if err != nil {
		s.fail(w, err)
		return
	}
	if s.bots.Closed() {
		s.fail(w, botrun.ErrShuttingDown)
		return
	}
	id, rec := newID(), botrun.Record{Level: level, Token: newToken()}
	key := botrun.LeaseKey(code, id)
	taken := time.Now()
	if ok, err := s.store.TakeLease(r.Context(), key, s.id, s.opts.BotLease); err != nil || !ok {
		if err == nil {
			err = fmt.Errorf("%w: the new bot's lease is taken", store.ErrUnavailable)
		}
		s.fail(w, err)
		return
	}
	cleanup, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 2*time.Second)
	defer cancel()
	data, _ := json.Marshal(rec)
	if err := s.store.SetBot(r.Context(), code, id, data); err != nil {
		s.bots.Release(cleanup, key)
		s.fail(w, notFound(err))
		return
	}
	grant, err := s.joinToken(r.Context(), code, level.Name(), rec.Token, true)
	if err != nil {
		s.bots.Forget(cleanup, code, id)
		s.bots.Release(cleanup, key)
		s.fail(w, err)
		return
	}
	if err := s.bots.Run(code, id, rec, 0, taken); err != nil {
		// Shutting down: the record stays, and another instance resumes
		// the bot.
		s.bots.Release(cleanup, key)
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.AddBotResponse{Seat: grant.Seat, Name: level.Name(), Level: string(level)})
}

// roomWantsBots reports whether a room has bot seats that should be
// playing (kicking the sweep when a hub loads it).
func roomWantsBots(r *match.Room) bool {
	if r.Status == match.Finished || r.Tournament != "" {
		return false
	}
	for _, seat := range r.Seats {
		if seat.Bot {
			return true
		}
	}
	return false
}

// RunningBots is the number of bot goroutines running.
func (s *Server) RunningBots() int { return s.bots.Running() }
