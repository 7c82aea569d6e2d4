package fairplay

import (
	"fmt"
	"math"
	"slices"
)

// Combination is how a player's analysed segments become a score: how a
// segment's e-value weighs the orders' regrets (Lambda, Slip: Segment.E),
// and how the holes' likelihood ratios are bet on. Each bettor starts
// with a wealth of 1 and multiplies it, hole by hole, by eps*LR + 1 - eps
// for its share eps of the hole; the score is the log of the mean of the
// bettors' wealths. There is one bettor per fixed share in Shares and,
// if Grid is not empty, an adaptive one: before each hole it takes the
// share of the grid whose own wealth over the holes before it (a shadow
// bettor's, one per grid share) is the highest, so its share follows
// the one that has done best so far (ties go to the grid share nearest
// Start).
//
// Why the bound holds for any combination. Under honest play each hole's
// LR has expectation 1 given the past, so a factor eps*LR + 1 - eps has
// expectation 1 whenever eps is fixed before the hole's own analysis is
// known: a fixed share is, and the adaptive share reads only the holes
// before it (it is predictable). Every bettor's wealth, and so their
// mean, is a non-negative martingale starting at 1, and Ville's
// inequality bounds the chance it ever reaches 1/Alpha by Alpha. Choosing
// a hole's share from the hole's own LR (the best share in hindsight)
// would not be: its factor's expectation is above 1.
type Combination struct {
	Lambda float64   `json:"lambda"`
	Slip   float64   `json:"slip"`
	Shares []float64 `json:"shares,omitempty"`
	Grid   []float64 `json:"grid,omitempty"`
	Start  float64   `json:"start,omitempty"`
}

// DefaultCombination is the combination the server and the simulator
// score with (Evidence): Lambda, Slip, Shares, and AdaptiveGrid from
// AdaptiveStart.
func DefaultCombination() Combination {
	return Combination{Lambda: Lambda, Slip: Slip, Shares: slices.Clone(Shares), Grid: slices.Clone(AdaptiveGrid), Start: AdaptiveStart}
}

// Check reports a combination that is not one: Lambda below 0, Slip
// outside [0, 1), a share outside (0, 1], or no bettor at all.
func (c Combination) Check() error {
	if !(c.Lambda >= 0) || math.IsInf(c.Lambda, 0) {
		return fmt.Errorf("lambda %g is not a number at least 0", c.Lambda)
	}
	if !(c.Slip >= 0 && c.Slip < 1) {
		return fmt.Errorf("slip %g is not in [0, 1)", c.Slip)
	}
	for _, eps := range append(slices.Clone(c.Shares), c.Grid...) {
		if !(eps > 0 && eps <= 1) {
			return fmt.Errorf("share %g is not in (0, 1]", eps)
		}
	}
	if len(c.Grid) > 0 && !(c.Start > 0 && c.Start <= 1) {
		return fmt.Errorf("start share %g is not in (0, 1]", c.Start)
	}
	if len(c.Shares) == 0 && len(c.Grid) == 0 {
		return fmt.Errorf("a combination needs a share or a grid")
	}
	return nil
}

// SegmentE is the segment's e-value with the combination's Lambda and
// Slip (Segment.E with the package's).
func (c Combination) SegmentE(s Segment) float64 {
	switch {
	case !s.Informative():
		return 1
	case len(s.Regrets) < 2:
		if s.Least {
			return (1 - c.Slip) / s.P
		}
		return c.Slip / (1 - s.P)
	}
	lo := slices.Min(s.Regrets)
	sum := 0.0
	for _, r := range s.Regrets {
		sum += math.Exp(-c.Lambda * float64(r-lo))
	}
	w := math.Exp(-c.Lambda * float64(s.Regrets[len(s.Regrets)-1]-lo))
	return (1-c.Slip)*w*float64(len(s.Regrets))/sum + c.Slip
}

// LogLR is the log likelihood ratio of a hole with these segments: the
// sum of their log e-values.
func (c Combination) LogLR(segs []Segment) float64 {
	s := 0.0
	for _, g := range segs {
		s += math.Log(c.SegmentE(g))
	}
	return s
}

// Wealth is the bettors' state over a player's holes, as Evidence keeps
// it: the log wealth of each fixed share's bettor, and of the adaptive
// bettor and its grid's shadow bettors.
type Wealth struct {
	// LogProducts holds, per fixed share, the log of the product over
	// holes of share*LR + (1-share).
	LogProducts []float64 `json:"logProducts"`
	// LogAdaptive is the adaptive bettor's log wealth; LogShadows each
	// grid share's (the products as in LogProducts). Evidence stored
	// before there was an adaptive bettor has neither: its adaptive
	// bettor starts, at a wealth of 1, with the next hole.
	LogAdaptive float64   `json:"logAdaptive,omitempty"`
	LogShadows  []float64 `json:"logShadows,omitempty"`
}

