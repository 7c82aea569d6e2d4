// Package idle lets a server's background work (the best scores solved
// ahead, the fair-play analyses) give way to its rooms: the work runs
// between the turns of the goroutines that are ready to run, not beside
// them. Go's scheduler has no priorities, and a CPU budget caps only the
// background's share over seconds: on a server whose one core the rooms
// need most of, a quarter for the analyses and a quarter for the bests
// put the rooms' goroutines behind them and queued their moves for
// seconds whenever many holes ended at once. With more than one P it
// also gives way while every P is busy (Waiting). A solve calls Yield
// every 1,024 nodes (golf.SolveOptions.Yield, a fraction of a
// millisecond).
package idle

import (
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

// yield lets the goroutines that are ready to run go first (giveWay:
// Poller.Poll), then waits, in steps of Step and at most MaxWait in all,
// while others want the CPU (runnable: Waiting, the scheduler's run
// queues hold goroutines, or every P is running one). It returns how
// long it waited.
func yield(giveWay func(), runnable func() uint64, sleep func(time.Duration)) time.Duration {
	giveWay()
	var waited time.Duration
	for waited < MaxWait && runnable() > 0 {
		sleep(Step)
		waited += Step
	}
	return waited
}

// The metrics Waiting reads besides runnableMetric.
const (
	runningMetric = "/sched/goroutines/running:goroutines"
	procsMetric   = "/sched/gomaxprocs:threads"
)

// Waiting is how many goroutines the background should give way to: those
// ready to run but not running, and one more when the process has more
// than one P and every P is running a goroutine (one of them the
// background's own). With several Ps the rooms' goroutines seldom wait in
// a run queue, since another P runs them, but the background's thread
// still takes a CPU that their thread, on a machine whose cores are
// shared (a load generator beside it, or GOMAXPROCS above the CPUs it
// gets), then waits for: at 800 moves a second on two cores, the acks'
// p99 was three to five times that of the detector off while the
// analyses gave way only to the run queues, 1.1-1.7 times once they also gave
// way to busy Ps.
func Waiting() uint64 {
	s := []metrics.Sample{{Name: runnableMetric}, {Name: runningMetric}, {Name: procsMetric}}
	metrics.Read(s)
	return waiting(value(s[0]), value(s[1]), value(s[2]))
}

// waiting is Waiting from the three readings.
func waiting(runnable, running, procs uint64) uint64 {
	if procs > 1 && running >= procs {
		return runnable + 1
	}
	return runnable
}

// value is a sample's count, 0 where the runtime does not have it.
func value(s metrics.Sample) uint64 {
	if s.Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s.Value.Uint64()
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
	return value(s[0])
}
