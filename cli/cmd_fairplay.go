package cli

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"golfsolitaire/accounts"
	"golfsolitaire/accounts/postgres"
	"golfsolitaire/fairplay"
	fpostgres "golfsolitaire/fairplay/postgres"
	"golfsolitaire/fairplay/sim"
	"golfsolitaire/golf"
	"golfsolitaire/server"
)

// runFairplay is `fairplay simulate|review`.
func runFairplay(ctx context.Context, args []string, e env) error {
	if len(args) == 0 {
		return usageError("fairplay: want a subcommand: simulate or review")
	}
	switch args[0] {
	case "simulate":
		return runFairplaySimulate(ctx, args[1:], e)
	case "review":
		return runFairplayReview(ctx, args[1:], e)
	}
	return usageError("fairplay: unknown subcommand %q (want simulate or review)", args[0])
}

// simPlayers are the simulated players, in output order.
var simPlayers = []sim.Player{
	{Kind: "random"}, {Kind: "greedy"}, {Kind: "search"},
	{Kind: sim.Clairvoyant, KnowsStock: 1}, {Kind: sim.Clairvoyant, KnowsStock: 0.5}, {Kind: sim.Clairvoyant, KnowsStock: 0.2},
}

// simResult is one line of the simulate output.
type simResult struct {
	Bot               string   `json:"bot"`
	KnowsStock        float64  `json:"knowsStock"`
	Rounds            int      `json:"rounds"`
	Flagged           int      `json:"flagged"`
	FlagRate          float64  `json:"flagRate"`
	MedianHolesToFlag *float64 `json:"medianHolesToFlag"`
	// Calibration: informative segments over all rounds, how many had the
	// least regret with the real stock, and how many honest play expects
	// (the sum of their P). For an honest bot least and expected agree
	// up to chance (standard deviation at most sqrt(segments)/2).
	Segments int     `json:"segments"`
	Least    int     `json:"least"`
	Expected float64 `json:"expected"`
	// Peaks are each round's peak score (sim.Round.Peak, nats, two
	// decimals), in the order the rounds finished: the flag rate under any
	// other bar is the share of peaks at or above it.
	Peaks []float64 `json:"peaks"`
}

// simCost is the detector's measured work.
type simCost struct {
	HolesAnalysed int     `json:"holesAnalysed"`
	CPUMsPerHole  float64 `json:"cpuMsPerHole"`
	SolvesPerHole float64 `json:"solvesPerHole"`
	NodesPerHole  float64 `json:"nodesPerHole"`
	MaxMsPerHole  float64 `json:"maxMsPerHole"`
	// The median and 99th percentile of the holes' CPU ms.
	MedianMsPerHole float64 `json:"medianMsPerHole"`
	P99MsPerHole    float64 `json:"p99MsPerHole"`
	Truncated       int     `json:"truncated"`
}

type simOutput struct {
	Game    golf.Game       `json:"game"`
	Holes   int             `json:"holes"`
	Config  fairplay.Config `json:"config"`
	Results []simResult     `json:"results"`
	Cost    simCost         `json:"cost"`
	Seconds float64         `json:"seconds"`
}

