package golf

import (
	"testing"
	"time"
)

func TestSolveQuick(t *testing.T) {
	for _, g := range []string{"golf", "black-hole", "all-in-a-row", "tripeaks", "pyramid-golf", "double-golf"} {
		v, _ := NewVariant(g, nil)
		var tot time.Duration
		var nodes int64
		wins := 0
		for n := 1; n <= 50; n++ {
			d := NewDeal(v, NumberedSeed(n))
			t0 := time.Now()
			sol := Solve(&d, &SolveOptions{MaxNodes: 20_000_000})
			tot += time.Since(t0)
			nodes += sol.Nodes
			if sol.Cleared {
				wins++
			}
			st, err := sol.Record(&d).Replay()
			if err != nil || st.Score() != sol.Best || !st.Over() {
				t.Fatalf("%s %d: replay %v score %d best %d", g, n, err, st.Score(), sol.Best)
			}
			if !sol.Exact {
				t.Logf("%s %d: inexact", g, n)
			}
		}
		t.Logf("%s: wins %d/50 mean %v nodes %d", g, wins, tot/50, nodes/50)
	}
}
