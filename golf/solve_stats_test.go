package golf

import (
	"os"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSolveStats (SOLVE_STATS=game [SOLVE_KINGS=k] [SOLVE_DEALS=n]) prints
// node and time statistics of solving numbered deals, and the slowest.
func TestSolveStats(t *testing.T) {
	g := os.Getenv("SOLVE_STATS")
	if g == "" {
		t.Skip()
	}
	opts := map[string]any{}
	if k := os.Getenv("SOLVE_KINGS"); k != "" {
		opts["kings"] = k
	}
	deals := 200
	if n, err := strconv.Atoi(os.Getenv("SOLVE_DEALS")); err == nil {
		deals = n
	}
	v, err := NewVariant(g, opts)
	if err != nil {
		t.Fatal(err)
	}
	type res struct {
		n     int
		t     time.Duration
		nodes int64
		best  int
		exact bool
	}
	var s Solver
	var rs []res
	var cn, un, cc, uc int64
	var total time.Duration
	cpu0 := cpuNow()
	list := []int{}
	for _, f := range strings.Fields(os.Getenv("SOLVE_LIST")) {
		n, _ := strconv.Atoi(f)
		list = append(list, n)
	}
	if len(list) == 0 {
		for n := 1; n <= deals; n++ {
			list = append(list, n)
		}
	}
	deals = len(list)
	for _, n := range list {
		d := NewDeal(v, NumberedSeed(n))
		t0 := time.Now()
		sol := s.Solve(&d, &SolveOptions{MaxNodes: 50_000_000, Deadline: time.Now().Add(10 * time.Second)})
		el := time.Since(t0)
		total += el
		rs = append(rs, res{n, el, sol.Nodes, sol.Best, sol.Exact})
		if sol.Cleared {
			cn += sol.Nodes
			cc++
		} else {
			un += sol.Nodes
			uc++
		}
	}
	cpu := cpuNow() - cpu0
	sort.Slice(rs, func(i, j int) bool { return rs[i].t < rs[j].t })
	k := len(rs)
	t.Logf("cpu per deal %v", cpu/time.Duration(deals))
	t.Logf("cleared %d mean nodes %d; uncleared %d mean nodes %d; mean %v median %v p99 %v max %v", cc, cn/max(cc, 1), uc, un/max(uc, 1), total/time.Duration(k), rs[k/2].t, rs[(k*99+99)/100-1].t, rs[k-1].t)
	for _, r := range rs[max(0, k-8):] {
		t.Logf("deal %d: %v nodes %d best %d exact %v", r.n, r.t, r.nodes, r.best, r.exact)
	}
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
