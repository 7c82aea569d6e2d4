// Package fairplay detects play that is only explained by knowing the
// stock. It is pure: no I/O, no goroutines.
//
// # What is measured
//
// A finished hole is replayed move by move (AnalyseHole). At every decision
// point whose stock order the player cannot know (golf.State.StockKnown is
// false), where there is more than one legal move and at most MaxCards
// cards on the tableau, the position is scored by the solver (a node
// budget) on K stock orders sampled uniformly from the cards the player
// has not seen, as golf.Hint does, and on the real stock: on each order
// the best score from the position and the score after the move chosen,
// whose difference is the strokes the choice lost on that order. Where it
// lost on some order, every legal move is scored on every order: that
// gives, per move, the mean score a strong player can expect from what
// they see (the visible-best move is the lowest mean) and the score with
// the real stock (the clairvoyant moves are the lowest). A decision is
// discriminating when the visible-best move is not among the clairvoyant
// ones; the evidence lists those with which move the player picked and
// both margins. (A decision whose chosen move is best on every order is
// not listed.)
//
// K is Config.Samples, or Config.OpeningSamples for the stretches played
// with more than Config.OpeningStock cards in the stock that began with
// more than Config.OpeningCards cards on the tableau: the fresh solves
// of the opening positions cost the most, and a stretch's evidence grows
// with K where the honest moves are best on few orders, which is more
// often so late in the hole or on a thin tableau, where the solves are
// cheap. A stock with no more than K+1 orders (at most 4 cards, with K
// 24) is scored on each of its orders once instead of on samples: the
// real order is then one of all of them, so a stretch's e-value is
// exact, and a stock of 2 or 3 cards takes 2 or 6 orders, not 25. The
// stock's size and the tableau are seen by the player, so K is decided
// alike for every order.
//
// The work: each order has its own solver, which keeps what it proved
// (its table) from one decision of a stretch to the next, the positions
// after a stock turn included (golf.SolveOptions.Keep), and starts it
// again for each stretch and after a decision the budget left out (the
// solves stop at the first order it leaves unfinished), for every order
// alike; with a probe (Config.Probe) every solve runs on every order
// instead, and the tables are kept through such decisions. A decision
// whose move is best on every order by a rule of the game (obvious: a
// card nothing left could go on, played rather than turning the stock)
// is not solved: it loses nothing on any order. The sampled orders
// depend on the deal, the key and the stock cards left, not on the
// seat, so AnalyseHoles scores the
// seats of one deal (a room's, a tournament's entrants') together, once
// for a run of moves that several seats made alike, with the outcome
// each would get alone.
//
// # The statistic
//
// The deal is a uniform shuffle, so given what the player has seen the
// real order of the unseen stock is just one more uniform sample: the real
// order and the K sampled ones are exchangeable. A player who does not
// know the stock chooses from what they see (and their own randomness),
// so for an honest player, of the K+1 orders (samples and real), the real
// one is equally likely to be any one. Decisions between two stock turns
// see the same unseen cards and share their K samples; for such a stretch
// (a segment) let A be "every move the player chose was best", computed
// the same way on each order, and T the number of the K+1 orders on which
// A holds. Under honest play P(A holds for the real order) = T/(K+1),
// whatever the player's strength or style: random, greedy and strong
// players alike. This conditional probability is exact; it needs no rate
// measured on bots.
//
// A finer statistic uses every order's regret, not only whether the
// real one's is the least: each order j weighs w_j = exp(-Lambda *
// (regret_j - least regret)), and the segment's e-value is
//
//	E = (1-Slip) * w_real / mean(w) + Slip.
//
// Whatever the regrets, E's mean over which of the K+1 orders is the real
// one is exactly 1, so under honest play E's expectation is 1. A player
// who knows the stock picks best moves for the real order: its regret is
// the least, or near it, where the sampled orders' are larger, and E
// approaches (1-Slip)(K+1); a stroke lost on the real order (the
// solver's budget can misjudge a move) costs a factor of about e^-Lambda,
// not the all-or-nothing of "did best" (Segment.Least, still reported:
// the share of stretches where it holds, against the sum of P, is the
// simulator's calibration check). A hole's likelihood ratio LR is the
// product of its segments' E. Someone may know the stock on only a share
// eps of holes, so a hole contributes eps*LR + (1-eps), and the player's
// score is the log of the mean over eps in Shares of the product over
// holes (Lambda 4, Slip 0.01 and the one share 0.2; they were 2, 0.05
// and 0.3). Under honest play every factor has expectation 1, so the
// score is a non-negative martingale with expectation 1 and, by Ville's
// inequality, reaches 1/Alpha at any time in a player's whole history
// with probability at most Alpha. A player is flagged when the score
// reaches 1/Alpha with at least MinSegments informative segments. (A
// segment stored before the regrets were kept has the earlier factor:
// (1-Slip)/P if Least, Slip/(1-P) if not; its honest expectation is 1
// too.)
//
// Combination holds these choices (DefaultCombination is the one above);
// it can also add an adaptive bettor, whose share of each hole is read
// from the holes before it, which keeps the bound too. `fairplay
// rescore` scores the rounds `fairplay simulate --record` kept with any
// combination, which is how the default was chosen (docs/fairplay.md).
// Evidence stored under the earlier choices keeps its product and goes
// on multiplying it by the current factors: a bettor whose share and
// e-values changed between two holes, each factor still of honest
// expectation 1.
//
// # Escalation
//
// The setting a hole is analysed with may depend on anything known
// before its analysis, in particular on the player's evidence so far:
// whatever setting is fixed before the hole's own outcome is seen, the
// real order is one more uniform sample among the K+1 it scores, so the
// hole's factor has expectation 1 under honest play given the past, and
// the score is still a test martingale (the setting is predictable, as
// in optional stopping). Escalation (Escalation, DefaultEscalation)
// uses this: a player's hole is analysed with the cheap setting while
// their score is under a level, and with a deeper one (DeepConfig: every
// decision scored, more orders) once it is at or above it. Honest
// players' scores drift down and seldom sit above the level, so the
// typical hole costs what the cheap setting costs, while the later holes
// of a player who knows the stock are analysed deeply. The level is read
// from the evidence of the holes that finished before the hole
// (Evidence.Before leaves out those the queue analysed first), never
// from the hole's own analysis: analysing a hole again because its cheap
// analysis looked suspicious would keep the larger of two factors,
// whose expectation is above 1, and break the bound. A batch of one
// deal's seats (AnalyseHoles) takes the deeper setting if any seat's
// evidence asks for it; each seat's setting still depends only on what
// was known before the deal was analysed.
//
// The one approximation: segments of one hole share the real stock's
// unseen tail, so their outcomes are not quite independent given the
// past. The honest flag rate is therefore measured with the simulator (go
// run . fairplay simulate); see docs/fairplay.md. Which decisions count
// (the budget, the probe's count of unfinished orders, MaxCards,
// MaxSolves, the obvious moves) is decided alike for every order, from
// what the player sees or from the orders as a set, so it keeps the
// orders exchangeable.
package fairplay

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"golfsolitaire/golf"
)

