package match

import (
	"fmt"

	"golfsolitaire/golf"
)

// The settled board (docs/fairplay.md, "The settled board", and
// docs/protocol.md, "What others see of a hole"): everything anyone other than P sees of P's
// hole comes from Shown, through Others for a room's own viewers. Nothing
// else in this package or the server reads another seat's live game for a
// viewer.

// Whole is the settled count of a hole that nobody plays any more (or that
// may be watched live, a practice room's single seat): boards are whole.
const Whole = -1

// Shown is everything a viewer other than P sees of P's game of a hole.
type Shown struct {
	Board    *Board
	Progress Progress
}

// Wait says why a settled board is not (necessarily) the whole game: whose
// stock turn holds it back. Seat is -1 when no turn of anyone's can move it
// on (a game without a stock, or a tournament hole that some entrant has
// still to play): then it is shown when the hole is over.
// Clients word it themselves (the seat's name is in the view's seats).
type Wait struct {
	Seat int `json:"seat"`
	// Card is the stock card (1-based, the starting waste card not
	// counted) that Seat has to turn before more is shown.
	Card int `json:"card,omitempty"`
}

// Turns is how many stock cards a game has turned: the card that starts
// the waste is not counted, a redeal is not a turn, turns after it are.
func Turns(moves []golf.Move) int {
	n := 0
	for _, m := range moves {
		if m.Action == golf.Turn {
			n++
		}
	}
	return n
}

// settledMoves are the moves of P that anyone else may see when f stock
// cards are settled: exactly those P made while P had turned fewer than f
// stock cards (so P's f-th turn is included, P's plays after it are not);
// all of them with f == Whole.
func settledMoves(moves []golf.Move, f int) []golf.Move {
	if f == Whole {
		return moves
	}
	turned := 0
	for i, m := range moves {
		if turned >= f {
			return moves[:i]
		}
		if m.Action == golf.Turn {
			turned++
		}
	}
	return moves
}

// Settle returns f for hole h as viewer (a seat, SpectatorSeat or NoSeat)
// may see it, with the reason boards wait (nil with Whole):
//   - Whole once nobody plays the hole, and in a practice room with a
//     single seat (outside tournaments), whose deal nobody else plays;
//   - in a tournament room, 0 for anyone but the room's own seats: its
//     deal is shared with every entrant, and only the tournament knows when
//     they have all played it (it passes Whole to Shown for a safe hole);
//   - otherwise the fewest stock cards turned by any seat still playing.
func (r *Room) Settle(h *Hole, viewer int) (int, *Wait) {
	f, w, ok := r.settle(h, viewer)
	if !ok {
		return f, nil
	}
	return f, &w
}

// settle is Settle with its Wait as a value (ok: there is one): most
// callers want the settled point alone, for every viewer of every move.
func (r *Room) settle(h *Hole, viewer int) (int, Wait, bool) {
	if h.Done {
		if r.Tournament == "" || (viewer >= 0 && viewer < len(h.Games)) {
			return Whole, Wait{}, false
		}
	}
	if r.Tournament == "" && r.Settings.Solo() {
		return Whole, Wait{}, false
	}
	if r.Tournament != "" && (viewer < 0 || viewer >= len(h.Games)) {
		return 0, *TournamentWait(), true
	}
	f, slow := -1, -1
	for i, g := range h.Games {
		if g.Done {
			continue
		}
		if t := Turns(g.Moves); f < 0 || t < f {
			f, slow = t, i
		}
	}
	if f < 0 {
		return Whole, Wait{}, false
	}
	if h.Deal(r.Settings.Variant).StockLen() == 0 {
		// Boards are shown when everyone has finished the hole.
		return 0, Wait{Seat: -1}, true
	}
	return f, Wait{Seat: slow, Card: f + 1}, true
}

// TournamentWait is why a tournament hole shows nothing yet: it is shown
// once every entrant still to play it has finished it.
func TournamentWait() *Wait {
	return &Wait{Seat: -1}
}

// Others is what viewer (a seat other than p, SpectatorSeat or NoSeat)
// sees of seat p's game of hole h: Shown at the room's Settle.
func (r *Room) Others(h *Hole, p, viewer int) Shown {
	f, w, ok := r.settle(h, viewer)
	return r.shown(h, p, f, w, ok)
}

// Shown is seat p's game of hole h as anyone other than p sees it with f
// stock cards settled (Whole: the whole game): the board after
// settledMoves, every field of it computed from that board by replaying
// those moves on the deal; beyond it only whether p has finished the hole,
// and p's score and how it ended once p has. It is the only way any view,
// event or HTTP answer shows another seat's hole.
func (r *Room) Shown(h *Hole, p, f int, w *Wait) Shown {
	if w == nil {
		return r.shown(h, p, f, Wait{}, false)
	}
	return r.shown(h, p, f, *w, true)
}

