package tourney

import (
	"golfsolitaire/golf"
	"golfsolitaire/match"
)

// Play is where an entrant plays now (POST /api/tournaments/{id}/play):
// their stroke-play room (View.You.Room; none yet the first time: made on
// Seed with Settings) or their current knockout match.
type Play struct {
	Entrant  int
	Account  int64
	View     View
	Seed     golf.Seed
	Settings match.Settings
	// Seat is the entrant's seat in their knockout match's room
	// (View.You.Room), -1 while it is not ready.
	Seat  int
	Match bool // a knockout match, not a stroke room
}

// PlayOf is where the entrant whose token hash it is plays now; it fails
// with ErrNoEntrant, ErrNotStarted or ErrClosed.
func (t *Tournament) PlayOf(tokenHash string) (Play, error) {
	e := t.EntrantOf(tokenHash)
	if e < 0 {
		return Play{}, ErrNoEntrant
	}
	switch t.Status {
	case Upcoming:
		return Play{}, ErrNotStarted
	case Closed:
		return Play{}, ErrClosed
	}
	ps := Play{Entrant: e, Account: t.Entrants[e].Account, View: t.View(e, false), Seed: t.StrokeSeed(), Settings: t.Settings.StrokeRoomSettings()}
	if !t.StrokePlay() {
		ps.Seat, ps.Match = -1, true
		for _, round := range t.Bracket.Rounds {
			for _, m := range round {
				if !m.Decided && m.Room != "" && (m.A == e || m.B == e) {
					ps.Seat = map[bool]int{true: 0, false: 1}[m.A == e]
					ps.View.You.Room = m.Room
				}
			}
		}
	}
	return ps, nil
}

// EntrantHole is where entrant's game of a hole was played (GET
// /api/tournaments/{id}/entrants/{n}/holes/{hole}/replay): the room and
// seat (Room empty or Seat -1: none), whether the hole is safe, and
// whether the game's result counts.
type EntrantHole struct {
	Room   string
	Seat   int
	Safe   bool
	Counts bool
}

// EntrantHoleOf is where entrant n played the hole in the round (0 the
// qualifying round of a knockout; negative: the first round played, 1 in
// stroke play); it fails with ErrNoEntrant.
func (t *Tournament) EntrantHoleOf(n, round, hole int) (EntrantHole, error) {
	if n < 0 || n >= len(t.Entrants) {
		return EntrantHole{}, ErrNoEntrant
	}
	rd := round
	if rd < 0 {
		rd = 1
		if t.Settings.Format == Knockout {
			rd = 0
		}
	}
	tg := EntrantHole{Seat: -1}
	if rd == 0 && t.Settings.Qualifying || rd == 1 && t.Settings.Format == Stroke {
		e := t.Entrants[n]
		tg.Room, tg.Seat, tg.Counts = e.Room, 0, hole <= t.Thru(n)
	} else if t.Bracket != nil && rd >= 1 && rd <= len(t.Bracket.Rounds) {
		for _, m := range t.Bracket.Rounds[rd-1] {
			if m.Room != "" && (m.A == n || m.B == n) {
				tg.Room, tg.Counts = m.Room, m.Decided
				tg.Seat = map[bool]int{true: 0, false: 1}[m.A == n]
			}
		}
	}
	tg.Safe = t.Safe(rd, hole)
	return tg, nil
}
