package golf

import (
	"slices"
	"testing"
)

func TestWithStockAndSolveState(t *testing.T) {
	t.Parallel()
	d := NewDeal(DefaultVariant(), NumberedSeed(4))
	st := NewState(&d)
	opt := &SolveOptions{MaxNodes: 200_000}
	var sv Solver
	if a, b := sv.SolveState(st, opt), Solve(&d, opt); a.Best != b.Best || a.Exact != b.Exact {
		t.Fatalf("SolveState at the start %+v, Solve %+v", a.Best, b.Best)
	}
	_ = st.Apply(TurnMove)
	rev := st.Stock()
	slices.Reverse(rev)
	c, err := st.WithStock(rev)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Stock(), rev) || !slices.Equal(c.Moves(), st.Moves()) || c.WasteTop() != st.WasteTop() {
		t.Fatalf("WithStock: stock %v moves %v", c.Stock(), c.Moves())
	}
	if st.Stock()[0] == rev[0] {
		t.Fatal("WithStock changed the original")
	}
	for _, bad := range [][]Card{rev[1:], append(slices.Clone(rev[1:]), Joker)} {
		if _, err := st.WithStock(bad); err == nil {
			t.Errorf("WithStock(%v) accepted", bad)
		}
	}
	if st.StockKnown() {
		t.Error("a fresh stock reads as known")
	}
}
