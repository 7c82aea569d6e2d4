package golf

import (
	"math/bits"
	"runtime"
	"time"
)

// yieldEvery is how many nodes the search visits between two yields to
// the other goroutines (runtime.Gosched: a fraction of a millisecond of
// search). A solve is work done in the background of a server (a hole's
// best score, a fair-play analysis), and on a server with one core it
// would otherwise hold the core for the scheduler's whole slice (10 ms)
// each time, while the connections' goroutines, ready to run, wait.
//
// The count runs across a solver's solves, so the many small solves of a
// fair-play analysis (a few hundred nodes each) yield as often as one
// long solve does. 1,024 rather than 8,192 (and then 2,048): on two cores
// shared with other work, a room's goroutine that wants the P an analysis
// holds waits for the analysis's next yield, and that wait set the acks'
// 99th percentile (docs/performance.md, "Fair-play analysis"). The search
// looks at the count every 1,024 nodes, so this is its finest step.
const yieldEvery = 1024

// SolveOptions is the search budget of Solve. Zero values mean no limit.
type SolveOptions struct {
	// MaxNodes stops the search after this many nodes (0: no limit).
	MaxNodes int64
	// Deadline stops the search at this time (zero: none).
	Deadline time.Time
	// Yield, when set, is how the search gives way to other goroutines
	// every yieldEvery nodes, in place of runtime.Gosched: work that must
	// wait while others are ready to run passes its own (the servers'
	// background solves, package idle).
	Yield func()
	// Keep keeps what the solver's previous solve proved (its table) when
	// that solve was of a position of the same game with the same
	// tableau cards and the same stock to come, in the same order, and no
	// redeal left: it is then true of this one too. Consecutive positions
	// of one game solve faster; the node budget then counts only the new
	// work. Otherwise the table starts empty, as it always does without
	// Keep.
	Keep bool
}

// Solution is what Solve found.
type Solution struct {
	// Best is the best score found (rules.md scoring: lower is better).
	Best int
	// Cleared reports whether the line of Moves clears the tableau.
	Cleared bool
	// Exact reports whether Best is proven to be the best score any line
	// can reach with full knowledge of the stock. When the budget ran out
	// it is false and Best is only the best score found so far (an upper
	// bound on the best score).
	Exact bool
	// Nodes is the number of search nodes visited.
	Nodes int64
	// Moves is a line of play reaching Best.
	Moves []Move
}

// Record returns the solution's line as a game record of the deal: replaying
// it scores Best. (For a deal built by DealFromCards the seed is zero and
// the record is only meaningful applied to that deal with NewState.)
func (sol Solution) Record(d *Deal) Record {
	return Record{Variant: d.Variant, Seed: d.Seed, Moves: append([]Move{}, sol.Moves...)}
}

// Solve finds the best score the deal allows with full knowledge of the
// stock, and a line reaching it. See Solver.Solve.
func Solve(d *Deal, opt *SolveOptions) Solution {
	var s Solver
	return s.Solve(d, opt)
}

// Solver is a reusable exact solver. Reusing one Solver for many deals
// saves allocating its tables; it is not safe for concurrent use.
//
// The search is a depth-first branch and bound over a compact state
// (tableau present-set, stock position, waste top rank, redeal state),
// with a transposition table of lower bounds and exact values, and
// admissible bounds: a clear can score no better than minus the stock
// still to come; a relaxation (every remaining stock card available at
// any time, as in Deal.Unclearable) counts tableau cards that can never be
// played; and a matching (see deficiency) counts the others that cannot
// all have their own predecessor. Two dominance rules prune moves: a
// playable card that nothing left on the tableau may go on makes turning
// instead needless, and of two free cards of one rank alone in their piles
// only one is tried. Each pass restarts with a random move order
// after a node limit (see solve and luby). It starts from a
// greedy line as the incumbent, so a search that runs out of budget still
// returns a legal line.
type Solver struct {
	// the position being solved
	n       int
	rank    [maxPositions]uint8 // rank index of each position's card
	covers  [maxPositions]uint64
	pileOf  [maxPositions]uint8
	piles   []uint64
	onto    [15]uint16 // onto[r]: top rank indexes a card of rank index r may go on
	fitPos  [15]uint64 // fitPos[t]: positions whose card may go on top rank index t
	ordered bool       // every cover of p is a higher position than p
	// cols: columns up to 8 deep, each position covered by the next of
	// its pile (every columns layout; see smearDown)
	cols bool
	// rowGE[i]: with cols, the positions at least 1<<i rows up their
	// column (0 where the columns are not that deep)
	rowGE [3]uint64
	// rowLT[i]: with cols, the positions at least 1<<i rows below the
	// top of their column
	rowLT []uint64
	// coveredBy[p]: the positions p covers
	coveredBy [maxPositions]uint64
	// fitLo[m] | fitHi[m']: positions whose card may go on a rank of
	// m | m'<<7; posLo, posHi: positions of those ranks.
	fitLo, fitHi, posLo, posHi [128]uint64
	// rankBits[i][m]: the ranks of the cards at positions m<<(7*i), for
	// layouts of up to 35 positions (see ranksAt)
	rankBits [5][128]uint16
	// what the rank tables were built for (setupRanks)
	ranksOK    bool
	ranksKings Kings
	ranksN     int
	ranksRank  [maxPositions]uint8
	neg        bool
	stock1     []uint8
	suffix1    []uint16
	stock2     []uint8
	suffix2    []uint16
	cur        []uint8  // the stock being turned (stock1, or stock2 after a redeal)
	suffix     []uint16 // suffix[i]: rank bits of cur[i:]
	ranksOf    uint16   // rank bits of every card off the tableau at the start
	// The matching bound (see deficiency), for strict and queen-on-king
	// without jokers or redeals.
	match   bool
	kingSup bool        // a king on top takes a queen (queen-on-king, wrap)
	wrap    bool        // kings and aces meet
	rankPos [14]uint64  // positions holding each rank
	single  []int       // ranks that go on one rank only (see stuck)
	count1  [][14]uint8 // count1[i][r]: cards of rank r in stock1[i:]
	waste   [2*maxPack + maxPositions]uint8
	nWaste  int

	// search
	tt     table
	nodes  int64
	yields int64 // times the search let other goroutines run (yieldEvery)
	// sinceYield counts the nodes since the last yield, across solves;
	// yieldFn is the solve's SolveOptions.Yield.
	sinceYield int64
	yieldFn    func()
	maxNodes   int64
	deadline   time.Time
	aborted    bool
	path       []Move
	inc        int
	incLine    []Move
	bestLine   []Move
	// restarts of a pass (see solve)
	rng       uint64 // 0: the plain move order; else a random one
	passLimit int64  // the node count at which the try restarts (0: none)
	restart   bool   // the search is unwinding for a restart
	firstTry  int64  // the restart unit if not 0 (tests)
	// what the table holds is true of (see SolveOptions.Keep): the
	// variant, the layout, the tableau's ranks and the stock's, or
	// keepOK false
	keepOK   bool
	keepV    Variant
	keepLay  *Layout
	keepRank [maxPositions]uint8
	keepStk  []uint8
}

