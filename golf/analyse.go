package golf

import (
	"fmt"
	"slices"
)

// StockKnown reports whether the player knows the order of the rest of the
// stock: after a redeal (the stock is the old waste, which the player has
// seen) or with fewer than two cards left. Otherwise the order of the
// unseen stock cards is the one secret of the position (see Hint).
func (s *State) StockKnown() bool {
	return s.redeals < uint8(s.deal.Variant.Options.Redeals) || s.StockLeft() < 2
}

// WithStock returns a copy of the game whose remaining stock is order: the
// same cards as Stock() in another order, as Hint samples them. The copy
// keeps the move history. It is an error if order is not a rearrangement
// of the remaining stock.
func (s *State) WithStock(order []Card) (*State, error) {
	have := s.Stock()
	want := append([]Card(nil), order...)
	slices.Sort(have)
	slices.Sort(want)
	if !slices.Equal(have, want) {
		return nil, fmt.Errorf("golf: %d cards are not a rearrangement of the %d stock cards left", len(order), len(have))
	}
	c := s.Clone()
	copy(c.stock[c.next:c.nStock], order)
	return c, nil
}

// SolveState finds the best final score reachable from the game as it
// stands with full knowledge of its stock, and a line reaching it from
// there (the moves already made are not part of the line).
func (s *Solver) SolveState(st *State, opt *SolveOptions) Solution {
	return s.solve(positionOf(st), opt)
}
