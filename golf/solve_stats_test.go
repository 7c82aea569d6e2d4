package golf

import (
	"os"
	"sort"
	"testing"
	"time"
)

func TestSolveStats(t *testing.T) {
	g := os.Getenv("SOLVE_STATS")
	if g == "" {
		t.Skip()
	}
	v, _ := NewVariant(g, nil)
	var s Solver
	var ts []time.Duration
	var cn, un, cc, uc int64
	for n := 1; n <= 200; n++ {
		d := NewDeal(v, NumberedSeed(n))
		t0 := time.Now()
		sol := s.Solve(&d, &SolveOptions{MaxNodes: 50_000_000})
		ts = append(ts, time.Since(t0))
		if sol.Cleared {
			cn += sol.Nodes
			cc++
		} else {
			un += sol.Nodes
			uc++
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	t.Logf("cleared %d mean nodes %d; uncleared %d mean nodes %d; median %v p99 %v max %v", cc, cn/max(cc, 1), uc, un/max(uc, 1), ts[100], ts[197], ts[199])
}
