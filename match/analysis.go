package match

import (
	"fmt"
	"sync"

	"golfsolitaire/golf"
)

// SolveNodes is the default node budget of the solver for everything that
// decides or describes a deal: the best score shown after a hole,
// winnableOnly and the difficulty of a deal. It is a node budget, never a
// time limit, so every instance (and anyone checking later) computes the
// same answer. For an exact answer strict Golf needed at most 0.43M nodes
// on the first 2,000 numbered deals and 1.17M on the first 100,000
// (docs/performance.md "Solver"); past the budget the answer is the best
// line found.
const SolveNodes = 1_000_000

// RateNodes is the default node budget of golf.Rate behind a difficulty:
// smaller than SolveNodes, because practice rates every deal as its hole
// starts (Black Hole and All in a Row have a tail of deals needing millions
// of nodes). A deal whose clear the budget cannot find is rated
// unclearable.
const RateNodes = 200_000

// maxChosenReplacements bounds the search for a deal that the solver must
// look at (winnableOnly, difficulty): each candidate costs a solve.
const maxChosenReplacements = 40

// maxAnalyses bounds an Analyzer's memo; when it is full it starts again.
const maxAnalyses = 4096

// Analyzer runs the solver for rooms and tournaments and remembers its
// answers by deal, so a fold re-applied after a reload, or every entrant of
// a tournament starting the same hole, does not pay for the solver again.
// The answers depend only on the deal and the budgets, so the memo changes
// how long an answer takes, never what it is. Every instance serving the
// same rooms must use the same budgets. It is safe for concurrent use; the
// zero value is not (use NewAnalyzer).
type Analyzer struct {
	solveNodes, rateNodes int64

	mu      sync.Mutex
	deals   map[analysisKey]*analysis
	choices map[choiceKey]*choice
	// solvers are reusable solvers: their tables are large, and allocating
	// them for every deal would keep the garbage collector busy.
	solvers sync.Pool
}

// NewAnalyzer returns an analyzer with the given node budgets (0 for the
// defaults SolveNodes and RateNodes).
func NewAnalyzer(solveNodes, rateNodes int64) *Analyzer {
	if solveNodes <= 0 {
		solveNodes = SolveNodes
	}
	if rateNodes <= 0 {
		rateNodes = RateNodes
	}
	return &Analyzer{solveNodes: solveNodes, rateNodes: rateNodes, deals: map[analysisKey]*analysis{}, choices: map[choiceKey]*choice{}}
}

// analysisKey names a deal: its variant and seed.
type analysisKey struct {
	v    golf.Variant
	seed golf.Seed
}

// analysis is a deal's solution and difficulty, computed once.
type analysis struct {
	once sync.Once
	sol  golf.Solution

	rateOnce sync.Once
	rate     golf.Difficulty
}

func (a *Analyzer) analysisOf(v golf.Variant, seed golf.Seed) *analysis {
	k := analysisKey{v: v, seed: seed}
	k.v.Options.Undo = false // undo changes nothing the solver sees
	a.mu.Lock()
	defer a.mu.Unlock()
	x, ok := a.deals[k]
	if !ok {
		if len(a.deals) >= maxAnalyses {
			a.deals = map[analysisKey]*analysis{}
		}
		x = &analysis{}
		a.deals[k] = x
	}
	return x
}

// Solve returns the solver's answer for the deal of the variant and seed
// within the analyzer's budget: the best score, whether it is proven, and a
// line reaching it.
func (a *Analyzer) Solve(v golf.Variant, seed golf.Seed) golf.Solution {
	x := a.analysisOf(v, seed)
	x.once.Do(func() {
		d := golf.NewDeal(v, seed)
		s, _ := a.solvers.Get().(*golf.Solver)
		if s == nil {
			s = new(golf.Solver)
		}
		x.sol = s.Solve(&d, &golf.SolveOptions{MaxNodes: a.solveNodes})
		a.solvers.Put(s)
	})
	return x.sol
}

// Clearable reports whether the solver found a line clearing the deal
// within the budget. A clearing line is a proof; a budget that ran out
// without one counts as not clearable, so the answer never depends on the
// machine.
func (a *Analyzer) Clearable(v golf.Variant, seed golf.Seed) bool {
	return a.Solve(v, seed).Cleared
}

// Rate is golf.Rate of the deal within the rating budget: 1 (easy) to 5
// (unclearable). See golf.Rate for the method.
func (a *Analyzer) Rate(v golf.Variant, seed golf.Seed) golf.Difficulty {
	x := a.analysisOf(v, seed)
	x.rateOnce.Do(func() {
		d := golf.NewDeal(v, seed)
		x.rate = golf.Rate(&d, &golf.SolveOptions{MaxNodes: a.rateNodes})
	})
	return x.rate
}

// Warm computes the solver's answer for a deal ahead of need (the server
// calls it off the room's goroutine when a hole starts, so the end of the
// hole does not wait for the solver).
func (a *Analyzer) Warm(v golf.Variant, seed golf.Seed) { a.Solve(v, seed) }

// SolveDeal is Solve with the default budgets and no memo.
func SolveDeal(v golf.Variant, seed golf.Seed) golf.Solution {
	return NewAnalyzer(0, 0).Solve(v, seed)
}

// Clearable is Clearable with the default budgets and no memo.
func Clearable(v golf.Variant, seed golf.Seed) bool {
	return NewAnalyzer(0, 0).Clearable(v, seed)
}

// RateDeal is Rate with the default budgets and no memo.
func RateDeal(v golf.Variant, seed golf.Seed) golf.Difficulty {
	return NewAnalyzer(0, 0).Rate(v, seed)
}