// Config bounds the analysis of one hole.
type Config struct {
	// Samples is K, the number of stock orders sampled per segment.
	Samples int `json:"samples"`
	// OpeningSamples, if not 0, is K instead for the segments played
	// with more than OpeningStock cards left in the stock: their solves
	// cost the most, and the evidence is in the last segments, whose
	// solves are cheap. How many cards the stock holds is seen by the
	// player, so K is decided alike for every order.
	OpeningSamples int `json:"openingSamples,omitempty"`
	OpeningStock   int `json:"openingStock,omitempty"`
	// OpeningCards, if not 0, scores on Samples orders, not
	// OpeningSamples, the opening stretches that begin (after their
	// stock turn) with at most OpeningCards cards on the tableau: their
	// solves are cheap too. The player sees the tableau, so K is still
	// decided alike for every order.
	OpeningCards int `json:"openingCards,omitempty"`
	// Nodes is the solver's node budget for each move on each order.
	Nodes int64 `json:"nodes"`
	// MaxSolves bounds the solves of one hole: the analysis stops at the
	// segment that would pass it (the hole is then marked Truncated).
	MaxSolves int `json:"maxSolves"`
	// MaxCards leaves out the decisions taken with more cards than this
	// on the tableau (0: none left out): the opening positions cost the
	// most to solve exactly.
	MaxCards int `json:"maxCards,omitempty"`
	// Probe is the node budget of a first solve of a decision's position
	// on every order; Misses is how many of the K+1 orders that probe may
	// leave unfinished for the decision still to be scored (those go on
	// with the budget Nodes), so a decision too hard to score costs K+1
	// probes, not whole budgets. With a probe every solve runs on every
	// order and the tables are kept through the decisions the budget
	// leaves out. Probe 0: no probe; every order has Nodes at once, the
	// first order the budget leaves unfinished stops the decision, and
	// the tables start again after it (on every order alike).
	Probe  int64 `json:"probe,omitempty"`
	Misses int   `json:"misses,omitempty"`
	// Key seeds the sampler (with the deal and the position), so an
	// analysis is reproducible; a server uses a secret of its own.
	Key [32]byte `json:"-"`
	// Solvers, when set, keeps the analyses' solvers and their tables
	// for the next analyses (a server's worker analyses hole after hole:
	// a fresh set is some 6 MB of tables a hole for the collector).
	// Like Yield, it changes no outcome.
	Solvers *Solvers `json:"-"`
	// Yield, when set, is how the analysis's solves give way to other
	// goroutines (golf.SolveOptions.Yield): a server passes one that waits
	// while its rooms' goroutines are ready to run (package idle). It
	// changes when the work runs, never its outcome.
	Yield func() `json:"-"`
}

