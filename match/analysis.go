package match

import (
	"sync"

	"golfsolitaire/golf"
)

// SolveNodes is the solver's node budget for everything that decides or
// describes a deal: the best score shown after a hole, winnableOnly and the
// difficulty of a deal. It is a node budget, never a time limit, so every
// instance (and anyone checking later) computes the same answer. Strict
// Golf needs at most about 0.7M nodes for an exact answer (docs/performance.md
// "Solver"); past the budget the answer is the best line found.
const SolveNodes = 1_000_000

// maxChosenReplacements bounds the search for a deal that the solver must
// look at (winnableOnly, difficulty): each candidate costs a solve.
const maxChosenReplacements = 40

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

// analyses memoizes solver answers by deal across rooms and replays of the
// same room's events (a fold re-applied after a reload must not pay for the
// solver again). The answers are deterministic, so the memo changes only
// how long an answer takes, never what it is.
var analyses = struct {
	sync.Mutex
	m map[analysisKey]*analysis
}{m: map[analysisKey]*analysis{}}

// maxAnalyses bounds the memo; when it is full it starts again.
const maxAnalyses = 4096

func analysisOf(v golf.Variant, seed golf.Seed) *analysis {
	k := analysisKey{v: v, seed: seed}
	k.v.Options.Undo = false // undo changes nothing the solver sees
	analyses.Lock()
	defer analyses.Unlock()
	a, ok := analyses.m[k]
	if !ok {
		if len(analyses.m) >= maxAnalyses {
			analyses.m = map[analysisKey]*analysis{}
		}
		a = &analysis{}
		analyses.m[k] = a
	}
	return a
}

// SolveDeal returns the solver's answer for the deal of the variant and
// seed within SolveNodes: the best score, whether it is proven, and a line
// reaching it. Answers are memoized.
func SolveDeal(v golf.Variant, seed golf.Seed) golf.Solution {
	a := analysisOf(v, seed)
	a.once.Do(func() {
		d := golf.NewDeal(v, seed)
		a.sol = golf.Solve(&d, &golf.SolveOptions{MaxNodes: SolveNodes})
	})
	return a.sol
}

// Clearable reports whether the solver found a line clearing the deal
// within SolveNodes. A clearing line is a proof; a budget that ran out
// without one counts as not clearable, so the answer never depends on the
// machine.
func Clearable(v golf.Variant, seed golf.Seed) bool {
	return SolveDeal(v, seed).Cleared
}

// RateNodes is the node budget of golf.Rate behind a difficulty: smaller
// than SolveNodes, because practice rates every deal as its hole starts
// (Black Hole and All in a Row have a tail of deals needing millions of
// nodes). A deal whose clear the budget cannot find is rated unclearable.
const RateNodes = 200_000

// RateDeal is golf.Rate of the deal within RateNodes, memoized: 1 (easy) to
// 5 (unclearable). See golf.Rate for the method.
func RateDeal(v golf.Variant, seed golf.Seed) golf.Difficulty {
	a := analysisOf(v, seed)
	a.rateOnce.Do(func() {
		d := golf.NewDeal(v, seed)
		a.rate = golf.Rate(&d, &golf.SolveOptions{MaxNodes: RateNodes})
	})
	return a.rate
}

// WarmDeal computes the solver's answer for a deal ahead of need (the
// server calls it off the room's goroutine when a hole starts, so the end
// of the hole does not wait for the solver).
func WarmDeal(v golf.Variant, seed golf.Seed) { SolveDeal(v, seed) }

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

// bestOf stores the best score of the hole's deal in the hole. Called when
// the hole ends for everyone (never before: it is computed from the whole
// stock); tournament rooms leave it to the tournament, which shows it once
// the hole is safe.
func (r *Room) bestOf(h *Hole) {
	if r.Tournament != "" {
		return
	}
	sol := SolveDeal(r.Settings.Variant, h.Seed)
	best := sol.Best
	h.Best, h.BestExact, h.BestLine = &best, sol.Exact, append([]golf.Move{}, sol.Moves...)
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
func chooseSeed(s Settings, seed golf.Seed) (golf.Seed, int) {
	key := choiceKey{v: s.Variant, seed: seed, skip: s.SkipUnclearable, winnable: s.WinnableOnly, level: s.Difficulty}
	key.v.Options.Undo = false
	choices.Lock()
	c, ok := choices.m[key]
	if !ok {
		if len(choices.m) >= maxAnalyses {
			choices.m = map[choiceKey]*choice{}
		}
		c = &choice{}
		choices.m[key] = c
	}
	choices.Unlock()
	c.once.Do(func() { c.seed, c.k = choose(s, seed) })
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

// choices memoizes chooseSeed: every entrant of a tournament starts the
// same holes.
var choices = struct {
	sync.Mutex
	m map[choiceKey]*choice
}{m: map[choiceKey]*choice{}}

func choose(s Settings, seed golf.Seed) (golf.Seed, int) {
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
		if !accepts(s, cand) {
			continue
		}
		if s.Difficulty == 0 {
			return cand, k
		}
		level := RateDeal(s.Variant, cand)
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
func accepts(s Settings, seed golf.Seed) bool {
	if s.SkipUnclearable {
		d := golf.NewDeal(s.Variant, seed)
		if d.Unclearable() {
			return false
		}
	}
	if (s.WinnableOnly || s.Difficulty > 0) && !Clearable(s.Variant, seed) {
		return false
	}
	return true
}
