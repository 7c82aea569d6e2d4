package server

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"golfsolitaire/fairplay"
	"golfsolitaire/match"
)

// The held mark (docs/protocol.md, "held" on standings and leaderboard
// rows): in a rated room or any tournament (every leaderboard is a
// competition: the daily challenge, scheduled events), a player who is
// held for fair-play review (or confirmed) is marked so in the standings
// everyone sees. Casual rooms show no mark, and nothing else of the flag
// (its evidence, its score) is shown to anyone but moderators.
//
// The mark is an event of the room (match.KindHeld) or tournament
// (tourney.KindHeld), so every instance and every view agrees and a
// change is pushed like any other. The server appends it when it differs
// from the fair-play store: while the round (tournament) is in play the
// mark is the player's hold; once a rated one is over, whether they are
// held and that round's (tournament's) rated result is held (an unrated
// tournament keeps marking whoever is held). It checks when a player takes a
// seat or an entry, after each analysed hole of the room (so a new flag
// shows within the hole that raised it), when the round or tournament
// ends, and after a moderator's review (for the rooms of the player's
// analysed holes and their held results).

// heldSyncTimeout bounds one check of a room's or tournament's marks.
const heldSyncTimeout = 10 * time.Second

// heldSyncRounds bounds how many times one check reads and writes again:
// two checks may run at once (a hole's and a review's), and one that read
// the store before a review may write after it; every check that writes
// reads the store again afterwards and puts right what it finds, so the
// last write is always followed by a read that agrees with it.
const heldSyncRounds = 3

// syncRoomHeld brings the held marks of a rated room's seats in line with
// the fair-play store; a tournament room's go to its tournament.
func (s *Server) syncRoomHeld(ctx context.Context, code string) {
	if s.fair == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, heldSyncTimeout)
	defer cancel()
	for range heldSyncRounds {
		if !s.syncRoomOnce(ctx, code) {
			return
		}
	}
}

// syncRoomOnce reads a room and the fair-play store once and writes the
// marks that differ; it reports whether it wrote any.
func (s *Server) syncRoomOnce(ctx context.Context, code string) bool {
	room, err := s.loadRoom(ctx, code)
	if err != nil {
		s.log.Debug("held marks: room not loaded", "room", code, "err", err)
		return false
	}
	if room.Tournament != "" {
		// Only the room's players: a big tournament's other entrants
		// were checked after their own holes.
		names := make([]string, 0, len(room.Seats))
		for _, seat := range room.Seats {
			names = append(names, seat.Name)
		}
		s.tours.SyncHeld(ctx, room.Tournament, names)
		return false
	}
	if !room.Settings.Rated {
		return false
	}
	type change struct {
		seat  int
		token string
		held  bool
	}
	var changes []change
	over := room.Status == match.Finished
	key := "rated:" + room.Code + "-" + strconv.Itoa(room.Round)
	for i, seat := range room.Seats {
		if seat.Bot {
			continue
		}
		player, err := s.fair.holds.PlayerOf(ctx, seat.Account, seat.Name)
		var held bool
		if err == nil {
			held, err = s.fair.holds.Mark(ctx, player, over, key)
		}
		if err != nil {
			s.log.Warn("held marks: the fair-play store did not answer", "room", code, "err", err)
			return false
		}
		if held != seat.Held {
			changes = append(changes, change{seat: i, token: seat.Token, held: held})
		}
	}
	if len(changes) == 0 {
		return false
	}
	h, err := s.rooms.Acquire(ctx, code)
	if err != nil {
		return false
	}
	defer s.rooms.Release(h)
	wrote := false
	for _, c := range changes {
		res := h.change(ctx, func(r *match.Room) (match.Event, error) {
			if c.seat >= len(r.Seats) || r.Seats[c.seat].Token != c.token || r.Seats[c.seat].Held == c.held {
				return match.Event{}, match.ErrNoChange // the room moved on: the next check sees it
			}
			return match.Event{Kind: match.KindHeld, Seat: c.seat, Held: c.held}, nil
		})
		if res.err != nil && !errors.Is(res.err, match.ErrNoChange) {
			s.log.Warn("held mark not recorded", "room", code, "seat", c.seat, "err", res.err)
		}
		wrote = wrote || res.err == nil
	}
	return wrote
}

// syncReviewed checks, in the background, the marks of the rooms and
// tournaments a review may change: those of the player's analysed holes
// (the latest fairplay.MaxReports) and of their held results.
func (s *Server) syncReviewed(holes []fairplay.HoleReport, held []fairplay.HeldResult) {
	rooms := map[string]bool{}
	for _, r := range holes {
		rooms[r.Room] = true
	}
	tours := map[string]bool{}
	for _, r := range held {
		key := strings.TrimPrefix(r.Key, "rated:")
		if id, ok := strings.CutPrefix(key, "t-"); ok {
			tours[id] = true
		} else if i := strings.LastIndexByte(key, '-'); i > 0 {
			rooms[key[:i]] = true
		}
	}
	s.tasks.goCtx(func(ctx context.Context) {
		for code := range rooms {
			s.syncRoomHeld(ctx, code)
		}
		for id := range tours {
			s.tours.SyncHeld(ctx, id, nil)
		}
	})
}
