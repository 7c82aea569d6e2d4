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
			waited := yield(runnable, func(d time.Duration) { slept = append(slept, d) })
			if len(slept) != tc.wantSteps || waited != time.Duration(tc.wantSteps)*Step {
				t.Errorf("slept %v (waited %v), want %d steps of %v", slept, waited, tc.wantSteps, Step)
			}
			if slices.ContainsFunc(slept, func(d time.Duration) bool { return d != Step }) {
				t.Errorf("slept %v, want steps of %v", slept, Step)
			}
		})
	}
}

// TestRunnableMetric: the runtime has the metric Yield reads, as a
// count; Runnable reads it.
func TestRunnableMetric(t *testing.T) {
	t.Parallel()
	i := slices.IndexFunc(metrics.All(), func(d metrics.Description) bool { return d.Name == runnableMetric })
	if i < 0 {
		t.Fatalf("the runtime has no %s", runnableMetric)
	}
	if d := metrics.All()[i]; d.Kind != metrics.KindUint64 || d.Cumulative {
		t.Errorf("%s is %+v, want a gauge of goroutines", runnableMetric, d)
	}
	if n := Runnable(); n > 1<<20 {
		t.Errorf("Runnable() = %d", n)
	}
}
