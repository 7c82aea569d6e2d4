package match

import (
	"math/rand/v2"
	"slices"
	"testing"

	"golfsolitaire/golf"
)

// TestBoardCards checks that boardCards names a board's piles and waste
// as State.Piles and State.Waste have them (a removed card of a one-row
// layout ""), for every game with its defaults and with redeals and
// jokers, at every step of random games.
func TestBoardCards(t *testing.T) {
	t.Parallel()
	type variant struct {
		name string
		v    golf.Variant
	}
	var tests []variant
	for _, g := range golf.Games {
		tests = append(tests, variant{string(g), golf.Variant{Game: g, Options: g.Defaults()}})
		o := g.Defaults()
		o.Redeals, o.Jokers = 1, 2
		tests = append(tests, variant{string(g) + " with a redeal and jokers", golf.Variant{Game: g, Options: o}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(7, uint64(len(tt.name))))
			// Arrays from a drawing before, of more piles and cards than
			// any game's, full of other names: reused, they hold nothing
			// of it after.
			names, piles := slices.Repeat([]string{"XX"}, 120), slices.Repeat([][]string{{"XX"}}, 12)
			for n := 1; n <= 20; n++ {
				d := golf.NewDeal(tt.v, golf.NumberedSeed(n))
				st := golf.NewState(&d)
				for step := 0; ; step++ {
					var waste []string
					if step%2 == 1 { // a board drawn again, and a new one
						piles, waste = drawnCards(&d, st, nil, nil)
					} else {
						names, piles, waste = boardCards(&d, st, names, piles)
					}
					if want := namesOfPiles(st.Piles()); !slices.EqualFunc(piles, want, slices.Equal) {
						t.Fatalf("deal %d, step %d: piles %q, want %q", n, step, piles, want)
					}
					if want := namesOf(st.Waste()); !slices.Equal(waste, want) || waste == nil {
						t.Fatalf("deal %d, step %d: waste %q, want %q", n, step, waste, want)
					}
					legal := st.Legal()
					if len(legal) == 0 {
						break
					}
					if err := st.Apply(legal[rng.IntN(len(legal))]); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// drawnCards is boardCards into new arrays.
func drawnCards(d *golf.Deal, st *golf.State, names []string, piles [][]string) ([][]string, []string) {
	_, piles, waste := boardCards(d, st, names, piles)
	return piles, waste
}

func namesOfPiles(piles [][]golf.Card) [][]string {
	out := make([][]string, len(piles))
	for i, p := range piles {
		out[i] = make([]string, len(p))
		for j, c := range p {
			if c != golf.NoCard {
				out[i][j] = c.String()
			}
		}
	}
	return out
}

func namesOf(cards []golf.Card) []string {
	out := make([]string, len(cards))
	for i, c := range cards {
		out[i] = c.String()
	}
	return out
}
