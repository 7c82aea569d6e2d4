// Bots a host adds to a practice room, and how they outlive the instance
// that runs them.
//
// A bot is a goroutine playing through the WebSocket like any client, with
// its own seat token, from its own view (package bot), over an in-memory
// connection to this server (botnet.go): never a dial to an address. So that another
// instance (or this one, restarted) can carry on when the instance running
// it stops, everything needed to run a bot again lives in the store:
//
//   - A record per bot (store.SetBot, under a random bot id in the room):
//     its level and its seat token. The seat is the one whose token hash
//     the room holds, so the record needs no update when the bot joins.
//     The token is kept server-side on purpose: it is a credential like any
//     player's, stored as it is only in the store (which also holds every
//     round's secret seed), never in the room's snapshot or events (those
//     hold its hash), and never in a view, event or API answer. Minting a
//     new token on each takeover would need a new room event, and a shared
//     secret to derive tokens would need configuration every instance
//     agrees on; a stored token needs neither.
//   - A lease per bot (store.TakeLease, key "bot:<room>:<id>"), held by the
//     instance running it and renewed every third of Options.BotLease. An
//     instance that cannot renew stops its bot at half the lease, before
//     the lease can lapse, so at most one instance runs a bot at a time.
//
// Every instance sweeps the records every
// Options.BotSweepEvery (and at once when it loads a room with bots, or
// hears that a bot's seat went away): it reads the bots that are due in
// the store's due-time index (store.Bots: a running bot is due when its
// lease ends, each renewal pushing that on; a released one at once),
// takes the lease of each bot that nobody holds, and starts the bot if
// its room is waiting or playing. The
// bot resumes from the view it receives, in the middle of a hole if need
// be, with sequence numbers above the seat's last.
//
// A bot stops for good (its record forgotten) when its room has finished
// and nobody asked for a rematch within botLinger, or its seat or room is
// gone. On Close the instance stops its bots and releases their leases, so
// another instance takes them over at its next sweep instead of after the
// lease runs out; after a crash they resume once their leases lapse.

package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/store"
)

// errNotForBots is the refusal of a bot in a tournament room.
var errNotForBots = fmt.Errorf("%w: bots play in practice rooms, not in tournaments", match.ErrInvalid)

// botLinger is how long a bot waits in a finished room for a rematch
// before it leaves (bot.RunOptions.Linger); the sweep forgets the records
// of bots in rooms finished longer ago.
const botLinger = 2 * time.Minute

// botSweepLimit bounds how many bot records one sweep reads.
const botSweepLimit = 10000

// botRecord is a bot's store record (store.SetBot): what any instance
// needs to run the bot. It holds the seat token: never send it to a
// client.
type botRecord struct {
	Level bot.Level `json:"level"`
	Token string    `json:"token"`
}