// Restarts: try i of a pass may visit restartNodes * luby(i) nodes. The
// Luby sequence (1 1 2 1 1 2 4 1 1 2 ...) is within a log factor of the
// best restart schedule for any distribution of run times; on Black Hole
// it took the slowest of 2,000 deals from 11.2M nodes (a limit growing
// 1.1 times a try) to 4.6M and the mean from 37.7k to 26.5k nodes a
// cleared deal, and left the other games as they were.
const restartNodes = 1000

// luby is the i-th term (from 1) of the Luby sequence.
func luby(i int) int64 {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			i -= 1<<(k-1) - 1
			k = 0
		}
	}
}

// TableBytes is the memory the solver's tables hold, which it keeps for
// the next solve: a pool of solvers may drop one that a hard deal made
// large.
func (s *Solver) TableBytes() int { return s.tt.bytes() }

// rank indexes: 0 joker, 1-13 ranks, 14 no card (an empty waste).
const noneIdx = 14

func rankIdx(c Card) uint8 {
	switch {
	case c == NoCard:
		return noneIdx
	case c == Joker:
		return 0
	}
	return uint8(c.Rank())
}

// position is a game position to solve from.
type position struct {
	v       Variant
	lay     *Layout
	cards   *[maxPositions]Card
	present uint64
	waste   []Card
	stock   []Card
	redeals int
	// start is the index in stock of the next card to turn: the cards
	// before it were turned (so positions after a turn are keyed as
	// those before, see SolveOptions.Keep)
	start int
}

// Solve finds the best score of the deal with full knowledge of the stock.
func (s *Solver) Solve(d *Deal, opt *SolveOptions) Solution {
	var waste []Card
	if d.start != NoCard {
		waste = []Card{d.start}
	}
	red := d.Variant.Options.Redeals
	if !d.Variant.hasStock() {
		red = 0
	}
	return s.solve(position{
		v: d.Variant, lay: d.layout, cards: &d.tableau, present: d.layout.all,
		waste: waste, stock: d.stock[:d.nStock], redeals: red,
	}, opt)
}

// setup prepares the solver for a position: the layout's masks, the
// rank tables and the stock's.
func (s *Solver) setup(pos position) {
	s.setupLayout(pos)
	s.setupRanks(pos)
	s.setupStock(pos)
}

// setupLayout takes the layout's geometry: which position covers which,
// the piles, and whether they are plain columns (for the row masks).
func (s *Solver) setupLayout(pos position) {
	l := pos.lay
	s.n = l.Positions
	s.ordered = true
	for p := 0; p < s.n; p++ {
		s.rank[p] = rankIdx(pos.cards[p])
		s.covers[p] = l.Covers(p)
		s.pileOf[p] = uint8(l.PileOf(p))
		if s.covers[p]&(uint64(1)<<(p+1)-1) != 0 {
			s.ordered = false
		}
	}
	s.piles = s.piles[:0]
	for i := 0; i < l.Piles(); i++ {
		s.piles = append(s.piles, l.PilePositions(i))
	}
	s.coveredBy = [maxPositions]uint64{}
	for p := 0; p < s.n; p++ {
		for q := s.covers[p]; q != 0; q &= q - 1 {
			s.coveredBy[bits.TrailingZeros64(q)] |= 1 << p
		}
	}
	s.cols = true
	for p := 0; p < s.n; p++ {
		pm := s.piles[s.pileOf[p]]
		if above := pm &^ (uint64(2)<<p - 1); above != 0 && s.covers[p] != above&-above || above == 0 && s.covers[p] != 0 {
			s.cols = false
		}
		if pm != (uint64(1)<<l.Rows-1)<<(p/l.Rows*l.Rows) {
			s.cols = false // not rows-deep piles of consecutive positions
		}
	}
	if l.Rows > 8 {
		s.cols = false // deeper than smearDown reaches (no layout is)
	}
	s.rowGE, s.rowLT = [3]uint64{}, s.rowLT[:0]
	for i, k := 0, 1; s.cols && k < l.Rows; i, k = i+1, k*2 {
		var m, lt uint64
		for p := 0; p < s.n; p++ {
			if p%l.Rows >= k {
				m |= 1 << p
			}
			if p%l.Rows < l.Rows-k {
				lt |= 1 << p
			}
		}
		s.rowGE[i] = m
		s.rowLT = append(s.rowLT, lt)
	}
}

