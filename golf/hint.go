package golf

import (
	"math/rand/v2"
	"sort"
)

// hintNodes is the node budget of each solve behind a hint.
const hintNodes = 20_000

// Hint suggests a move using only what the player can see: the tableau,
// the waste, the number of cards in the stock and therefore the set of
// cards not yet seen, but never the stock's order. It samples stock orders
// consistent with what has been seen (uniform shuffles of the unseen
// cards, drawn from rng in a canonical card order), solves the position
// after each legal move for every sample with a small budget
// (hintNodes), and returns the move with the lowest mean score; ties go to
// the first move in AppendLegal's order. After a redeal the stock is the
// old waste, which the player has seen, so the real order is used.
//
// The hint for a given visible position and rng state is the same whatever
// the real stock order is. It returns the zero Move when the game is over
// and the only legal move when there is one.
func Hint(s *State, samples int, rng *rand.ChaCha8) Move { return HintYield(s, samples, rng, nil) }

// HintYield is Hint whose solves give way to other goroutines with yield
// (SolveOptions.Yield; nil: runtime.Gosched), as a server's solves do.
// The move is Hint's.
func HintYield(s *State, samples int, rng *rand.ChaCha8, yield func()) Move {
	legal := s.Legal()
	switch len(legal) {
	case 0:
		return Move{}
	case 1:
		return legal[0]
	}
	samples = max(samples, 1)
	unseen := append([]Card(nil), s.stock[s.next:s.nStock]...)
	known := s.redeals < uint8(s.deal.Variant.Options.Redeals) || len(unseen) < 2
	if known {
		samples = 1
	} else {
		sort.Slice(unseen, func(i, j int) bool { return unseen[i] < unseen[j] })
	}
	var sv Solver
	totals := make([]int, len(legal))
	sample := make([]Card, len(unseen))
	for k := 0; k < samples; k++ {
		copy(sample, unseen)
		if !known {
			for i := len(sample) - 1; i >= 1; i-- {
				j := uniform(rng, uint64(i+1))
				sample[i], sample[j] = sample[j], sample[i]
			}
		}
		for i, m := range legal {
			c := *s // a shallow copy: apply does not touch moves beyond append
			c.moves = nil
			copy(c.stock[c.next:c.nStock], sample)
			c.apply(m)
			totals[i] += sv.solve(positionOf(&c), &SolveOptions{MaxNodes: hintNodes, Yield: yield}).Best
		}
	}
	best := 0
	for i := range legal {
		if totals[i] < totals[best] {
			best = i
		}
	}
	return legal[best]
}

// positionOf is the state as a position for the solver.
func positionOf(s *State) position {
	d := s.deal
	return position{
		v: d.Variant, lay: d.layout, cards: &d.tableau, present: s.present,
		waste: s.waste[:s.nWaste], stock: s.stock[:s.nStock], start: int(s.next), redeals: int(s.redeals),
	}
}
