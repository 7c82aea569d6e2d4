package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"golfsolitaire/bot"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/seedpool"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
	"golfsolitaire/tourney"
)

// The solver's refusals.
var (
	// errSolverBusy: the client already has its quota of solver jobs in
	// flight (solverpool.ErrQuota).
	errSolverBusy = errors.New("server: too many solver requests in flight; wait for the answers")
	// errNoDeals: the seed pool of the room's settings has too few deals
	// for a round; it is being filled.
	errNoDeals = errors.New("server: no deals of these settings are ready yet; they are being prepared")
)

// retryError is a refusal the client may try again after a while: the
// error message carries RetryAfter (seconds), HTTP answers Retry-After.
type retryError struct {
	err   error
	after time.Duration
}

func (e *retryError) Error() string { return e.err.Error() }
func (e *retryError) Unwrap() error { return e.err }

// retryAfter is the wait an error asks for, in whole seconds (0: none).
func retryAfter(err error) int {
	var re *retryError
	if errors.As(err, &re) {
		return max(1, int((re.after+time.Second-1)/time.Second))
	}
	return 0
}

// solverRetry is how long a client refused by its solver quota is asked
// to wait: about one job.
const solverRetry = time.Second

// solve runs fn in the server's solver pool at the priority, counted
// against the client's quota ("" for the server's own work).
func (s *Server) solve(ctx context.Context, pri solverpool.Priority, client string, fn func()) error {
	err := s.solver.Do(ctx, pri, client, fn)
	if errors.Is(err, solverpool.ErrQuota) {
		s.smetrics.refused.Inc()
		return &retryError{err: errSolverBusy, after: solverRetry}
	}
	return err
}

// botGate runs a search bot's thinking in the solver pool at normal
// priority, with the bot's room as the client: the bots of one room share
// one quota. It implements bot.Gate.
type botGate struct {
	s    *Server
	room string
}

var _ bot.Gate = botGate{}

// Do implements bot.Gate.
func (g botGate) Do(ctx context.Context, fn func()) error {
	return g.s.solve(ctx, solverpool.Normal, "bots:"+g.room, fn)
}

// Solve runs fn (solver work, e.g. fair-play analysis) in the server's
// solver pool at normal priority, for the client (a room code, an
// address): other packages' solver work goes through here, so all of it
// shares the pool's workers, priorities and quotas.
func (s *Server) Solve(ctx context.Context, client string, fn func()) error {
	return s.solve(ctx, solverpool.Normal, client, fn)
}

// roundDeals completes a start, ready or rematch event that starts a
// round whose deals the solver chooses (match.Settings.DealsNeeded): a
// room takes them from the seed pool and its round seed becomes their
// pooled round seed; a tournament room chooses them from the tournament's
// round seed with the solver (once a tournament: the analyzer remembers).
// Other events are returned as they are. It runs before the event is
// applied, never inside the fold.
func (s *Server) roundDeals(ctx context.Context, r *match.Room, ev match.Event) (match.Event, error) {
	if r.Settings.DealsNeeded() == 0 || !r.StartsRound(ev) {
		return ev, nil
	}
	deals, err := s.seeds.Pop(ctx, r.Settings)
	if errors.Is(err, store.ErrPoolShort) {
		s.smetrics.poolEmpty.Inc()
		n := r.Settings.DealsNeeded()
		return ev, &retryError{err: fmt.Errorf("%w (%d deals a round)", errNoDeals, n), after: s.opts.SeedPoolRetry}
	}
	if err != nil {
		return ev, err
	}
	s.smetrics.poolPopped.Add(float64(len(deals)))
	round := golf.PooledRoundSeed(deals)
	ev.Seed, ev.Deals = &round, deals
	return ev, nil
}

// roundBuild wraps the build of a start, ready or rematch event with
// roundDeals. Deals drawn from the pool are kept across the hub's retries
// (a conflict with another instance), so a retry does not draw again.
func (s *Server) roundBuild(ctx context.Context, mk func(r *match.Room) match.Event) func(r *match.Room) (match.Event, error) {
	var drawn *match.Event
	return func(r *match.Room) (match.Event, error) {
		ev := mk(r)
		if drawn != nil && r.StartsRound(ev) {
			ev.Seed, ev.Deals = drawn.Seed, drawn.Deals
			return ev, nil
		}
		out, err := s.roundDeals(ctx, r, ev)
		if err == nil && len(out.Deals) > 0 {
			drawn = &out
		}
		return out, err
	}
}

