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
