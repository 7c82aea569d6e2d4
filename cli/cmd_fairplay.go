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

// runFairplay is `fairplay simulate|rescore|compare|review`.
func runFairplay(ctx context.Context, args []string, e env) error {
	if len(args) == 0 {
		return usageError("fairplay: want a subcommand: simulate, rescore, compare or review")
	}
	switch args[0] {
	case "simulate":
		return runFairplaySimulate(ctx, args[1:], e)
	case "rescore":
		return runFairplayRescore(args[1:], e)
	case "compare":
		return runFairplayCompare(args[1:], e)
	case "review":
		return runFairplayReview(ctx, args[1:], e)
	}
	return usageError("fairplay: unknown subcommand %q (want simulate, rescore, compare or review)", args[0])
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
	// Escalated counts the holes analysed with the escalation's deeper
	// setting (fairplay.Escalation), of HolesAnalysed.
	Escalated int `json:"escalated"`
}

type simOutput struct {
	Game       golf.Game           `json:"game"`
	Holes      int                 `json:"holes"`
	Config     fairplay.Config     `json:"config"`
	Escalation fairplay.Escalation `json:"escalation"`
	Results    []simResult         `json:"results"`
	Cost       simCost             `json:"cost"`
	Seconds    float64             `json:"seconds"`
}

// simFlags are the flags of `fairplay simulate`.
type simFlags struct {
	rounds, holes, workers, first int
	asJSON                        bool
	record                        string
	players                       []sim.Player
	v                             golf.Variant
	cfg                           fairplay.Config
	esc                           fairplay.Escalation
}

// parseSimFlags reads and checks the flags of `fairplay simulate`.
func parseSimFlags(args []string, e env) (simFlags, error) {
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
	openingSamples := fs.Int("opening-samples", fairplay.DefaultConfig.OpeningSamples, "stock orders sampled per segment played with more than --opening-stock cards in the stock (0: --samples)")
	openingStock := fs.Int("opening-stock", fairplay.DefaultConfig.OpeningStock, "see --opening-samples")
	openingCards := fs.Int("opening-cards", fairplay.DefaultConfig.OpeningCards, "score on --samples orders the opening stretches that begin with at most this many cards on the tableau (0: none)")
	nodes := fs.Int64("nodes", fairplay.DefaultConfig.Nodes, "solver node budget per move and order")
	maxSolves := fs.Int("max-solves", fairplay.DefaultConfig.MaxSolves, "solves per hole at most (0: no limit)")
	maxCards := fs.Int("max-cards", fairplay.DefaultConfig.MaxCards, "decisions with more cards than this on the tableau are not scored (0: every decision)")
	probe := fs.Int64("probe", fairplay.DefaultConfig.Probe, "node budget of a decision's first solve on every order (0: --nodes at once)")
	misses := fs.Int("misses", fairplay.DefaultConfig.Misses, "orders the probe may leave unfinished for the decision still to be scored")
	escalation := fs.String("escalation", "default", "analyse a player's hole with the deeper setting while their score before it is at least a level, as the servers do: default, off, or the level in nats (fairplay.Escalation)")
	record := fs.String("record", "", "append each round's analysed holes to this file, one JSON line a round (its informative segments, for scoring again offline)")
	first := fs.Int("first", 0, "index of the first round (round r plays the deals of seed SHA-256(\"golf-fairplay-sim:r\"))")
	if err := fs.Parse(args); err != nil {
		return simFlags{}, &exitError{code: 2}
	}
	if fs.NArg() > 0 {
		return simFlags{}, usageError("fairplay simulate: unexpected argument %s", strconv.Quote(fs.Arg(0)))
	}
	if *rounds < 1 || *holes < 1 || *workers < 1 || *samples < 1 || *nodes < 1 || *maxSolves < 0 || *maxCards < 0 || *first < 0 || *probe < 0 || *misses < 0 || *openingSamples < 0 || *openingStock < 0 || *openingCards < 0 {
		return simFlags{}, usageError("fairplay simulate: --rounds, --holes, --workers, --samples and --nodes must be at least 1; --max-solves, --max-cards, --first, --probe, --misses, --opening-samples, --opening-stock and --opening-cards not negative")
	}
	v, err := golf.NewVariant(*game, nil)
	if err != nil {
		return simFlags{}, usageError("fairplay simulate: %v", err)
	}
	esc, err := fairplay.EscalationNamed(*escalation)
	if err != nil {
		return simFlags{}, usageError("fairplay simulate: --escalation: %v", err)
	}
	players, err := pickSimPlayers(*bots, *share)
	if err != nil {
		return simFlags{}, usageError("fairplay simulate: %v", err)
	}
	cfg := fairplay.DefaultConfig
	cfg.Solvers = fairplay.NewSolvers() // the workers' analyses reuse their solvers' tables
	cfg.Samples, cfg.Nodes, cfg.MaxSolves, cfg.MaxCards, cfg.Probe, cfg.Misses = *samples, *nodes, *maxSolves, *maxCards, *probe, *misses
	cfg.OpeningSamples, cfg.OpeningStock, cfg.OpeningCards = *openingSamples, *openingStock, *openingCards
	return simFlags{rounds: *rounds, holes: *holes, workers: *workers, first: *first, asJSON: *asJSON, record: *record, players: players, v: v, cfg: cfg, esc: esc}, nil
}

