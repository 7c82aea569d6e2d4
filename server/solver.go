package server

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"golfsolitaire/bot"
	"golfsolitaire/golf"
	"golfsolitaire/match"
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

// seedPools keeps the pools of pre-rated deals (store.SeedPools, in Redis
// with the Redis store) and fills them in the background, one candidate
// deal a low-priority solver job, for every pool a room has asked for.
type seedPools struct {
	s     *Server
	store store.SeedPools
	size  int
	// an is the analyzer of the filler: its memo fills with candidates
	// that are never played, so it is not the rooms' analyzer.
	an *match.Analyzer

	mu     sync.Mutex
	wanted map[string]*wantedPool
	kick   chan struct{}
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// wantedPool is a pool the filler keeps topped up.
type wantedPool struct {
	set     match.Settings // the settings its deals are for (poolSettings)
	target  int
	filling int // entries being made now
	asked   time.Time
}

// maxWantedPools bounds the pools one instance fills; past it the pool
// asked for least recently is forgotten (its deals stay in the store).
const maxWantedPools = 64

// poolCheckEvery is how often the filler looks at the pools' lengths when
// nothing has told it to (other instances pop from shared pools).
const poolCheckEvery = 2 * time.Second

func newSeedPools(s *Server, st store.SeedPools, size int) *seedPools {
	ctx, cancel := context.WithCancel(context.Background())
	solve, rate := s.analyzer.Budgets()
	return &seedPools{s: s, store: st, size: size, an: match.NewAnalyzer(solve, rate),
		wanted: map[string]*wantedPool{}, kick: make(chan struct{}, 1), ctx: ctx, cancel: cancel}
}

// poolSettings are the settings that decide a pool's deals: the game and
// its options (undo aside), winnableOnly and the difficulty.
func poolSettings(set match.Settings) match.Settings {
	p := match.DefaultSettings()
	p.Variant = set.Variant
	p.Variant.Options.Undo = false
	p.WinnableOnly, p.Difficulty = set.WinnableOnly || set.Difficulty > 0, set.Difficulty
	p.SkipUnclearable = false
	return p
}

// SeedPoolName is the name of the seed pool (store.SeedPools) holding
// the deals of rounds with the settings' game, options, winnableOnly and
// difficulty: the game, a hash of the variant and the level
// ("all-in-a-row:1f0c…:d3", "golf:…:winnable").
func SeedPoolName(set match.Settings) string { return poolName(set) }

// SeedPoolEntry is how a pool stores a deal: its seed and its rating (0
// for winnableOnly alone), "seed:rating".
func SeedPoolEntry(seed golf.Seed, rating golf.Difficulty) string {
	return seed.String() + ":" + strconv.Itoa(int(rating))
}

func poolName(set match.Settings) string {
	p := poolSettings(set)
	b, _ := json.Marshal(p.Variant)
	h := sha256.Sum256(b)
	level := "winnable"
	if p.Difficulty > 0 {
		level = "d" + strconv.Itoa(p.Difficulty)
	}
	return string(p.Variant.Game) + ":" + hex.EncodeToString(h[:8]) + ":" + level
}

// want makes sure the pool of the settings is filled, to at least n.
func (p *seedPools) want(set match.Settings, n int) {
	name := poolName(set)
	p.mu.Lock()
	w := p.wanted[name]
	if w == nil {
		if len(p.wanted) >= maxWantedPools {
			var oldest string
			for k, x := range p.wanted {
				if oldest == "" || x.asked.Before(p.wanted[oldest].asked) {
					oldest = k
				}
			}
			delete(p.wanted, oldest)
		}
		w = &wantedPool{set: poolSettings(set), target: p.size}
		p.wanted[name] = w
	}
	w.target = max(w.target, n)
	w.asked = time.Now()
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// pop takes the deals of a round of the settings from their pool, or
// refuses with try_again when the pool holds too few (then it is being
// filled).
func (p *seedPools) pop(ctx context.Context, set match.Settings) ([]golf.Seed, error) {
	n := set.DealsNeeded()
	p.want(set, n)
	entries, err := p.store.PopSeeds(ctx, poolName(set), n)
	if errors.Is(err, store.ErrPoolShort) {
		p.s.smetrics.poolEmpty.Inc()
		return nil, &retryError{err: fmt.Errorf("%w (%d deals a round)", errNoDeals, n), after: p.s.opts.SeedPoolRetry}
	}
	if err != nil {
		return nil, err
	}
	deals := make([]golf.Seed, len(entries))
	for i, e := range entries {
		seedHex, _, _ := strings.Cut(e, ":")
		if deals[i], err = golf.ParseSeed(seedHex); err != nil {
			return nil, fmt.Errorf("server: seed pool %s holds %q: %w", poolName(set), e, err)
		}
	}
	p.s.smetrics.poolPopped.Add(float64(n))
	return deals, nil
}

// start runs the filler: as many goroutines as solver workers, each
// making one deal at a time for a pool below its target.
func (p *seedPools) start(workers int) {
	for range workers {
		p.wg.Go(p.fill)
	}
}

func (p *seedPools) stop() {
	p.cancel()
	p.wg.Wait()
}

// next picks a pool that needs a deal and marks one as being made.
func (p *seedPools) next() (string, *wantedPool) {
	p.mu.Lock()
	names := make([]string, 0, len(p.wanted))
	for k := range p.wanted {
		names = append(names, k)
	}
	p.mu.Unlock()
	for _, name := range names {
		n, err := p.store.SeedPoolLen(p.ctx, name)
		if err != nil {
			continue
		}
		p.mu.Lock()
		w := p.wanted[name]
		if w != nil && n+w.filling < w.target {
			w.filling++
			p.mu.Unlock()
			return name, w
		}
		p.mu.Unlock()
	}
	return "", nil
}

func (p *seedPools) fill() {
	tick := time.NewTicker(poolCheckEvery)
	defer tick.Stop()
	for p.ctx.Err() == nil {
		name, w := p.next()
		if w == nil {
			select {
			case <-p.ctx.Done():
				return
			case <-p.kick:
			case <-tick.C:
			}
			continue
		}
		entry, err := p.make(w.set)
		p.mu.Lock()
		w.filling--
		target := w.target
		p.mu.Unlock()
		if err != nil {
			if p.ctx.Err() == nil && !errors.Is(err, solverpool.ErrClosed) {
				p.s.log.Warn("seed pool", "pool", name, "err", err)
			}
			continue
		}
		if entry == "" {
			continue
		}
		if _, err := p.store.PushSeeds(p.ctx, name, []string{entry}, target); err != nil && p.ctx.Err() == nil {
			p.s.log.Warn("seed pool push", "pool", name, "err", err)
		}
	}
}

// make chooses one deal for the pool's settings from a fresh random seed,
// each candidate a low-priority solver job: the entry is "seed:rating",
// or "" when no candidate was accepted.
func (p *seedPools) make(set match.Settings) (string, error) {
	var base golf.Seed
	crand.Read(base[:])
	c := p.an.NewChooser(set, base)
	for done := false; !done; {
		if err := p.s.solver.Do(p.ctx, solverpool.Low, "", func() { done = c.Step() }); err != nil {
			return "", err
		}
	}
	seed, _, ok := c.Result()
	if !ok {
		return "", nil
	}
	var level golf.Difficulty
	if err := p.s.solver.Do(p.ctx, solverpool.Low, "", func() { level = p.an.Rating(set, seed) }); err != nil {
		return "", err
	}
	p.s.smetrics.poolFilled.Inc()
	return SeedPoolEntry(seed, level), nil
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
	deals, err := s.seeds.pop(ctx, r.Settings)
	if err != nil {
		return ev, err
	}
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
		s.solver = solverpool.New(solverpool.Options{Workers: s.opts.SolverWorkers, PerClient: s.opts.SolverPerClient, Nice: s.opts.SolverNice})
	}
	// Every solver run of the rooms' and tournaments' analyzer (best
	// scores, ratings, tournament deals and bests, rounds started before
	// deals travelled in events) is a high-priority job of the pool.
	s.analyzer.SetRunner(func(fn func()) { _ = s.solver.Do(context.Background(), solverpool.High, "", fn) })
	s.seeds = newSeedPools(s, s.opts.SeedPools, s.opts.SeedPoolSize)
	s.smetrics = newSolverMetrics(s.metrics.reg, s.solver)
	fillers := s.opts.SeedPoolFillers
	if fillers == 0 {
		fillers = s.solver.Workers()
	}
	s.seeds.start(max(fillers, 0))
}

// stopSolver stops the filler and the solver pool (after the hubs).
func (s *Server) stopSolver() {
	s.seeds.stop()
	if s.opts.Solver == nil {
		s.solver.Close()
	}
}
