package cli

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// moveBounds are golf_move_seconds' bounds (server/metrics.go).
var moveBounds = []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, math.Inf(1)}

func TestMovesSummary(t *testing.T) {
	t.Parallel()
	h := func(sum float64, counts ...float64) histogram {
		return histogram{bounds: moveBounds, counts: counts, sum: sum}
	}
	before := h(1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10)
	after := h(9, 10, 60, 100, 110, 110, 110, 1000, 1080, 1110, 1110, 1110, 1110)
	got := movesSummary(before, after)
	want := serverMoves{N: 1100, P50AtMostMs: 50, P99AtMostMs: 250, Within50Ms: 990.0 / 1100}
	if got == nil || *got != want {
		t.Errorf("movesSummary = %+v, want %+v", got, want)
	}
	past := h(20, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 20)
	if got := movesSummary(before, past); got == nil || got.P50AtMostMs != -1 || got.Within50Ms != 0 {
		t.Errorf("moves all past the last bound: %+v", got)
	}
	if movesSummary(histogram{}, after) != nil || movesSummary(before, before) != nil {
		t.Errorf("a missing reading or no moves gave a summary")
	}
	other := histogram{bounds: append([]float64{.0001}, moveBounds[1:]...), counts: after.counts}
	if movesSummary(before, other) != nil {
		t.Errorf("readings with other buckets gave a summary")
	}
}

func TestSchedSummary(t *testing.T) {
	t.Parallel()
	bounds := []float64{6.4e-08, 6.4e-07, 7.168e-06, 8.192e-05, 0.000917504, 0.01048576, 0.117440512, math.Inf(1)}
	before := histogram{bounds: bounds, counts: []float64{0, 0, 0, 0, 0, 0, 0, 0}}
	after := histogram{bounds: bounds, counts: []float64{100, 200, 300, 400, 700, 900, 990, 1000}, sum: 2}
	got := schedSummary(before, after)
	want := serverSched{N: 1000, MeanMs: 2, Over10Ms: .1, Over100Ms: .01}
	if got == nil || got.N != want.N || math.Abs(got.MeanMs-want.MeanMs) > 1e-9 || math.Abs(got.Over10Ms-want.Over10Ms) > 1e-9 || math.Abs(got.Over100Ms-want.Over100Ms) > 1e-9 {
		t.Errorf("schedSummary = %+v, want %+v", got, want)
	}
}

func TestReadHistogram(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "# TYPE golf_move_seconds histogram")
		for i, b := range moveBounds {
			le := fmt.Sprint(b)
			if math.IsInf(b, 1) {
				le = "+Inf"
			}
			fmt.Fprintf(w, "golf_move_seconds_bucket{le=%q} %d\n", le, 5*(i+1))
		}
		fmt.Fprintln(w, "golf_move_seconds_sum 1.5")
		fmt.Fprintln(w, "golf_move_seconds_count 60")
		fmt.Fprintln(w, `golf_other_bucket{le="+Inf"} 7`)
	}))
	defer ts.Close()
	got, err := readHistogram(context.Background(), ts.URL, "golf_move_seconds")
	if err != nil || len(got.counts) != len(moveBounds) || got.counts[0] != 5 || got.n() != 60 || got.sum != 1.5 || got.bounds[6] != .05 {
		t.Fatalf("readHistogram = %+v, %v", got, err)
	}
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "go_goroutines 3") }))
	defer bare.Close()
	if _, err := readHistogram(context.Background(), bare.URL, "golf_move_seconds"); err == nil || !strings.Contains(err.Error(), "no golf_move_seconds") {
		t.Errorf("a server without the histogram: %v", err)
	}
}