// setupRanks builds the rank tables: what plays onto what, where each
// rank lies, and their 7-bit lookup tables.
func (s *Solver) setupRanks(pos position) {
	k := pos.v.Options.Kings
	// The tables follow from the kings rule and the tableau's ranks
	// alone: the solves of one deal (a hole's best, a fair-play
	// analysis's thousands over sampled stocks) build them once.
	if s.ranksOK && s.ranksKings == k && s.ranksN == s.n && s.ranksRank == s.rank {
		return
	}
	s.ranksOK, s.ranksKings, s.ranksN, s.ranksRank = true, k, s.n, s.rank
	for r := 0; r <= 13; r++ {
		var m uint16
		for t := 0; t <= noneIdx; t++ {
			if t == noneIdx || t == 0 || r == 0 || fits(k, NewCard(t, Clubs), NewCard(r, Clubs)) {
				m |= 1 << t
			}
		}
		s.onto[r] = m
	}
	for t := 0; t <= noneIdx; t++ {
		var m uint64
		for p := 0; p < s.n; p++ {
			if s.onto[s.rank[p]]>>t&1 == 1 {
				m |= 1 << p
			}
		}
		s.fitPos[t] = m
	}
	s.single = s.single[:0]
	for r := 1; r <= 13; r++ {
		if bits.OnesCount16(s.onto[r]&0x3ffe) == 1 {
			s.single = append(s.single, r)
		}
	}
	s.rankPos = [14]uint64{}
	for p := 0; p < s.n; p++ {
		if s.rank[p] < 14 {
			s.rankPos[s.rank[p]] |= 1 << p
		}
	}
	// Each 7-bit set's entry is the entry of the set without its lowest
	// bit, plus that bit's.
	s.fitLo[0], s.fitHi[0], s.posLo[0], s.posHi[0] = 0, 0, 0, 0
	for m := 1; m < 128; m++ {
		b, prev := bits.TrailingZeros(uint(m)), m&(m-1)
		s.fitLo[m] = s.fitLo[prev] | s.fitPos[b]
		s.fitHi[m] = s.fitHi[prev] | s.fitPos[b+7]
		s.posLo[m] = s.posLo[prev] | s.rankPos[b]
		s.posHi[m] = s.posHi[prev]
		if b+7 < 14 {
			s.posHi[m] |= s.rankPos[b+7]
		}
	}
	if s.n <= 35 {
		for i := range s.rankBits {
			t := &s.rankBits[i]
			t[0] = 0
			for m := 1; m < 128; m++ {
				b := bits.TrailingZeros(uint(m))
				t[m] = t[m&(m-1)]
				if p := 7*i + b; p < s.n {
					t[m] |= 1 << s.rank[p]
				}
			}
		}
	}
}

// setupStock takes the stock and the waste, and whether the matching
// bound (deficiency) applies.
func (s *Solver) setupStock(pos position) {
	k := pos.v.Options.Kings
	s.neg = pos.v.Options.NegativeScore
	s.stock1 = s.stock1[:0]
	for _, c := range pos.stock {
		s.stock1 = append(s.stock1, rankIdx(c))
	}
	s.suffix1 = suffixRanks(s.suffix1, s.stock1)
	s.nWaste = 0
	s.ranksOf = 0
	for _, c := range pos.waste {
		s.waste[s.nWaste] = rankIdx(c)
		s.ranksOf |= 1 << rankIdx(c)
		s.nWaste++
	}
	s.ranksOf |= s.suffix1[pos.start]
	s.cur, s.suffix = s.stock1, s.suffix1

	o := pos.v.Options
	s.match = pos.redeals == 0 && o.Redeals == 0
	s.kingSup = k != Strict
	s.wrap = k == Wrap
	if s.rankPos[0] != 0 {
		s.match = false // jokers
	}
	for _, r := range s.stock1 {
		if r == 0 {
			s.match = false
		}
	}
	if s.match {
		s.count1 = append(s.count1[:0], make([][14]uint8, len(s.stock1)+1)...)
		for i := len(s.stock1) - 1; i >= 0; i-- {
			s.count1[i] = s.count1[i+1]
			s.count1[i][s.stock1[i]]++
		}
	}
}

// deficiency is a lower bound on the tableau cards left at the end, from
// a matching: every card played goes onto its own predecessor (the top
// now, a stock card turned from stock1[next:end], or a tableau card played
// earlier), and each of those takes at most one card. It is the number of
// present cards no maximum matching of cards to possible predecessors can
// cover (ranks form a line here, so a greedy matching is maximum).
func (s *Solver) deficiency(present uint64, top uint8, next, end int) int {
	// Only the cards in present may be played: the caller may leave out
	// cards that can never be played (they take no predecessor and are
	// none).
	var sup, dem [15]int
	c1, c2 := &s.count1[next], &s.count1[end]
	for r := 1; r <= 13; r++ {
		c := bits.OnesCount64(present & s.rankPos[r])
		dem[r] = c
		sup[r] = c + int(c1[r]) - int(c2[r])
	}
	// A joker on top, or no card (a free start), takes any card: one
	// more predecessor for any rank, which matches at most one more card.
	wild := top == 0 || top == noneIdx
	if !wild {
		sup[top]++
	}
	if !s.kingSup {
		sup[13] = 0 // nothing goes on a king
	}
	def := s.cornerDeficiency(&sup, &dem)
	if wild && def > 0 {
		def--
	}
	return def
}

// matchBound is a lower bound on the cards of poss (a subset of present)
// left at the end when only the stock cards stock1[next:end] may be
// turned: the better of deficiency and stuck.
// It may stop at need: a bound of need or more does as well as any.
func (s *Solver) matchBound(present, poss uint64, top uint8, next, end, need int) int {
	d := s.deficiency(poss, top, next, end)
	if d == 0 || d >= need {
		return d
	}
	return max(d, s.stuck(present, poss, top, next, end))
}

