package fairplay

import (
	"math/rand/v2"
	"slices"
	"testing"

	"golfsolitaire/golf"
)

// TestObvious: a decision the analysis skips as obvious loses nothing on
// any stock order: on the real order and on shuffled ones, the position
// after the move made scores what the position does (solved exactly).
// The rule does fire on real play, and never for a turn, a choice of
// three or a card something could still go on.
func TestObvious(t *testing.T) {
	t.Parallel()
	var fired, checked int
	var sv golf.Solver
	for n := 1; n <= 40; n++ {
		d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(n))
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		st := golf.NewState(&d)
		for !st.Over() {
			legal := st.Legal()
			m := legal[rng.IntN(len(legal))]
			if rng.IntN(3) > 0 {
				m = legal[0]
			}
			ob := obvious(st, legal, m)
			if ob && (len(legal) != 2 || m.Action != golf.Play) {
				t.Fatalf("deal %d: %v obvious among %v", n, m, legal)
			}
			if ob {
				fired++
				if st.CardsLeft() <= 22 {
					for k := range 3 {
						pos := st
						if k > 0 {
							o := st.Stock()
							rng.Shuffle(len(o), func(i, j int) { o[i], o[j] = o[j], o[i] })
							pos, _ = st.WithStock(o)
						}
						before := sv.SolveState(pos, &golf.SolveOptions{MaxNodes: 2_000_000})
						after := pos.Clone()
						_ = after.Apply(m)
						sol := sv.SolveState(after, &golf.SolveOptions{MaxNodes: 2_000_000})
						if !before.Exact || !sol.Exact {
							continue
						}
						checked++
						if sol.Best != before.Best {
							t.Fatalf("deal %d, order %d: %v scores %d, the position %d", n, k, m, sol.Best, before.Best)
						}
					}
				}
			}
			_ = st.Apply(m)
		}
	}
	if fired < 20 || checked < 20 {
		t.Fatalf("the rule fired %d times, checked %d: too few to tell", fired, checked)
	}
	t.Logf("fired %d, checked %d", fired, checked)
	// A card something could still go on is never obvious.
	d := golf.NewDeal(golf.DefaultVariant(), golf.NumberedSeed(1))
	st := golf.NewState(&d)
	for _, m := range st.Legal() {
		c, _ := st.PileCard(int(m.Pile))
		if m.Action != golf.Play || !slices.ContainsFunc(st.Piles(), func(p []golf.Card) bool {
			return slices.ContainsFunc(p, func(x golf.Card) bool { return x != golf.NoCard && x != c && d.Variant.Fits(c, x) })
		}) {
			continue
		}
		if obvious(st, []golf.Move{m, golf.TurnMove}, m) {
			t.Errorf("%v obvious though a card left may go on it", m)
		}
	}
}
