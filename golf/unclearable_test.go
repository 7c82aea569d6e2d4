package golf

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

func TestUnclearableHandMade(t *testing.T) {
	t.Parallel()
	queensUnderKings := []string{"QC KC", "QD KD", "QH KH", "QS KS"}
	qok := map[string]any{"kings": "queen-on-king"}
	tests := []struct {
		name string
		spec layoutSpec
		want bool
	}{
		{"strict: every queen directly under a king", layoutSpec{piles: queensUnderKings}, true},
		{"strict: every queen somewhere under a king", layoutSpec{piles: []string{"QC . KC", "QD . . KD", "QH KH .", "QS . . . KS"}}, true},
		{"strict: one queen in the stock", layoutSpec{piles: []string{"QC KC", "QD KD", "QH KH", "KS"}, stock: "QS"}, false},
		{"strict: the last queen at the end of the stock", layoutSpec{piles: []string{"QC KC", "QD KD", "QH KH", "KS"}, stockEnd: "QS"}, false},
		{"strict: one queen as the starting waste card", layoutSpec{piles: []string{"QC KC", "QD KD", "QH KH", "KS"}, start: "QS"}, false},
		{"strict: one queen free on the tableau", layoutSpec{piles: []string{"QC KC", "QD KD", "QH KH", "KS", "QS"}}, false},
		{"strict: a queen over a king does not block", layoutSpec{piles: []string{"QC KC", "QD KD", "QH KH", "KS QS"}}, false},
		{"queen-on-king: every queen under a king", layoutSpec{opts: qok, piles: queensUnderKings}, true},
		{"queen-on-king: one queen in the stock", layoutSpec{opts: qok, piles: []string{"QC KC", "QD KD", "QH KH", "KS"}, stock: "QS"}, false},
		{"wrap: queens under kings is not enough, aces let kings go", layoutSpec{opts: wrap, piles: queensUnderKings}, false},
		{"wrap: every queen and every ace under a king", layoutSpec{opts: wrap, piles: []string{"AC QC KC", "AD QD KD", "AH QH KH", "AS QS KS"}}, true},
		{"wrap: one ace free", layoutSpec{opts: wrap, piles: []string{"AC QC KC", "AD QD KD", "AH QH KH", "QS KS", "AS"}}, false},
		{"jokers: a joker in the stock makes everything possible", layoutSpec{opts: joker1, piles: queensUnderKings, stock: "JK"}, false},
		{"jokers: a free joker on the tableau makes everything possible", layoutSpec{opts: joker1, piles: append([]string{"JK"}, queensUnderKings...)}, false},
		{"jokers: a joker buried under a king helps no king", layoutSpec{opts: joker1, piles: []string{"QC KC", "QD KD", "QH KH", "QS JK KS"}}, true},
		{"strict: every 2 under an ace (aces take only a 2)", layoutSpec{piles: []string{"2C AC", "2D AD", "2H AH", "2S AS"}}, true},
		{"queen-on-king: every 2 under an ace", layoutSpec{opts: qok, piles: []string{"2C AC", "2D AD", "2H AH", "2S AS"}}, true},
		{"wrap: every 2 under an ace, but an ace goes on a king", layoutSpec{opts: wrap, piles: []string{"2C AC", "2D AD", "2H AH", "2S AS"}}, false},
		{"freeStart: a free king may start the empty waste", layoutSpec{opts: freeStart, piles: queensUnderKings}, false},
		{"freeStart: kings not free at the start cannot", layoutSpec{opts: freeStart, piles: []string{"QC KC 2C", "QD KD 2D", "QH KH 2H", "QS KS 2S"}}, true},
		{"black-hole: every 7 over all the 6s and 8s", layoutSpec{game: BlackHole, piles: []string{"6C 8C 7C", "6D 8D 7D", "6H 8H 7H", "6S 8S 7S"}}, true},
		{"black-hole: one 8 elsewhere", layoutSpec{game: BlackHole, piles: []string{"6C 8C 7C", "6D 8D 7D", "6H 8H 7H", "6S 2C 7S", "8S"}}, false},
		{"all-in-a-row: every 7 over all the 6s and 8s, none free at the start", layoutSpec{game: AllInARow, piles: []string{"6C 8C 7C 2C", "6D 8D 7D 2D", "6H 8H 7H 2H", "6S 8S 7S 2S"}}, true},
		{"all-in-a-row: a 7 free at the start may start the foundation", layoutSpec{game: AllInARow, piles: []string{"6C 8C 7C 2C", "6D 8D 7D 2D", "6H 8H 7H 2H", "6S 8S . 7S"}}, false},
		{"tripeaks strict: queens under kings in the bottom row", layoutSpec{game: TriPeaks, opts: map[string]any{"kings": "strict"}, piles: peaks(map[int]string{10: "QC", 19: "KC", 20: "KD", 11: "QD", 21: "KH", 12: "QH", 22: "KS", 13: "QS"})}, true},
		{"tripeaks wrap: the same layout, aces free", layoutSpec{game: TriPeaks, piles: peaks(map[int]string{10: "QC", 19: "KC", 20: "KD", 11: "QD", 21: "KH", 12: "QH", 22: "KS", 13: "QS"})}, false},
		{"a random-looking deal with every card reachable", layoutSpec{piles: []string{"6C"}, start: "5D"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			sp := tt.spec
			if sp.game == "" {
				sp.game = GolfGame
			}
			d := build(t, sp)
			if got := d.Unclearable(); got != tt.want {
				t.Fatalf("Unclearable() = %v, want %v", got, tt.want)
			}
			if tt.want {
				// Truly unclearable: no stock order and no play clears it,
				// and no card outside the playable set is ever played.
				checkSound(t, &d, rand.New(rand.NewPCG(7, uint64(len(tt.name)))), 200)
			}
		})
	}
}