// stuck is a lower bound on the cards of poss left at the end: when the
// cards of a rank that goes on one rank only (aces and kings, and queens
// when nothing goes on a king) outnumber every possible predecessor they
// have (cards of that rank on the tableau in poss, to come from
// stock1[next:end], or the top), that many of them stay, and so does
// every card they cover. (Other ranks have predecessors of two ranks and
// seldom run short; trying them cost more than it saved.)
func (s *Solver) stuck(present, poss uint64, top uint8, next, end int) int {
	best := 0
	for _, r := range s.single {
		cards := poss & s.rankPos[r]
		if cards == 0 {
			continue
		}
		u := bits.OnesCount64(cards)
		if top == 0 || top == noneIdx {
			u--
		}
		for q := s.onto[r] & 0x3ffe; q != 0 && u > 0; q &= q - 1 {
			a := bits.TrailingZeros16(q)
			u -= bits.OnesCount64(poss&s.rankPos[a]) + int(s.count1[next][a]) - int(s.count1[end][a])
			if int(top) == a {
				u--
			}
		}
		if u > 0 {
			best = max(best, s.leastStuck(present, poss, cards, u))
		}
	}
	return best
}

// beneath is m with every present card under a card of m, however deep.
func (s *Solver) beneath(m, present uint64) uint64 {
	for {
		n := m
		for q := m; q != 0; q &= q - 1 {
			n |= s.coveredBy[bits.TrailingZeros64(q)] & present
		}
		if n == m {
			return m
		}
		m = n
	}
}

// leastStuck is the fewest cards of poss that stay when u of cards do,
// with every card under them.
func (s *Solver) leastStuck(present, poss, cards uint64, u int) int {
	if !s.cols {
		if bits.OnesCount64(cards) > 10 {
			return u
		}
		return s.leastStuckAny(present, poss, cards, u, 0)
	}
	// Columns: the cheapest j cards of one column are its j deepest (the
	// present cards of a column are the ones from its bottom up to its
	// free card), costing the cards from the j-th deepest down; the
	// columns share u by a small knapsack.
	const inf = 1 << 30
	var dp [16]int
	if u >= len(dp) {
		return u
	}
	for k := 1; k <= u; k++ {
		dp[k] = inf
	}
	for _, pm := range s.piles {
		c := cards & pm
		if c == 0 {
			continue
		}
		x := present & pm
		if x&(pm&-pm) == 0 || (x+pm&-pm)&x != 0 {
			return u // not a run from the bottom (a made-up position)
		}
		var cost [maxPositions + 1]int
		n := 0
		for q := c; q != 0 && n < len(cost)-1; q &= q - 1 {
			p := bits.TrailingZeros64(q) // the lowest position is the deepest
			n++
			cost[n] = bits.OnesCount64(poss & x & (uint64(2)<<p - 1))
		}
		for k := u; k >= 1; k-- {
			for j := 1; j <= min(n, k); j++ {
				if dp[k-j] < inf {
					dp[k] = min(dp[k], dp[k-j]+cost[j])
				}
			}
		}
	}
	if dp[u] == inf {
		return u
	}
	return dp[u]
}

func (s *Solver) leastStuckAny(present, poss, cards uint64, u int, stay uint64) int {
	if u == 0 {
		return bits.OnesCount64(s.beneath(stay, present) & poss)
	}
	best := 1 << 30
	for q := cards; bits.OnesCount64(q) >= u; {
		p := bits.TrailingZeros64(q)
		q &= q - 1
		best = min(best, s.leastStuckAny(present, poss, q, u-1, stay|1<<p))
	}
	return best
}

// cornerDeficiency is the demand left unmatched by a maximum matching;
// with wrap it also tries flows across the K-A corner (aces onto kings, x;
// kings onto aces, y) and keeps the best. The matching is a network flow,
// so the deficiency with x and y fixed is convex in (x, y), and so is its
// minimum over x as a function of y: each scan stops at its first step
// that does not go down.
func (s *Solver) cornerDeficiency(sup, dem *[15]int) int {
	def := lineDeficiency(sup, dem, 0, 0)
	if def == 0 || !s.wrap {
		return def
	}
	return cornerScan(sup, dem, def)
}

// cornerScan is cornerDeficiency's search, given the deficiency at x = y = 0.
func cornerScan(sup, dem *[15]int, d00 int) int {
	best, prevY := d00, 1<<30
	for y := 0; y <= min(dem[13], sup[1]); y++ {
		rowBest, prevX := 1<<30, 1<<30
		for x := 0; x <= min(dem[1], sup[13]); x++ {
			d := d00
			if x+y > 0 {
				d = lineDeficiency(sup, dem, x, y)
			}
			if d == 0 {
				return 0
			}
			if d >= prevX {
				break
			}
			prevX, rowBest = d, d
		}
		if rowBest >= prevY {
			break
		}
		prevY = rowBest
		best = min(best, rowBest)
	}
	return best
}

// lineDeficiency is the demand left unmatched by the greedy maximum
// matching when rank r's demand may use the supply of ranks r-1 and r+1
// (first r-1's), less x aces and x kings' supply (aces matched onto kings
// across the corner) and y kings and y aces' supply (kings onto aces).
func lineDeficiency(sup, dem *[15]int, x, y int) int {
	def := 0
	// left, cur: what is left of the supply of ranks r-1 and r
	left, cur := sup[0], sup[1]-y
	for r := 1; r <= 13; r++ {
		d := dem[r]
		switch r {
		case 1:
			d -= x
		case 13:
			d -= y
		}
		a := min(d, left)
		d -= a
		next := 0
		if r < 13 {
			next = sup[r+1]
			if r == 12 {
				next -= x
			}
		}
		b := min(d, next)
		next -= b
		d -= b
		def += d
		left, cur = cur, next
	}
	return def
}

