package load

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSettle: settle counts the CPU used after the window until a tick
// sees less than a tenth of a core, and stops at its last tick if the
// process never goes quiet.
func TestSettle(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		name  string
		cpu   []time.Duration // what cpu reads, in order
		ticks int
		want  time.Duration
	}{
		{"quiet at once", []time.Duration{1000 * ms, 1010 * ms}, 10, 10 * ms},
		{"busy for three ticks", []time.Duration{1000 * ms, 1200 * ms, 1450 * ms, 1600 * ms, 1610 * ms}, 10, 610 * ms},
		{"under a tenth of a core is quiet", []time.Duration{0, 20 * ms, 500 * ms}, 10, 20 * ms},
		{"a tenth of a core is busy", []time.Duration{0, 25 * ms, 30 * ms}, 10, 30 * ms},
		{"never quiet", []time.Duration{0, 200 * ms, 400 * ms, 600 * ms, 800 * ms, 1000 * ms}, 3, 800 * ms},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			i := 0
			cpu := func() time.Duration {
				d := tt.cpu[min(i, len(tt.cpu)-1)]
				i++
				return d
			}
			// One tick more than settle may wait for: it must stop at
			// its last.
			tick := make(chan time.Time, tt.ticks+1)
			for range tt.ticks + 1 {
				tick <- time.Time{}
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if got := settle(ctx, cpu, tick, tt.ticks); got != tt.want {
				t.Errorf("settle = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestWaitWarmed: the quiet start waits while the server has deals to
// solve ahead, and stops waiting once it has none, or cannot say.
func TestWaitWarmed(t *testing.T) {
	t.Parallel()
	left := []int{3, 2, 1, 0, 5}
	calls := 0
	waitWarmed(context.Background(), func(context.Context) (int, error) {
		n := left[calls]
		calls++
		return n, nil
	})
	if calls != 4 {
		t.Errorf("read the queue %d times, want 4 (until it was 0)", calls)
	}
	calls = 0
	waitWarmed(context.Background(), func(context.Context) (int, error) {
		calls++
		return 0, errors.New("no golf_best_warm_queue")
	})
	if calls != 1 {
		t.Errorf("read a queue that cannot be read %d times, want 1", calls)
	}
}