// shown is Shown with the wait as a value (ok: there is one), made a
// pointer only for a board built anew.
func (r *Room) shown(h *Hole, p, f int, w Wait, ok bool) Shown {
	g := h.Games[p]
	if r.Settings.Variant.Options.Undo {
		// With undo, the same number of moves may be other moves.
		return r.shownNew(h, p, f, waitOf(w, ok))
	}
	// Every viewer of an event gets the same settled boards: build each
	// once, and keep it while it does not change. Without undo a game's
	// moves only grow, so the settled moves' count, whether they are all of
	// them, and whether the game is done are all the board depends on (a
	// move past the settled point, most moves of a race, changes nothing
	// anyone else sees).
	settled := len(settledMoves(g.Moves, f))
	key := shownKey{hole: h.Number, seat: p, f: f, moves: settled, whole: settled == len(g.Moves), done: g.Done}
	if ok {
		key.wait = w
	}
	r.shownCache.at(r.Version)
	if sh, ok := r.shownCache.get(key); ok {
		return sh
	}
	sh := r.shownNew(h, p, f, waitOf(w, ok))
	r.shownCache.put(key, sh)
	return sh
}

// waitOf is w as a board holds it (nil: none).
func waitOf(w Wait, ok bool) *Wait {
	if !ok {
		return nil
	}
	return &Wait{Seat: w.Seat, Card: w.Card}
}

// shownKey identifies a Shown in Room.shownCache.
type shownKey struct {
	hole, seat, f, moves int
	whole, done          bool
	wait                 Wait
}

func (r *Room) shownNew(h *Hole, p, f int, w *Wait) Shown {
	vr := r.Settings.Variant
	g := h.Games[p]
	d := h.Deal(vr)
	moves := settledMoves(g.Moves, f)
	whole := len(moves) == len(g.Moves)
	var st *golf.State
	if whole {
		st = h.State(vr, p)
	} else {
		st = golf.NewState(d)
		for _, m := range moves {
			if err := st.Apply(m); err != nil {
				panic(fmt.Sprintf("match: stored move %s of seat %d, hole %d is illegal: %v", m, p, h.Number, err))
			}
		}
	}
	b := BoardOf(d, st, moves, g.Done && whole)
	b.Seat, b.Hole, b.CanUndo = p, h.Number, false
	// "Done", the score and the end describe the real game: once p has
	// finished, the board shows p's score for the hole (public race
	// information, as in progress), not what the board shown would score.
	b.Done = g.Done
	if g.Done {
		b.End, b.Score = g.End, g.Score
	}
	if f != Whole {
		b.Wait = w
	}
	return Shown{Board: b, Progress: progressOf(b, g)}
}

// progressOf is a progress row: the counts of the board shown, and the
// real game's finished flag, score and end (public race information).
func progressOf(b *Board, g *Game) Progress {
	p := Progress{Seat: b.Seat, CardsLeft: b.CardsLeft, StockLeft: b.StockLeft, Moves: b.Moves, Done: g.Done, Wait: b.Wait}
	if g.Done {
		score := g.Score
		p.Score, p.End = &score, g.End
	}
	return p
}

// Finish is the row of View.Progress: p without the counts and wait,
// which the view has on the seat's board.
func (p Progress) Finish() Finish {
	return Finish{Seat: p.Seat, Done: p.Done, Score: p.Score, End: p.End}
}

// ReplayAt is seat's game of hole n (of the current round) step by step as
// anyone other than the seat may see it with f settled: only a whole game
// has a replay.
func (r *Room) ReplayAt(n, seat, f int) (Replay, bool) {
	h := r.holeNumber(n)
	if h == nil || f != Whole || seat < 0 || seat >= len(h.Games) {
		return Replay{}, false
	}
	g := h.Games[seat]
	return replayOf(h.Deal(r.Settings.Variant), settledMoves(g.Moves, f), n, seat, r.Seats[seat].Name, g.Score, g.End), true
}

// RecordAt is seat's record of hole h as anyone else may see it with f
// settled: only a whole game has a record (it names every card).
func (r *Room) RecordAt(h *Hole, seat, f int) (golf.Record, bool) {
	if f != Whole || seat < 0 || seat >= len(h.Games) {
		return golf.Record{}, false
	}
	return golf.Record{Variant: r.Settings.Variant, Seed: h.Seed, Moves: append([]golf.Move(nil), settledMoves(h.Games[seat].Moves, f)...)}, true
}