func runFairplaySimulate(ctx context.Context, args []string, e env) error {
	fs := flag.NewFlagSet("fairplay simulate", flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	rounds := fs.Int("rounds", 20, "rounds per simulated player")
	holes := fs.Int("holes", 9, "holes per round")
	game := fs.String("game", "golf", "the game (rules.md)")
	asJSON := fs.Bool("json", false, "print JSON")
	workers := fs.Int("workers", runtime.NumCPU(), "rounds played at once")
	bots := fs.String("bots", "", "comma-separated subset of random,greedy,search,clairvoyant (default: all)")
	share := fs.String("shares", "1,0.5,0.2", "comma-separated shares of holes on which the clairvoyant bots know the stock")
	samples := fs.Int("samples", fairplay.DefaultConfig.Samples, "stock orders sampled per segment")
	nodes := fs.Int64("nodes", fairplay.DefaultConfig.Nodes, "solver node budget per move and order")
	maxSolves := fs.Int("max-solves", fairplay.DefaultConfig.MaxSolves, "solves per hole at most (0: no limit)")
	maxCards := fs.Int("max-cards", fairplay.DefaultConfig.MaxCards, "decisions with more cards than this on the tableau are not scored (0: every decision)")
	first := fs.Int("first", 0, "index of the first round (round r plays the deals of seed SHA-256(\"golf-fairplay-sim:r\"))")
	if err := fs.Parse(args); err != nil {
		return &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return usageError("fairplay simulate: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	if *rounds < 1 || *holes < 1 || *workers < 1 || *samples < 1 || *nodes < 1 || *maxSolves < 0 || *maxCards < 0 || *first < 0 {
		return usageError("fairplay simulate: --rounds, --holes, --workers, --samples and --nodes must be at least 1; --max-solves, --max-cards and --first not negative")
	}
	v, err := golf.NewVariant(*game, nil)
	if err != nil {
		return usageError("fairplay simulate: %v", err)
	}
	players, err := pickSimPlayers(*bots, *share)
	if err != nil {
		return usageError("fairplay simulate: %v", err)
	}
	cfg := fairplay.Config{Samples: *samples, Nodes: *nodes, MaxSolves: *maxSolves, MaxCards: *maxCards}

	type job struct{ p, r int }
	type done struct {
		p         int
		flaggedAt int
		peak      float64
		ev        fairplay.Evidence
		cost      simCost
		ms        []float64 // each hole's CPU ms
		err       error
	}
	jobs := make(chan job)
	out := make(chan done)
	var wg sync.WaitGroup
	for range *workers {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range jobs {
				var c simCost
				var each []float64
				analyse := func(d *golf.Deal, moves []golf.Move) (fairplay.Hole, error) {
					t0 := threadCPUTime()
					h, err := fairplay.AnalyseHole(d, moves, cfg)
					ms := float64(threadCPUTime()-t0) / float64(time.Millisecond)
					c.HolesAnalysed++
					c.CPUMsPerHole += ms
					c.MaxMsPerHole = max(c.MaxMsPerHole, ms)
					each = append(each, ms)
					c.SolvesPerHole += float64(h.Solves)
					c.NodesPerHole += float64(h.Nodes)
					if h.Truncated {
						c.Truncated++
					}
					return h, err
				}
				seed := golf.Seed(sha256.Sum256(fmt.Appendf(nil, "golf-fairplay-sim:%d", *first+j.r)))
				res, err := sim.PlayRound(players[j.p], v, seed, *holes, analyse)
				out <- done{p: j.p, flaggedAt: res.FlaggedAt, peak: res.Peak, ev: res.Evidence, cost: c, ms: each, err: err}
			}
		})
	}
	go func() {
		defer close(jobs)
		// Interleave players so a stopped run has a share of each.
		for r := range *rounds {
			for p := range players {
				select {
				case jobs <- job{p, r}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()

	t0 := time.Now()
	flaggedAt := make([][]int, len(players))
	count := make([]int, len(players))
	segs, least, expected := make([]int, len(players)), make([]int, len(players)), make([]float64, len(players))
	peaks := make([][]float64, len(players))
	var cost simCost
	var holeMs []float64
	var firstErr error
	stopped := false
	for !stopped {
		var d done
		var ok bool
		select {
		case d, ok = <-out:
		case <-ctx.Done():
			// Interrupted: report the rounds finished so far (the rounds
			// still in play are left behind as the process ends).
			ok, stopped = false, true
			fmt.Fprintln(e.stderr, "fairplay simulate: interrupted; the figures cover the rounds finished so far")
		}
		if !ok {
			break
		}
		if d.err != nil {
			firstErr = cmpErr(firstErr, d.err)
			continue
		}
		count[d.p]++
		segs[d.p] += d.ev.Segments
		least[d.p] += d.ev.Least
		expected[d.p] += d.ev.Expected
		peaks[d.p] = append(peaks[d.p], math.Round(d.peak*100)/100)
		if d.flaggedAt > 0 {
			flaggedAt[d.p] = append(flaggedAt[d.p], d.flaggedAt)
		}
		cost.HolesAnalysed += d.cost.HolesAnalysed
		cost.CPUMsPerHole += d.cost.CPUMsPerHole
		cost.SolvesPerHole += d.cost.SolvesPerHole
		cost.NodesPerHole += d.cost.NodesPerHole
		cost.MaxMsPerHole = max(cost.MaxMsPerHole, d.cost.MaxMsPerHole)
		cost.Truncated += d.cost.Truncated
		holeMs = append(holeMs, d.ms...)
	}
	if firstErr != nil {
		return firstErr
	}
	if n := float64(cost.HolesAnalysed); n > 0 {
		cost.CPUMsPerHole /= n
		cost.SolvesPerHole /= n
		cost.NodesPerHole /= n
		slices.Sort(holeMs)
		cost.MedianMsPerHole = holeMs[len(holeMs)/2]
		cost.P99MsPerHole = holeMs[min(len(holeMs)-1, int(0.99*n))]
	}
	res := simOutput{Game: v.Game, Holes: *holes, Config: cfg, Cost: cost, Seconds: time.Since(t0).Seconds(), Results: []simResult{}}
	for i, p := range players {
		r := simResult{Bot: p.Name(), KnowsStock: p.KnowsStock, Rounds: count[i], Flagged: len(flaggedAt[i]),
			Segments: segs[i], Least: least[i], Expected: expected[i], Peaks: peaks[i]}
		if r.Peaks == nil {
			r.Peaks = []float64{}
		}
		if r.Rounds > 0 {
			r.FlagRate = float64(r.Flagged) / float64(r.Rounds)
		}
		if len(flaggedAt[i]) > 0 {
			m := median(flaggedAt[i])
			r.MedianHolesToFlag = &m
		}
		res.Results = append(res.Results, r)
	}
	if *asJSON {
		return writeJSON(e, res)
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s, %d holes a round\n", v.Game, *holes)
	fmt.Fprintln(tw, "bot\tknowsStock\trounds\tflagged\tflagRate\tmedianHolesToFlag\tleast/segments (honest expects)")
	for _, r := range res.Results {
		m := "-"
		if r.MedianHolesToFlag != nil {
			m = strconv.FormatFloat(*r.MedianHolesToFlag, 'f', 1, 64)
		}
		fmt.Fprintf(tw, "%s\t%g\t%d\t%d\t%.4f\t%s\t%d/%d (%.1f)\n", r.Bot, r.KnowsStock, r.Rounds, r.Flagged, r.FlagRate, m, r.Least, r.Segments, r.Expected)
	}
	fmt.Fprintf(tw, "analysis: %d holes, %.1f CPU ms a hole (median %.1f, 99th percentile %.0f, max %.0f), %.0f solves, %.0f nodes a hole; %d truncated\n",
		cost.HolesAnalysed, cost.CPUMsPerHole, cost.MedianMsPerHole, cost.P99MsPerHole, cost.MaxMsPerHole, cost.SolvesPerHole, cost.NodesPerHole, cost.Truncated)
	return tw.Flush()
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// pickSimPlayers reads --bots and --shares.
func pickSimPlayers(bots, shares string) ([]sim.Player, error) {
	var ss []float64
	for _, f := range splitComma(shares) {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil || x <= 0 || x > 1 {
			return nil, fmt.Errorf("--shares: %q is not a share in (0, 1]", f)
		}
		ss = append(ss, x)
	}
	want := map[string]bool{}
	for _, b := range splitComma(bots) {
		switch b {
		case "random", "greedy", "search", string(sim.Clairvoyant):
			want[b] = true
		default:
			return nil, fmt.Errorf("--bots: %q is not random, greedy, search or clairvoyant", b)
		}
	}
	var out []sim.Player
	for _, p := range simPlayers[:3] {
		if len(want) == 0 || want[string(p.Kind)] {
			out = append(out, p)
		}
	}
	if len(want) == 0 || want[string(sim.Clairvoyant)] {
		for _, x := range ss {
			out = append(out, sim.Player{Kind: sim.Clairvoyant, KnowsStock: x})
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no player to simulate")
	}
	return out, nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if f := s[start:i]; f != "" {
				out = append(out, f)
			}
			start = i + 1
		}
	}
	return out
}

func median(xs []int) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}

// threadCPUTime is the CPU time of the calling thread (so a worker's analysis
// is measured without the other workers' time or time spent waiting for a
// core on a shared machine).
// The worker locks itself to its thread. (Linux: RUSAGE_THREAD; elsewhere
// the call fails and the cost reads 0.)
func threadCPUTime() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// openFairplay configures the server's fair-play analysis: the evidence
// in PostgreSQL beside the accounts when --database is set (its own
// migrations, applied now), in memory otherwise.
func openFairplay(ctx context.Context, c serveConfig, acct accounts.Store, log *slog.Logger) (*server.Fairplay, error) {
	fair := &server.Fairplay{ModeratorToken: c.moderatorToken}
	pg, ok := acct.(*postgres.Store)
	if !ok {
		log.Warn("no --database: fair-play evidence and flags are kept in memory and lost when the server stops")
		return fair, nil
	}
	octx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	st, err := fpostgres.New(octx, pg.Pool(), log)
	if err != nil {
		return nil, fmt.Errorf("--database: %w", err)
	}
	fair.Store = st
	return fair, nil
}
