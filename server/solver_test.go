package server_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"golfsolitaire/client"
	"golfsolitaire/golf"
	"golfsolitaire/match"
	"golfsolitaire/protocol"
	"golfsolitaire/seedpool"
	"golfsolitaire/server"
	"golfsolitaire/solverpool"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// aiarDifficulty is the expensive room: solo practice, All in a
// Row, 18 holes, a difficulty.
func aiarDifficulty() (map[string]any, match.Settings) {
	wire := map[string]any{"game": "all-in-a-row", "format": "stroke", "seats": 1, "holes": 18, "difficulty": 3, "public": false, "spectators": false}
	set := match.DefaultSettings()
	set.Variant = golf.Variant{Game: golf.AllInARow, Options: golf.AllInARow.Defaults()}
	set.Format, set.Seats, set.Holes, set.Difficulty = match.Stroke, 1, 18, 3
	return wire, set
}

// fillPool puts n fixed deals (numbered deals from..) into the settings'
// seed pool, as the filler would.
func fillPool(t *testing.T, pools store.SeedPools, set match.Settings, from, n int) []golf.Seed {
	t.Helper()
	var seeds []golf.Seed
	var entries []string
	for i := range n {
		s := golf.NumberedSeed(from + i)
		seeds = append(seeds, s)
		entries = append(entries, seedpool.Entry(s, golf.Difficulty(set.Difficulty)))
	}
	if _, err := pools.PushSeeds(context.Background(), seedpool.Name(set), entries, 1000); err != nil {
		t.Fatal(err)
	}
	return seeds
}

// TestDifficultyRoomCostsAPop: creating the 18-hole All in a Row
// difficulty room runs the solver not once, and starting its round takes
// the 18 deals from the seed pool: the fold plays exactly them, its round
// seed commits to them, and nothing searches (before, the fold chose each
// hole's deal with up to 41 solver runs on the room's goroutine).
func TestDifficultyRoomCostsAPop(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pools := memstore.NewSeedPools()
	an := match.NewAnalyzer(testSolveNodes, testRateNodes)
	e := newEnv(t, func(o *server.Options) {
		o.SeedPools, o.Analyzer, o.SeedPoolFillers = pools, an, -1
	})
	wire, set := aiarDifficulty()
	deals := fillPool(t, pools, set, 500, 18)
	before := an.Runs()
	grants := e.create(t, ctx, wire, "Ana")
	if n := an.Runs() - before; n != 0 {
		t.Fatalf("creating the room ran the solver %d times", n)
	}
	e.startRoom(t, ctx, grants)
	r := e.room(t, grants[0].Code)
	if len(r.Deals) != 18 || r.Deals[17] != deals[17] || r.CurrentHole().Seed != deals[0] {
		t.Fatalf("the round plays %d deals, hole 1 %s; want the pool's %s", len(r.Deals), r.CurrentHole().Seed, deals[0])
	}
	if r.Seed != golf.PooledRoundSeed(deals) {
		t.Fatal("the round seed is not the pooled round seed of its deals")
	}
	if n, _ := pools.SeedPoolLen(ctx, seedpool.Name(set)); n != 0 {
		t.Fatalf("%d deals left in the pool, want 0", n)
	}
	// At most the background warm-up of hole 1's best score has solved
	// (one run); choosing the deals in the fold took two a candidate.
	if n := an.Runs() - before; n > 1 {
		t.Fatalf("starting the round ran the solver %d times", n)
	}

	// The round's records replay, and the revealed seed checks against the
	// commitment and the revealed deals.
	c := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	for h := 1; h <= 18; h++ {
		if err := c.Stand(ctx, h); err != nil {
			t.Fatalf("stand %d: %v", h, err)
		}
	}
	var recs protocol.Records
	if _, err := e.api.Call(ctx, http.MethodGet, "/api/rooms/"+grants[0].Code+"/records", nil, &recs); err != nil {
		t.Fatal(err)
	}
	seed, err := golf.ParseSeed(recs.Seed)
	if err != nil || !seed.Verify(recs.Commitment) || len(recs.Deals) != 18 || len(recs.Holes) != 18 {
		t.Fatalf("records: seed %q (%v), commitment %q, %d deals, %d holes", recs.Seed, err, recs.Commitment, len(recs.Deals), len(recs.Holes))
	}
	var revealed []golf.Seed
	for i, d := range recs.Deals {
		s, err := golf.ParseSeed(d)
		if err != nil || s != deals[i] {
			t.Fatalf("deal %d revealed as %q", i+1, d)
		}
		revealed = append(revealed, s)
	}
	if golf.PooledRoundSeed(revealed) != seed {
		t.Fatal("the revealed deals do not give the revealed round seed")
	}
	for _, h := range recs.Holes {
		rec := h.Records[0]
		st, err := rec.Replay()
		if err != nil || rec.Seed != deals[h.Number-1] || st.Score() != h.Scores[0] {
			t.Fatalf("hole %d: record of %s replays to %v (%v), scored %d", h.Number, rec.Seed, st, err, h.Scores[0])
		}
	}
}

