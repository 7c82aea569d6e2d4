package golf

import (
	"fmt"
	"sort"
)

// DealFromCards builds a deal from explicit cards instead of a seed, for
// tests, puzzles and analysis: the tableau as piles (deepest card first, in
// the layout's pile order; for pyramids and peaks, 28 one-card piles), the
// stock in turn order, and the starting waste or foundation card (NoCard
// for none). The cards must be exactly the variant's pack, and the start
// must agree with the game: a waste card unless freeStart, none with
// freeStart or for All in a Row, a foundation card for Black Hole; Black
// Hole and All in a Row have no stock.
func DealFromCards(v Variant, tableau [][]Card, stock []Card, start Card) (Deal, error) {
	d := Deal{Variant: v, layout: v.Layout()}
	l := d.layout
	switch {
	case !v.hasStock() && len(stock) > 0:
		return Deal{}, fmt.Errorf("golf: %s has no stock, got %d stock cards", v.Game, len(stock))
	case v.Game == AllInARow && start != NoCard:
		return Deal{}, fmt.Errorf("golf: %s starts with an empty foundation, got %s", v.Game, start)
	case v.Game == BlackHole && start == NoCard:
		return Deal{}, fmt.Errorf("golf: %s needs a foundation card", v.Game)
	case v.hasStock() && v.Options.FreeStart && start != NoCard:
		return Deal{}, fmt.Errorf("golf: freeStart starts with an empty waste, got %s", start)
	case v.hasStock() && !v.Options.FreeStart && start == NoCard:
		return Deal{}, fmt.Errorf("golf: %s needs a starting waste card (or freeStart)", v.Game)
	}
	if len(tableau) != l.Piles() {
		return Deal{}, fmt.Errorf("golf: %s has %d piles, got %d", v.Game, l.Piles(), len(tableau))
	}
	var got []Card
	for i, pile := range tableau {
		var ps []int
		for p := 0; p < l.Positions; p++ {
			if l.PileOf(p) == i {
				ps = append(ps, p)
			}
		}
		if len(pile) != len(ps) {
			return Deal{}, fmt.Errorf("golf: pile %d needs %d cards, got %d", i+1, len(ps), len(pile))
		}
		for j, c := range pile {
			d.tableau[ps[j]] = c
			got = append(got, c)
		}
	}
	if len(stock) > maxPack {
		return Deal{}, fmt.Errorf("golf: stock too large")
	}
	d.nStock = uint8(copy(d.stock[:], stock))
	got = append(got, stock...)
	d.start = start
	if start != NoCard {
		got = append(got, start)
	}
	var want [maxPack]Card
	n := pack(&want, v)
	w := want[:n]
	sort.Slice(w, func(i, j int) bool { return w[i] < w[j] })
	sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
	if len(got) != len(w) {
		return Deal{}, fmt.Errorf("golf: %s uses %d cards, got %d", v.Game, len(w), len(got))
	}
	for i := range w {
		if w[i] != got[i] {
			return Deal{}, fmt.Errorf("golf: the cards are not one %s pack (%s is extra or missing)", v.Game, got[i])
		}
	}
	return d, nil
}