// DefaultConfig is the analysis the server and the simulator run. The
// decisions taken with more than 31 cards on the tableau are left out
// (the 32 to 35 card positions cost the most to solve; 31 was the most
// that kept the median hole near 20 ms of CPU); the stretches played
// with more than 6 cards in the stock are scored on 3 orders, unless
// they begin with at most 23 cards on the tableau, and the others on 24:
// a stretch's e-value (Segment.E) can reach about K+1, and the late and
// thin positions, which are cheap to solve, are where a player who knows
// the stock most often does best on the real order alone. Measured cost
// and power, and the settings tried: docs/fairplay.md.
var DefaultConfig = Config{Samples: 24, OpeningSamples: 3, OpeningStock: 6, OpeningCards: 23, Nodes: 30000, MaxSolves: 8000, MaxCards: 31}

// ConfigNamed is the analysis setting of that name, as an operator
// chooses it (serve's and worker's --fairplay-analysis): "default"
// (DefaultConfig) or "full" (FullConfig: every decision scored, about
// three times the CPU, more power against a player who knows the stock
// on few holes).
func ConfigNamed(name string) (Config, error) {
	switch name {
	case "default", "":
		return DefaultConfig, nil
	case "full":
		return FullConfig, nil
	}
	return Config{}, fmt.Errorf("%q is not an analysis setting; want default or full", name)
}

// FullConfig scores every decision on 8 orders: the default before
// DefaultConfig, at about three times its CPU a hole; on the same
// simulated play it flagged somewhat more players who knew the stock on
// one hole in five (23 of 40 rounds against 19) and more of those who
// knew it on one hole in ten (6 of 20 against 3; docs/fairplay.md).
var FullConfig = Config{Samples: 8, Nodes: 30000, MaxSolves: 2500}

// CheapConfig leaves out the decisions taken with more than 30 cards on
// the tableau and scores the opening stretches (more than 8 cards in the
// stock) on 3 orders and the later ones on 24. It was measured as the
// cheaper setting before DefaultConfig, which costs about as much and
// flags more (docs/fairplay.md).
var CheapConfig = Config{Samples: 24, OpeningSamples: 3, OpeningStock: 8, Nodes: 30000, MaxSolves: 6000, MaxCards: 30}

// samples is K for a segment with left cards in the stock that began
// with cards on the tableau; when those left cards have at most K+1
// orders, it is one less than their number, so that the segment is
// scored on each of them once (ordersFor).
func (c Config) samples(left, cards int) int {
	k := max(c.Samples, 1)
	if c.OpeningSamples > 0 && left > c.OpeningStock && (c.OpeningCards == 0 || cards > c.OpeningCards) {
		k = c.OpeningSamples
	}
	if n := orderCount(left, k+1); n <= k+1 {
		return n - 1
	}
	return k
}

// orderCount is the number of orders of left cards (left!), or a number
// over most once it is over most.
func orderCount(left, most int) int {
	n := 1
	for i := 2; i <= left && n <= most; i++ {
		n *= i
	}
	return n
}

// ErrBadRecord is returned for moves that do not replay on the deal.
var ErrBadRecord = errors.New("fairplay: the moves do not replay on the deal")

// Pick is what the player chose at a discriminating decision.
type Pick string

// The picks.
const (
	// PickClairvoyant is a move that is best with the real stock.
	PickClairvoyant Pick = "clairvoyant"
	// PickVisible is the move that is best in expectation over what can be
	// seen.
	PickVisible Pick = "visible"
	// PickOther is any other move.
	PickOther Pick = "other"
)

// Decision is one discriminating decision: the visible-best move is not
// best with the real stock.
type Decision struct {
	// Move is the 0-based index of the decision in the hole's moves.
	Move int `json:"move"`
	// Segment is the 0-based index of the stretch between stock turns.
	Segment int `json:"segment"`
	// Legal are the legal moves, in golf.State.Legal order.
	Legal []golf.Move `json:"legal"`
	// Chosen is the move the player made.
	Chosen golf.Move `json:"chosen"`
	// Visible is the move with the best mean score over the sampled orders.
	Visible golf.Move `json:"visible"`
	// Clairvoyant are the moves that are best with the real stock.
	Clairvoyant []golf.Move `json:"clairvoyant"`
	// Pick says which of them the player chose.
	Pick Pick `json:"pick"`
	// Mean is each legal move's mean score over the sampled orders.
	Mean []float64 `json:"mean"`
	// Real is each legal move's score with the real stock.
	Real []int `json:"real"`
	// RealMargin is how many strokes the visible-best move loses with the
	// real stock.
	RealMargin int `json:"realMargin"`
	// VisibleMargin is how many strokes, in expectation over what can be
	// seen, the (first) clairvoyant move loses against the visible-best.
	VisibleMargin float64 `json:"visibleMargin"`
}

