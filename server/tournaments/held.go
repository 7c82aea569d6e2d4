package tournaments

import (
	"context"
	"errors"
	"slices"
	"time"

	"golfsolitaire/tourney"
)

// The held marks of tournaments' entrants (docs/protocol.md, "held" on
// leaderboard rows; the server's held.go has them for rated rooms): an
// event of the tournament (tourney.KindHeld), appended when it differs
// from the fair-play store. While the tournament is in play the mark is
// the entrant's hold; once a rated one is over, whether its rated result
// is held (an unrated tournament keeps marking whoever is held). It is
// checked when a player enters, after each analysed hole of a tournament
// room (the room's players only), when the tournament ends and after a
// moderator's review.

// heldSyncTimeout bounds one check of a tournament's marks (as a room's,
// in the server's held.go).
const heldSyncTimeout = 10 * time.Second

// heldSyncRounds bounds how many times one check reads and writes again:
// two checks may run at once (a hole's and a review's), and one that read
// the store before a review may write after it; every check that writes
// reads the store again afterwards and puts right what it finds, so the
// last write is always followed by a read that agrees with it.
const heldSyncRounds = 3

// SyncHeld brings the held marks of a tournament's entrants of those
// names (every entrant for nil) in line with the fair-play store,
// checking again after a write: every tournament's leaderboard is a
// competition, rated or not (the daily challenge is not).
func (ts *Tournaments) SyncHeld(ctx context.Context, id string, names []string) {
	if ts.o.Holds == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, heldSyncTimeout)
	defer cancel()
	h, err := ts.acquire(ctx, id)
	if err != nil {
		return
	}
	defer ts.reg.Release(h)
	for range heldSyncRounds {
		if !ts.syncOnce(ctx, h, id, names) {
			return
		}
	}
}

// syncOnce reads a tournament and the fair-play store once and
// writes the marks that differ (of the named entrants; all for nil); it
// reports whether it wrote any.
func (ts *Tournaments) syncOnce(ctx context.Context, h *hub, id string, names []string) bool {
	type entrant struct {
		account int64
		name    string
		held    bool
	}
	type snap struct {
		rated, accounts, over bool
		entrants              []entrant
	}
	sn, err := readT(ctx, h, func(t *tourney.Tournament) (snap, error) {
		sn := snap{rated: t.Settings.Rated, accounts: t.Settings.Accounts, over: t.Status == tourney.Closed}
		for _, e := range t.Entrants {
			sn.entrants = append(sn.entrants, entrant{e.Account, e.Name, e.Held})
		}
		return sn, nil
	})
	if err != nil {
		return false
	}
	wrote := false
	for i, e := range sn.entrants {
		if names != nil && !slices.Contains(names, e.name) {
			continue
		}
		var player string
		var err error
		switch {
		case e.account == 0 && !sn.accounts:
			// A guest: checked tournament by tournament (review.Player).
			player = "entrant:" + id + ":" + e.name
		default:
			player, err = ts.o.Holds.PlayerOf(ctx, e.account, e.name)
		}
		var held bool
		if err == nil {
			// A rated tournament that is over marks whom its held result
			// waits for; any other marks whoever is held (or confirmed)
			// now.
			held, err = ts.o.Holds.Mark(ctx, player, sn.over && sn.rated, "rated:t-"+id)
		}
		if err != nil {
			ts.o.Logger.Warn("held marks: the fair-play store did not answer", "tournament", id, "err", err)
			return false
		}
		if held == e.held {
			continue
		}
		res := h.change(ctx, func(t *tourney.Tournament) (tourney.Event, error) {
			if i >= len(t.Entrants) || t.Entrants[i].Held == held {
				return tourney.Event{}, tourney.ErrNoChange
			}
			return tourney.Event{Kind: tourney.KindHeld, Entrant: i, Held: held}, nil
		})
		if res.err != nil && !errors.Is(res.err, tourney.ErrNoChange) {
			ts.o.Logger.Warn("held mark not recorded", "tournament", id, "entrant", i, "err", res.err)
		}
		wrote = wrote || res.err == nil
	}
	return wrote
}
