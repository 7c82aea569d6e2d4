package golf

import (
	"math/rand/v2"
	"testing"
)

// TestSolveKeep: a solver that keeps its table (SolveOptions.Keep)
// through the positions of one game, before and after stock turns, finds
// the same exact values as a fresh solver, and solving a position again
// costs next to nothing; a position of another deal, or with the stock in
// another order, starts the table again.
func TestSolveKeep(t *testing.T) {
	t.Parallel()
	var first, repeat int64
	for n := 1; n <= 4; n++ {
		d := NewDeal(DefaultVariant(), NumberedSeed(n))
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		st := NewState(&d)
		var kept Solver
		opt := &SolveOptions{MaxNodes: 20000, Keep: true}
		for !st.Over() {
			for _, m := range st.Legal() {
				c := st.Clone()
				_ = c.Apply(m)
				var fresh Solver
				a := kept.SolveState(c, opt)
				b := fresh.SolveState(c, &SolveOptions{MaxNodes: 20000})
				if a.Exact && b.Exact && a.Best != b.Best {
					t.Fatalf("deal %d after %v then %s: kept table says %d, fresh %d", n, st.Moves(), m, a.Best, b.Best)
				}
				if a.Exact {
					again := kept.SolveState(c, opt)
					if !again.Exact || again.Best != a.Best {
						t.Fatalf("deal %d: solving again: %d (exact %v), first %d", n, again.Best, again.Exact, a.Best)
					}
					first += a.Nodes
					repeat += again.Nodes
				}
			}
			legal := st.Legal()
			_ = st.Apply(legal[rng.IntN(len(legal))])
		}
	}
	if repeat*4 > first {
		t.Errorf("solving exact positions again took %d nodes, the first time %d", repeat, first)
	}
	// Another stock order: the table starts again (the same answer as a
	// fresh solver, with as many nodes).
	d := NewDeal(DefaultVariant(), NumberedSeed(4))
	st := NewState(&d)
	var kept, fresh Solver
	opt := &SolveOptions{MaxNodes: 20000, Keep: true}
	kept.SolveState(st, opt)
	stock := st.Stock()
	stock[0], stock[len(stock)-1] = stock[len(stock)-1], stock[0]
	other, err := st.WithStock(stock)
	if err != nil {
		t.Fatal(err)
	}
	a, b := kept.SolveState(other, opt), fresh.SolveState(other, &SolveOptions{MaxNodes: 20000})
	if a.Best != b.Best || a.Exact != b.Exact || a.Nodes != b.Nodes {
		t.Fatalf("another stock order: kept %d (%v, %d nodes), fresh %d (%v, %d nodes)", a.Best, a.Exact, a.Nodes, b.Best, b.Exact, b.Nodes)
	}
}

// TestSolveYields: a long solve lets the other goroutines run every
// yieldEvery nodes (on a server's only core, a solve would otherwise hold
// it for the scheduler's whole slice while connections wait).
func TestSolveYields(t *testing.T) {
	t.Parallel()
	var s Solver
	d := NewDeal(Variant{}, Seed{7})
	sol := s.Solve(&d, &SolveOptions{MaxNodes: 5 * yieldEvery})
	if want := sol.Nodes / yieldEvery; sol.Nodes >= yieldEvery && s.yields < want {
		t.Errorf("%d nodes, %d yields: want %d", sol.Nodes, s.yields, want)
	}
	if sol.Nodes < yieldEvery {
		t.Fatalf("the deal took %d nodes: too few to check", sol.Nodes)
	}
}

// TestSolveYieldsAcrossSolves: the nodes between yields count across a
// solver's solves, so many small solves (a fair-play analysis's, a few
// hundred nodes each) yield as a long one does, through the options'
// Yield when it is set.
func TestSolveYieldsAcrossSolves(t *testing.T) {
	t.Parallel()
	d := NewDeal(Variant{}, Seed{7})
	st := NewState(&d)
	for range 12 { // into the hole: smaller solves
		if st.Over() {
			break
		}
		_ = st.Apply(st.Legal()[0])
	}
	var s Solver
	var hooked, total int64
	opt := &SolveOptions{MaxNodes: 20000, Yield: func() { hooked++ }}
	for range 300 {
		total += s.SolveState(st, opt).Nodes
	}
	if total < 4*yieldEvery {
		t.Fatalf("%d nodes in all: too few to check", total)
	}
	if want := total/yieldEvery - 1; hooked < want || s.yields != hooked {
		t.Errorf("%d nodes over 300 solves: the hook ran %d times (%d yields), want at least %d (since %d)", total, hooked, s.yields, want, s.sinceYield)
	}
}
