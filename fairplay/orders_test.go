package fairplay

import (
	"fmt"
	"slices"
	"testing"

	"golfsolitaire/golf"
)

// TestSamplesEveryOrder: a segment is scored on K+1 orders, or, when its
// stock has no more orders than that, on each of them once.
func TestSamplesEveryOrder(t *testing.T) {
	t.Parallel()
	small := Config{Samples: 6}
	opening := Config{Samples: 24, OpeningSamples: 3, OpeningStock: 1}
	for _, c := range []struct {
		cfg         Config
		left, cards int
		want        int
	}{
		{DefaultConfig, 2, 20, 1},     // 2 orders
		{DefaultConfig, 3, 20, 5},     // 6
		{DefaultConfig, 4, 20, 23},    // 24 of 25
		{DefaultConfig, 5, 20, 24},    // 120: sampled
		{DefaultConfig, 7, 20, 24},    // thin: Samples
		{DefaultConfig, 7, 30, 3},     // the opening: OpeningSamples
		{DefaultConfig, 16, 35, 3},    //
		{small, 3, 30, 5},             // 6 of 7
		{small, 4, 30, 6},             // 24: sampled
		{Config{}, 2, 30, 1},          // K 1 at least: 2 orders
		{Config{Samples: 1}, 3, 0, 1}, //
		{opening, 2, 30, 1},           // 2 orders, fewer than the opening's 4
	} {
		if got := c.cfg.samples(c.left, c.cards); got != c.want {
			t.Errorf("%+v.samples(%d, %d) = %d, want %d", c.cfg, c.left, c.cards, got, c.want)
		}
	}
}

// TestEveryOrder: every order of the stock once, the real one last, and
// the same orders whichever is the real one (so the real order is one
// more of them, as likely as any for an honest player). With two decks'
// cards alike, every order as often as any other.
func TestEveryOrder(t *testing.T) {
	t.Parallel()
	cards := func(s ...golf.Card) []golf.Card { return s }
	key := func(o []golf.Card) string { return fmt.Sprint(o) }
	for _, canon := range [][]golf.Card{cards(1, 2), cards(1, 2, 3), cards(4, 9, 20, 33), cards(5, 5, 7)} {
		var first []string
		for _, real := range everyOrder(canon, canon) {
			got := everyOrder(canon, real)
			if n := orderCount(len(canon), 1<<20); len(got) != n {
				t.Fatalf("everyOrder(%v, %v): %d orders, want %d", canon, real, len(got), n)
			}
			if !slices.Equal(got[len(got)-1], real) {
				t.Fatalf("everyOrder(%v, %v) ends with %v, want the real order", canon, real, got[len(got)-1])
			}
			count := map[string]int{}
			var keys []string
			for _, o := range got {
				s := slices.Clone(o)
				slices.Sort(s)
				if !slices.Equal(s, canon) {
					t.Fatalf("everyOrder(%v, %v) has %v, not an order of the stock", canon, real, o)
				}
				count[key(o)]++
				keys = append(keys, key(o))
			}
			for o, n := range count {
				if n != len(got)/len(count) {
					t.Fatalf("everyOrder(%v, %v): %s %d times of %d, not as often as the others", canon, real, o, n, len(got))
				}
			}
			slices.Sort(keys)
			if first == nil {
				first = keys
			} else if !slices.Equal(keys, first) {
				t.Fatalf("everyOrder(%v, %v) is not the same orders as with another real one", canon, real)
			}
		}
	}
}

// TestOrdersForShortStock: the analysis scores a stretch with 3 cards in
// the stock on their 6 orders, each once, the real one last.
func TestOrdersForShortStock(t *testing.T) {
	t.Parallel()
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(7))
	st := golf.NewState(&d)
	for st.StockLeft() > 3 {
		if err := st.Apply(golf.TurnMove); err != nil {
			t.Fatal(err)
		}
	}
	k := DefaultConfig.samples(st.StockLeft(), st.CardsLeft())
	orders := newAnalyser(&d, DefaultConfig).ordersFor(st, k)
	seen := map[string]bool{}
	for _, o := range orders {
		seen[fmt.Sprint(o)] = true
	}
	if k != 5 || len(orders) != 6 || len(seen) != 6 || !slices.Equal(orders[5], st.Stock()) {
		t.Fatalf("K %d, %d orders (%d different), the last %v: want 6 different orders, the real one (%v) last", k, len(orders), len(seen), orders[len(orders)-1], st.Stock())
	}
}
