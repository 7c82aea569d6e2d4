package golf

import "testing"

// golfWalk is a line of ranks that strict Golf can play in one run from a
// waste 2: up from the ace to the queen, down to the ace, up to the queen
// again and a king last (nothing goes on a king). No rank is used more than
// four times, counting the starting 2.
func golfWalk(n int) []int {
	var w []int
	for r := 1; r <= 12; r++ {
		w = append(w, r)
	}
	for r := 11; r >= 1; r-- {
		w = append(w, r)
	}
	for r := 2; r <= 12; r++ {
		w = append(w, r)
	}
	w = append(w, 13)
	return w[:n]
}

// wrapWalk goes round and round the ranks from first: first, first+1, ...,
// K, A, 2, ...: a line for the wraparound games.
func wrapWalk(first, n int) []int {
	w := make([]int, n)
	for i := range w {
		w[i] = (first-1+i)%13 + 1
	}
	return w
}

// walkDeal builds a deal that can be played out in one line: the walk's
// ranks, pile by pile, each pile's free card first. launch is the card the
// line starts on: the starting waste card, or the turns-th stock card when
// turns > 0 (the start is then a king, which no walk starts next to), or the
// foundation for Black Hole. It returns the deal and the clearing line:
// turns stock turns, then the piles in order.
func walkDeal(t testing.TB, v Variant, walk []int, launch Card, turns int) (Deal, []Move) {
	t.Helper()
	l := v.Layout()
	if len(walk) != l.Positions {
		t.Fatalf("walkDeal: walk of %d for %d positions", len(walk), l.Positions)
	}
	var packCards [maxPack]Card
	n := pack(&packCards, v)
	used := map[Card]int{}
	var want = map[Card]int{}
	for _, c := range packCards[:n] {
		want[c]++
	}
	takeRank := func(r int) Card {
		for s := Clubs; s <= Spades; s++ {
			c := NewCard(r, s)
			if used[c] < want[c] {
				used[c]++
				return c
			}
		}
		t.Fatalf("walkDeal: no %d left", r)
		return NoCard
	}
	if launch != NoCard {
		used[launch]++
	}
	line := make([]Card, len(walk))
	for i, r := range walk {
		line[i] = takeRank(r)
	}
	piles := make([][]Card, l.Piles())
	var ms []Move
	for range turns {
		ms = append(ms, TurnMove)
	}
	for i := range piles {
		for j := range l.Rows {
			piles[i] = append([]Card{line[i*l.Rows+j]}, piles[i]...)
			ms = append(ms, PlayPile(i+1))
		}
	}
	var rest []Card
	for _, c := range packCards[:n] {
		if used[c] < want[c] {
			used[c]++
			rest = append(rest, c)
		}
	}
	start := NoCard
	var stock []Card
	switch {
	case v.Game == BlackHole:
		start = launch
	case !v.hasStock():
	case turns > 0:
		if !v.Options.FreeStart {
			for i, c := range rest {
				if c.Rank() == King {
					start = c
					rest = append(rest[:i:i], rest[i+1:]...)
					break
				}
			}
		}
		stock = append(append(append(stock, rest[:turns-1]...), launch), rest[turns-1:]...)
	default:
		if !v.Options.FreeStart {
			start = launch
		} else if launch != NoCard {
			rest = append([]Card{launch}, rest...)
		}
		stock = rest
	}
	d, err := DealFromCards(v, piles, stock, start)
	if err != nil {
		t.Fatalf("walkDeal: %v", err)
	}
	return d, ms
}

func movesString(ms []Move) string {
	s := ""
	for i, m := range ms {
		if i > 0 {
			s += " "
		}
		s += m.String()
	}
	return s
}

func TestWalkDealsClear(t *testing.T) {
	t.Parallel()
	two := NewCard(2, Diamonds)
	tests := []struct {
		name   string
		v      Variant
		walk   []int
		launch Card
		turns  int
	}{
		{"golf", DefaultVariant(), golfWalk(35), two, 0},
		{"golf after 12 turns", DefaultVariant(), golfWalk(35), two, 12},
		{"golf 6 columns", mustVariant(t, GolfGame, map[string]any{"columns": 6}), golfWalk(30), two, 0},
		{"golf free start", mustVariant(t, GolfGame, map[string]any{"freeStart": true}), golfWalk(35), NoCard, 0},
		{"black hole", mustVariant(t, BlackHole, nil), wrapWalk(2, 51), NewCard(Ace, Spades), 0},
		{"all in a row", mustVariant(t, AllInARow, nil), wrapWalk(1, 52), NoCard, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d, line := walkDeal(t, tt.v, tt.walk, tt.launch, tt.turns)
			s := NewState(&d)
			for i, m := range line {
				if err := s.Apply(m); err != nil {
					t.Fatalf("move %d of %s: %v", i+1, movesString(line), err)
				}
			}
			if !s.Cleared() || !s.Over() {
				t.Fatalf("after the line: cleared %v, over %v", s.Cleared(), s.Over())
			}
		})
	}
}
