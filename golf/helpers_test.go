package golf

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// mustVariant builds a variant from a game and options by name.
func mustVariant(t testing.TB, game Game, opts map[string]any) Variant {
	t.Helper()
	v, err := NewVariant(string(game), opts)
	if err != nil {
		t.Fatalf("NewVariant(%s, %v): %v", game, opts, err)
	}
	return v
}

// layoutSpec describes a hand-made deal. In piles, each string lists a
// pile's cards deepest first, "." standing for a filler; a pile given
// shorter than the layout's depth is padded with fillers at the deep end, so
// "KS" alone is a column whose free card is the king of spades. Missing piles
// are all fillers. stock lists the first stock cards in turn order; fillers
// follow. start is the starting waste or foundation card; left empty it is a
// filler when the game needs one. Fillers are the unused cards of the pack in
// pack order (clubs A-K, diamonds, hearts, spades, jokers).
type layoutSpec struct {
	game  Game
	opts  map[string]any
	piles []string
	stock string
	// stockEnd lists the last stock cards, after the fillers.
	stockEnd string
	start    string
}

// build makes the deal a layoutSpec describes, with DealFromCards.
func build(t testing.TB, sp layoutSpec) Deal {
	t.Helper()
	v := mustVariant(t, sp.game, sp.opts)
	l := v.Layout()
	var packCards [maxPack]Card
	unused := slices.Clone(packCards[:pack(&packCards, v)])
	take := func(c Card) {
		t.Helper()
		i := slices.Index(unused, c)
		if i < 0 {
			t.Fatalf("build: %s used twice or not in the pack", c)
		}
		unused = slices.Delete(unused, i, i+1)
	}
	parse := func(s string) []Card {
		t.Helper()
		var out []Card
		for _, f := range strings.Fields(s) {
			if f == "." {
				out = append(out, NoCard)
				continue
			}
			c, err := ParseCard(f)
			if err != nil {
				t.Fatal(err)
			}
			take(c)
			out = append(out, c)
		}
		return out
	}
	piles := make([][]Card, l.Piles())
	for i := range piles {
		size := 0
		for p := 0; p < l.Positions; p++ {
			if l.PileOf(p) == i {
				size++
			}
		}
		var given []Card
		if i < len(sp.piles) {
			given = parse(sp.piles[i])
		}
		if len(given) > size {
			t.Fatalf("build: pile %d has %d cards, room for %d", i+1, len(given), size)
		}
		piles[i] = append(make([]Card, size-len(given)), given...)
	}
	if len(sp.piles) > len(piles) {
		t.Fatalf("build: %d piles given, %s has %d", len(sp.piles), sp.game, len(piles))
	}
	stock := parse(sp.stock)
	stockEnd := parse(sp.stockEnd)
	start := NoCard
	needStart := sp.game == BlackHole || (v.hasStock() && !v.Options.FreeStart)
	if sp.start == "" && sp.game == BlackHole {
		sp.start = "AS"
	}
	if sp.start != "" {
		start = parse(sp.start)[0]
	}
	fill := func(c *Card) {
		if *c == NoCard {
			*c = unused[0]
			unused = unused[1:]
		}
	}
	for _, p := range piles {
		for j := range p {
			fill(&p[j])
		}
	}
	if needStart {
		fill(&start)
	}
	for i := range stock {
		fill(&stock[i])
	}
	if v.hasStock() {
		stock = append(append(stock, unused...), stockEnd...)
	} else if len(stockEnd) > 0 {
		t.Fatalf("build: %s has no stock", sp.game)
	}
	d, err := DealFromCards(v, piles, stock, start)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	return d
}

// peaks returns the 28 one-card piles of a TriPeaks or Pyramid Golf spec
// from a map of 1-based position to card.
func peaks(at map[int]string) []string {
	out := make([]string, 28)
	for p, c := range at {
		out[p-1] = c
	}
	return out
}

// moves parses space-separated moves or fails the test.
func moves(t testing.TB, s string) []Move {
	t.Helper()
	var out []Move
	for _, f := range strings.Fields(s) {
		m, err := ParseMove(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

// applyAll applies moves that must all be legal.
func applyAll(t testing.TB, s *State, ms []Move) {
	t.Helper()
	for i, m := range ms {
		if err := s.Apply(m); err != nil {
			t.Fatalf("setup move %d (%s): %v", i+1, m, err)
		}
	}
}

// snapshot is everything about a game that matters for its future: the
// cards still on the tableau, the waste, the stock left, the redeals left
// and the moves made. Two states with equal snapshots play alike.
type snapshot struct {
	Present uint64
	Waste   []Card
	Stock   []Card
	Redeals int
	Moves   []Move
}

func snap(s *State) snapshot {
	return snapshot{s.PresentSet(), s.Waste(), s.Stock(), s.RedealsLeft(), slices.Clone(s.Moves())}
}

func (a snapshot) equal(b snapshot) bool { return reflect.DeepEqual(a, b) }

// rawState is a full copy of a state's memory, for checking that an illegal
// move changes nothing at all.
func rawState(s *State) State {
	c := *s
	c.moves = slices.Clone(s.moves)
	return c
}

// wantErr checks err against a sentinel (nil for none) and, for a move
// error, that it is a *MoveError.
func wantErr(t testing.TB, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("got error %v, want none", err)
	case want != nil && !errors.Is(err, want):
		t.Fatalf("got error %v, want %v", err, want)
	case want != nil:
		var me *MoveError
		if !errors.As(err, &me) {
			t.Fatalf("error %v (%T) is not a *MoveError", err, err)
		}
	}
}

func reflectEqualState(a, b State) bool { return reflect.DeepEqual(a, b) }

// propertyCheck skips, under -race, a property check of pure code at full
// size: the solver, its bounds, hints and ratings at production budgets,
// the rules against the reference model, the unclearable check. The race
// detector makes them some thirty times slower (minutes of the suite) and
// finds nothing in them: they run on the test's goroutine. `go test -race
// ./...` skips them, loudly; .ci/run runs them in their own step, without
// -race: go test ./golf/ ./match/
func propertyCheck(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("PROPERTY CHECK SKIPPED under -race: run it with go test ./golf/ ./match/ (without -race; .ci/run does, in its own step)")
	}
}

// heavy scales the size of a solver-heavy property check: under -short it
// checks a fifth of its sample.
func heavy(n int) int {
	if testing.Short() {
		return max(1, n/5)
	}
	return n
}
