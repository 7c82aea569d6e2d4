package match

import "golfsolitaire/golf"

// Replay is one seat's game of a hole, step by step, for the end-of-hole
// and end-of-round replays.
type Replay struct {
	Hole  int      `json:"hole"`
	Seat  int      `json:"seat"`
	Name  string   `json:"name"`
	Seed  string   `json:"seed"`
	Moves []string `json:"moves"`
	// Boards[0] is the deal; Boards[k] the board after move k.
	Boards []*Board `json:"boards"`
	Score  int      `json:"score"`
	End    string   `json:"end,omitempty"`
}

// Replay returns seat's game of hole n of the current round, but only once
// the hole is over for everyone (before that it would show stock cards):
// ok is false otherwise, or for an unknown hole or seat.
func (r *Room) Replay(n, seat int) (Replay, bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done {
		// A replay names the hole's seed: never while anyone plays it
		// (not even in practice, which may be watched live).
		return Replay{}, false
	}
	f, _, _ := r.settle(h, NoSeat)
	return r.ReplayAt(n, seat, f)
}

// replayLine steps through any line of moves on a deal (the solver's best
// line, say). Moves after an illegal one are dropped.
func replayLine(d *golf.Deal, moves []golf.Move) Replay {
	st := golf.NewState(d)
	for _, m := range moves {
		if st.Apply(m) != nil {
			break
		}
	}
	return replayOf(d, st.Moves(), 0, SpectatorSeat, "", st.Score(), "")
}

func replayOf(d *golf.Deal, moves []golf.Move, hole, seat int, name string, score int, end string) Replay {
	rp := Replay{Hole: hole, Seat: seat, Name: name, Seed: d.Seed.String(), Moves: []string{}, Score: score, End: end}
	st := golf.NewState(d)
	rp.Boards = append(rp.Boards, BoardOf(d, st, nil, false))
	for k, m := range moves {
		if err := st.Apply(m); err != nil {
			break
		}
		rp.Moves = append(rp.Moves, m.String())
		b := BoardOf(d, st, moves[:k+1], k == len(moves)-1 && end != "")
		b.Seat, b.Hole = seat, hole
		rp.Boards = append(rp.Boards, b)
	}
	rp.Boards[0].Seat, rp.Boards[0].Hole = seat, hole
	return rp
}
