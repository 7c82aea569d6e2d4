package golf

import "math/rand/v2"

// Difficulty rates a deal from 1 (easy) to 5 (no clear possible).
type Difficulty int

// The difficulty levels.
const (
	// Easy: the deal clears, and at least a quarter of naive playouts
	// clear it.
	Easy Difficulty = 1 + iota
	// Fair: the deal clears, and 5% to 25% of naive playouts clear it.
	Fair
	// Hard: the deal clears, but under 5% of naive playouts do.
	Hard
	// Expert: the deal clears, but no naive playout found the way.
	Expert
	// Unclearable: the solver proved (or, over budget, found no line
	// showing otherwise) that the deal cannot be cleared.
	Unclearable
)

// difficultyPlayouts is the number of naive playouts behind a rating.
const difficultyPlayouts = 200

// String names the level.
func (d Difficulty) String() string {
	switch d {
	case Easy:
		return "easy"
	case Fair:
		return "fair"
	case Hard:
		return "hard"
	case Expert:
		return "expert"
	case Unclearable:
		return "unclearable"
	}
	return "unknown"
}

// Rate rates the deal. First the solver (within opt's budget) says
// whether the deal can be cleared at all; an unclearable deal (or one
// where the budget ran out without a clearing line) is Unclearable. A
// clearable deal is then rated by how often a naive player clears it: out
// of difficultyPlayouts playouts that each play a uniformly random legal
// card from the tableau and turn the stock only when no card fits (with
// randomness seeded by the deal's seed, so the rating is reproducible),
// the share that clear gives Easy (25% or more), Fair (5% or more), Hard
// (some) or Expert (none).
func Rate(d *Deal, opt *SolveOptions) Difficulty {
	var s Solver
	return s.Rate(d, opt)
}

// Rate is Rate with this solver (see Solver: reusing one saves
// allocating its tables).
func (s *Solver) Rate(d *Deal, opt *SolveOptions) Difficulty {
	sol := s.Solve(d, opt)
	if !sol.Cleared {
		return Unclearable
	}
	rng := rand.NewChaCha8(d.Seed)
	st := NewState(d)
	clears := 0
	var legal []Move
	for k := 0; k < difficultyPlayouts; k++ {
		st.reset(d)
		for !st.over() {
			legal = st.AppendLegal(legal[:0])
			plays := 0
			for _, m := range legal {
				if m.Action == Play {
					plays++
				}
			}
			m := legal[len(legal)-1] // the turn or redeal
			if plays > 0 {
				m = legal[uniform(rng, uint64(plays))]
			}
			st.apply(m)
		}
		if st.Cleared() {
			clears++
		}
	}
	switch {
	case clears*4 >= difficultyPlayouts:
		return Easy
	case clears*20 >= difficultyPlayouts:
		return Fair
	case clears > 0:
		return Hard
	}
	return Expert
}