// TestPoolShortTryAgain: with the pool short, the start is refused with
// try_again and a retryAfter, changes nothing, and works once the pool has
// the deals.
func TestPoolShortTryAgain(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pools := memstore.NewSeedPools()
	e := newEnv(t, func(o *server.Options) { o.SeedPools, o.SeedPoolFillers = pools, -1 })
	wire, set := aiarDifficulty()
	fillPool(t, pools, set, 900, 17)
	grants := e.create(t, ctx, wire, "Ana")
	c := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	e.unchanged(t, grants[0].Code, func() {
		err := c.Start(ctx)
		wantCode(t, err, protocol.ErrCodeTryAgain)
		var ce *client.Error
		if !errors.As(err, &ce) || ce.RetryAfter != 10 {
			t.Fatalf("try_again without retryAfter 10: %#v", err)
		}
	})
	if n, _ := pools.SeedPoolLen(ctx, seedpool.Name(set)); n != 17 {
		t.Fatalf("a refused start took deals: %d left of 17", n)
	}
	fillPool(t, pools, set, 950, 1)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("start with the pool full: %v", err)
	}
}

// blockWorkers occupies every worker of the pool until the returned
// function is called.
func blockWorkers(t *testing.T, p *solverpool.Pool) func() {
	t.Helper()
	gate := make(chan struct{})
	for range p.Workers() {
		started := make(chan struct{})
		go p.Do(context.Background(), solverpool.High, "", func() {
			close(started)
			<-gate
		})
		<-started
	}
	return sync1(func() { close(gate) })
}

func sync1(f func()) func() {
	done := false
	return func() {
		if !done {
			done = true
			f()
		}
	}
}

// TestHintQuota: hints run in the solver pool, at most SolverPerClient in
// flight for a seat: past that the hint is refused at once with
// solver_busy and a retryAfter, while the seat's queued hint is answered
// once a worker is free.
func TestHintQuota(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pool := solverpool.New(solverpool.Options{Workers: 1, PerClient: 1})
	t.Cleanup(pool.Close)
	e := newEnv(t, func(o *server.Options) { o.Solver = pool })
	grants := e.create(t, ctx, stroke(1, 1, nil), "Ana")
	cs := e.startRoom(t, ctx, grants)
	release := blockWorkers(t, pool)
	defer release()
	first := make(chan error, 1)
	go func() {
		_, err := cs[0].Hint(ctx, 1)
		first <- err
	}()
	waitFor(t, 30*time.Second, "the hint to queue", func() bool { return pool.Stats().Queued[solverpool.High] == 1 })
	c2 := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	_, err := c2.Hint(ctx, 1)
	wantCode(t, err, protocol.ErrCodeSolverBusy)
	var ce *client.Error
	if !errors.As(err, &ce) || ce.RetryAfter < 1 {
		t.Fatalf("solver_busy without retryAfter: %#v", err)
	}
	if got := e.metric(t, "golf_solver_refused_total"); got != "1" {
		t.Fatalf("golf_solver_refused_total = %q", got)
	}
	if got := e.metric(t, `golf_solver_queued{priority="high"}`); got != "1" {
		t.Fatalf(`golf_solver_queued{priority="high"} = %q`, got)
	}
	release()
	if err := <-first; err != nil {
		t.Fatalf("queued hint: %v", err)
	}
}

// TestSearchBotThinksInPool: a server's search bot thinks in the solver
// pool: with every worker busy it cannot move; once they are free it
// plays.
func TestSearchBotThinksInPool(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pool := solverpool.New(solverpool.Options{Workers: 1})
	t.Cleanup(pool.Close)
	e := newEnv(t, func(o *server.Options) { o.Solver = pool; o.BotThink = 1 })
	grants := e.create(t, ctx, stroke(2, 1, nil), "Ana")
	if _, _, err := e.api.AddBot(ctx, grants[0].Code, grants[0].Token, "search"); err != nil {
		t.Fatal(err)
	}
	release := blockWorkers(t, pool)
	defer release()
	c := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 30*time.Second, "the bot's thinking to queue", func() bool { return pool.InFlight("bots:"+grants[0].Code) == 1 })
	if r := e.room(t, grants[0].Code); len(r.CurrentHole().Games[1].Moves) != 0 {
		t.Fatal("the bot moved with every solver worker busy")
	}
	release()
	waitFor(t, 30*time.Second, "the bot to move", func() bool {
		r := e.room(t, grants[0].Code)
		return len(r.CurrentHole().Games[1].Moves) > 0 || r.CurrentHole().Games[1].Done
	})
}

