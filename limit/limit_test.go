package limit_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"golfsolitaire/limit"
	"golfsolitaire/limit/limittest"
)

// TestLimiterContract: the contract every Limiter keeps, run on the memory
// one (store/redisstore runs it on the Redis one).
func TestLimiterContract(t *testing.T) {
	t.Parallel()
	limittest.RunLimiter(t, func(t *testing.T) limit.Limiter { return limit.NewMemoryLimiter(0) })
}

// TestMemoryLimiterBounded: a flood of distinct clients never holds more
// buckets than the cap.
func TestMemoryLimiterBounded(t *testing.T) {
	t.Parallel()
	l := limit.NewMemoryLimiter(1000)
	for i := range 50_000 {
		l.Allow(context.Background(), fmt.Sprint("rooms|10.0.", i/256, ".", i%256), limit.Rate{PerSecond: 1.0 / 60, Burst: 5})
	}
	if n := l.Len(); n > 1000 {
		t.Errorf("%d buckets held, cap 1000", n)
	}
}

// TestParseRate: the flags' syntax.
func TestParseRate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want limit.Rate
		ok   bool
	}{
		{"20/1m", limit.Rate{PerSecond: 20.0 / 60, Burst: 20}, true},
		{"5/1s", limit.Rate{PerSecond: 5, Burst: 5}, true},
		{"off", limit.Rate{PerSecond: limit.Unlimited}, true},
		{"0", limit.Rate{PerSecond: limit.Unlimited}, true},
		{"20", limit.Rate{}, false},
		{"x/1m", limit.Rate{}, false},
		{"0.5/1m", limit.Rate{}, false},
		{"5/0s", limit.Rate{}, false},
		{"5/soon", limit.Rate{}, false},
	} {
		got, err := limit.ParseRate(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseRate(%q) = %+v, %v", tc.in, got, err)
		}
	}
}

// TestSocketCounterContract: the contract every SocketCounter keeps, run on
// the memory one (store/redisstore runs it on the Redis one).
func TestSocketCounterContract(t *testing.T) {
	t.Parallel()
	const ttl = 400 * time.Millisecond
	limittest.RunSocketCounter(t, ttl, func(t *testing.T) limit.SocketCounter { return limit.NewMemorySockets(ttl) })
}
