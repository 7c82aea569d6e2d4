package solverpool

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond until it holds (the test's deadline bounds it).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		if t.Context().Err() != nil {
			t.Fatalf("gave up waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// blocker occupies a worker until release is closed.
func blocker(t *testing.T, p *Pool, pri Priority, client string) (release func(), done <-chan error) {
	t.Helper()
	gate := make(chan struct{})
	started := make(chan struct{})
	errc := make(chan error, 1)
	go func() {
		errc <- p.Do(context.Background(), pri, client, func() {
			close(started)
			<-gate
		})
	}()
	<-started
	return func() { close(gate) }, errc
}

// TestPriorities: with the only worker busy, a flood of low-priority jobs
// queued first, then a high-priority job: the high one runs next, before
// every low one (its delay is the running job only).
func TestPriorities(t *testing.T) {
	t.Parallel()
	p := New(Options{Workers: 1, PerClient: 1})
	defer p.Close()
	release, _ := blocker(t, p, Low, "")
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	const flood = 50
	for range flood {
		wg.Go(func() {
			if err := p.Do(context.Background(), Low, "", func() {
				mu.Lock()
				order = append(order, "low")
				mu.Unlock()
			}); err != nil {
				t.Error(err)
			}
		})
	}
	waitFor(t, "the flood to queue", func() bool { return p.Stats().Queued[Low] == flood })
	wg.Go(func() {
		if err := p.Do(context.Background(), Normal, "bot", func() {
			mu.Lock()
			order = append(order, "normal")
			mu.Unlock()
		}); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, "the normal job to queue", func() bool { return p.Stats().Queued[Normal] == 1 })
	wg.Go(func() {
		if err := p.Do(context.Background(), High, "hint", func() {
			mu.Lock()
			order = append(order, "high")
			mu.Unlock()
		}); err != nil {
			t.Error(err)
		}
	})
	waitFor(t, "the high job to queue", func() bool { return p.Stats().Queued[High] == 1 })
	if st := p.Stats(); st.Busy != 1 || st.Workers != 1 {
		t.Fatalf("stats %+v, want 1 busy of 1", st)
	}
	release()
	wg.Wait()
	if len(order) != flood+2 || order[0] != "high" || order[1] != "normal" {
		t.Fatalf("ran %d jobs, first %v; want high, normal, then the flood", len(order), order[:min(3, len(order))])
	}
	waitFor(t, "idle", func() bool { st := p.Stats(); return st.Busy == 0 && st.Queued == [nPriorities]int{} })
}

// TestQuota: a client may have PerClient jobs queued or running; the next
// is refused at once with ErrQuota, other clients go on, and the quota
// frees as jobs end (or are cancelled while queued).
func TestQuota(t *testing.T) {
	t.Parallel()
	p := New(Options{Workers: 1, PerClient: 2})
	defer p.Close()
	release, first := blocker(t, p, High, "10.0.0.1")
	// The second job of the client waits in the queue; it is cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	queuedErr := make(chan error, 1)
	go func() { queuedErr <- p.Do(ctx, High, "10.0.0.1", func() { ran = true }) }()
	waitFor(t, "the second job to queue", func() bool { return p.Stats().Queued[High] == 1 })
	if err := p.Do(context.Background(), High, "10.0.0.1", func() { t.Error("a job past the quota ran") }); !errors.Is(err, ErrQuota) {
		t.Fatalf("third job: %v, want ErrQuota", err)
	}
	other := make(chan error, 1)
	go func() { other <- p.Do(context.Background(), High, "10.0.0.2", func() {}) }()
	waitFor(t, "the other client's job to queue", func() bool { return p.Stats().Queued[High] == 2 })
	cancel()
	if err := <-queuedErr; !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("cancelled queued job: %v (ran %v), want context.Canceled", err, ran)
	}
	// The cancelled job freed its place: the client has one job in flight.
	third := make(chan error, 1)
	go func() { third <- p.Do(context.Background(), High, "10.0.0.1", func() {}) }()
	waitFor(t, "the client's new job to queue", func() bool { return p.Stats().Queued[High] == 2 })
	release()
	for _, c := range []chan error{other, third} {
		if err := <-c; err != nil {
			t.Fatal(err)
		}
	}
	if err := <-first; err != nil {
		t.Fatal(err)
	}
}

// TestClose: queued jobs are dropped with ErrClosed, the running one
// finishes, and nothing is accepted afterwards.
func TestClose(t *testing.T) {
	t.Parallel()
	p := New(Options{Workers: 1})
	release, first := blocker(t, p, Low, "")
	queued := make(chan error, 1)
	go func() { queued <- p.Do(context.Background(), Low, "", func() { t.Error("a dropped job ran") }) }()
	waitFor(t, "the job to queue", func() bool { return p.Stats().Queued[Low] == 1 })
	closed := make(chan struct{})
	go func() { p.Close(); close(closed) }()
	if err := <-queued; !errors.Is(err, ErrClosed) {
		t.Fatalf("queued job at close: %v, want ErrClosed", err)
	}
	release()
	<-closed
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := p.Do(context.Background(), High, "", func() {}); !errors.Is(err, ErrClosed) {
		t.Fatalf("after close: %v", err)
	}
}

func TestDefaults(t *testing.T) {
	t.Parallel()
	p := New(Options{})
	defer p.Close()
	if p.Workers() != DefaultWorkers() || DefaultWorkers() < 1 {
		t.Fatalf("workers %d, default %d", p.Workers(), DefaultWorkers())
	}
	if err := p.Do(context.Background(), Priority(7), "", func() {}); err == nil {
		t.Fatal("an unknown priority was accepted")
	}
}
