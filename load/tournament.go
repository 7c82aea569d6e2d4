package load

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
)

// TournamentConfig is a tournament load run: Entrants simulated players
// enter one stroke-play tournament and play its holes with random legal
// moves while Watchers watch the leaderboard.
type TournamentConfig struct {
	// URL is the server's base URL.
	URL string
	// Entrants play; at least 1.
	Entrants int
	// Holes is 9 or 18.
	Holes int
	// Watchers watch the leaderboard's first page; default 4.
	Watchers int
	// Duration bounds play (the run also ends when everyone has finished).
	Duration time.Duration
	// Think is each entrant's mean pause before each move (thinkPause).
	Think time.Duration
	// SetupTimeout bounds entering and connecting; default 2 minutes.
	SetupTimeout time.Duration
	// Seed seeds the random moves; 0 for random.
	Seed uint64
	// Memory, when set, is read after setup and at the end.
	Memory func(context.Context) (Memory, error)
}

// TournamentResult is what a tournament run measured.
type TournamentResult struct {
	Entrants    int     `json:"entrants"`
	Holes       int     `json:"holes"`
	Seconds     float64 `json:"seconds"`
	Moves       int64   `json:"moves"`
	MovesPerSec float64 `json:"movesPerSec"`
	// Results is how many holes were finished (results posted).
	Results int64 `json:"results"`
	// Finished is how many entrants finished every hole.
	Finished int `json:"finished"`
	// Move is the time from sending a move to its ack.
	Move Latency `json:"move"`
	// Leaderboard is the time from a hole's last move being acknowledged
	// to a watcher receiving a push that includes its result (a push whose
	// latest result is no older than the ack: an upper bound).
	Leaderboard Latency `json:"leaderboard"`
	// Pushes is how many leaderboard pushes the watchers received.
	Pushes int64 `json:"pushes"`
	// SetupSeconds is the time to enter and connect every entrant.
	SetupSeconds     float64 `json:"setupSeconds"`
	MemoryAfterSetup *Memory `json:"memoryAfterSetup,omitempty"`
	MemoryAtEnd      *Memory `json:"memoryAtEnd,omitempty"`
	Errors           int64   `json:"errors"`
	FirstError       string  `json:"firstError,omitempty"`
}

type tourRunner struct {
	cfg     TournamentConfig
	api     *client.API
	moves   atomic.Int64
	results atomic.Int64
	errs    atomic.Int64
	mu      sync.Mutex
	first   string
	moveLat []time.Duration
	ends    []time.Time // ack times of hole-ending moves
	pushes  []push
	done    atomic.Int64
}

type push struct {
	at, through time.Time
}

func (r *tourRunner) fail(err error) {
	if r.errs.Add(1) == 1 {
		r.mu.Lock()
		r.first = err.Error()
		r.mu.Unlock()
	}
}

// RunTournament runs a tournament load test.
func RunTournament(ctx context.Context, cfg TournamentConfig) (*TournamentResult, error) {
	if cfg.Entrants < 1 {
		return nil, errors.New("load: a tournament needs entrants")
	}
	if cfg.Holes == 0 {
		cfg.Holes = 9
	}
	if cfg.Watchers <= 0 {
		cfg.Watchers = 4
	}
	if cfg.SetupTimeout <= 0 {
		cfg.SetupTimeout = 2 * time.Minute
	}
	r := &tourRunner{cfg: cfg, api: &client.API{BaseURL: cfg.URL}}
	res := &TournamentResult{Entrants: cfg.Entrants, Holes: cfg.Holes}

	setupStart := time.Now()
	sctx, cancel := context.WithTimeout(ctx, cfg.SetupTimeout)
	defer cancel()
	host, err := r.api.CreateTournament(sctx, map[string]any{"name": "Load test", "holes": cfg.Holes}, "")
	if err != nil {
		return nil, fmt.Errorf("load: creating the tournament: %w", err)
	}
	tokens := make([]string, cfg.Entrants)
	err = forEach(sctx, cfg.Entrants, 64, func(ctx context.Context, i int) error {
		g, err := r.api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: fmt.Sprintf("load-%d", i)})
		tokens[i] = g.Token
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("load: entering: %w", err)
	}
	watchers, err := r.watch(sctx, host.ID)
	defer func() {
		for _, w := range watchers {
			w.Close()
		}
	}()
	if err != nil {
		return nil, err
	}
	if err := r.api.HostTournament(sctx, host.ID, "start", host.HostToken); err != nil {
		return nil, fmt.Errorf("load: starting: %w", err)
	}
	conns := make([]*client.Conn, cfg.Entrants)
	defer func() {
		for _, c := range conns {
			if c != nil {
				c.CloseNow()
			}
		}
	}()
	if err := r.connect(sctx, host.ID, tokens, conns); err != nil {
		return nil, err
	}
	res.SetupSeconds = time.Since(setupStart).Seconds()
	if cfg.Memory != nil {
		if m, err := cfg.Memory(ctx); err == nil {
			res.MemoryAfterSetup = &m
		}
	}

	pctx, pcancel := context.WithTimeout(ctx, cfg.Duration)
	defer pcancel()
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range conns {
		seed := cfg.Seed
		if seed == 0 {
			seed = rand.Uint64()
		}
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		wg.Go(func() { r.entrant(pctx, c, rng) })
	}
	wg.Wait()
	elapsed := time.Since(start)
	// Let the last pushes arrive.
	time.Sleep(700 * time.Millisecond)

	r.fill(ctx, res, elapsed)
	return res, nil
}