// botLeaseKey names the lease of a room's bot.
func botLeaseKey(code, id string) string { return "bot:" + code + ":" + id }

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
	h, err := s.rooms.acquire(r.Context(), code)
	if err != nil {
		s.fail(w, notFound(err))
		return
	}
	_, err = readErr(r.Context(), &h.hubCore, func() (struct{}, error) {
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
	s.rooms.release(h)
	if err != nil {
		s.fail(w, err)
		return
	}
	if s.botsClosed() {
		s.fail(w, errShuttingDown)
		return
	}
	id, rec := newID(), botRecord{Level: level, Token: newToken()}
	key := botLeaseKey(code, id)
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
		s.releaseBotLease(cleanup, key)
		s.fail(w, notFound(err))
		return
	}
	grant, err := s.joinToken(r.Context(), code, level.Name(), rec.Token, true)
	if err != nil {
		s.forgetBot(cleanup, code, id)
		s.releaseBotLease(cleanup, key)
		s.fail(w, err)
		return
	}
	if err := s.runBot(code, id, rec, 0, taken); err != nil {
		// Shutting down: the record stays, and another instance resumes
		// the bot.
		s.releaseBotLease(cleanup, key)
		s.fail(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, protocol.AddBotResponse{Seat: grant.Seat, Name: level.Name(), Level: string(level)})
}

// errShuttingDown refuses new bots while the server closes.
var errShuttingDown = fmt.Errorf("%w: the server is shutting down", store.ErrUnavailable)

func (s *Server) botsClosed() bool {
	s.bots.mu.Lock()
	defer s.bots.mu.Unlock()
	return s.bots.closed
}

// runBot runs the bot, whose lease this instance took at time taken (or
// earlier), until its room is done with it, its lease is lost or the
// server closes. firstSeq is the least sequence number it may use.
func (s *Server) runBot(code, id string, rec botRecord, firstSeq int64, taken time.Time) error {
	key := botLeaseKey(code, id)
	s.bots.mu.Lock()
	defer s.bots.mu.Unlock()
	if s.bots.closed {
		return errShuttingDown
	}
	if s.bots.runs[key] {
		return fmt.Errorf("server: bot %s already runs here", key)
	}
	s.bots.runs[key] = true
	ctx, cancel := context.WithCancel(s.bots.ctx)
	s.bots.wg.Add(1)
	s.bots.running.Add(1)
	go func() {
		defer s.bots.wg.Done()
		lost := s.holdBotLease(ctx, cancel, key, taken, func(ctx context.Context, until time.Time) {
			s.delayBot(ctx, code, id, until)
		})
		err := bot.Run(ctx, bot.RunOptions{
			URL: botURL, HTTPClient: s.botNet.client, Room: code, Token: rec.Token, Level: rec.Level, Think: s.opts.BotThink,
			Linger: botLinger, FirstSeq: firstSeq, Logger: s.log, Gate: botGate{s: s, room: code},
		})
		cancel()
		leaseLost := <-lost
		s.bots.running.Add(-1)
		s.bots.mu.Lock()
		delete(s.bots.runs, key)
		closing := s.bots.closed
		s.bots.mu.Unlock()

		sctx, cancelStop := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancelStop()
		done := err == nil || client.IsCode(err, protocol.ErrCodeBadToken) || client.IsCode(err, protocol.ErrCodeRoomNotFound)
		switch {
		case leaseLost:
			s.log.Warn("bot stopped: its lease could not be renewed", "room", code, "bot", id)
		case done:
			// Done with the room for good: nobody is to resume it.
			s.forgetBot(sctx, code, id)
		case closing, errors.Is(err, context.Canceled), strings.Contains(err.Error(), "deadline"):
		default:
			s.log.Info("bot stopped", "room", code, "err", err)
		}
		// Releasing compares the owner first: harmless if the lease was lost.
		s.releaseBotLease(sctx, key)
		s.delayBot(sctx, code, id, time.Time{}) // due now, for whoever sweeps next
	}()
	return nil
}

// holdBotLease renews the bot's lease every third of BotLease until ctx is
// done. A renewal that fails is tried again soon, until half the lease has
// passed since the last one that worked: then, or as soon as the store
// says the lease is no longer this instance's, it cancels the bot, well
// before another instance could take the lease (which lasts the whole
// BotLease from the last renewal). After each renewal it calls delay
// with the lease's new end. The channel then receives whether the lease
// was lost.
func (s *Server) holdBotLease(ctx context.Context, cancel context.CancelFunc, key string, taken time.Time, delay func(context.Context, time.Time)) <-chan bool {
	lost := make(chan bool, 1)
	go func() {
		ttl := s.opts.BotLease
		every := ttl / 3
		held := taken // the lease lasts at least until held+ttl
		timer := time.NewTimer(every)
		defer timer.Stop()
		// Not due for a sweep while the lease holds (each renewal pushes
		// that on). The timer runs meanwhile: a slow store does not delay
		// the renewals.
		dctx, dcancel := context.WithTimeout(ctx, every)
		delay(dctx, taken.Add(ttl))
		dcancel()
		for {
			select {
			case <-ctx.Done():
				lost <- false
				return
			case <-timer.C:
			}
			sent := time.Now()
			stopBy := held.Add(ttl / 2)
			rctx, rcancel := context.WithTimeout(ctx, min(stopBy.Sub(sent), every))
			ok, err := s.store.RenewLease(rctx, key, s.id, ttl)
			rcancel()
			switch {
			case err == nil && ok:
				held = sent
				timer.Reset(every)
				dctx, dcancel := context.WithTimeout(ctx, every)
				delay(dctx, sent.Add(ttl))
				dcancel()
				continue
			case ctx.Err() != nil:
				lost <- false
				return
			case err != nil && time.Until(stopBy) > 0:
				s.log.Warn("bot lease not renewed; trying again", "lease", key, "err", err)
				timer.Reset(min(every/4, time.Until(stopBy)))
				continue
			}
			cancel()
			lost <- true
			return
		}
	}()
	return lost
}

func (s *Server) releaseBotLease(ctx context.Context, key string) {
	if err := s.store.ReleaseLease(ctx, key, s.id); err != nil {
		s.log.Warn("bot lease not released", "lease", key, "err", err)
	}
}

// delayBot makes the bot due for a sweep at until (zero: now). A delay
// that fails leaves the bot due sooner: the sweep then finds its lease
// held, as it would without the index.
func (s *Server) delayBot(ctx context.Context, code, id string, until time.Time) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.store.DelayBot(ctx, code, id, until); err != nil && ctx.Err() == nil {
		s.log.Warn("bot due time not updated", "room", code, "bot", id, "err", err)
	}
}

func (s *Server) forgetBot(ctx context.Context, code, id string) {
	if err := s.store.SetBot(ctx, code, id, nil); err != nil {
		s.log.Warn("bot record not removed", "room", code, "bot", id, "err", err)
	}
}