func runFairplaySimulate(ctx context.Context, args []string, e env) error {
	f, err := parseSimFlags(args, e)
	if err != nil {
		return err
	}
	rec, err := openSimRecord(f.record)
	if err != nil {
		return err
	}
	t0 := time.Now()
	var t simTally
	t.init(len(f.players))
	for d := range simRounds(ctx, f) {
		t.add(d)
		if d.err == nil {
			rec.write(f.players[d.p], d.round, d.holes)
		}
	}
	if err := rec.close(); err != nil {
		return err
	}
	if ctx.Err() != nil {
		fmt.Fprintln(e.stderr, "fairplay simulate: interrupted; the figures cover the rounds finished so far")
	}
	if t.err != nil {
		return t.err
	}
	res := t.output(f)
	res.Seconds = time.Since(t0).Seconds()
	if f.asJSON {
		return writeJSON(e, res)
	}
	return printSim(e, res)
}

// simDone is one simulated round's outcome and the analysis's cost.
type simDone struct {
	p         int
	flaggedAt int
	peak      float64
	ev        fairplay.Evidence
	cost      simCost
	ms        []float64 // each hole's CPU ms
	round     int
	holes     []simRecordHole
	err       error
}

// simRounds plays the rounds on f.workers goroutines, each on its own OS
// thread (so each hole's analysis is timed by the thread's CPU clock),
// players interleaved so a stopped run has a share of each. The channel
// closes when every round is played or, once ctx ends, at once (the
// rounds still in play are left behind as the process ends).
func simRounds(ctx context.Context, f simFlags) <-chan simDone {
	type job struct{ p, r int }
	jobs := make(chan job)
	out := make(chan simDone)
	var wg sync.WaitGroup
	for range f.workers {
		wg.Go(func() {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			for j := range jobs {
				var c simCost
				var each []float64
				var holes []simRecordHole
				analyse := func(d *golf.Deal, moves []golf.Move, before fairplay.Evidence) (fairplay.Hole, error) {
					cfg, deep := f.esc.Choose(f.cfg, before) // the servers' choice (review.Holds)
					t0 := threadCPUTime()
					h, err := fairplay.AnalyseHole(d, moves, cfg)
					ms := float64(threadCPUTime()-t0) / float64(time.Millisecond)
					c.addHole(ms, h, deep)
					each = append(each, ms)
					holes = append(holes, recordHole(d, moves, h, deep))
					return h, err
				}
				seed := golf.Seed(sha256.Sum256(fmt.Appendf(nil, "golf-fairplay-sim:%d", f.first+j.r)))
				res, err := sim.PlayRound(f.players[j.p], f.v, seed, f.holes, analyse)
				for i := range min(len(holes), len(res.Knew)) {
					holes[i].Knew = res.Knew[i]
				}
				select {
				case out <- simDone{p: j.p, flaggedAt: res.FlaggedAt, peak: res.Peak, ev: res.Evidence, cost: c, ms: each, round: f.first + j.r, holes: holes, err: err}:
				case <-ctx.Done():
				}
			}
		})
	}
	go func() {
		defer close(jobs)
		for r := range f.rounds {
			for p := range f.players {
				select {
				case jobs <- job{p, r}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	done := make(chan simDone)
	go func() {
		defer close(done)
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		for {
			select {
			case d := <-out:
				done <- d
			case <-finished:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return done
}

// addHole counts one hole's analysis.
func (c *simCost) addHole(ms float64, h fairplay.Hole, deep bool) {
	c.HolesAnalysed++
	if deep {
		c.Escalated++
	}
	c.CPUMsPerHole += ms
	c.MaxMsPerHole = max(c.MaxMsPerHole, ms)
	c.SolvesPerHole += float64(h.Solves)
	c.NodesPerHole += float64(h.Nodes)
	if h.Truncated {
		c.Truncated++
	}
}

// simTally adds up the rounds, per player.
type simTally struct {
	flaggedAt   [][]int
	count, segs []int
	least       []int
	expected    []float64
	peaks       [][]float64
	cost        simCost
	holeMs      []float64
	err         error
}

func (t *simTally) init(n int) {
	t.flaggedAt, t.peaks = make([][]int, n), make([][]float64, n)
	t.count, t.segs, t.least, t.expected = make([]int, n), make([]int, n), make([]int, n), make([]float64, n)
}

func (t *simTally) add(d simDone) {
	if d.err != nil {
		t.err = cmpErr(t.err, d.err)
		return
	}
	t.count[d.p]++
	t.segs[d.p] += d.ev.Segments
	t.least[d.p] += d.ev.Least
	t.expected[d.p] += d.ev.Expected
	t.peaks[d.p] = append(t.peaks[d.p], math.Round(d.peak*100)/100)
	if d.flaggedAt > 0 {
		t.flaggedAt[d.p] = append(t.flaggedAt[d.p], d.flaggedAt)
	}
	t.cost.HolesAnalysed += d.cost.HolesAnalysed
	t.cost.CPUMsPerHole += d.cost.CPUMsPerHole
	t.cost.SolvesPerHole += d.cost.SolvesPerHole
	t.cost.NodesPerHole += d.cost.NodesPerHole
	t.cost.MaxMsPerHole = max(t.cost.MaxMsPerHole, d.cost.MaxMsPerHole)
	t.cost.Truncated += d.cost.Truncated
	t.cost.Escalated += d.cost.Escalated
	t.holeMs = append(t.holeMs, d.ms...)
}

// output is the tally as printed.
func (t *simTally) output(f simFlags) simOutput {
	cost := t.cost
	if n := float64(cost.HolesAnalysed); n > 0 {
		cost.CPUMsPerHole /= n
		cost.SolvesPerHole /= n
		cost.NodesPerHole /= n
		ms := slices.Sorted(slices.Values(t.holeMs))
		cost.MedianMsPerHole = ms[len(ms)/2]
		cost.P99MsPerHole = ms[min(len(ms)-1, int(0.99*n))]
	}
	res := simOutput{Game: f.v.Game, Holes: f.holes, Config: f.cfg, Escalation: f.esc, Cost: cost, Results: []simResult{}}
	for i, p := range f.players {
		r := simResult{Bot: p.Name(), KnowsStock: p.KnowsStock, Rounds: t.count[i], Flagged: len(t.flaggedAt[i]),
			Segments: t.segs[i], Least: t.least[i], Expected: t.expected[i], Peaks: t.peaks[i]}
		if r.Peaks == nil {
			r.Peaks = []float64{}
		}
		if r.Rounds > 0 {
			r.FlagRate = float64(r.Flagged) / float64(r.Rounds)
		}
		if len(t.flaggedAt[i]) > 0 {
			m := median(t.flaggedAt[i])
			r.MedianHolesToFlag = &m
		}
		res.Results = append(res.Results, r)
	}
	return res
}

// printSim prints the simulation's table.
func printSim(e env, res simOutput) error {
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s, %d holes a round\n", res.Game, res.Holes)
	fmt.Fprintln(tw, "bot\tknowsStock\trounds\tflagged\tflagRate\tmedianHolesToFlag\tleast/segments (honest expects)")
	for _, r := range res.Results {
		m := "-"
		if r.MedianHolesToFlag != nil {
			m = strconv.FormatFloat(*r.MedianHolesToFlag, 'f', 1, 64)
		}
		fmt.Fprintf(tw, "%s\t%g\t%d\t%d\t%.4f\t%s\t%d/%d (%.1f)\n", r.Bot, r.KnowsStock, r.Rounds, r.Flagged, r.FlagRate, m, r.Least, r.Segments, r.Expected)
	}
	c := res.Cost
	fmt.Fprintf(tw, "analysis: %d holes (%d with the deeper setting), %.1f CPU ms a hole (median %.1f, 99th percentile %.0f, max %.0f), %.0f solves, %.0f nodes a hole; %d truncated\n",
		c.HolesAnalysed, c.Escalated, c.CPUMsPerHole, c.MedianMsPerHole, c.P99MsPerHole, c.MaxMsPerHole, c.SolvesPerHole, c.NodesPerHole, c.Truncated)
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
	cfg, err := fairplay.ConfigNamed(c.fairplayAnalysis)
	if err != nil {
		return nil, fmt.Errorf("--fairplay-analysis: %w", err)
	}
	esc, err := fairplay.EscalationNamed(c.fairplayEscalation)
	if err != nil {
		return nil, fmt.Errorf("--fairplay-escalation: %w", err)
	}
	fair := &server.Fairplay{ModeratorToken: c.moderatorToken, Config: &cfg, Escalation: &esc}
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

// analysisFlagsErr says why --fairplay-analysis or --fairplay-escalation
// does not name a fair-play analysis setting or escalation (nil when
// both do).
func analysisFlagsErr(c serveConfig) error {
	if _, err := fairplay.ConfigNamed(c.fairplayAnalysis); err != nil {
		return fmt.Errorf("--fairplay-analysis: %w", err)
	}
	if _, err := fairplay.EscalationNamed(c.fairplayEscalation); err != nil {
		return fmt.Errorf("--fairplay-escalation: %w", err)
	}
	return nil
}