// watch opens cfg.Watchers leaderboard watchers of the tournament, each
// noting the time of its pushes.
func (r *tourRunner) watch(ctx context.Context, id string) ([]*client.Watcher, error) {
	var watchers []*client.Watcher
	for range r.cfg.Watchers {
		w, err := client.DialTournament(ctx, r.cfg.URL, id, "", 1, 20, false)
		if err != nil {
			return watchers, fmt.Errorf("load: watching: %w", err)
		}
		watchers = append(watchers, w)
		go func() {
			for m := range w.C {
				if m.Type != protocol.TypeTournament {
					continue
				}
				r.mu.Lock()
				r.pushes = append(r.pushes, push{time.Now(), m.Through})
				r.mu.Unlock()
			}
		}()
	}
	return watchers, nil
}

// connect puts each entrant in its room of the tournament (conns[i] for
// tokens[i]) and waits for its first board.
func (r *tourRunner) connect(ctx context.Context, id string, tokens []string, conns []*client.Conn) error {
	err := forEach(ctx, len(tokens), 64, func(ctx context.Context, i int) error {
		g, err := r.api.PlayTournament(ctx, id, tokens[i])
		if err != nil {
			return err
		}
		c, err := client.Dial(ctx, r.cfg.URL, &client.Options{Room: g.Room, Token: tokens[i]})
		if err != nil {
			return err
		}
		conns[i] = c
		go func() {
			for range c.Updates() {
			}
		}()
		_, err = c.WaitView(ctx, func(v *match.View) bool { return v.Board != nil })
		return err
	})
	if err != nil {
		return fmt.Errorf("load: connecting entrants: %w", err)
	}
	return nil
}

// fill reports the measured play in res.
func (r *tourRunner) fill(ctx context.Context, res *TournamentResult, elapsed time.Duration) {
	res.Seconds = elapsed.Seconds()
	res.Moves = r.moves.Load()
	res.MovesPerSec = float64(res.Moves) / elapsed.Seconds()
	res.Results = r.results.Load()
	res.Finished = int(r.done.Load())
	r.mu.Lock()
	res.Move = summarise(r.moveLat)
	res.Pushes = int64(len(r.pushes))
	res.Leaderboard = summarise(leaderboardLatency(r.ends, r.pushes, r.cfg.Watchers))
	res.FirstError = r.first
	r.mu.Unlock()
	res.Errors = r.errs.Load()
	if r.cfg.Memory != nil {
		if m, err := r.cfg.Memory(ctx); err == nil {
			res.MemoryAtEnd = &m
		}
	}
}

// leaderboardLatency matches each hole end to the first push after it
// whose latest result is at least as recent, per watcher.
func leaderboardLatency(ends []time.Time, pushes []push, watchers int) []time.Duration {
	var out []time.Duration
	for _, end := range ends {
		for _, p := range pushes {
			if !p.at.Before(end) && !p.through.Before(end.Add(-time.Millisecond)) {
				out = append(out, p.at.Sub(end))
				break
			}
		}
	}
	return out
}

// entrant plays its holes until they are all done or ctx ends.
func (r *tourRunner) entrant(ctx context.Context, c *client.Conn, rng *rand.Rand) {
	for ctx.Err() == nil {
		v := c.View()
		if v == nil || v.Status == match.Finished {
			r.done.Add(1)
			return
		}
		b := v.Board
		move, ok := pick(b, rng)
		if !ok {
			// Wait for the next view (the next hole).
			if _, err := c.WaitView(ctx, func(n *match.View) bool { return n.V > v.V }); err != nil {
				return
			}
			continue
		}
		if r.cfg.Think > 0 {
			select {
			case <-time.After(thinkPause(r.cfg.Think, false)):
			case <-ctx.Done():
				return
			}
		}
		hole := b.Hole
		sent := time.Now()
		ack, err := c.Move(ctx, hole, move)
		if err != nil {
			if ctx.Err() == nil && !client.IsCode(err, protocol.ErrCodeWrongHole) && !client.IsCode(err, protocol.ErrCodeHoleDone) {
				r.fail(err)
			}
			if ctx.Err() != nil {
				return
			}
			continue
		}
		now := time.Now()
		r.moves.Add(1)
		nv, err := c.WaitView(ctx, func(n *match.View) bool { return n.V >= ack.V })
		if err != nil {
			return
		}
		r.mu.Lock()
		r.moveLat = append(r.moveLat, now.Sub(sent))
		if nv.Status == match.Finished || (nv.Board != nil && nv.Board.Hole > hole) {
			r.ends = append(r.ends, now)
			r.results.Add(1)
		}
		r.mu.Unlock()
	}
}
