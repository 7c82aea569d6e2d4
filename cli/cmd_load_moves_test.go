package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestMovesBetween(t *testing.T) {
	t.Parallel()
	// Cumulative counts by bound: 0.5 ms, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, +Inf.
	before := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	after := []float64{10, 60, 100, 110, 110, 110, 1000, 1080, 1110, 1110, 1110, 1110}
	got := movesBetween(before, after)
	want := serverMoves{N: 1100, P50AtMostMs: 50, P99AtMostMs: 250, Within50Ms: 990.0 / 1100}
	if got == nil || *got != want {
		t.Errorf("movesBetween = %+v, want %+v", got, want)
	}
	past := []float64{10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 20}
	if got := movesBetween(before, past); got == nil || got.P50AtMostMs != -1 || got.Within50Ms != 0 {
		t.Errorf("moves all past the last bound: %+v", got)
	}
	if movesBetween(nil, after) != nil || movesBetween(before, before) != nil {
		t.Errorf("a missing reading or no moves gave a summary")
	}
}

func TestReadMoveHistogram(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "# TYPE golf_move_seconds histogram")
		for i, le := range moveBuckets {
			fmt.Fprintf(w, "golf_move_seconds_bucket{le=%q} %d\n", le, 5*(i+1))
		}
		fmt.Fprintln(w, "golf_move_seconds_count 60")
	}))
	defer ts.Close()
	got, err := readMoveHistogram(context.Background(), ts.URL)
	if err != nil || len(got) != len(moveBuckets) || got[0] != 5 || got[len(got)-1] != 60 {
		t.Fatalf("readMoveHistogram = %v, %v", got, err)
	}
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprintln(w, "go_goroutines 3") }))
	defer bare.Close()
	if _, err := readMoveHistogram(context.Background(), bare.URL); err == nil || !strings.Contains(err.Error(), "golf_move_seconds_bucket") {
		t.Errorf("a server without the histogram: %v", err)
	}
}
