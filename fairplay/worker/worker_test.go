package worker

import (
	"context"
	"slices"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
)

// The server's priorities (server.PriorityFairplayRated, PriorityFairplay).
const rated, casual = 5, 10

// TestWorkerBounded: the worker runs jobs on its one goroutine,
// refuses (and counts) jobs past its queue without blocking, and stops.
func TestWorkerBounded(t *testing.T) {
	t.Parallel()
	dropped := prometheus.NewCounter(prometheus.CounterOpts{Name: "dropped"})
	w := New(2, dropped)
	ctx := context.Background()
	hold, started := make(chan struct{}), make(chan struct{})
	if !w.Submit(ctx, casual, func() { close(started); <-hold }) {
		t.Fatal("first job refused")
	}
	<-started
	ran := make(chan int, 3)
	for i := range 2 {
		if !w.Submit(ctx, casual, func() { ran <- i }) {
			t.Fatalf("job %d refused with room in the queue", i)
		}
	}
	if w.Submit(ctx, casual, func() { ran <- 99 }) {
		t.Fatal("a job past the queue was accepted")
	}
	if got := testutil.ToFloat64(dropped); got != 1 {
		t.Fatalf("dropped = %v, want 1", got)
	}
	close(hold)
	if a, b := <-ran, <-ran; a != 0 || b != 1 {
		t.Fatalf("jobs ran as %d, %d", a, b)
	}
	w.Close()
	if w.Submit(ctx, casual, func() { ran <- 100 }) {
		t.Fatal("a job was accepted after Close")
	}
	w.Close() // twice is fine
	select {
	case n := <-ran:
		t.Fatalf("job %d ran", n)
	default:
	}
}

// TestWorkerRatedFirst: queued rated holes run before casual ones
// whatever their arrival, and a full queue makes room for a rated hole by
// pushing out the newest casual one, never the reverse.
func TestWorkerRatedFirst(t *testing.T) {
	t.Parallel()
	dropped := prometheus.NewCounter(prometheus.CounterOpts{Name: "dropped"})
	w := New(3, dropped)
	defer w.Close()
	ctx := context.Background()
	hold, started := make(chan struct{}), make(chan struct{})
	w.Submit(ctx, casual, func() { close(started); <-hold })
	<-started
	ran := make(chan string, 8)
	submit := func(pri int, name string) bool { return w.Submit(ctx, pri, func() { ran <- name }) }
	for _, name := range []string{"casual1", "casual2", "casual3"} {
		if !submit(casual, name) {
			t.Fatalf("%s refused", name)
		}
	}
	if !submit(rated, "rated1") {
		t.Fatal("a rated hole was refused by a queue full of casual ones")
	}
	if !submit(rated, "rated2") {
		t.Fatal("second rated hole refused")
	}
	if submit(casual, "casual4") {
		t.Fatal("a casual hole was queued in a full queue")
	}
	if got := testutil.ToFloat64(dropped); got != 3 {
		t.Fatalf("dropped = %v, want 3 (two casual holes pushed out, one refused)", got)
	}
	close(hold)
	var order []string
	for range 3 {
		order = append(order, <-ran)
	}
	if want := []string{"rated1", "rated2", "casual1"}; !slices.Equal(order, want) {
		t.Fatalf("ran %v, want %v", order, want)
	}
}
