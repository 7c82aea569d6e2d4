package server_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"golfsolitaire/match"
	"golfsolitaire/server"
	"golfsolitaire/solverpool"
)

// TestBestSolvedAheadWhenBusy: a hole that starts while the solver pool
// is busy still has its deal solved ahead of its end, once the pool has
// room (before, the warm-up was skipped whenever normal work queued, so
// rooms started together under load all solved their bests when their
// holes ended together). /metrics counts the deal in golf_best_warm_queue
// while it waits, and not once it is solved.
func TestBestSolvedAheadWhenBusy(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	pool := solverpool.New(solverpool.Options{Workers: 1})
	t.Cleanup(pool.Close) // after the server's close (cleanups run last first)
	an := match.NewAnalyzer(testSolveNodes, testRateNodes)
	e := newEnv(t, func(o *server.Options) { o.Solver, o.Analyzer, o.SeedPoolFillers = pool, an, -1 })

	// Keep the pool's worker busy and one normal job waiting (let go at
	// the latest as the test ends, so that a failure does not hang it).
	hold := make(chan struct{})
	release := sync.OnceFunc(func() { close(hold) })
	t.Cleanup(release)
	for range 2 {
		go func() { _ = pool.Do(context.Background(), solverpool.Normal, "", func() { <-hold }) }()
	}
	waitFor(t, 10*time.Second, "a busy pool", func() bool { return pool.Stats().Queued[solverpool.Normal] >= 1 })

	grants := e.create(t, ctx, stroke(2, 3, nil), "Ana", "Bo")
	e.startRoom(t, ctx, grants)
	r := e.room(t, grants[0].Code)
	seed := r.CurrentHole().Seed
	// The deal waits, and /metrics says so.
	waitFor(t, 10*time.Second, "golf_best_warm_queue 1", func() bool { return e.metric(t, "golf_best_warm_queue") == "1" })
	release()
	waitFor(t, 20*time.Second, "hole 1's deal solved ahead", func() bool { return an.Solved(r.Settings.Variant, seed) })
	waitFor(t, 10*time.Second, "golf_best_warm_queue 0", func() bool { return e.metric(t, "golf_best_warm_queue") == "0" })
	if h := e.room(t, grants[0].Code).CurrentHole(); h.Number != 1 || h.Done {
		t.Fatalf("hole %d (done %v): the deal was solved at the hole's end, not ahead", h.Number, h.Done)
	}
}
