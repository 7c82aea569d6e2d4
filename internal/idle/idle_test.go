package idle

import (
	"runtime/metrics"
	"slices"
	"testing"
	"time"
)

// TestYield: Yield waits in steps while goroutines are ready to run, and
// never more than MaxWait in one call; with none waiting it does not
// wait at all.
func TestYield(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		runnable  []uint64 // what the run queues hold at each look (the last repeats)
		wantSteps int
	}{
		{"none waiting", []uint64{0}, 0},
		{"rooms' goroutines waiting, then run", []uint64{3, 2, 1, 0}, 3},
		{"one waiting for a while", []uint64{1, 1, 1, 1, 1, 0}, 5},
		{"never idle: at most MaxWait", []uint64{7}, int(MaxWait / Step)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			looks := 0
			runnable := func() uint64 {
				v := tc.runnable[min(looks, len(tc.runnable)-1)]
				looks++
				return v
			}
			var slept []time.Duration
			gaveWay := 0
			waited := yield(func() { gaveWay++ }, runnable, func(d time.Duration) { slept = append(slept, d) })
			if gaveWay != 1 {
				t.Errorf("gave way %d times before waiting, want once", gaveWay)
			}
			if len(slept) != tc.wantSteps || waited != time.Duration(tc.wantSteps)*Step {
				t.Errorf("slept %v (waited %v), want %d steps of %v", slept, waited, tc.wantSteps, Step)
			}
			if slices.ContainsFunc(slept, func(d time.Duration) bool { return d != Step }) {
				t.Errorf("slept %v, want steps of %v", slept, Step)
			}
		})
	}
}

// TestRunnableMetric: the runtime has the metrics Yield reads, as
// counts; Runnable and Waiting read them.
func TestRunnableMetric(t *testing.T) {
	t.Parallel()
	for _, name := range []string{runnableMetric, runningMetric, procsMetric} {
		i := slices.IndexFunc(metrics.All(), func(d metrics.Description) bool { return d.Name == name })
		if i < 0 {
			t.Fatalf("the runtime has no %s", name)
		}
		if d := metrics.All()[i]; d.Kind != metrics.KindUint64 || d.Cumulative {
			t.Errorf("%s is %+v, want a gauge", name, d)
		}
	}
	if n := Runnable(); n > 1<<20 {
		t.Errorf("Runnable() = %d", n)
	}
	if n := Waiting(); n > 1<<20 {
		t.Errorf("Waiting() = %d", n)
	}
}

// TestWaiting: the background gives way to the goroutines in the run
// queues and, with more than one P, to every P being busy (its own P is
// one of them); with one P, its own running is no reason to wait.
func TestWaiting(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name                     string
		runnable, running, procs uint64
		want                     uint64
	}{
		{"one P, nothing else to run", 0, 1, 1, 0},
		{"one P, rooms' goroutines queued", 3, 1, 1, 3},
		{"two Ps, the other idle", 0, 1, 2, 0},
		{"two Ps, both running", 0, 2, 2, 1},
		{"two Ps, both running and more queued", 2, 2, 2, 3},
		{"eight Ps, seven running", 0, 7, 8, 0},
		{"eight Ps, all running", 0, 8, 8, 1},
		{"the runtime says nothing", 0, 0, 0, 0},
	} {
		if got := waiting(tc.runnable, tc.running, tc.procs); got != tc.want {
			t.Errorf("%s: waiting(%d, %d, %d) = %d, want %d", tc.name, tc.runnable, tc.running, tc.procs, got, tc.want)
		}
	}
}