// Segment is the outcome of one stretch of decisions between stock turns.
type Segment struct {
	// Decisions is the number of decisions (two or more legal moves) in it.
	Decisions int `json:"decisions"`
	// Regret is the strokes the chosen moves lost, with the real stock,
	// against the best move at each decision (as the solver's budget
	// measures it).
	Regret int `json:"regret"`
	// Least reports whether Regret is the least of the K+1 orders' (the
	// same chosen moves scored on each sampled order and the real one).
	Least bool `json:"least"`
	// P is the chance of Least under honest play: the share of the K+1
	// orders whose regret is the least.
	P float64 `json:"p"`
	// Regrets are the regrets of the K+1 orders, the real one last.
	Regrets []int `json:"regrets,omitempty"`
}

// Informative reports whether the segment can move the statistic.
func (s Segment) Informative() bool { return s.P > 0 && s.P < 1 }

// Hole is the analysis of one seat's finished hole.
type Hole struct {
	// Decisions counts the decisions analysed; Inexact those left out
	// because the solver's budget could not score every move exactly.
	Decisions int `json:"decisions"`
	Inexact   int `json:"inexact"`
	// Obvious counts the decisions not solved because the move made was
	// best on every order by a rule of the game (see obvious): they lose
	// nothing on any order.
	Obvious        int        `json:"obvious,omitempty"`
	Discriminating []Decision `json:"discriminating"`
	Segments       []Segment  `json:"segments"`
	// Solves and Nodes are the work done.
	Solves int   `json:"solves"`
	Nodes  int64 `json:"nodes"`
	// Truncated reports that MaxSolves stopped the analysis early.
	Truncated bool `json:"truncated,omitempty"`
}

// AnalyseHole walks the moves of one seat's hole on the deal. It uses
// the real stock (the deal), so it must only run on finished holes.
func AnalyseHole(d *golf.Deal, moves []golf.Move, cfg Config) (Hole, error) {
	hs, err := AnalyseHoles(d, [][]golf.Move{moves}, cfg)
	if err != nil {
		return Hole{}, err
	}
	return hs[0], nil
}