func suffixRanks(dst []uint16, st []uint8) []uint16 {
	dst = append(dst[:0], make([]uint16, len(st)+1)...)
	for i := len(st) - 1; i >= 0; i-- {
		dst[i] = dst[i+1] | 1<<st[i]
	}
	return dst
}

func (s *Solver) solve(pos position, opt *SolveOptions) Solution {
	s.setup(pos)
	s.nodes, s.aborted = 0, false
	s.maxNodes, s.deadline, s.yieldFn = 0, time.Time{}, nil
	if opt != nil {
		s.maxNodes, s.deadline, s.yieldFn = opt.MaxNodes, opt.Deadline, opt.Yield
	}
	if s.sinceYield >= yieldEvery {
		s.yield()
	}
	defer func() { s.sinceYield += s.nodes & 1023 }() // the nodes search's count did not reach
	if !s.kept(pos, opt != nil && opt.Keep) {
		s.tt.reset()
	}
	top := s.wasteTop()
	var h uint64
	if pos.redeals > 0 {
		for i := 0; i < s.nWaste; i++ {
			h = hashRank(h, s.waste[i])
		}
	}
	// The greedy line is the fallback answer if the budget runs out.
	s.path = s.path[:0]
	s.inc = 1 << 30
	s.greedy(pos.present, top, pos.start, pos.redeals)
	best, bestLine := s.inc, append(s.bestLine[:0], s.incLine...)
	s.bestLine = bestLine

	// Iterative tightening from the optimistic side: each pass asks for a
	// line scoring below the target T. A pass that finds one ends with the
	// optimum (its incumbent starts at T and only falls); one that finds
	// none proves the best score is at least its root bound, the next T.
	t := 1 // first: is there a clear at all, and the best one
	if r := s.relax(pos.present, top, pos.start, pos.redeals, s.suffix[pos.start]); r > 0 {
		t = r + 1
	}
	t = min(t, best)
	exact := false
	for t <= best && !s.aborted {
		s.inc = t
		s.incLine = s.incLine[:0]
		// A pass is a series of tries: a try that runs past its node
		// limit (see luby) is abandoned and the pass starts again with a
		// random move order (search times to find a line are
		// heavy-tailed; what the abandoned tries proved stays in the
		// table, since a stored bound holds whatever the incumbent). Only
		// a try that ends ends the pass.
		var v int
		unit := int64(restartNodes)
		if s.firstTry != 0 {
			unit = s.firstTry
		}
		s.rng = 0
		for try := 1; ; try++ {
			s.nWaste = len(pos.waste)
			s.cur, s.suffix = s.stock1, s.suffix1
			s.path = s.path[:0]
			s.passLimit = s.nodes + unit*luby(try)
			s.restart = false
			v, _ = s.search(pos.present, top, pos.start, pos.redeals, h)
			if !s.restart {
				break
			}
			s.aborted = false
			s.rng = uint64(try)*0x9e3779b97f4a7c15 | 1
		}
		s.rng = 0
		if s.inc < t && s.inc < best {
			// A line below the target: the best score if the pass ended.
			best, s.bestLine = s.inc, append(s.bestLine[:0], s.incLine...)
			exact = !s.aborted
			break
		}
		if s.aborted {
			break
		}
		t = max(v+1, t+1, best)
	}
	if !s.aborted && !exact {
		exact = true // every pass failed up to the greedy score
	}
	sol := Solution{Best: best, Exact: exact && !s.aborted, Nodes: s.nodes, Moves: append([]Move{}, s.bestLine...)}
	// A line that does not clear scores at least 1.
	sol.Cleared = best <= 0
	return sol
}

// kept reports whether the table may be kept for pos (see
// SolveOptions.Keep), and notes what it will hold true of.
func (s *Solver) kept(pos position, keep bool) bool {
	same := keep && s.keepOK && pos.redeals == 0 && s.keepV == pos.v && s.keepLay == pos.lay &&
		s.keepRank == s.rank && string(s.keepStk) == string(s.stock1)
	s.keepOK = pos.redeals == 0
	s.keepV, s.keepLay, s.keepRank = pos.v, pos.lay, s.rank
	s.keepStk = append(s.keepStk[:0], s.stock1...)
	return same
}

// Forget drops what the solver's table holds, so that its next solve
// starts as a fresh solver's would even with SolveOptions.Keep (a
// solver kept for reuse by other work).
func (s *Solver) Forget() { s.keepOK = false }

// yield lets other goroutines run (see yieldEvery).
func (s *Solver) yield() {
	s.sinceYield -= yieldEvery
	s.yields++
	if s.yieldFn != nil {
		s.yieldFn()
		return
	}
	runtime.Gosched()
}

// wasteTop is the rank index of the waste's top card, or noneIdx.
func (s *Solver) wasteTop() uint8 {
	if s.nWaste == 0 {
		return noneIdx
	}
	return s.waste[s.nWaste-1]
}

