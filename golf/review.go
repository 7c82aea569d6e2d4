package golf

// Review is the post-round analysis of one finished game: for each of the
// player's decisions, how many strokes it cost against perfect play with
// the deal known (the game is over, so the stock's order is no secret).
type Review struct {
	// Score is the game's score as the record leaves it.
	Score int `json:"score"`
	// Best is the best score the deal allows (the solver's).
	Best int `json:"best"`
	// Exact reports whether every solve was proven best. When a budget
	// ran out, the figures are the best the solver found: each Before is
	// then the fewest strokes found from that point on or from any later
	// one (a later point's score is reachable from an earlier one), so
	// Lost stays ≥ 0 and still sums to Score - Best.
	Exact bool `json:"exact"`
	// Decisions are the moves that stand in the record, in order (a move
	// taken back with undo, and the undo, are not decisions), and a last
	// "stand" when the player ended the game with moves left.
	Decisions []Decision `json:"decisions"`
	// Undone is how many moves were taken back.
	Undone int `json:"undone"`
}

// Decision is one move judged by the solver.
type Decision struct {
	// Move is the move in record form ("3", "s", "r"), or "stand".
	Move string `json:"move"`
	// Before is the best final score reachable before the move, After
	// the best reachable after it (for "stand", the score).
	Before int `json:"before"`
	After  int `json:"after"`
	// Lost is After - Before: strokes lost by the move, 0 for a best one.
	Lost int `json:"lost"`
	// Better is a move the solver plays instead, when Lost > 0 (absent
	// for "stand": any move on the best line).
	Better string `json:"better,omitempty"`
}

// ReviewRecord analyses a game record with the solver, opt the budget of
// each solve (nil: none). An illegal move in the record is an error (a
// *ReplayError); nothing else is. It solves at most once per decision,
// and not at all after a move the previous solve's line plays.
func ReviewRecord(rec Record, sv *Solver, opt *SolveOptions) (Review, error) {
	final, err := rec.Replay()
	if err != nil {
		return Review{}, err
	}
	line := final.Moves() // the moves that stand, undos folded away
	d := NewDeal(rec.Variant, rec.Seed)
	st := NewState(&d)
	n := len(line)
	best := make([]int, n+1)  // the best score reachable before move i
	better := make([]Move, n) // the solver's move at i, when known
	hasBetter := make([]bool, n)
	exact := true
	var known []Move // the last solve's line from the current position
	solved := false
	for i := 0; i <= n; i++ {
		switch {
		case st.Over():
			best[i], known, solved = st.Score(), nil, true
		case solved && i > 0 && len(known) > 0 && known[0] == line[i-1]:
			best[i], known = best[i-1], known[1:]
		default:
			sol := sv.SolveState(st, opt)
			best[i], known, solved = sol.Best, sol.Moves, true
			exact = exact && sol.Exact
		}
		if i < n {
			if len(known) > 0 {
				better[i], hasBetter[i] = known[0], true
			}
			if err := st.Apply(line[i]); err != nil {
				return Review{}, &ReplayError{Index: i, Err: err}
			}
		}
	}
	// Keep the figures monotone: a score reachable after a move is
	// reachable before it (only an inexact solve can break this).
	for i := n - 1; i >= 0; i-- {
		best[i] = min(best[i], best[i+1])
	}
	score := final.Score()
	best[n] = min(best[n], score)
	for i := n - 1; i >= 0; i-- {
		best[i] = min(best[i], best[i+1])
	}
	rv := Review{Score: score, Best: best[0], Exact: exact, Decisions: make([]Decision, 0, n+1), Undone: (len(rec.Moves) - n) / 2}
	for i, m := range line {
		dc := Decision{Move: m.String(), Before: best[i], After: best[i+1], Lost: best[i+1] - best[i]}
		if dc.Lost > 0 && hasBetter[i] && better[i] != m {
			dc.Better = better[i].String()
		}
		rv.Decisions = append(rv.Decisions, dc)
	}
	if !final.Over() {
		rv.Decisions = append(rv.Decisions, Decision{Move: "stand", Before: best[n], After: score, Lost: score - best[n]})
	}
	return rv, nil
}
