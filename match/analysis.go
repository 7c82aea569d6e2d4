package match

import (
	"fmt"
	"sync"
	"sync/atomic"

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

// maxAnalyses bounds each generation of an Analyzer's memo: when the
// newer one is full it becomes the older, and the older is dropped, so a
// deal solved within the last maxAnalyses is always kept. Each answer
// holds a line of some fifty moves: the memo stays under a few MB. (One
// generation of 4,096 that started again when full dropped the deals a
// server had just solved ahead of its holes' ends whenever more than
// 4,096 rooms played at once.)
const maxAnalyses = 8192

// Analyzer runs the solver for rooms and tournaments and remembers its
// answers by deal, so a fold re-applied after a reload, or every entrant of
// a tournament starting the same hole, does not pay for the solver again.
// The answers depend only on the deal and the budgets, so the memo changes
// how long an answer takes, never what it is. Every instance serving the
// same rooms must use the same budgets. It is safe for concurrent use; the
// zero value is not (use NewAnalyzer).
type Analyzer struct {
	solveNodes, rateNodes int64

	// runs counts the solver runs (Solve and Rate computed, not memoized):
	// tests check that folding a room never adds to it.
	runs atomic.Int64
	// run runs each solver run of Solve and Rate (SetRunner); nil: on the
	// caller's goroutine.
	run func(fn func())
	// yield is how those runs give way to other goroutines (SetYield);
	// nil: runtime.Gosched.
	yield func()

	mu sync.Mutex
	// deals is the memo, turned when its newer generation holds
	// maxAnalyses deals.
	deals   recent[analysisKey, *analysis]
	choices map[choiceKey]*choice
	// idle holds solvers for reuse (see getSolver): their tables are
	// large, and allocating them for every deal kept the garbage collector
	// busy.
	idle []*golf.Solver
	// idleBytes: a solver whose tables hold more is not kept
	// (maxIdleSolverBytes; tests lower it).
	idleBytes int
}

// Solvers kept for reuse: at most maxIdleSolvers (more than the cores a
// server gives the solver), and none whose tables grew past
// maxIdleSolverBytes on a hard deal (most deals need a few hundred
// kilobytes; a table may grow to 64 MiB).
const (
	maxIdleSolvers     = 8
	maxIdleSolverBytes = 8 << 20
)

// getSolver returns an idle solver, or a new one.
func (a *Analyzer) getSolver() *golf.Solver {
	a.mu.Lock()
	defer a.mu.Unlock()
	if n := len(a.idle); n > 0 {
		s := a.idle[n-1]
		a.idle[n-1] = nil
		a.idle = a.idle[:n-1]
		return s
	}
	return new(golf.Solver)
}

// putSolver keeps a solver for reuse, unless there are enough already or
// its tables are large. (A sync.Pool, used before, is emptied by every
// garbage collection: under load about one solve in ten started on new
// tables, and every rating did.)
func (a *Analyzer) putSolver(s *golf.Solver) {
	if s.TableBytes() > a.idleBytes {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.idle) < maxIdleSolvers {
		a.idle = append(a.idle, s)
	}
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
	return &Analyzer{solveNodes: solveNodes, rateNodes: rateNodes, choices: map[choiceKey]*choice{},
		idleBytes: maxIdleSolverBytes}
}

// analysisKey names a deal: its variant and seed.
type analysisKey struct {
	v    golf.Variant
	seed golf.Seed
}

// analysis is a deal's solution and difficulty, computed once.
type analysis struct {
	once   sync.Once
	sol    golf.Solution
	solved atomic.Bool // sol is set

	rateOnce sync.Once
	rate     golf.Difficulty
}

func (a *Analyzer) analysisOf(v golf.Variant, seed golf.Seed) *analysis {
	k := analysisKey{v: v, seed: seed}
	k.v.Options.Undo = false // undo changes nothing the solver sees
	a.mu.Lock()
	defer a.mu.Unlock()
	// Not recent.get: a deal of the older generation is moved to the
	// newer only after the turn below, so the newer never holds more
	// than maxAnalyses.
	if x, ok := a.deals.cur[k]; ok {
		return x
	}
	x, ok := a.deals.prev[k]
	if !ok {
		x = &analysis{}
	}
	if len(a.deals.cur) >= maxAnalyses {
		a.deals.turn()
	}
	a.deals.put(k, x)
	return x
}

// Solved reports whether the deal's answer is memoized (a Solve would
// not run the solver).
func (a *Analyzer) Solved(v golf.Variant, seed golf.Seed) bool {
	k := analysisKey{v: v, seed: seed}
	k.v.Options.Undo = false
	a.mu.Lock()
	x, ok := a.deals.peek(k)
	a.mu.Unlock()
	return ok && x.solved.Load()
}

// Solve returns the solver's answer for the deal of the variant and seed
// within the analyzer's budget: the best score, whether it is proven, and a
// line reaching it.
func (a *Analyzer) Solve(v golf.Variant, seed golf.Seed) golf.Solution {
	return a.solve(v, seed, a.run)
}

func (a *Analyzer) solve(v golf.Variant, seed golf.Seed, run func(fn func())) golf.Solution {
	x := a.analysisOf(v, seed)
	x.once.Do(func() {
		work := func() {
			a.runs.Add(1)
			d := golf.NewDeal(v, seed)
			s := a.getSolver()
			x.sol = s.Solve(&d, &golf.SolveOptions{MaxNodes: a.solveNodes, Yield: a.yield})
			a.putSolver(s)
			x.solved.Store(true)
		}
		through(run, work)
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
		through(a.run, func() {
			a.runs.Add(1)
			d := golf.NewDeal(v, seed)
			s := a.getSolver()
			x.rate = s.Rate(&d, &golf.SolveOptions{MaxNodes: a.rateNodes, Yield: a.yield})
			a.putSolver(s)
		})
	})
	return x.rate
}

// SetRunner makes the analyzer run every solver run of Solve, Rate,
// Clearable and HoleDealSeed through run (the server's solver pool), which
// must call fn once and return after it, or not call it at all (the run
// then happens on the caller's goroutine). Call it before any use. Never
// call the analyzer from inside run: with a bounded pool a job could wait
// for a run that waits for that job's worker.
func (a *Analyzer) SetRunner(run func(fn func())) { a.run = run }

// SetYield makes the solver runs of Solve and Rate give way to other
// goroutines with yield (golf.SolveOptions.Yield) every few thousand
// nodes: a server's background work passes one that waits while its
// rooms' goroutines are ready to run. Call it before any use.
func (a *Analyzer) SetYield(yield func()) { a.yield = yield }

// through runs fn with run, or on the caller's goroutine when run is nil
// or did not run it.
func through(run func(fn func()), fn func()) {
	if run == nil {
		fn()
		return
	}
	ran := false
	run(func() { fn(); ran = true })
	if !ran {
		fn()
	}
}

// Runs is how many times the analyzer has run the solver (answers taken
// from its memo do not count).
func (a *Analyzer) Runs() int64 { return a.runs.Load() }

// Budgets are the analyzer's node budgets: the solve and the rating
// budget.
func (a *Analyzer) Budgets() (solve, rate int64) { return a.solveNodes, a.rateNodes }

// Choose picks a deal for the settings' winnableOnly or difficulty from
// the seed and its first maxChosenReplacements replacements, as a hole
// of a round would (chooseSeed, without the memo): the seed pools fill
// themselves with it from fresh random seeds. It returns the deal's seed
// and rating (0 for winnableOnly without a difficulty, whose deals are
// not rated). It runs the solver up to 2 × 41 times: never call it from
// a fold.
func (a *Analyzer) Choose(s Settings, seed golf.Seed) (golf.Seed, golf.Difficulty) {
	deal, _ := a.choose(s, seed)
	if s.Difficulty == 0 {
		return deal, 0
	}
	return deal, a.Rate(s.Variant, deal)
}

// Rating is the rating the seed pools store with a chosen deal: golf.Rate
// for a difficulty, 0 for winnableOnly alone (those deals are not rated).
func (a *Analyzer) Rating(s Settings, seed golf.Seed) golf.Difficulty {
	if s.Difficulty == 0 {
		return 0
	}
	return a.Rate(s.Variant, seed)
}

// Warm computes the solver's answer for a deal ahead of need, through run
// instead of the analyzer's runner (the server warms the deal of a hole
// that has just started at a lower priority than a finished hole's best),
// so the end of the hole finds it memoized.
func (a *Analyzer) Warm(v golf.Variant, seed golf.Seed, run func(fn func())) {
	a.solve(v, seed, run)
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
	// Difficulty and DifficultyName rate the hole's deal (golf.Rate) in
	// solo practice: published only now, with the best score, because a
	// rating is of the whole deal, stock order included.
	Difficulty     int    `json:"difficulty,omitempty"`
	DifficultyName string `json:"difficultyName,omitempty"`
}

// NeedsBest lists the finished holes of the current round whose best score
// is not yet recorded (none in tournament rooms, where the tournament shows
// it once the hole is safe). The server solves them and appends a best
// event for each (KindBest).
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

// RatesDeals reports whether the room rates its deals (solo practice, not
// a tournament room): the best event of each hole then carries the
// rating.
func (r *Room) RatesDeals() bool { return r.Settings.Solo() && r.Tournament == "" }

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
	if ev.Difficulty < 0 || ev.Difficulty > golf.Unclearable || (ev.Difficulty != 0 && !r.RatesDeals()) {
		return fmt.Errorf("%w: difficulty %d in a best event", ErrBadEvent, ev.Difficulty)
	}
	best := *ev.Best
	h.Best, h.BestExact, h.BestLine = &best, ev.BestExact, append([]golf.Move{}, ev.BestLine...)
	if ev.Difficulty != 0 {
		h.Difficulty = ev.Difficulty
	}
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
	rp := replayLine(h.Deal(r.Settings.Variant), h.BestLine)
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
	c := a.NewChooser(s, seed)
	for !c.Step() {
	}
	return c.seed, c.k
}