// TestTournamentWinnableDeals: a winnable-only tournament's rooms start
// with their deals in the start event, chosen from the tournament's round
// seed (hole seed or replacement, as the legacy fold chose them) before
// the room starts: the same deals for every entrant, and the fold only
// plays them.
func TestTournamentWinnableDeals(t *testing.T) {
	t.Parallel()
	// Choosing nine winnable deals is solver work (twice: the server's
	// and the check's), slow under -race on a loaded machine: more than
	// testCtx's 30 s.
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	ts, api := newTestServer(t, st)
	host, err := api.CreateTournament(ctx, map[string]any{"name": "Winnable", "holes": 9, "winnableOnly": true, "options": map[string]any{"kings": "wrap"}}, "Ana")
	if err != nil {
		t.Fatal(err)
	}
	bo, err := api.JoinTournament(ctx, host.ID, protocol.JoinTournamentRequest{Name: "Bo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := api.HostTournament(ctx, host.ID, "start", host.HostToken); err != nil {
		t.Fatal(err)
	}
	roomA, _ := playEntrantHole(t, ctx, ts.URL, api, host.ID, host.Token, 1)
	roomB, _ := playEntrantHole(t, ctx, ts.URL, api, host.ID, bo.Token, 1)
	tr := loadTournament(t, st, host.ID)
	set := tr.Settings.StrokeRoomSettings()
	check := match.NewAnalyzer(testSolveNodes, testRateNodes)
	for _, code := range []string{roomA, roomB} {
		snap, err := st.Load(ctx, code)
		if err != nil {
			t.Fatal(err)
		}
		r, err := match.DecodeRoom(snap.Data)
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Deals) != 9 || len(r.DealsReplaced) != 9 {
			t.Fatalf("room %s: %d deals, %d replacements; want 9", code, len(r.Deals), len(r.DealsReplaced))
		}
		for n := 1; n <= 9; n++ {
			want, k := check.HoleDealSeed(set, tr.StrokeSeed(), n)
			if r.Deals[n-1] != want || r.DealsReplaced[n-1] != k {
				t.Fatalf("room %s hole %d: deal %s (k %d), want %s (k %d)", code, n, r.Deals[n-1], r.DealsReplaced[n-1], want, k)
			}
		}
		if r.Holes[0].Seed != r.Deals[0] {
			t.Fatalf("room %s plays %s on hole 1, not its deal %s", code, r.Holes[0].Seed, r.Deals[0])
		}
	}
}

// TestSeedPoolSharedRedis: instances on one Redis share the seed pools:
// what one instance (or a filler anywhere) put in, either pops, and no
// deal is played twice.
func TestSeedPoolSharedRedis(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	cl := backends[1].new(t) // redis
	noFill := func(o *server.Options) { o.SeedPoolFillers = -1 }
	a := startInstance(t, cl.store(t), true, noFill)
	b := startInstance(t, cl.store(t), true, noFill)
	wire, set := aiarDifficulty()
	pools, ok := cl.inspect.(store.SeedPools)
	if !ok {
		t.Fatalf("%T has no seed pools", cl.inspect)
	}
	deals := fillPool(t, pools, set, 7000, 36)
	played := map[golf.Seed]bool{}
	for i, in := range []*instance{a, b} {
		g, err := in.api.CreateRoom(ctx, wire, "Ana")
		if err != nil {
			t.Fatal(err)
		}
		c := dial(t, ctx, in.url, g.Code, g.Token)
		if err := c.Start(ctx); err != nil {
			t.Fatalf("instance %d: start: %v", i, err)
		}
		r := cl.room(t, g.Code)
		if len(r.Deals) != 18 || r.Deals[0] != deals[18*i] {
			t.Fatalf("instance %d: %d deals, first %s; want the pool's %s", i, len(r.Deals), r.Deals[0], deals[18*i])
		}
		for _, d := range r.Deals {
			if played[d] {
				t.Fatalf("deal %s handed out twice", d)
			}
			played[d] = true
		}
	}
	g, err := a.api.CreateRoom(ctx, wire, "Cy")
	if err != nil {
		t.Fatal(err)
	}
	c := dial(t, ctx, a.url, g.Code, g.Token)
	wantCode(t, c.Start(ctx), protocol.ErrCodeTryAgain)
}

// TestSeedPoolFiller: a room asking for winnable deals starts the filler,
// which fills the pool in the background with deals the solver clears;
// the round then starts from them.
func TestSeedPoolFiller(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pools := memstore.NewSeedPools()
	e := newEnv(t, func(o *server.Options) { o.SeedPools, o.SeedPoolSize = pools, 2 })
	wire := stroke(1, 2, map[string]any{"game": "golf", "options": map[string]any{"kings": "wrap"}, "winnableOnly": true, "public": false})
	grants := e.create(t, ctx, wire, "Ana")
	set := e.room(t, grants[0].Code).Settings
	name := seedpool.Name(set)
	waitFor(t, 30*time.Second, "the filler to fill the pool", func() bool {
		n, _ := pools.SeedPoolLen(ctx, name)
		return n >= 2
	})
	c := dial(t, ctx, e.ts, grants[0].Code, grants[0].Token)
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	r := e.room(t, grants[0].Code)
	check := match.NewAnalyzer(testSolveNodes, testRateNodes)
	if len(r.Deals) != 2 {
		t.Fatalf("%d deals", len(r.Deals))
	}
	for i, d := range r.Deals {
		if !check.Clearable(set.Variant, d) {
			t.Fatalf("deal %d (%s) from the filler does not clear", i+1, d)
		}
	}
	if got := e.metric(t, "golf_seed_pool_popped_total"); got != "2" {
		t.Fatalf("golf_seed_pool_popped_total = %q", got)
	}
}
