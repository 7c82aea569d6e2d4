// Package idle lets a server's background work (the best scores solved
// ahead, the fair-play analyses) give way to its rooms: the work runs
// between the turns of the goroutines that are ready to run, not beside
// them. Go's scheduler has no priorities, and a CPU budget caps only the
// background's share over seconds: on a server whose one core the rooms
// need most of, a quarter for the analyses and a quarter for the bests
// put the rooms' goroutines behind them and queued their moves for
// seconds whenever many holes ended at once. A solve calls Yield every
// few thousand nodes (golf.SolveOptions.Yield, about a millisecond).
package idle

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// Step is how long Yield waits before it looks at the run queues again;
// MaxWait is the most it waits in one call: past it the work goes on
// anyway, so on a server that is never idle the background still takes
// a slice (about a millisecond of search) every MaxWait, some 5% of a
// core, and is late rather than stopped.
const (
	Step    = time.Millisecond
	MaxWait = 20 * time.Millisecond
)

// Yield lets the goroutines that are ready to run go first
// (runtime.Gosched), then waits, in steps of Step and at most MaxWait in
// all, while the scheduler's run queues still hold any
// (runtime/metrics' /sched/goroutines/runnable:goroutines). It returns
// how long it waited.
func Yield() time.Duration { return yield(Runnable, time.Sleep) }

func yield(runnable func() uint64, sleep func(time.Duration)) time.Duration {
	runtime.Gosched()
	var waited time.Duration
	for waited < MaxWait && runnable() > 0 {
		sleep(Step)
		waited += Step
	}
	return waited
}

// runnableMetric is the scheduler's count of goroutines ready to run but
// not running.
const runnableMetric = "/sched/goroutines/runnable:goroutines"

// Runnable is how many goroutines are ready to run but not running (an
// approximation: the run queues are read without stopping them), 0 where
// the runtime does not say.
func Runnable() uint64 {
	s := []metrics.Sample{{Name: runnableMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
