package load

import (
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