// AnalyseHoles analyses the holes of several seats on one deal (every
// seat of a room, or every entrant of a tournament, plays the same deal).
// Each hole's analysis is exactly AnalyseHole's; the work is shared: the
// stock orders sampled for a stretch are drawn once for the deal (they
// depend on the deal and on how many stock cards are left, not on the
// seat), and a decision met by several seats in the same position is
// scored once. An error names the first seat whose moves do not replay.
func AnalyseHoles(d *golf.Deal, seats [][]golf.Move, cfg Config) ([]Hole, error) {
	a := newAnalyser(d, cfg)
	defer cfg.Solvers.put(a.svs)
	out := make([]Hole, len(seats))
	for i, moves := range seats {
		h, err := a.hole(moves)
		if err != nil {
			if len(seats) > 1 {
				err = fmt.Errorf("seat %d: %w", i+1, err)
			}
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// analyser scores the decisions of the seats of one deal.
type analyser struct {
	d   *golf.Deal
	cfg Config
	svs []golf.Solver // one per order (the real one last)
	// orders are the sampled orders by stock cards left and K; decisions the
	// outcomes of the decisions scored, by the moves that led to them
	// (with the move chosen).
	orders    map[[2]int][][]golf.Card
	decisions map[string]scored
}

// scored is a decision's outcome: regret per order (nil when the solver's
// budget left it out) and the decision if it is discriminating.
type scored struct {
	regret []int
	dec    *Decision
	solves int
	nodes  int64
	// restart: the solves stopped at the first order the budget left
	// unfinished (no probe), so the next decision starts the tables
	// again.
	restart bool
}

// pendingDecision is a decision to score: the position and the choice.
type pendingDecision struct {
	k      int // the stretch's K
	st     *golf.State
	legal  []golf.Move
	chosen golf.Move
}

func newAnalyser(d *golf.Deal, cfg Config) *analyser {
	k := max(cfg.Samples, cfg.OpeningSamples, 1)
	return &analyser{d: d, cfg: cfg, svs: cfg.Solvers.get(k + 1), orders: map[[2]int][][]golf.Card{}, decisions: map[string]scored{}}
}

func (a *analyser) hole(moves []golf.Move) (Hole, error) {
	st := golf.NewState(a.d)
	var (
		h       Hole
		charged int // solves charged against MaxSolves: every move on every order
		seg     = 0
		cur     segState
		pending []Decision
		// The solvers keep their tables through a stretch, from its first
		// decision, so a decision's outcome depends on the decisions
		// before it in the stretch: since are those, and mine reports
		// that the tables hold their work (not another seat's).
		since  []pendingDecision
		mine   = true
		prefix = make([]byte, 0, 2*len(moves))
		began  = st.CardsLeft() // on the tableau when the stretch began
	)
	closeSeg := func() {
		if cur.decisions > 0 {
			h.Segments = append(h.Segments, cur.segment())
			h.Discriminating = append(h.Discriminating, pending...)
		}
		cur, pending, since, mine = segState{}, nil, nil, true
	}
	for i, m := range moves {
		prefix = append(prefix, byte(m.Action), m.Pile)
		if err := st.Check(m); err != nil || m.Action == golf.Undo {
			return h, fmt.Errorf("%w: move %d (%s)", ErrBadRecord, i+1, m)
		}
		legal := st.Legal()
		if len(legal) >= 2 && !st.StockKnown() && !h.Truncated && (a.cfg.MaxCards == 0 || st.CardsLeft() <= a.cfg.MaxCards) {
			k := a.cfg.samples(st.StockLeft(), began)
			if cfg := a.cfg; cfg.MaxSolves > 0 && charged+len(legal)*(k+1) > cfg.MaxSolves {
				h.Truncated = true
				cur, pending = segState{}, nil // an incomplete segment is dropped
			} else if obvious(st, legal, m) {
				h.Obvious++
			} else {
				charged += len(legal) * (k + 1)
				pd := pendingDecision{k: k, st: st.Clone(), legal: legal, chosen: m}
				sc, hit := a.decisions[string(prefix)]
				if hit {
					// Another seat of the deal made the same moves: the
					// same outcome, at no cost.
					sc.solves, sc.nodes = 0, 0
					mine = false
				} else {
					if !mine {
						// Redo this seat's stretch so far (the same
						// outcomes) so the tables hold what they would
						// have.
						for j, p := range since {
							_ = a.score(p, j == 0)
						}
					}
					sc = a.score(pd, len(since) == 0)
					a.decisions[string(prefix)] = sc
					mine = true
				}
				if sc.restart {
					since = nil
				} else {
					since = append(since, pd)
				}
				h.Solves += sc.solves
				h.Nodes += sc.nodes
				if sc.regret == nil {
					h.Inexact++
				} else {
					h.Decisions++
					cur.decisions++
					if cur.regret == nil {
						cur.regret = make([]int, k+1)
					}
					for j, r := range sc.regret {
						cur.regret[j] += r
					}
					if sc.dec != nil {
						dec := *sc.dec
						dec.Move, dec.Segment = i, seg
						pending = append(pending, dec)
					}
				}
			}
		}
		_ = st.Apply(m)
		if m.Action != golf.Play {
			closeSeg()
			seg++
			began = st.CardsLeft()
		}
	}
	closeSeg()
	return h, nil
}

type segState struct {
	decisions int
	regret    []int // per order: strokes the chosen moves lost against the best
}

// segment is the stretch's outcome: the real order's regret (the last,
// index k), whether it is the least, and the chance of that on
// exchangeable orders (ties share it).
func (cur segState) segment() Segment {
	k := len(cur.regret) - 1
	lo := slices.Min(cur.regret)
	n := 0
	for _, r := range cur.regret {
		if r == lo {
			n++
		}
	}
	return Segment{Decisions: cur.decisions, Regret: cur.regret[k], Least: cur.regret[k] == lo, P: float64(n) / float64(k+1), Regrets: cur.regret}
}

// ordersFor returns the orders of the stretch st is in: K orders of the
// unseen stock sampled uniformly (from the canonical sorted order, as
// golf.Hint does) and the real one, each as the whole stock (the cards
// turned first).
func (a *analyser) ordersFor(st *golf.State, k int) [][]golf.Card {
	left := st.StockLeft()
	if o, ok := a.orders[[2]int{left, k}]; ok {
		return o
	}
	real := st.Stock()
	canon := slices.Clone(real)
	slices.Sort(canon)
	if orderCount(left, k+1) == k+1 {
		out := everyOrder(canon, real)
		a.orders[[2]int{left, k}] = out
		return out
	}
	hs := sha256.New()
	hs.Write(a.cfg.Key[:])
	hs.Write(a.d.Seed[:])
	for _, c := range a.d.Stock() {
		hs.Write([]byte{byte(c)})
	}
	hs.Write(binary.BigEndian.AppendUint64(nil, uint64(left)))
	var seed [32]byte
	copy(seed[:], hs.Sum(nil))
	rng := rand.New(rand.NewChaCha8(seed))
	out := make([][]golf.Card, 0, k+1)
	for range k {
		o := slices.Clone(canon)
		rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
		out = append(out, o)
	}
	out = append(out, real)
	a.orders[[2]int{left, k}] = out
	return out
}

// everyOrder is every order of the cards of canon (sorted) once, the
// real one last: the K+1 orders of a segment whose stock has no more
// orders than that. The real order is then one of all of them, each
// equally likely for a player who does not know it, so a segment's
// e-value has expectation exactly 1 under honest play, with no sampling
// (where K samples could repeat some orders and miss others). With
// cards alike (two decks) an order comes once for each way of placing
// them, every order as often as any other; one of the real order's
// ways is the real one.
func everyOrder(canon, real []golf.Card) [][]golf.Card {
	var out [][]golf.Card
	o := slices.Clone(canon)
	var permute func(i int)
	permute = func(i int) {
		if i == len(o) {
			out = append(out, slices.Clone(o))
			return
		}
		for j := i; j < len(o); j++ {
			o[i], o[j] = o[j], o[i]
			permute(i + 1)
			o[i], o[j] = o[j], o[i]
		}
	}
	permute(0)
	i := slices.IndexFunc(out, func(c []golf.Card) bool { return slices.Equal(c, real) })
	out = append(out[:i], out[i+1:]...)
	return append(out, real)
}

// score scores a decision on every order: how many strokes the chosen
// move loses against the best. The solvers start with empty tables if
// fresh, and otherwise keep what the decisions before it in the stretch
// proved. On each order it solves the position (its best score, and a
// best move): first with the budget Probe on every order, then, if at
// most Misses orders were left unfinished, those again with the budget
// Nodes; and, unless the best move found is the chosen one, the position
// after the chosen move: the regret is the difference. Where some order's
// regret is not 0 every other legal move is scored too, for the
// decision's record (Decision). A solve the budget cannot finish leaves
// the decision out on every order alike (which keeps the orders
// exchangeable); one in the record's extra solves only leaves the record
// out. Every step runs on every order whatever the outcome on the
// others, so each order's table holds the same work, and the next
// decision is scored alike on every order.
func (a *analyser) score(p pendingDecision, fresh bool) scored {
	const unknown = math.MinInt
	st, legal, chosen := p.st, p.legal, p.chosen
	orders := a.ordersFor(st, p.k)
	n := len(orders)
	var sc scored
	run := func(j int, c *golf.State, budget int64, keep bool) golf.Solution {
		sol := a.svs[j].SolveState(c, &golf.SolveOptions{MaxNodes: budget, Keep: keep, Yield: a.cfg.Yield})
		sc.solves++
		sc.nodes += sol.Nodes
		return sol
	}
	bases := a.stockBases(st, orders)
	if bases == nil {
		return sc // not reached: each order is a rearrangement of st.Stock()
	}
	probe := a.cfg.Probe
	if probe <= 0 || probe > a.cfg.Nodes {
		probe = a.cfg.Nodes
	}
	// Without a probe the first order the budget leaves unfinished
	// stops the decision, and the tables start again after it.
	stop := a.cfg.Probe <= 0
	sols := make([]golf.Solution, n)
	missed := 0
	for j := range orders {
		sols[j] = run(j, bases[j], probe, !fresh)
		if !sols[j].Exact {
			missed++
			if stop {
				sc.restart = true
				return sc
			}
		}
	}
	if missed > 0 && (probe == a.cfg.Nodes || missed > a.cfg.Misses) {
		return sc
	}
	exact := true
	for j := range orders {
		if !sols[j].Exact {
			sols[j] = run(j, bases[j], a.cfg.Nodes, true)
		}
		exact = exact && sols[j].Exact && len(sols[j].Moves) > 0
	}
	if !exact {
		return sc
	}
	ci := slices.Index(legal, chosen)
	scores := make([][]int, n)
	regret := make([]int, n)
	zero := true
	for j, sol := range sols {
		scores[j] = make([]int, len(legal))
		for mi := range scores[j] {
			scores[j][mi] = unknown
		}
		if mi := slices.Index(legal, sol.Moves[0]); mi >= 0 {
			scores[j][mi] = sol.Best
		}
		if scores[j][ci] == unknown {
			c := bases[j].Clone()
			_ = c.Apply(chosen)
			after := run(j, c, a.cfg.Nodes, true)
			scores[j][ci] = after.Best
			exact = exact && after.Exact
			if stop && !exact {
				sc.restart = true
				return sc
			}
		}
		regret[j] = scores[j][ci] - sol.Best
		zero = zero && regret[j] == 0
	}
	if !exact {
		return sc
	}
	sc.regret = regret
	if zero {
		// The chosen move is best on every order: nothing to record.
		return sc
	}
	if !scoreOthers(legal, bases, scores, unknown, stop, func(j int, c *golf.State) golf.Solution {
		return run(j, c, a.cfg.Nodes, true)
	}) {
		sc.restart = stop
		return sc
	}
	sc.dec = record(legal, chosen, scores)
	return sc
}

// scoreOthers fills in, on every order, the score after each legal move
// not scored yet (unknown), for the decision's record. It reports whether
// every solve was exact; with stop it gives up at the first that is not.
func scoreOthers(legal []golf.Move, bases []*golf.State, scores [][]int, unknown int, stop bool, solve func(j int, c *golf.State) golf.Solution) bool {
	exact := true
	for j := range bases {
		for mi, mv := range legal {
			if scores[j][mi] != unknown {
				continue
			}
			c := bases[j].Clone()
			_ = c.Apply(mv)
			sol := solve(j, c)
			scores[j][mi] = sol.Best
			exact = exact && sol.Exact
			if stop && !exact {
				return false
			}
		}
	}
	return exact
}

// stockBases returns the position with each sampled order's stock (the
// real one, the last, as it is), or nil if an order does not fit.
func (a *analyser) stockBases(st *golf.State, orders [][]golf.Card) []*golf.State {
	bases := make([]*golf.State, len(orders))
	for j, o := range orders {
		bases[j] = st
		if j < len(orders)-1 {
			b, err := st.WithStock(o)
			if err != nil {
				return nil
			}
			bases[j] = b
		}
	}
	return bases
}

// obvious reports whether the move made is best on every stock order by
// a rule of the game, so the decision needs no solve (it loses nothing
// on any order): the choice is between playing a card and turning the
// stock, no card left on the tableau could ever go on that card, no
// redeal is left, and the card was played. Playing it and then turning
// does at least as well as turning now (the solver's own dominance
// rule): any line after the turn stays open with the card gone, and a
// later play of it could only have been followed by a turn. It reads
// only what the player sees, so it is decided alike on every order.
func obvious(st *golf.State, legal []golf.Move, m golf.Move) bool {
	if len(legal) != 2 || m.Action != golf.Play || legal[1] != golf.TurnMove || legal[0] != m || st.RedealsLeft() > 0 {
		return false
	}
	v := st.Variant()
	c, ok := st.PileCard(int(m.Pile))
	if !ok {
		return false
	}
	for _, pile := range st.Piles() {
		for _, x := range pile {
			if x != golf.NoCard && x != c && v.Fits(c, x) {
				return false
			}
		}
	}
	return true
}

// record is the decision if it is discriminating: the move best in
// expectation over the sampled orders is not best with the real stock.
func record(legal []golf.Move, chosen golf.Move, scores [][]int) *Decision {
	k := len(scores) - 1
	ci := slices.Index(legal, chosen)
	mean := make([]float64, len(legal))
	for j := 0; j < k; j++ {
		for mi, v := range scores[j] {
			mean[mi] += float64(v) / float64(k)
		}
	}
	vis := 0
	for mi := range mean {
		if mean[mi] < mean[vis] {
			vis = mi
		}
	}
	real := scores[k]
	lo := slices.Min(real)
	if real[vis] == lo {
		return nil
	}
	d := &Decision{Legal: legal, Chosen: chosen, Visible: legal[vis], Mean: mean, Real: real, RealMargin: real[vis] - lo}
	first := -1
	for mi, v := range real {
		if v == lo {
			d.Clairvoyant = append(d.Clairvoyant, legal[mi])
			if first < 0 {
				first = mi
			}
		}
	}
	d.VisibleMargin = mean[first] - mean[vis]
	switch {
	case real[ci] == lo:
		d.Pick = PickClairvoyant
	case ci == vis:
		d.Pick = PickVisible
	default:
		d.Pick = PickOther
	}
	return d
}

// Slip is the chance, per segment, that a player who knows the stock
// still does not pick a best move at every decision (the solver's budget
// can misjudge a move). With 30,000 nodes the simulated clairvoyant did
// best in every informative segment of its known holes (docs/
// performance.md); a smaller Slip gives those segments more weight and
// costs more on a miss. In Segment.E it is the floor of the factor, the
// weight of the constant 1 in the mixture. Any value keeps the honest
// bound (each factor still has expectation 1). Tried with the e-value
// on the simulator's holes: 0.01, 0.05, 0.1, 0.15, and with the recorded
// rounds (fairplay rescore) 0.005 to 0.1: 0.01 with Lambda 4 and a share
// of 0.2 (docs/fairplay.md, "Combining the evidence").
const Slip = 0.01

// Shares are the shares of holes on which the alternative supposes the
// stock known; the score mixes them with equal weights. One share of 0.2
// (it was 1, 0.5, 0.2 and 0.1, then 0.3): every share in the mixture
// costs its weight, log(4) nats of the bar for four. Scored again on
// recorded rounds (fairplay rescore), 0.2 flags a player who knows the
// stock on a tenth of their holes more often within 180 holes than 0.3
// (whose bets on the other holes cost more than the known ones bring),
// one who knows it on a fifth as often within 90, and one who always
// knows it still within 18 (docs/fairplay.md, "Combining the evidence").
// Any fixed mixture keeps the honest bound.
var Shares = []float64{0.2}

// AdaptiveGrid, if not empty, adds an adaptive bettor to the score: one
// whose share of each hole is the grid's share that did best over the
// holes before it (Combination), AdaptiveStart while none has. None: on
// the recorded rounds it chased the last few holes and flagged fewer
// players who know the stock on a tenth or a fifth of their holes than
// the fixed share (docs/fairplay.md, "Combining the evidence").
var AdaptiveGrid []float64

// AdaptiveStart is the adaptive bettor's share while no grid share leads.
const AdaptiveStart = 0.3

// Alpha bounds the chance that an honest player is ever flagged (Ville's
// inequality, up to the approximation in the package doc).
const Alpha = 0.001

// MinSegments is the fewest informative segments before a flag.
const MinSegments = 8

// Lambda is how steeply a segment's e-value (Segment.E) falls with the
// strokes an order's regret is above the least: an order on which the
// chosen moves lost s more strokes weighs exp(-Lambda*s) as much. It was
// 2; 4 (with Slip 0.01) gives a known hole more weight where the real
// order alone lost nothing (docs/fairplay.md, "Combining the evidence").
const Lambda = 4.0

// E is the segment's e-value: its factor in the likelihood ratio of a
// hole played with the stock known against honest play. Each of the K+1
// orders j weighs w_j = exp(-Lambda*(regret_j - least regret)), and
//
//	E = (1-Slip) * w_real / mean(w) + Slip.
//
// For any regrets, the mean of E over which order is the real one is 1,
// and under honest play the real one is equally likely to be any one
// (the orders are exchangeable), so E's expectation under honest play is
// 1, whatever the player's strength. A player who knows the stock loses
// the least with the real order, or close to it, where the sampled orders
// lose more: with the regrets 0 on the real order and 2 or more on the K
// others E is near (1-Slip)*(K+1); one stroke above the least on the real
// order no longer sends E near Slip, as "did best" (Least) alone did,
// while it still does where every other order loses less. A segment
// stored without its regrets (before they were kept) has the earlier
// factor, (1-Slip)/P if Least and Slip/(1-P) if not, which has the same
// honest expectation.
func (s Segment) E() float64 {
	return Combination{Lambda: Lambda, Slip: Slip}.SegmentE(s)
}

// LogLR is the log likelihood ratio of a hole, clairvoyant on every
// segment against honest: the sum of its segments' log E.
func (h Hole) LogLR() float64 {
	s := 0.0
	for _, g := range h.Segments {
		s += math.Log(g.E())
	}
	return s
}

// Evidence is a player's aggregate over analysed holes.
type Evidence struct {
	Holes     int `json:"holes"`
	Decisions int `json:"decisions"`
	// Segments counts informative segments; Least those in which the
	// chosen moves did best with the real stock of all the orders,
	// Expected the number expected under honest play (sum of P).
	Segments int     `json:"segments"`
	Least    int     `json:"least"`
	Expected float64 `json:"expected"`
	// Discriminating decisions and how they were picked.
	Discriminating int `json:"discriminating"`
	Clairvoyant    int `json:"clairvoyant"`
	Visible        int `json:"visible"`
	// Wealth is the bettors' (DefaultCombination): per share in Shares,
	// the log of the product over holes of share*LR + (1-share), and the
	// adaptive bettor's.
	Wealth
}

// Add folds a hole into the evidence.
func (e *Evidence) Add(h Hole) {
	e.Holes++
	e.Decisions += h.Decisions
	for _, g := range h.Segments {
		if g.Informative() {
			e.Segments++
			e.Expected += g.P
			if g.Least {
				e.Least++
			}
		}
	}
	for _, d := range h.Discriminating {
		e.Discriminating++
		switch d.Pick {
		case PickClairvoyant:
			e.Clairvoyant++
		case PickVisible:
			e.Visible++
		}
	}
	DefaultCombination().Add(&e.Wealth, h.LogLR())
}

// LogMix is log(eps*exp(l) + 1 - eps), computed without overflow: the log
// of a hole's factor for a bettor on a share eps of holes whose log
// likelihood ratio is l.
func LogMix(eps, l float64) float64 {
	if eps >= 1 {
		return l
	}
	a, b := math.Log(eps)+l, math.Log1p(-eps)
	hi, lo := max(a, b), min(a, b)
	return hi + math.Log1p(math.Exp(lo-hi))
}

// Score is the log of the player's likelihood ratio: the log of the mean
// of DefaultCombination's bettors' wealths. It is 0 with no evidence.
func (e Evidence) Score() float64 {
	return DefaultCombination().Score(e.Wealth)
}

// Threshold is the score at which a player is flagged, log(1/Alpha).
var Threshold = math.Log(1 / Alpha)

// Flagged reports whether the evidence passes DefaultRule.
func (e Evidence) Flagged() bool { return e.FlaggedBy(DefaultRule) }

func ln(x float64) float64 { return math.Log(x) }
