package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/match"
	"golfsolitaire/store"
)

// errNotForBots is the refusal of a bot in a tournament room.
var errNotForBots = fmt.Errorf("%w: bots play in practice rooms, not in tournaments", match.ErrInvalid)

// AddBotRequest is the body of POST /api/rooms/{code}/bots.
type AddBotRequest struct {
	// Token is the host's seat token (seat 0).
	Token string `json:"token"`
	// Level is random, greedy or search.
	Level string `json:"level"`
}

// AddBotResponse is its answer.
type AddBotResponse struct {
	Seat  int    `json:"seat"`
	Name  string `json:"name"`
	Level string `json:"level"`
}

// addBot serves POST /api/rooms/{code}/bots: the host adds a bot to the
// waiting room. The bot takes the next seat (ready, marked as a bot) and
// plays through the WebSocket with its own seat token, from its own view,
// like any client.
func (s *Server) addBot(w http.ResponseWriter, r *http.Request) {
	code, ok := s.roomCode(w, r)
	if !ok {
		return
	}
	var req AddBotRequest
	if err := decodeBody(r, &req); err != nil {
		s.fail(w, err)
		return
	}
	level, err := bot.ParseLevel(req.Level)
	if err != nil {
		s.fail(w, fmt.Errorf("%w: %v", match.ErrInvalid, err))
		return
	}
	h, err := s.acquire(r.Context(), code)
	if err != nil {
		s.fail(w, notFound(err))
		return
	}
	res := h.do(r.Context(), &command{read: func(room *match.Room) any {
		switch {
		case room.Tournament != "":
			return errNotForBots
		case req.Token == "" || room.SeatOf(hashToken(req.Token)) != 0:
			return match.ErrNotHost
		case room.Status != match.Waiting:
			return match.ErrNotWaiting
		}
		return nil
	}})
	s.release(h)
	if res.err == nil {
		res.err, _ = res.data.(error)
	}
	if res.err != nil {
		s.fail(w, res.err)
		return
	}
	s.bots.mu.Lock()
	closed := s.bots.closed
	s.bots.mu.Unlock()
	if closed {
		s.fail(w, fmt.Errorf("%w: the server is shutting down", store.ErrUnavailable))
		return
	}
	grant, err := s.join(r.Context(), code, level.Name(), true)
	if err != nil {
		s.fail(w, err)
		return
	}
	if err := s.startBot(s.selfURL(r), code, grant.Token, level); err != nil {
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, AddBotResponse{Seat: grant.Seat, Name: level.Name(), Level: string(level)})
}

// selfURL is where bots connect: Options.SelfURL, or the address the
// request came in on.
func (s *Server) selfURL(r *http.Request) string {
	if s.opts.SelfURL != "" {
		return s.opts.SelfURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

// startBot runs a bot until its room is done or the server closes.
func (s *Server) startBot(url, code, token string, level bot.Level) error {
	s.bots.mu.Lock()
	defer s.bots.mu.Unlock()
	if s.bots.closed {
		return fmt.Errorf("%w: the server is shutting down", store.ErrUnavailable)
	}
	if s.bots.ctx == nil {
		s.bots.ctx, s.bots.cancel = context.WithCancel(context.Background())
	}
	s.bots.wg.Add(1)
	s.bots.running.Add(1)
	go func() {
		defer s.bots.wg.Done()
		defer s.bots.running.Add(-1)
		err := bot.Run(s.bots.ctx, bot.RunOptions{
			URL: url, Room: code, Token: token, Level: level, Think: s.opts.BotThink, Logger: s.log,
		})
		if err != nil && !errors.Is(err, context.Canceled) && !strings.Contains(err.Error(), "deadline") {
			s.log.Info("bot stopped", "room", code, "err", err)
		}
	}()
	return nil
}

// RunningBots is the number of bot goroutines running.
func (s *Server) RunningBots() int { return int(s.bots.running.Load()) }

// stopBots cancels every bot and waits (a while) for them to stop.
func (s *Server) stopBots() {
	s.bots.mu.Lock()
	s.bots.closed = true
	if s.bots.cancel != nil {
		s.bots.cancel()
	}
	s.bots.mu.Unlock()
	done := make(chan struct{})
	go func() { s.bots.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.log.Warn("bots did not stop in time")
	}
}
