package seedpool

import (
	"context"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
)

// Pools keeps the pools of pre-rated deals (store.SeedPools, in Redis
// with the Redis store) and fills them in the background, one candidate
// deal a low-priority solver job, for every pool a room has asked for.
type Pools struct {
	store  store.SeedPools
	size   int
	solver *solverpool.Pool
	log    *slog.Logger
	filled func()
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

// Options configure Pools. Store and Solver are required.
type Options struct {
	// Store keeps the pools.
	Store store.SeedPools
	// Size is how many deals the filler keeps in each pool a room has
	// asked for (at least one round's worth).
	Size int
	// SolveNodes and RateNodes are the node budgets of the filler's own
	// analyzer (the rooms' analyzer's: match.Analyzer.Budgets).
	SolveNodes, RateNodes int64
	// Solver runs the filler's candidates, each a low-priority job.
	Solver *solverpool.Pool
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// Filled, when set, is called for each deal the filler adds (a
	// metric).
	Filled func()
	// Yield, when set, is how the filler's solves give way to other
	// goroutines every few thousand nodes (match.Analyzer.SetYield).
	Yield func()
}

// New returns the pools; Start runs the filler.
func New(opts Options) *Pools {
	ctx, cancel := context.WithCancel(context.Background())
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Filled == nil {
		opts.Filled = func() {}
	}
	an := match.NewAnalyzer(opts.SolveNodes, opts.RateNodes)
	if opts.Yield != nil {
		an.SetYield(opts.Yield)
	}
	return &Pools{store: opts.Store, size: opts.Size, solver: opts.Solver, log: opts.Logger, filled: opts.Filled,
		an: an, wanted: map[string]*wantedPool{}, kick: make(chan struct{}, 1), ctx: ctx, cancel: cancel}
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

// Entry is how a pool stores a deal: its seed and its rating (0
// for winnableOnly alone), "seed:rating".
func Entry(seed golf.Seed, rating golf.Difficulty) string {
	return seed.String() + ":" + strconv.Itoa(int(rating))
}

// Name is the name of the seed pool (store.SeedPools) holding the deals
// of rounds with the settings' game, options, winnableOnly and
// difficulty: the game, a hash of the variant and the level
// ("all-in-a-row:1f0c…:d3", "golf:…:winnable").
func Name(set match.Settings) string {
	p := poolSettings(set)
	b, _ := json.Marshal(p.Variant)
	h := sha256.Sum256(b)
	level := "winnable"
	if p.Difficulty > 0 {
		level = "d" + strconv.Itoa(p.Difficulty)
	}
	return string(p.Variant.Game) + ":" + hex.EncodeToString(h[:8]) + ":" + level
}

// Want makes sure the pool of the settings is filled, to at least n.
func (p *Pools) Want(set match.Settings, n int) {
	name := Name(set)
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

// Pop takes the deals of a round of the settings from their pool, or
// fails with store.ErrPoolShort when the pool holds too few (then it is
// being filled).
func (p *Pools) Pop(ctx context.Context, set match.Settings) ([]golf.Seed, error) {
	n := set.DealsNeeded()
	p.Want(set, n)
	entries, err := p.store.PopSeeds(ctx, Name(set), n)
	if err != nil {
		return nil, err
	}
	deals := make([]golf.Seed, len(entries))
	for i, e := range entries {
		seedHex, _, _ := strings.Cut(e, ":")
		if deals[i], err = golf.ParseSeed(seedHex); err != nil {
			return nil, fmt.Errorf("seedpool: seed pool %s holds %q: %w", Name(set), e, err)
		}
	}
	return deals, nil
}

// Start runs the filler: workers goroutines (as many as solver workers),
// each making one deal at a time for a pool below its target.
func (p *Pools) Start(workers int) {
	for range workers {
		p.wg.Go(p.fill)
	}
}

// Stop stops the filler and waits for its goroutines.
func (p *Pools) Stop() {
	p.cancel()
	p.wg.Wait()
}

// next picks a pool that needs a deal and marks one as being made.
func (p *Pools) next() (string, *wantedPool) {
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

func (p *Pools) fill() {
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
				p.log.Warn("seed pool", "pool", name, "err", err)
			}
			continue
		}
		if entry == "" {
			continue
		}
		if _, err := p.store.PushSeeds(p.ctx, name, []string{entry}, target); err != nil && p.ctx.Err() == nil {
			p.log.Warn("seed pool push", "pool", name, "err", err)
		}
	}
}

// make chooses one deal for the pool's settings from a fresh random seed,
// each candidate a low-priority solver job: the entry is "seed:rating",
// or "" when no candidate was accepted.
func (p *Pools) make(set match.Settings) (string, error) {
	var base golf.Seed
	crand.Read(base[:])
	c := p.an.NewChooser(set, base)
	for done := false; !done; {
		if err := p.solver.Do(p.ctx, solverpool.Low, "", func() { done = c.Step() }); err != nil {
			return "", err
		}
	}
	seed, _, ok := c.Result()
	if !ok {
		return "", nil
	}
	var level golf.Difficulty
	if err := p.solver.Do(p.ctx, solverpool.Low, "", func() { level = p.an.Rating(set, seed) }); err != nil {
		return "", err
	}
	p.filled()
	return Entry(seed, level), nil
}