// RunningBots is the number of bot goroutines running.
func (s *Server) RunningBots() int { return int(s.bots.running.Load()) }

// startBotSweep starts the loop that resumes the bots nobody runs.
func (s *Server) startBotSweep() {
	stop, done := make(chan struct{}), make(chan struct{})
	s.bots.sweepStop, s.bots.sweepDone = stop, done
	go func() {
		defer close(done)
		tick := time.NewTicker(s.opts.BotSweepEvery)
		defer tick.Stop()
		// Kicks come with every room with bots a hub loads: sweeps they ask
		// for are spaced by a tenth of the period at least.
		gap := s.opts.BotSweepEvery / 10
		var last time.Time
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			case <-s.bots.kick:
				if wait := gap - time.Since(last); wait > 0 {
					t := time.NewTimer(wait)
					select {
					case <-stop:
						t.Stop()
						return
					case <-t.C:
					}
				}
			}
			s.sweepBots()
			last = time.Now()
		}
	}()
}

// kickBotSweep asks for a sweep now (it is coalesced with one pending).
func (s *Server) kickBotSweep() {
	select {
	case s.bots.kick <- struct{}{}:
	default:
	}
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

// sweepBots resumes every recorded bot whose lease nobody holds: those
// the store's due-time index says are due (a running bot's due time is
// its lease's end, pushed on by each renewal).
func (s *Server) sweepBots() {
	ctx, cancel := context.WithTimeout(s.bots.ctx, max(5*s.opts.BotSweepEvery, 10*time.Second))
	defer cancel()
	bots, err := s.store.DueBots(ctx, time.Now(), botSweepLimit)
	if err != nil {
		if ctx.Err() == nil {
			s.outage.warn(s.log, "bot sweep", err)
		}
		return
	}
	s.outage.ok(s.log)
	for _, b := range bots {
		if ctx.Err() != nil {
			return
		}
		s.bots.mu.Lock()
		here := s.bots.runs[botLeaseKey(b.Room, b.ID)]
		s.bots.mu.Unlock()
		if !here {
			s.resumeBot(ctx, b)
		}
	}
}

// resumeBot takes the bot's lease if nobody holds it and, if its room
// still wants it, runs it here; otherwise it lets the lease go, and
// forgets a bot that will never play again.
func (s *Server) resumeBot(ctx context.Context, b store.Bot) {
	var rec botRecord
	if err := json.Unmarshal(b.Data, &rec); err != nil || rec.Token == "" {
		s.log.Warn("bad bot record", "room", b.Room, "bot", b.ID, "err", err)
		return
	}
	if _, err := bot.ParseLevel(string(rec.Level)); err != nil {
		s.log.Warn("bad bot record", "room", b.Room, "bot", b.ID, "err", err)
		return
	}
	key := botLeaseKey(b.Room, b.ID)
	taken := time.Now()
	if ok, err := s.store.TakeLease(ctx, key, s.id, s.opts.BotLease); err != nil || !ok {
		return // held: running somewhere (or being added)
	}
	running := false
	defer func() {
		if !running {
			rctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			s.releaseBotLease(rctx, key)
		}
	}()
	room, err := s.loadRoom(ctx, b.Room)
	if err != nil {
		if errors.Is(err, errRoomNotFound) {
			s.forgetBot(ctx, b.Room, b.ID)
		}
		return
	}
	seat := room.SeatOf(hashToken(rec.Token))
	switch {
	case seat < 0 && room.Status == match.Waiting:
		return // maybe still joining: its instance stopped before the join, or not
	case seat < 0 || !room.Seats[seat].Bot:
		s.forgetBot(ctx, b.Room, b.ID) // the join never happened
		return
	case room.Status == match.Finished:
		// A rematch makes the room wait again, and the next sweep resumes
		// the bot; after botLinger the bot would have left.
		if s.now().Sub(room.Closed) > botLinger {
			s.forgetBot(ctx, b.Room, b.ID)
		}
		return
	}
	if err := s.runBot(b.Room, b.ID, rec, room.Seats[seat].LastSeq+1, taken); err != nil {
		return
	}
	running = true
	s.log.Info("bot resumed", "room", b.Room, "seat", seat, "level", rec.Level)
}

// stopBots stops the sweep, cancels every bot and waits (a while) for
// them to stop and release their leases.
func (s *Server) stopBots() {
	s.bots.mu.Lock()
	s.bots.closed = true
	s.bots.cancel()
	stop, done := s.bots.sweepStop, s.bots.sweepDone
	s.bots.sweepStop = nil
	s.bots.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
	wait := make(chan struct{})
	go func() { s.bots.wg.Wait(); close(wait) }()
	select {
	case <-wait:
	case <-time.After(5 * time.Second):
		s.log.Warn("bots did not stop in time")
	}
}