func hashRank(h uint64, r uint8) uint64 {
	h ^= uint64(r) + 1
	h *= 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// free returns the positions whose card may be played now.
func (s *Solver) free(present uint64) uint64 {
	if s.cols {
		// The highest present card of each column: smear the present
		// cards down their columns and keep the ones with none above.
		x := present
		for i, m := range s.rowLT {
			x |= x >> (1 << i) & m
		}
		if len(s.rowLT) == 0 {
			return present
		}
		return present &^ (x >> 1 & s.rowLT[0])
	}
	var f uint64
	for _, pm := range s.piles {
		x := present & pm
		if x == 0 {
			continue
		}
		p := 63 - bits.LeadingZeros64(x)
		if s.covers[p]&present == 0 {
			f |= 1 << p
		}
	}
	return f
}

func (s *Solver) terminal(score int) {
	if score < s.inc {
		s.inc = score
		s.incLine = append(s.incLine[:0], s.path...)
	}
}

// clearBound is the best score any clear from here could reach.
func (s *Solver) clearBound(present uint64, stockLeft, redeals int) int {
	if !s.neg {
		return 0
	}
	most := stockLeft
	if redeals > 0 {
		// After the redeal the stock is the whole waste less the card
		// turned; at best every card but one is played before it.
		if m := s.nWaste + stockLeft + bits.OnesCount64(present) - 2; m > most {
			most = m
		}
	}
	return -most
}

// relax counts the tableau cards that can never be played even if every
// card still to come from the stock were available at any time.
func (s *Solver) relax(present uint64, top uint8, next, redeals int, stockRanks uint16) int {
	return bits.OnesCount64(present &^ s.possible(present, top, redeals, stockRanks))
}

// possible is the set of present cards the relaxation of relax may play.
func (s *Solver) possible(present uint64, top uint8, redeals int, stockRanks uint16) uint64 {
	if top == noneIdx {
		return present
	}
	avail := uint16(1)<<top | stockRanks
	if redeals > 0 {
		// After a redeal every card off the tableau comes round again.
		avail |= s.ranksOf
		for q := s.allPositions() &^ present; q != 0; q &= q - 1 {
			avail |= 1 << s.rank[bits.TrailingZeros64(q)]
		}
	}
	if s.cols {
		// Columns: a card may be played once every card above it in its
		// column may be, so the possible cards of a column are the run
		// from its free card down to the first that fits no rank yet.
		for {
			fit := s.fitLo[avail&127] | s.fitHi[avail>>7&127]
			// Smear every card that fits no rank down its column.
			d := present &^ fit
			if d == 0 {
				return present
			}
			possible := present &^ s.smearDown(d)
			na := ^avail
			q := possible & (s.posLo[na&127] | s.posHi[na>>7&127])
			if q == 0 || possible == present {
				return possible
			}
			for q != 0 {
				r := s.rank[bits.TrailingZeros64(q)]
				avail |= 1 << r
				q &^= s.rankPos[r]
			}
		}
	}
	var possible uint64
	for {
		grew := false
		for q := present &^ possible; q != 0; {
			p := 63 - bits.LeadingZeros64(q)
			q &^= 1 << p
			if s.covers[p]&present&^possible != 0 {
				continue
			}
			r := s.rank[p]
			if s.onto[r]&avail == 0 {
				continue
			}
			possible |= 1 << p
			if avail>>r&1 == 0 {
				avail |= 1 << r
				grew = true
			}
			if !s.ordered {
				grew = true
			}
		}
		if !grew {
			break
		}
	}
	return possible
}

// smearDown marks, with every position of x, the positions under it in
// its column (cols only).
func (s *Solver) smearDown(x uint64) uint64 {
	x |= x & s.rowGE[0] >> 1
	x |= x & s.rowGE[1] >> 2
	x |= x & s.rowGE[2] >> 4
	return x
}

// sepRuns is how many of the last runs runReach follows one by one (more
// cut more nodes but cost more than they save).
const sepRuns = 3

// runReach is a set holding every present card that a line could play
// before turning the stock card end. A line is a series of runs: plays
// from the top now, then from each stock card turned, each card going on
// the one before. A run plays only cards that the relaxation of possible
// reaches from its own start card (see reachRun), where a card is free if
// the cards over it could have been played by earlier runs or by this
// one. (The runs before the last sepRuns are taken together: the
// relaxation from all their start cards at once holds each of them.)
//
// This is what makes a short stock count: possible lets every stock card
// serve at any time, and a run that could go anywhere then clears the
// tableau however few turns are left.
func (s *Solver) runReach(present uint64, top uint8, next, end int) uint64 {
	if top == noneIdx {
		return present
	}
	var gone uint64
	if split := end - sepRuns; split > next {
		avail := uint16(1) << top
		for _, r := range s.cur[next:split] {
			avail |= 1 << r
		}
		gone = s.reach(present, 0, avail)
		next = split
	} else {
		gone = s.reachRun(present, 0, top)
	}
	for i := next; i < end && gone != present; i++ {
		gone |= s.reachRun(present, gone, s.cur[i])
	}
	return gone
}

// reachRun is reach for one run from a card of rank start, which takes
// only the run's first card: that card must be free when the run starts
// (nothing over it but cards of gone), and every later card goes on a
// card of the run. (A joker start takes any free card first.)
func (s *Solver) reachRun(present, gone uint64, start uint8) uint64 {
	var first uint64
	if s.cols {
		// Cards with a card over them that may still be there are not
		// free.
		y := s.smearDown(present &^ gone)
		first = present & s.fitPos[start] &^ (y & s.rowGE[0] >> 1)
	} else {
		for q := present & s.fitPos[start]; q != 0; q &= q - 1 {
			p := bits.TrailingZeros64(q)
			if s.covers[p]&present&^gone == 0 {
				first |= 1 << p
			}
		}
	}
	if first == 0 {
		return 0
	}
	return s.reachFirst(present, gone, s.ranksAt(first), first)
}

// ranksAt is the set of ranks of the cards at the positions of m.
func (s *Solver) ranksAt(m uint64) uint16 {
	if s.n <= 35 {
		t := &s.rankBits
		return t[0][m&127] | t[1][m>>7&127] | t[2][m>>14&127] | t[3][m>>21&127] | t[4][m>>28&127]
	}
	var r uint16
	for m != 0 {
		x := s.rank[bits.TrailingZeros64(m)&63]
		r |= 1 << x
		m &^= s.rankPos[x]
	}
	return r
}

// reach is the set of present cards that one run starting on a rank of
// avail could play (by the relaxation of possible), when the cards of
// gone may be gone already. Gone cards block nothing, and the run may
// play them too: a card an earlier run could have played may still be
// there.
func (s *Solver) reach(present, gone uint64, avail uint16) uint64 {
	return s.reachFirst(present, gone, avail, 0)
}

// reachFirst is reach where the cards of first may be played too (they
// go on the run's start card).
func (s *Solver) reachFirst(present, gone uint64, avail uint16, first uint64) uint64 {
	if s.cols {
		there := present &^ gone // cards that may still be there
		for {
			fit := s.fitLo[avail&127] | s.fitHi[avail>>7&127] | first
			// A card that fits no rank yet and may still be there blocks
			// every card under it.
			ok := present & fit &^ s.smearDown(there&^fit)
			q := ok &^ (s.posLo[avail&127] | s.posHi[avail>>7&127]) // of ranks not in avail
			if q == 0 {
				return ok
			}
			if s.n <= 35 {
				// ranksAt, by hand: it is over the inlining budget, and
				// this is the solver's hottest loop.
				t := &s.rankBits
				avail |= t[0][q&127] | t[1][q>>7&127] | t[2][q>>14&127] | t[3][q>>21&127] | t[4][q>>28&127]
			} else {
				avail |= s.ranksAt(q)
			}
		}
	}
	ok := first
	for {
		grew := false
		for q := present &^ ok; q != 0; {
			p := 63 - bits.LeadingZeros64(q)
			q &^= 1 << p
			if s.covers[p]&present&^ok&^gone != 0 || s.onto[s.rank[p]]&avail == 0 {
				continue
			}
			ok |= 1 << p
			if r := s.rank[p]; avail>>r&1 == 0 || !s.ordered {
				avail |= 1 << r
				grew = true
			}
		}
		if !grew {
			return ok
		}
	}
}

func (s *Solver) allPositions() uint64 { return allBits(s.n) }

// playOrder fills dst with the playable positions, best first.
func (s *Solver) playOrder(dst *[maxPositions]uint8, play, present uint64) int {
	n := 0
	var key [maxPositions]int
	for q := play; q != 0; q &= q - 1 {
		p := uint8(bits.TrailingZeros64(q))
		// Prefer the pile with the most cards still to uncover.
		k := bits.OnesCount64(present & s.piles[s.pileOf[p]])
		if s.rng != 0 {
			// After a restart: a random order (a random tie-break alone
			// left Black Hole's slowest deals as slow).
			s.rng ^= s.rng << 13
			s.rng ^= s.rng >> 7
			s.rng ^= s.rng << 17
			k = int(s.rng & 0xffff)
		}
		if s.rank[p] == 0 {
			k -= 1 << 20 // keep jokers for later
		}
		i := n
		for i > 0 && key[i-1] < k {
			dst[i], key[i] = dst[i-1], key[i-1]
			i--
		}
		dst[i], key[i] = p, k
		n++
	}
	return n
}

// greedy plays the first move of the search order until the game ends,
// making its line the incumbent.
func (s *Solver) greedy(present uint64, top uint8, next, redeals int) {
	for {
		if present == 0 {
			sc := 0
			if s.neg {
				sc = -(len(s.cur) - next)
			}
			s.terminal(sc)
			return
		}
		play := s.free(present) & s.fitPos[top]
		if play != 0 {
			var order [maxPositions]uint8
			s.playOrder(&order, play, present)
			p := order[0]
			present &^= 1 << p
			top = s.rank[p]
			s.waste[s.nWaste] = top
			s.nWaste++
			s.path = append(s.path, PlayPile(int(s.pileOf[p])+1))
			continue
		}
		if next < len(s.cur) {
			top = s.cur[next]
			next++
			s.waste[s.nWaste] = top
			s.nWaste++
			s.path = append(s.path, TurnMove)
			continue
		}
		if redeals > 0 && s.nWaste > 0 {
			s.stock2 = append(s.stock2[:0], s.waste[:s.nWaste]...)
			s.suffix2 = suffixRanks(s.suffix2, s.stock2)
			s.cur, s.suffix = s.stock2, s.suffix2
			redeals--
			top, next = s.cur[0], 1
			s.nWaste = 1
			s.path = append(s.path, RedealMove)
			continue
		}
		s.terminal(bits.OnesCount64(present))
		return
	}
}

// turn searches the position after turning the stock's next card.
func (s *Solver) turn(present uint64, next, redeals int, h uint64) (int, bool) {
	r := s.cur[next]
	s.waste[s.nWaste] = r
	s.nWaste++
	s.path = append(s.path, TurnMove)
	if redeals > 0 {
		h = hashRank(h, r)
	}
	v, ex := s.search(present, r, next+1, redeals, h)
	s.path = s.path[:len(s.path)-1]
	s.nWaste--
	return v, ex
}

// search returns a lower bound on the best score reachable from the state,
// and whether it is exact. An inexact bound is never below the incumbent
// at the end of the search (see the package notes in Solver).
//
// It is the solver's hot loop, called once per node, and stays in one
// piece on purpose: its steps share a dozen locals (the bounds, the move
// masks, the table entry) that split functions would pass back and forth
// or recompute, and the benchmarks (BenchmarkSolve*) measure it as it is.
func (s *Solver) search(present uint64, top uint8, next, redeals int, h uint64) (int, bool) {
	s.nodes++
	if s.nodes&1023 == 0 {
		if s.maxNodes > 0 && s.nodes >= s.maxNodes || !s.deadline.IsZero() && time.Now().After(s.deadline) {
			s.aborted = true
		}
		if s.sinceYield += 1024; s.sinceYield >= yieldEvery {
			s.yield()
		}
	}
	if s.passLimit > 0 && s.nodes >= s.passLimit && !s.aborted {
		s.aborted, s.restart = true, true
	}
	if s.aborted {
		return 0, false
	}
	if present == 0 {
		sc := 0
		if s.neg {
			sc = -(len(s.cur) - next)
		}
		s.terminal(sc)
		return sc, true
	}
	play := s.free(present) & s.fitPos[top]
	stockLeft := len(s.cur) - next
	canRedeal := stockLeft == 0 && redeals > 0 && s.nWaste > 0
	if play == 0 && stockLeft == 0 && !canRedeal {
		sc := bits.OnesCount64(present)
		s.terminal(sc)
		return sc, true
	}
	if play == 0 && stockLeft > 0 {
		// The turn is the only move: go straight on to the position after
		// it (which has every bound this one has, with less stock).
		return s.turn(present, next, redeals, h)
	}
	lb := s.clearBound(present, stockLeft, redeals)
	if lb >= s.inc {
		return lb, false
	}
	k2 := uint64(next) | uint64(top)<<8 | uint64(redeals)<<12 | h<<13
	elower, eexact, hit, kh := s.tt.find(present, k2)
	if hit {
		if eexact && elower >= s.inc {
			return elower, true
		}
		// An exact value below the incumbent is searched again (with the
		// value as its bound, so it goes straight down a line reaching
		// it) to make that line the incumbent.
		if elower >= s.inc {
			return elower, false
		}
		lb = max(lb, elower)
	} else {
		// Cards the relaxation can never play stay; the others need
		// their own predecessors (see deficiency).
		var poss uint64
		if redeals == 0 {
			poss = s.runReach(present, top, next, len(s.cur))
		} else {
			poss = s.possible(present, top, redeals, s.suffix[next])
		}
		r := bits.OnesCount64(present &^ poss)
		if s.match && r < s.inc {
			r += s.matchBound(present, poss, top, next, len(s.cur), s.inc-r)
		}
		if r > 0 {
			lb = max(lb, r)
			if lb >= s.inc {
				s.tt.store(present, k2, kh, lb, false)
				return lb, false
			}
		}
	}
	if s.inc <= 0 && s.neg && redeals == 0 {
		if s.match && s.matchBound(present, present, top, next, len(s.cur)+s.inc-1, 1) > 0 {
			return s.inc, false
		}
		// Only a clear with at least 1-inc stock cards left would do, so
		// only the stock cards before those may be used.
		if s.runReach(present, top, next, len(s.cur)+s.inc-1) != present {
			return s.inc, false
		}
	}

	exMin, inexMin := 1<<30, 1<<30
	var order [maxPositions]uint8
	n := s.playOrder(&order, play, present)
	turn := stockLeft > 0
	// Loose cards cover nothing and are alone in their piles. Of two
	// playable cards of one rank, a loose one and one that is not,
	// playing the other does as well: a line after the loose one is
	// open after the other with the loose card standing in for it (free
	// at any time), and with the cards under the other free sooner. And
	// two loose ones leave positions the same but for the names of the
	// two cards.
	var loose, firm uint16 // ranks of loose cards played, of others playable
	var looseAt uint64     // the playable loose cards
	for q := play; q != 0; q &= q - 1 {
		p := bits.TrailingZeros64(q)
		if present&(s.coveredBy[p]|s.piles[s.pileOf[p]]) == 1<<p {
			looseAt |= 1 << p
		} else {
			firm |= 1 << s.rank[p]
		}
	}
	if redeals == 0 {
		// Load the children's table buckets now, so that their misses
		// overlap.
		for i := 0; i < n; i++ {
			p := order[i]
			s.tt.touch(present&^(1<<p), uint64(next)|uint64(s.rank[p])<<8)
		}
	}
	for i := 0; i < n; i++ {
		p := order[i]
		r := s.rank[p]
		if looseAt>>p&1 == 1 {
			if (loose|firm)>>r&1 == 1 {
				continue
			}
			loose |= 1 << r
		}
		if redeals == 0 && s.fitPos[r]&present&^(1<<p) == 0 {
			// Nothing left on the tableau may go on p: playing it and
			// turning is as good as turning now. A line that turns now
			// and plays p later does as well skipping p there (p takes
			// no card, so the next move was a turn or the end, and
			// without p the position has the same cards, or fewer, and
			// the same stock), and p gone sooner covers nothing.
			turn = false
		}
		s.waste[s.nWaste] = r
		s.nWaste++
		s.path = append(s.path, PlayPile(int(s.pileOf[p])+1))
		nh := h
		if redeals > 0 {
			nh = hashRank(h, r)
		}
		v, ex := s.search(present&^(1<<p), r, next, redeals, nh)
		s.path = s.path[:len(s.path)-1]
		s.nWaste--
		if s.aborted {
			return 0, false
		}
		if ex {
			exMin = min(exMin, v)
		} else {
			inexMin = min(inexMin, v)
		}
		if exMin <= lb {
			break
		}
	}
	if exMin > lb && turn {
		v, ex := s.turn(present, next, redeals, h)
		if s.aborted {
			return 0, false
		}
		if ex {
			exMin = min(exMin, v)
		} else {
			inexMin = min(inexMin, v)
		}
	} else if exMin > lb && canRedeal {
		m := s.nWaste
		s.stock2 = append(s.stock2[:0], s.waste[:m]...)
		s.suffix2 = suffixRanks(s.suffix2, s.stock2)
		s.cur, s.suffix = s.stock2, s.suffix2
		s.nWaste = 1
		s.path = append(s.path, RedealMove)
		v, ex := s.search(present, s.stock2[0], 1, redeals-1, h)
		s.path = s.path[:len(s.path)-1]
		s.cur, s.suffix = s.stock1, s.suffix1
		copy(s.waste[:m], s.stock2)
		s.nWaste = m
		if s.aborted {
			return 0, false
		}
		if ex {
			exMin = min(exMin, v)
		} else {
			inexMin = min(inexMin, v)
		}
	}
	if exMin <= max(lb, inexMin) {
		s.tt.store(present, k2, kh, exMin, true)
		return exMin, true
	}
	v := max(lb, inexMin)
	s.tt.store(present, k2, kh, v, false)
	return v, false
}
