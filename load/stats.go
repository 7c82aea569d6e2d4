package load

import (
	"math"
	"runtime/metrics"
	"slices"
	"time"
)

// Latency summarises a set of durations, in milliseconds.
type Latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50Ms"`
	P95 float64 `json:"p95Ms"`
	P99 float64 `json:"p99Ms"`
	Max float64 `json:"maxMs"`
}

// summarise sorts ds in place and returns its percentiles.
func summarise(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	slices.Sort(ds)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	at := func(p float64) float64 {
		i := int(p*float64(len(ds))+0.5) - 1
		return ms(ds[min(max(i, 0), len(ds)-1)])
	}
	return Latency{N: len(ds), P50: at(.50), P95: at(.95), P99: at(.99), Max: ms(ds[len(ds)-1])}
}

// Slice is the acks of the moves sent in one slice of the window.
type Slice struct {
	// From is the slice's start, in seconds from the window's.
	From float64 `json:"fromSec"`
	Latency
}

// timeline splits the acks ds of moves sent at times at into slices of
// width every from start (none if every is 0), summarising each; it
// leaves ds and at as they were.
func timeline(ds []time.Duration, at []time.Time, start time.Time, every time.Duration) []Slice {
	if every <= 0 || len(ds) == 0 || len(ds) != len(at) {
		return nil
	}
	var buckets [][]time.Duration
	for i, d := range ds {
		k := max(int(at[i].Sub(start)/every), 0)
		for len(buckets) <= k {
			buckets = append(buckets, nil)
		}
		buckets[k] = append(buckets[k], d)
	}
	out := make([]Slice, len(buckets))
	for k, b := range buckets {
		out[k] = Slice{From: (time.Duration(k) * every).Seconds(), Latency: summarise(b)}
	}
	return out
}

// schedCounts reads this process's histogram of how long its goroutines
// waited to run once ready (runtime/metrics /sched/latencies:seconds):
// the buckets' bounds and a copy of their counts.
func schedCounts() (bounds []float64, counts []uint64) {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil, nil
	}
	h := s[0].Value.Float64Histogram()
	return h.Buckets, slices.Clone(h.Counts)
}

// schedLatency summarises the waits counted between two readings of
// schedCounts: each figure is the upper bound of the bucket that holds
// it (the runtime's buckets are a few per power of two).
func schedLatency(bounds []float64, before, after []uint64) Latency {
	if len(before) != len(after) || len(bounds) != len(after)+1 {
		return Latency{}
	}
	d := make([]uint64, len(after))
	var n uint64
	for i := range after {
		d[i] = after[i] - before[i]
		n += d[i]
	}
	if n == 0 {
		return Latency{}
	}
	ms := func(i int) float64 {
		b := bounds[i+1]
		if math.IsInf(b, 1) {
			b = bounds[i]
		}
		return b * 1000
	}
	at := func(q float64) float64 {
		var c uint64
		for i, k := range d {
			if c += k; float64(c) >= q*float64(n) {
				return ms(i)
			}
		}
		return ms(len(d) - 1)
	}
	last := 0
	for i, k := range d {
		if k > 0 {
			last = i
		}
	}
	return Latency{N: int(n), P50: at(.50), P95: at(.95), P99: at(.99), Max: ms(last)}
}