// derivedDeals chooses a tournament round's deals from its round seed
// (deals.md "again:k": the first replacement the settings accept), in the
// solver pool, before the tournament's rooms start. The analyzer's memo
// makes it one search a tournament round per instance.
func (s *Server) derivedDeals(ctx context.Context, id string, set match.Settings, seed golf.Seed) ([]golf.Seed, []int, error) {
	n := set.DealsNeeded()
	if n == 0 {
		return nil, nil, nil
	}
	deals, ks := make([]golf.Seed, n), make([]int, n)
	for h := 1; h <= n; h++ {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		// Each solver run of the search is a job of the pool (the
		// analyzer's runner).
		deals[h-1], ks[h-1] = s.analyzer.HoleDealSeed(set, seed, h)
	}
	return deals, ks, nil
}

// prepareTournamentDeals chooses a new winnable-only or difficulty
// tournament's stroke-play deals in the background (through the solver
// pool), so the first entrant to play finds them remembered instead of
// waiting for the search. Knockout rounds are chosen when their first
// match starts.
func (s *Server) prepareTournamentDeals(id string, set tourney.Settings, seeds []golf.Seed) {
	rs := set.StrokeRoomSettings()
	if rs.DealsNeeded() == 0 || len(seeds) == 0 || (set.Format == tourney.Knockout && !set.Qualifying) {
		return
	}
	s.tasks.goCtx(func(ctx context.Context) {
		if _, _, err := s.derivedDeals(ctx, id, rs, seeds[0]); err != nil && ctx.Err() == nil {
			s.log.Warn("tournament deals", "tournament", id, "err", err)
		}
	})
}

// newSolverParts makes the solver pool, the seed pools and their metrics.
func (s *Server) newSolverParts() {
	s.solver = s.opts.Solver
	if s.solver == nil {
		s.solver = solverpool.New(solverpool.Options{Workers: s.opts.SolverWorkers, PerClient: s.opts.SolverPerClient})
	}
	// Every solver run of the rooms' and tournaments' analyzer (best
	// scores, ratings, tournament deals and bests, rounds started before
	// deals travelled in events) is a high-priority job of the pool.
	s.analyzer.SetRunner(func(fn func()) { _ = s.solver.Do(context.Background(), solverpool.High, "", fn) })
	s.smetrics = newSolverMetrics(s.metrics.reg, s.solver)
	s.warm = newBestWarmer(s.analyzer, s.solver, fairplayCores(0))
	s.metrics.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Name: "golf_best_warm_queue", Help: "Deals of started holes still to be solved ahead for their best scores.",
	}, func() float64 { return float64(s.warm.waiting()) }))
	s.tasks.goCtx(s.warm.run)
	solve, rate := s.analyzer.Budgets()
	s.seeds = seedpool.New(seedpool.Options{Store: s.opts.SeedPools, Size: s.opts.SeedPoolSize, SolveNodes: solve, RateNodes: rate,
		Solver: s.solver, Logger: s.log, Filled: s.smetrics.poolFilled.Inc, Yield: s.yieldInPool})
	fillers := s.opts.SeedPoolFillers
	if fillers == 0 {
		fillers = s.solver.Workers()
	}
	s.seeds.Start(max(fillers, 0))
}

// stopSolver stops the filler and the solver pool (after the hubs).
func (s *Server) stopSolver() {
	s.seeds.Stop()
	if s.opts.Solver == nil {
		s.solver.Close()
	}
}

// yieldToRooms is how the server's background solves (the analyzer's
// best scores and ratings, the fair-play analyses) give way every few
// thousand nodes: they let the network be polled, then wait while the
// rooms' goroutines are ready to run (package idle), so on a busy core
// they take only what the rooms leave.
func (s *Server) yieldToRooms() {
	closingYield(s.closing.Load(), s.poller.Poll, func() { s.metrics.yielded.Add(s.poller.Yield().Seconds()) })
}

// closingYield is yieldToRooms' choice: once the server is closing, only
// let the ready goroutines (and the network's) run; otherwise give way
// to the rooms in full.
func closingYield(closing bool, poll, giveWay func()) {
	if closing {
		poll()
		return
	}
	giveWay()
}

// yieldInPool is yieldToRooms for the solves that run on the solver
// pool's workers (the analyzer's): while a hint or a bot's move waits in
// the pool's queue, the worker does not sleep (that would hold up the
// waiting job too) but only lets the ready goroutines, and the network's,
// run once.
func (s *Server) yieldInPool() { poolYield(s.solver, s.poller.Poll, s.yieldToRooms) }

// poolYield is yieldInPool's choice: gosched while a job of normal or
// high priority (a hint, a bot's move, a best score a hole waits for) is
// queued in the pool, wait otherwise (the queue's low-priority jobs are
// background work themselves).
func poolYield(pool *solverpool.Pool, gosched, wait func()) {
	if pool != nil {
		if q := pool.Stats().Queued; q[solverpool.Normal]+q[solverpool.High] > 0 {
			gosched()
			return
		}
	}
	wait()
}
