package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
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

// serverSched is what the server's Go scheduler says of a load run
// (go_sched_latencies_seconds: how long its goroutines waited to run once
// ready): the part of the latencies that is its cores being busy.
type serverSched struct {
	N      int64   `json:"n"`
	MeanMs float64 `json:"meanMs"`
	// Over10Ms and Over100Ms are the shares of the waits longer than
	// the histogram's bounds nearest 10 and 100 ms (10.5 and 117 ms).
	Over10Ms  float64 `json:"over10Ms"`
	Over100Ms float64 `json:"over100Ms"`
}

// histogram is a Prometheus histogram as read: its buckets' upper
// bounds (seconds, +Inf last), their cumulative counts, and the sum.
type histogram struct {
	bounds, counts []float64
	sum            float64
}

// getMetrics fetches a server's /metrics, only the families named
// (promhttp's name[] filter: the server still gathers every metric, but
// encodes and compresses only those, about 2.0 ms of CPU a reading
// instead of 2.7); the caller closes the body.
func getMetrics(ctx context.Context, base string, names ...string) (io.ReadCloser, error) {
	u := base + "/metrics"
	if len(names) > 0 {
		q := url.Values{"name[]": names}
		u += "?" + q.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, fmt.Errorf("GET /metrics: %s", resp.Status)
	}
	return resp.Body, nil
}

// readHistogram reads the histogram name from a server's /metrics.
func readHistogram(ctx context.Context, base, name string) (histogram, error) {
	body, err := getMetrics(ctx, base, name)
	if err != nil {
		return histogram{}, err
	}
	defer body.Close()
	var h histogram
	bucket := name + `_bucket{le="`
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, name+"_sum "); ok {
			h.sum, _ = strconv.ParseFloat(v, 64)
			continue
		}
		rest, ok := strings.CutPrefix(line, bucket)
		if !ok {
			continue
		}
		le, count, ok := strings.Cut(rest, `"} `)
		b, err1 := strconv.ParseFloat(le, 64)
		c, err2 := strconv.ParseFloat(count, 64)
		if !ok || err1 != nil || err2 != nil {
			return histogram{}, fmt.Errorf("/metrics: bad line %q", line)
		}
		h.bounds, h.counts = append(h.bounds, b), append(h.counts, c)
	}
	if err := sc.Err(); err != nil {
		return histogram{}, err
	}
	if len(h.bounds) == 0 || !math.IsInf(h.bounds[len(h.bounds)-1], 1) {
		return histogram{}, fmt.Errorf("/metrics has no %s", name)
	}
	return h, nil
}

// since is the histogram of what was observed after before; ok is false
// when the two do not have the same buckets or nothing was observed.
func (h histogram) since(before histogram) (histogram, bool) {
	if len(h.bounds) == 0 || len(h.bounds) != len(before.bounds) {
		return histogram{}, false
	}
	d := histogram{bounds: h.bounds, counts: make([]float64, len(h.counts)), sum: h.sum - before.sum}
	for i := range h.counts {
		if h.bounds[i] != before.bounds[i] {
			return histogram{}, false
		}
		d.counts[i] = h.counts[i] - before.counts[i]
	}
	return d, d.n() > 0
}

func (h histogram) n() float64 { return h.counts[len(h.counts)-1] }

// atMost is the upper bound, in ms, of the bucket holding quantile q
// (-1 past the last finite bound).
func (h histogram) atMost(q float64) float64 {
	for i, c := range h.counts {
		if c >= q*h.n() {
			if math.IsInf(h.bounds[i], 1) {
				return -1
			}
			return h.bounds[i] * 1000
		}
	}
	return -1
}

// within is the share observed at most bound seconds (the bucket bound
// nearest above it).
func (h histogram) within(bound float64) float64 {
	for i, b := range h.bounds {
		if b >= bound*(1-1e-9) {
			return h.counts[i] / h.n()
		}
	}
	return 1
}

// movesSummary summarises the moves of a run (nil when it cannot).
func movesSummary(before, after histogram) *serverMoves {
	d, ok := after.since(before)
	if !ok {
		return nil
	}
	return &serverMoves{N: int64(d.n()), P50AtMostMs: d.atMost(.50), P99AtMostMs: d.atMost(.99), Within50Ms: d.within(.05)}
}

// schedSummary summarises the scheduler's waits of a run (nil when it
// cannot).
func schedSummary(before, after histogram) *serverSched {
	d, ok := after.since(before)
	if !ok {
		return nil
	}
	return &serverSched{N: int64(d.n()), MeanMs: d.sum / d.n() * 1000, Over10Ms: 1 - d.within(.010), Over100Ms: 1 - d.within(.100)}
}