func (w Wealth) clone() Wealth {
	w.LogProducts, w.LogShadows = slices.Clone(w.LogProducts), slices.Clone(w.LogShadows)
	return w
}

// Bet is the adaptive bettor's share for the next hole: the grid share
// whose shadow wealth is the highest (within 1e-9 nats, so a hole added
// and taken out again chooses alike), the one nearest Start among those.
// It is Start without a grid or shadows.
func (c Combination) Bet(w Wealth) float64 {
	if len(c.Grid) == 0 || len(w.LogShadows) != len(c.Grid) {
		return c.Start
	}
	hi := slices.Max(w.LogShadows)
	best := -1
	for i, l := range w.LogShadows {
		if l < hi-1e-9 {
			continue
		}
		if best < 0 || math.Abs(c.Grid[i]-c.Start) < math.Abs(c.Grid[best]-c.Start) {
			best = i
		}
	}
	return c.Grid[best]
}

// Add multiplies the bettors' wealths by a hole's factors, l being its
// log LR. Wealth of another combination (another count of shares) starts
// again at 1; the adaptive bettor's share is chosen before the hole's
// factors count.
func (c Combination) Add(w *Wealth, l float64) {
	if len(w.LogProducts) != len(c.Shares) {
		w.LogProducts = make([]float64, len(c.Shares))
	}
	for i, eps := range c.Shares {
		w.LogProducts[i] += LogMix(eps, l)
	}
	if len(c.Grid) == 0 {
		w.LogAdaptive, w.LogShadows = 0, nil
		return
	}
	if len(w.LogShadows) != len(c.Grid) {
		w.LogAdaptive, w.LogShadows = 0, make([]float64, len(c.Grid))
	}
	w.LogAdaptive += LogMix(c.Bet(*w), l)
	for i, eps := range c.Grid {
		w.LogShadows[i] += LogMix(eps, l)
	}
}

// Undo takes out the hole added last with log LR l (Add's inverse). To
// take out several, undo the latest first: the adaptive share of a hole
// depends on the holes before it.
func (c Combination) Undo(w *Wealth, l float64) {
	if len(w.LogProducts) == len(c.Shares) {
		for i, eps := range c.Shares {
			w.LogProducts[i] -= LogMix(eps, l)
		}
	}
	if len(c.Grid) == 0 || len(w.LogShadows) != len(c.Grid) {
		return
	}
	for i, eps := range c.Grid {
		w.LogShadows[i] -= LogMix(eps, l)
	}
	w.LogAdaptive -= LogMix(c.Bet(*w), l)
}

// Score is the log of the mean of the bettors' wealths: the fixed
// shares' and, with a grid, the adaptive one's. It is 0 with no
// evidence.
func (c Combination) Score(w Wealth) float64 {
	ls := slices.Clone(w.LogProducts)
	if len(c.Grid) > 0 {
		ls = append(ls, w.LogAdaptive)
	}
	if len(ls) == 0 {
		return 0
	}
	hi := slices.Max(ls)
	s := 0.0
	for _, l := range ls {
		s += math.Exp(l - hi)
	}
	return hi + math.Log(s/float64(len(ls)))
}

// RoundScore is one player's run of holes scored with a combination.
type RoundScore struct {
	// FlaggedAt is the 1-based hole after which the rule first flagged
	// the player (0: never); Peak the highest score once the player had
	// the rule's fewest segments (0 if never); Segments the informative
	// segments.
	FlaggedAt int     `json:"flaggedAt"`
	Peak      float64 `json:"peak"`
	Segments  int     `json:"segments"`
}

// ScoreHoles scores a player's holes in order, each given by its
// segments, as the simulator does (sim.PlayRound): the rule's flag and
// the peak score.
func (c Combination) ScoreHoles(holes [][]Segment, r Rule) RoundScore {
	var w Wealth
	var out RoundScore
	for h, segs := range holes {
		for _, g := range segs {
			if g.Informative() {
				out.Segments++
			}
		}
		c.Add(&w, c.LogLR(segs))
		if out.Segments < r.MinSegments {
			continue
		}
		s := c.Score(w)
		out.Peak = max(out.Peak, s)
		if out.FlaggedAt == 0 && s >= -ln(r.Alpha) {
			out.FlaggedAt = h + 1
		}
	}
	return out
}