// Chooser is the search of chooseSeed (and Choose) one candidate at a
// time, so the caller can run each candidate's solver work as a job of
// its own (the seed pools' filler does, at low priority, so a high
// priority job never waits for a whole search).
type Chooser struct {
	a     *Analyzer
	s     Settings
	base  golf.Seed
	limit int

	next           int // the next candidate to look at
	done           bool
	seed           golf.Seed
	k              int
	nearSeed       golf.Seed
	nearK, nearGap int
	foundAccepted  bool
}

// NewChooser starts the search for a deal the settings accept from the
// seed and its replacements.
func (a *Analyzer) NewChooser(s Settings, seed golf.Seed) *Chooser {
	limit := maxReplacements
	if s.WinnableOnly || s.Difficulty > 0 {
		limit = maxChosenReplacements
	}
	return &Chooser{a: a, s: s, base: seed, limit: limit, seed: seed, nearSeed: seed, nearGap: -1}
}

// Step looks at the next candidate (running the solver at most twice)
// and reports whether the search is over.
func (c *Chooser) Step() bool {
	if c.done {
		return true
	}
	k := c.next
	c.next++
	if k > c.limit {
		c.seed, c.k, c.done = c.nearSeed, c.nearK, true
		c.foundAccepted = c.nearGap >= 0
		return true
	}
	cand := replacement(c.base, k)
	if !c.a.accepts(c.s, cand) {
		return false
	}
	if c.s.Difficulty == 0 {
		c.seed, c.k, c.done, c.foundAccepted = cand, k, true, true
		return true
	}
	level := c.a.Rate(c.s.Variant, cand)
	if level == golf.Unclearable {
		return false
	}
	gap := 2 * (int(level) - c.s.Difficulty)
	if gap < 0 {
		gap = -gap - 1 // an easier deal wins a tie
	}
	if gap == 0 {
		c.seed, c.k, c.done, c.foundAccepted = cand, k, true, true
		return true
	}
	if c.nearGap < 0 || gap < c.nearGap {
		c.nearSeed, c.nearK, c.nearGap = cand, k, gap
	}
	return false
}

// Result is the chosen deal once Step has reported the end: its seed, its
// replacement number and whether the settings accept it (false when no
// candidate was accepted: the seed is then the first candidate, which
// winnableOnly and difficulty rounds must not use).
func (c *Chooser) Result() (seed golf.Seed, k int, ok bool) {
	return c.seed, c.k, c.foundAccepted
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
