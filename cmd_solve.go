package main

import (
	"context"
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
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("solve: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	if *nodes < 0 || *timeout < 0 || *count < 0 || *workers < 1 {
		return usageError("solve: --nodes, --timeout and --count must not be negative, --workers at least 1")
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
	st, err := solveMany(ctx, v, first, *count, *workers, budget)
	if err != nil {
		return err
	}
	return writeJSON(e, st)
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
	Unknown     int        `json:"unknown"`
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
	// busy machine a fairer measure than the wall times above.
	CPUMsPerDeal float64 `json:"cpuMsPerDeal"`
}

type timeStats struct {
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
	P99    float64 `json:"p99"`
	Max    float64 `json:"max"`
}

type solveResult struct {
	sol golf.Solution
	ms  float64
}

func solveMany(ctx context.Context, v golf.Variant, first, count, workers int, budget func() *golf.SolveOptions) (*solveStats, error) {
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
				d := golf.NewDeal(v, golf.NumberedSeed(first+i))
				t := time.Now()
				sol := s.Solve(&d, budget())
				results[i] = solveResult{sol: sol, ms: msSince(t)}
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
	ms := make([]float64, count)
	var sumMs, sumScore, sumNodes float64
	for i, r := range results {
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
