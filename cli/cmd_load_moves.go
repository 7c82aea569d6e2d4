package cli

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
)

// serverMoves is what the server's own histogram of a move's arrival to
// its ack (golf_move_seconds) says of a load run's moves: the server's
// part of the acks, without the load generator's or the network's.
// The histogram has buckets, so the percentiles are bucket bounds: "at
// most".
type serverMoves struct {
	N int64 `json:"n"`
	// P50AtMostMs and P99AtMostMs are the upper bounds of the buckets
	// holding the 50th and 99th percentiles (-1: past the last bound).
	P50AtMostMs float64 `json:"p50AtMostMs"`
	P99AtMostMs float64 `json:"p99AtMostMs"`
	// Within50Ms is the share of the moves acked within 50 ms of their
	// arrival.
	Within50Ms float64 `json:"within50Ms"`
}

// moveBuckets are golf_move_seconds' bucket bounds, in seconds, as the
// server exposes them (server/metrics.go).
var moveBuckets = []string{"0.0005", "0.001", "0.0025", "0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1", "+Inf"}

func moveBucketName(le string) string { return `golf_move_seconds_bucket{le="` + le + `"}` }

// readMoveHistogram reads the cumulative counts of golf_move_seconds'
// buckets from a server's /metrics.
func readMoveHistogram(ctx context.Context, base string) ([]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	names := make([]string, len(moveBuckets))
	for i, le := range moveBuckets {
		names[i] = moveBucketName(le)
	}
	vals, err := parseMetrics(resp.Body, names...)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(moveBuckets))
	for i, n := range names {
		v, ok := vals[n]
		if !ok {
			return nil, fmt.Errorf("/metrics has no %s", n)
		}
		out[i] = v
	}
	return out, nil
}

// movesBetween summarises the moves between two readings of the
// histogram (nil when either is missing or no move was acked).
func movesBetween(before, after []float64) *serverMoves {
	if len(before) != len(moveBuckets) || len(after) != len(moveBuckets) {
		return nil
	}
	n := after[len(after)-1] - before[len(before)-1]
	if n <= 0 {
		return nil
	}
	at := func(q float64) float64 {
		for i, le := range moveBuckets {
			if after[i]-before[i] >= q*n {
				if le == "+Inf" {
					return -1
				}
				s, _ := strconv.ParseFloat(le, 64)
				return s * 1000
			}
		}
		return -1
	}
	i50 := 6 // le="0.05"
	return &serverMoves{N: int64(n), P50AtMostMs: at(.50), P99AtMostMs: at(.99), Within50Ms: (after[i50] - before[i50]) / n}
}
