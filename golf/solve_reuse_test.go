package golf

import "testing"

// TestSolverReuse: a solver reused across deals, games and kings rules
// (as the servers' pools and the fair-play analysis reuse theirs) finds
// what a fresh solver finds, node for node: nothing it builds for one
// deal (the rank tables are built once for a deal's solves) leaks into
// the next. The same seeds under each kings rule have the same tableau
// ranks, so a table kept across rules would show.
func TestSolverReuse(t *testing.T) {
	t.Parallel()
	type game struct {
		name string
		opts map[string]any
	}
	games := []game{
		{"golf", nil}, {"golf", map[string]any{"kings": "wrap"}}, {"golf", map[string]any{"kings": "queen-on-king"}},
		{"black-hole", nil}, {"tripeaks", nil}, {"pyramid-golf", nil}, {"golf", nil},
	}
	var reused Solver
	for round := range 2 {
		for seed := 1; seed <= 6; seed++ {
			for _, g := range games {
				v, err := NewVariant(g.name, g.opts)
				if err != nil {
					t.Fatal(err)
				}
				d := NewDeal(v, NumberedSeed(seed))
				opt := &SolveOptions{MaxNodes: 20_000}
				var fresh Solver
				want, got := fresh.Solve(&d, opt), reused.Solve(&d, opt)
				if got.Best != want.Best || got.Exact != want.Exact || got.Nodes != want.Nodes {
					t.Errorf("round %d, %s %v seed %d: reused solver best %d exact %v in %d nodes, a fresh one %d %v in %d",
						round, g.name, g.opts, seed, got.Best, got.Exact, got.Nodes, want.Best, want.Exact, want.Nodes)
				}
			}
		}
	}
}
