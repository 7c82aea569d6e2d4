package cli

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"

	"golfsolitaire/golf"
)

// runSolve solves one deal (printing the best score and a line reaching
// it) or, with --count, many numbered deals (printing statistics).
func runSolve(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	f := newDealFlags(fs)
	nodes := fs.Int64("nodes", 50_000_000, "node budget per deal (0: none)")
	timeout := fs.Duration("timeout", 10*time.Second, "time budget per deal (0: none)")
	count := fs.Int("count", 0, "solve this many numbered deals from --number (default 1) and print statistics")
	workers := fs.Int("workers", runtime.NumCPU(), "deals solved at once with --count")
	reorder := fs.Int("reorder", 3, "with --count, also solve this many random reorderings of the stock (and starting waste card) "+
		"of each deal Deal.Unclearable rejects (games without a stock have none), seeded SHA-256(\"golf-reorder:N:K\") for reordering K of deal N (0: none); "+
		"the statistics' unclearableCheck reports them, and the command fails if the solver clears any rejected deal or reordering")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("solve: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	if *nodes < 0 || *timeout < 0 || *count < 0 || *reorder < 0 || *workers < 1 {
		return usageError("solve: --nodes, --timeout, --count and --reorder must not be negative, --workers at least 1")
	}
	budget := func() *golf.SolveOptions {
		o := &golf.SolveOptions{MaxNodes: *nodes}
		if *timeout > 0 {
			o.Deadline = time.Now().Add(*timeout)
		}
		return o
	}
	if *count == 0 {
		d, err := f.deal()
		if err != nil {
			return usageError("solve: %v", err)
		}
		t0 := time.Now()
		sol := golf.Solve(&d, budget())
		return writeJSON(e, solveOutput{
			Best: sol.Best, Cleared: sol.Cleared, Exact: sol.Exact, Nodes: sol.Nodes,
			Millis: msSince(t0), Moves: movesOrEmpty(sol.Moves), Record: sol.Record(&d),
		})
	}
	v, err := f.variant()
	if err != nil {
		return usageError("solve: %v", err)
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	if set["seed"] || set["round"] || set["hole"] {
		return usageError("solve: --count solves numbered deals: use --number, not --seed or --round")
	}
	first := f.number
	if !set["number"] {
		first = 1
	}
	st, err := solveMany(ctx, v, first, *count, *workers, *reorder, budget)
	if err != nil {
		return err
	}
	if err := writeJSON(e, st); err != nil {
		return err
	}
	return st.Unclearable.unsound()
}

type solveOutput struct {
	Best    int         `json:"best"`
	Cleared bool        `json:"cleared"`
	Exact   bool        `json:"exact"`
	Nodes   int64       `json:"nodes"`
	Millis  float64     `json:"ms"`
	Moves   []golf.Move `json:"moves"`
	Record  golf.Record `json:"record"`
}

func movesOrEmpty(m []golf.Move) []golf.Move {
	if m == nil {
		return []golf.Move{}
	}
	return m
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }

func writeJSON(e env, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(e.stdout, "%s\n", b)
	return err
}

// solveStats are the statistics of solving many deals.
type solveStats struct {
	Variant golf.Variant `json:"variant"`
	First   int          `json:"first"`
	Deals   int          `json:"deals"`
	Cleared int          `json:"cleared"`
	// Winnability is cleared/deals: the deals cleared with best play,
	// counting a budget-hit deal as cleared only if its line clears.
	Winnability float64    `json:"winnability"`
	CI95        [2]float64 `json:"ci95"` // Wilson score interval
	// Unknown is how many deals hit the node or time budget: their best
	// score is not proven (Exact false).
	Unknown int `json:"unknown"`
	// UnknownWins is how many budget-hit deals were still cleared (their
	// best score is not proven, their winnability is).
	UnknownWins int            `json:"unknownCleared"`
	Scores      map[string]int `json:"scores"` // best score -> deals (budget-hit deals included, as found)
	MeanScore   float64        `json:"meanScore"`
	TimeMs      timeStats      `json:"timeMs"`
	MeanNodes   float64        `json:"meanNodes"`
	MaxNodes    int64          `json:"maxNodes"`
	DealsPerSec float64        `json:"dealsPerSecond"`
	Workers     int            `json:"workers"`
	WallSeconds float64        `json:"wallSeconds"`
	// CPUMsPerDeal is the process's CPU time (user+system) per deal: on a
	// busy machine a fairer measure than the wall times above. It includes
	// the unclearable check's reorderings (none with --reorder 0); the
	// times and nodes above do not.
	CPUMsPerDeal float64 `json:"cpuMsPerDeal"`
	// Unclearable checks Deal.Unclearable (the rooms' skipUnclearable
	// option) against the solver on the same deals.
	Unclearable unclearableCheck `json:"unclearableCheck"`
}

// unclearableCheck tests the soundness of Deal.Unclearable: a deal it
// rejects must not be clearable under any order of its stock, so the
// solver must clear neither the deal nor any reordering of its stock and
// starting waste card. A budget-hit solve that did not clear is no
// counterexample, but no proof either: it is counted as unknown.
type unclearableCheck struct {
	// ReorderPerDeal is --reorder, the reorderings solved per rejected
	// deal, or 0 for games without a stock (black-hole, all-in-a-row):
	// they have nothing to reorder. Reorderings = Rejected * ReorderPerDeal.
	ReorderPerDeal int `json:"reorderPerDeal"`
	// Rejected is how many deals Deal.Unclearable rejected.
	Rejected int `json:"rejected"`
	// RejectedCleared is how many rejected deals the solver cleared (a
	// soundness error: must be 0); RejectedClearedDeals lists them.
	RejectedCleared      int   `json:"rejectedCleared"`
	RejectedClearedDeals []int `json:"rejectedClearedDeals"`
	// RejectedUnknown is how many rejected deals hit the budget uncleared.
	RejectedUnknown int `json:"rejectedUnknown"`
	// Reorderings is how many reorderings of rejected deals were solved.
	Reorderings int `json:"reorderings"`
	// ReorderedCleared is how many of them the solver cleared (a soundness
	// error: must be 0); ReorderedClearedDeals lists them.
	ReorderedCleared      int          `json:"reorderedCleared"`
	ReorderedClearedDeals []reordering `json:"reorderedClearedDeals"`
	// ReorderedUnknown is how many reorderings hit the budget uncleared.
	ReorderedUnknown int `json:"reorderedUnknown"`
}

// reordering names reordering K (1..--reorder) of numbered deal N: its
// stock and starting waste card shuffled with seed reorderSeed(N, K).
type reordering struct {
	Deal       int `json:"deal"`
	Reordering int `json:"reordering"`
}

// unsound returns an error (exit 1) if the solver cleared a deal or a
// reordering that Deal.Unclearable rejected.
func (c *unclearableCheck) unsound() error {
	if c.RejectedCleared == 0 && c.ReorderedCleared == 0 {
		return nil
	}
	return &exitError{code: 1, err: fmt.Errorf(
		"solve: Deal.Unclearable is unsound: the solver cleared %d rejected deals %v and %d reorderings of rejected deals %v",
		c.RejectedCleared, c.RejectedClearedDeals, c.ReorderedCleared, c.ReorderedClearedDeals)}
}

// reorderSeed is the seed of reordering k of numbered deal n:
// SHA-256("golf-reorder:" ‖ n ‖ ":" ‖ k), decimal.
func reorderSeed(n, k int) golf.Seed {
	return sha256.Sum256([]byte("golf-reorder:" + strconv.Itoa(n) + ":" + strconv.Itoa(k)))
}

// reorderStock returns the deal with the same tableau and its stock and
// starting waste card (if any) shuffled together by deals.md's shuffle
// keyed with seed; the first card becomes the waste card unless the deal
// starts with an empty waste. Deal.Unclearable assumes every such card
// available at any time, so its answer holds for every reordering.
func reorderStock(d *golf.Deal, seed golf.Seed) (golf.Deal, error) {
	cs := d.Stock()
	start := d.Start()
	if start != golf.NoCard {
		cs = append(cs, start)
	}
	golf.Shuffle(seed, cs)
	if start != golf.NoCard {
		start, cs = cs[0], cs[1:]
	}
	return golf.DealFromCards(d.Variant, d.Tableau(), cs, start)
}

type timeStats struct {
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

type solveResult struct {
	sol      golf.Solution
	ms       float64
	rejected bool // by Deal.Unclearable
	// The reorderings of a rejected deal: how many were solved, which (K)
	// the solver cleared, how many hit the budget uncleared.
	reorderings, reorderedUnknown int
	reorderedCleared              []int
	err                           error
}

// solveMany solves deals first..first+count-1 on workers goroutines and
// checks Deal.Unclearable against the solver, solving reorder reorderings
// of each rejected deal's stock.
func solveMany(ctx context.Context, v golf.Variant, first, count, workers, reorder int, budget func() *golf.SolveOptions) (*solveStats, error) {
	return solveManyCheck(ctx, v, first, count, workers, reorder, budget, (*golf.Deal).Unclearable)
}

// solveManyCheck is solveMany with the unclearable check as a parameter,
// so tests can see what an unsound check would report.
func solveManyCheck(ctx context.Context, v golf.Variant, first, count, workers, reorder int, budget func() *golf.SolveOptions, unclearable func(*golf.Deal) bool) (*solveStats, error) {
	if d := golf.NewDeal(v, golf.NumberedSeed(first)); len(d.Stock()) == 0 {
		reorder = 0 // no stock to reorder
	}
	cpu0 := cpuTime()
	results := make([]solveResult, count)
	jobs := make(chan int)
	var wg sync.WaitGroup
	t0 := time.Now()
	for w := 0; w < min(workers, count); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s golf.Solver
			for i := range jobs {
				results[i] = solveOne(&s, v, first+i, reorder, budget, unclearable)
			}
		}()
	}
	var err error
feed:
	for i := 0; i < count; i++ {
		select {
		case jobs <- i:
		case <-ctx.Done():
			err = ctx.Err()
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	wall := time.Since(t0).Seconds()
	st := &solveStats{Variant: v, First: first, Deals: count, Scores: map[string]int{}, Workers: min(workers, count), WallSeconds: wall}
	uc := &st.Unclearable
	uc.ReorderPerDeal = reorder
	uc.RejectedClearedDeals = []int{}
	uc.ReorderedClearedDeals = []reordering{}
	ms := make([]float64, count)
	var sumMs, sumScore, sumNodes float64
	for i, r := range results {
		if r.err != nil {
			return nil, r.err
		}
		if r.rejected {
			uc.add(r, first+i)
		}
		if r.sol.Cleared {
			st.Cleared++
		}
		if !r.sol.Exact {
			st.Unknown++
			if r.sol.Cleared {
				st.UnknownWins++
			}
		}
		st.Scores[strconv.Itoa(r.sol.Best)]++
		sumScore += float64(r.sol.Best)
		sumNodes += float64(r.sol.Nodes)
		st.MaxNodes = max(st.MaxNodes, r.sol.Nodes)
		ms[i] = r.ms
		sumMs += r.ms
	}
	sort.Float64s(ms)
	n := float64(count)
	st.Winnability = float64(st.Cleared) / n
	st.CI95 = wilson(st.Cleared, count, 1.959964)
	st.MeanScore = sumScore / n
	st.MeanNodes = sumNodes / n
	st.TimeMs = timeStats{Median: quantile(ms, 0.5), Mean: sumMs / n, P99: quantile(ms, 0.99), Max: ms[count-1]}
	st.DealsPerSec = n / wall
	st.CPUMsPerDeal = (cpuTime() - cpu0).Seconds() * 1000 / n
	return st, nil
}

// solveOne solves deal n and, when unclearable rejects it, reorder
// reorderings of its stock.
func solveOne(s *golf.Solver, v golf.Variant, n, reorder int, budget func() *golf.SolveOptions, unclearable func(*golf.Deal) bool) solveResult {
	d := golf.NewDeal(v, golf.NumberedSeed(n))
	t := time.Now()
	sol := s.Solve(&d, budget())
	r := solveResult{sol: sol, ms: msSince(t), rejected: unclearable(&d)}
	if !r.rejected {
		return r
	}
	for k := 1; k <= reorder; k++ {
		rd, err := reorderStock(&d, reorderSeed(n, k))
		if err != nil {
			r.err = fmt.Errorf("solve: reordering %d of deal %d: %w", k, n, err)
			break
		}
		rsol := s.Solve(&rd, budget())
		r.reorderings++
		if rsol.Cleared {
			r.reorderedCleared = append(r.reorderedCleared, k)
		} else if !rsol.Exact {
			r.reorderedUnknown++
		}
	}
	return r
}

// add counts a rejected deal's result.
func (uc *unclearableCheck) add(r solveResult, deal int) {
	uc.Rejected++
	if r.sol.Cleared {
		uc.RejectedCleared++
		uc.RejectedClearedDeals = append(uc.RejectedClearedDeals, deal)
	} else if !r.sol.Exact {
		uc.RejectedUnknown++
	}
	uc.Reorderings += r.reorderings
	uc.ReorderedUnknown += r.reorderedUnknown
	for _, k := range r.reorderedCleared {
		uc.ReorderedCleared++
		uc.ReorderedClearedDeals = append(uc.ReorderedClearedDeals, reordering{Deal: deal, Reordering: k})
	}
}

// wilson is the Wilson score interval for k successes in n trials.
func wilson(k, n int, z float64) [2]float64 {
	if n == 0 {
		return [2]float64{0, 1}
	}
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	c := (p + z*z/(2*nn)) / den
	h := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return [2]float64{math.Max(0, c-h), math.Min(1, c+h)}
}

// quantile of sorted values (nearest rank).
func quantile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted)))) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
