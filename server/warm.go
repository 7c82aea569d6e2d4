package server

import (
	"context"
	"runtime"
	"sync"
	"time"

	"golfsolitaire/golf"
	"golfsolitaire/internal/proccpu"
	"golfsolitaire/jobs"
	"golfsolitaire/match"
	"golfsolitaire/solverpool"
)

// maxWarmQueue bounds the deals waiting to be solved ahead: past it a
// hole's deal is solved when the hole ends, as without warming.
const maxWarmQueue = 50_000

// bestWarmer solves the deals of holes that have just started, ahead of
// their ends, so that a hole's end finds its best score memoized (the
// analyzer's memo, shared by every room that plays the deal), and so
// that the solves of rooms whose holes end together (rooms started at
// once) are spread over the holes' play instead of run all at once at
// their ends, on the cores the rooms need then. One goroutine takes the
// deals in the order their holes started, each as one job of the solver
// pool at low priority, within a CPU budget (a share of what the process
// gets, as the fair-play analyses': a quarter on one core); a deal
// already solved is skipped. Nothing waits for it: a hole that ends
// first is solved then (recordBests), and a deal can never be solved
// twice at once (the analyzer runs each deal's solve once).
type bestWarmer struct {
	analyzer *match.Analyzer
	pool     *solverpool.Pool
	budget   *jobs.Budget

	mu    sync.Mutex
	queue []warmDeal
	// solving is set while a deal taken from the queue is being solved.
	solving bool
	wake    chan struct{}
}

// waiting is how many deals are still to be solved ahead: those queued,
// and the one being solved (golf_best_warm_queue).
func (w *bestWarmer) waiting() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.queue)
	if w.solving {
		n++
	}
	return n
}

// warmDeal is a deal to solve ahead.
type warmDeal struct {
	v    golf.Variant
	seed golf.Seed
}

func newBestWarmer(an *match.Analyzer, pool *solverpool.Pool, cores float64) *bestWarmer {
	return &bestWarmer{analyzer: an, pool: pool, wake: make(chan struct{}, 1),
		budget: jobs.NewBudget(cores, jobs.BudgetOptions{Process: new(proccpu.Reader).Self, Procs: runtime.GOMAXPROCS(0)})}
}

// add queues a deal (not when the queue is full).
func (w *bestWarmer) add(v golf.Variant, seed golf.Seed) {
	w.mu.Lock()
	if len(w.queue) < maxWarmQueue {
		w.queue = append(w.queue, warmDeal{v: v, seed: seed})
	}
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// next takes the oldest deal waiting, if any.
func (w *bestWarmer) next() (warmDeal, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.solving = len(w.queue) > 0
	if len(w.queue) == 0 {
		return warmDeal{}, false
	}
	d := w.queue[0]
	w.queue[0] = warmDeal{}
	w.queue = w.queue[1:]
	if len(w.queue) == 0 {
		w.queue = nil // let the backing array go
	}
	return d, true
}

// run solves the queued deals until ctx ends.
func (w *bestWarmer) run(ctx context.Context) {
	for {
		d, ok := w.next()
		if !ok {
			select {
			case <-w.wake:
				continue
			case <-ctx.Done():
				return
			}
		}
		if w.analyzer.Solved(d.v, d.seed) {
			continue
		}
		if w.budget.Wait(ctx) != nil {
			return
		}
		start := time.Now()
		var cpu time.Duration
		// The analyzer is entered here, not from inside a pool job: a job
		// waiting for a solve that waits for a worker could hold the
		// only one.
		w.analyzer.Warm(d.v, d.seed, func(fn func()) {
			_ = w.pool.Do(ctx, solverpool.Low, "", func() { cpu = threadCPU(fn) })
		})
		if cpu <= 0 {
			cpu = time.Since(start)
		}
		w.budget.Spent(cpu)
	}
}

// threadCPU runs fn on one thread and returns the CPU time it took (0
// where the thread's time cannot be read).
func threadCPU(fn func()) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0 := threadCPUTime()
	fn()
	return threadCPUTime() - t0
}