// HoleBest is the best score of a finished hole's deal.
type HoleBest struct {
	Hole int `json:"hole"`
	// Best is the best score any line reaches with full knowledge of the
	// stock (rules.md scoring).
	Best int `json:"best"`
	// Exact is false when the solver's budget ran out: Best is then the
	// best score found, which the true best may beat.
	Exact bool `json:"exact"`
}

// NeedsBest lists the finished holes of the current round whose best score
// is not yet recorded (none in tournament rooms, where the tournament shows
// it once the hole is safe). The server solves them and appends a best
// event for each (BestEvent).
func (r *Room) NeedsBest() []int {
	if r.Tournament != "" {
		return nil
	}
	var out []int
	for _, h := range r.Holes {
		if h.Done && h.Best == nil {
			out = append(out, h.Number)
		}
	}
	return out
}

// BestEvent returns the event that records the solver's answer for hole n
// (computed with the room's analyzer: call it off the room's goroutine).
func (r *Room) BestEvent(n int) (Event, bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done {
		return Event{}, false
	}
	sol := r.analyzer().Solve(r.Settings.Variant, h.Seed)
	best := sol.Best
	return Event{Kind: KindBest, Hole: n, Best: &best, BestExact: sol.Exact, BestLine: append([]golf.Move{}, sol.Moves...)}, true
}

// recordBest applies a best event: once per finished hole, and the line
// must replay to the score it claims.
func (r *Room) recordBest(ev Event) error {
	h := r.holeNumber(ev.Hole)
	if h == nil || !h.Done || ev.Best == nil || r.Tournament != "" {
		return fmt.Errorf("%w: no finished hole %d to record a best score for", ErrBadEvent, ev.Hole)
	}
	if h.Best != nil {
		return ErrNoChange
	}
	st := golf.NewState(h.Deal(r.Settings.Variant))
	for _, m := range ev.BestLine {
		if err := st.Apply(m); err != nil {
			return fmt.Errorf("%w: best line: %v", ErrBadEvent, err)
		}
	}
	if st.Score() != *ev.Best {
		return fmt.Errorf("%w: best line scores %d, not %d", ErrBadEvent, st.Score(), *ev.Best)
	}
	best := *ev.Best
	h.Best, h.BestExact, h.BestLine = &best, ev.BestExact, append([]golf.Move{}, ev.BestLine...)
	return nil
}

// BestLine returns the solver's best line of hole n of the current round
// as a replay, once the hole is over for everyone: ok is false otherwise
// (and always in tournament rooms).
func (r *Room) BestLine(n int) (Replay, bool) {
	h := r.holeNumber(n)
	if h == nil || !h.Done || h.Best == nil || r.Tournament != "" {
		return Replay{}, false
	}
	rp := ReplayLine(h.Deal(r.Settings.Variant), h.BestLine)
	rp.Hole = n
	for _, b := range rp.Boards {
		b.Hole = n
	}
	return rp, true
}

// chooseSeed returns the first of the hole seed and its replacement seeds
// (deals.md "again:k") that the settings accept, and k. With a difficulty,
// when none of the first maxChosenReplacements+1 candidates is rated that
// level, it is the first candidate of the nearest level (the easier one on
// a tie) among those the other settings accept: some levels are rare (in
// strict Golf about 1 deal in 150 is "fair" and "easy" almost never
// happens), and a hole must start without searching for long.
func (a *Analyzer) chooseSeed(s Settings, seed golf.Seed) (golf.Seed, int) {
	key := choiceKey{v: s.Variant, seed: seed, skip: s.SkipUnclearable, winnable: s.WinnableOnly, level: s.Difficulty}
	key.v.Options.Undo = false
	a.mu.Lock()
	c, ok := a.choices[key]
	if !ok {
		if len(a.choices) >= maxAnalyses {
			a.choices = map[choiceKey]*choice{}
		}
		c = &choice{}
		a.choices[key] = c
	}
	a.mu.Unlock()
	c.once.Do(func() { c.seed, c.k = a.choose(s, seed) })
	return c.seed, c.k
}

// choiceKey is what chooseSeed's answer depends on.
type choiceKey struct {
	v              golf.Variant
	seed           golf.Seed
	skip, winnable bool
	level          int
}

type choice struct {
	once sync.Once
	seed golf.Seed
	k    int
}

func (a *Analyzer) choose(s Settings, seed golf.Seed) (golf.Seed, int) {
	limit := maxReplacements
	if s.WinnableOnly || s.Difficulty > 0 {
		limit = maxChosenReplacements
	}
	nearSeed, nearK, nearGap := seed, 0, -1
	for k := 0; k <= limit; k++ {
		cand := seed
		if k > 0 {
			cand = seed.AgainSeed(k)
		}
		if !a.accepts(s, cand) {
			continue
		}
		if s.Difficulty == 0 {
			return cand, k
		}
		level := a.Rate(s.Variant, cand)
		if level == golf.Unclearable {
			continue
		}
		gap := 2 * (int(level) - s.Difficulty)
		if gap < 0 {
			gap = -gap - 1 // an easier deal wins a tie
		}
		if gap == 0 {
			return cand, k
		}
		if nearGap < 0 || gap < nearGap {
			nearSeed, nearK, nearGap = cand, k, gap
		}
	}
	return nearSeed, nearK
}

// accepts reports whether the settings accept the deal of the seed:
// skipUnclearable wants it not visibly unclearable, winnableOnly (and a
// difficulty, which is only ever a clearable level) wants the solver to
// clear it.
func (a *Analyzer) accepts(s Settings, seed golf.Seed) bool {
	if s.SkipUnclearable {
		d := golf.NewDeal(s.Variant, seed)
		if d.Unclearable() {
			return false
		}
	}
	if (s.WinnableOnly || s.Difficulty > 0) && !a.Clearable(s.Variant, seed) {
		return false
	}
	return true
}