// reorderStock returns the deal with its stock and starting waste card put
// in a random order.
func reorderStock(t testing.TB, d *Deal, r *rand.Rand) Deal {
	t.Helper()
	if !d.Variant.hasStock() {
		return *d
	}
	cs := d.Stock()
	if d.Start() != NoCard {
		cs = append(cs, d.Start())
	}
	r.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
	start := NoCard
	if !d.Variant.Options.FreeStart {
		start, cs = cs[0], cs[1:]
	}
	nd, err := DealFromCards(d.Variant, d.Tableau(), cs, start)
	if err != nil {
		t.Fatal(err)
	}
	return nd
}

// checkSound plays the deal many times, with its stock reordered and with
// random or greedy play, and checks that no card outside the check's
// playable set is ever played (so a deal it calls unclearable is never
// cleared).
func checkSound(t *testing.T, d *Deal, r *rand.Rand, tries int) {
	t.Helper()
	playable := d.playable()
	var legal []Move
	for range tries {
		nd := reorderStock(t, d, r)
		if nd.playable() != playable {
			t.Fatalf("the playable set depends on the stock order")
		}
		s := NewState(&nd)
		greedy := r.IntN(2) == 0
		for !s.Over() {
			legal = s.AppendLegal(legal[:0])
			m := legal[r.IntN(len(legal))]
			if greedy && legal[0].Action == Play {
				m = legal[r.IntN(len(legal))]
				if m.Action != Play {
					m = legal[0]
				}
			}
			if err := s.Apply(m); err != nil {
				t.Fatal(err)
			}
			if played := d.layout.all &^ s.PresentSet(); played&^playable != 0 {
				t.Fatalf("played position %d, which the check says can never be played", bits.TrailingZeros64(played&^playable))
			}
		}
		if s.Cleared() && d.Unclearable() {
			t.Fatalf("cleared a deal marked unclearable: %v", s.Record())
		}
	}
}

// TestUnclearableSound is the cheap soundness check on random deals. Every
// deal, marked or not, is played with reordered stocks and random or greedy
// play, and no card outside the playable set may ever be played; then deals
// marked unclearable, found by scanning many seeds, get many more tries.
func TestUnclearableSound(t *testing.T) {
	propertyCheck(t)
	t.Parallel()
	deals, scan, maxMarked, tries := 300, 20000, 12, 40
	if testing.Short() {
		deals, scan, maxMarked, tries = 60, 3000, 4, 10
	}
	variants := []Variant{
		DefaultVariant(),
		mustVariant(t, GolfGame, qok),
		mustVariant(t, GolfGame, wrap),
		mustVariant(t, GolfGame, freeStart),
		mustVariant(t, GolfGame, map[string]any{"columns": 6, "redeals": 1}),
		mustVariant(t, GolfGame, joker1),
		mustVariant(t, DoubleGolf, nil),
		mustVariant(t, BlackHole, nil),
		mustVariant(t, AllInARow, nil),
		mustVariant(t, TriPeaks, map[string]any{"kings": "strict"}),
		mustVariant(t, PyramidGolf, map[string]any{"kings": "queen-on-king"}),
	}
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(11, uint64(len(v.String()))))
			for n := range deals {
				d := NewDeal(v, NumberedSeed(n))
				checkSound(t, &d, r, 2)
			}
			marked := 0
			for n := 0; n < scan && marked < maxMarked; n++ {
				d := NewDeal(v, NumberedSeed(n))
				if d.Unclearable() {
					marked++
					checkSound(t, &d, r, tries)
				}
			}
			t.Logf("%d deals marked unclearable in the first %d seeds (or fewer)", marked, scan)
		})
	}
}
