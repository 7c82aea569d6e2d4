package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"golfsolitaire/jobs"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

// crashingOutbox fails OutboxDone while crash is set: the relay dies
// after inserting the jobs and before removing their entries.
type crashingOutbox struct {
	*memstore.Store
	mu    sync.Mutex
	crash bool
}

func (c *crashingOutbox) OutboxDone(ctx context.Context, es ...store.OutboxEntry) error {
	c.mu.Lock()
	crash := c.crash
	c.mu.Unlock()
	if crash {
		return errors.New("the relay died")
	}
	return c.Store.OutboxDone(ctx, es...)
}

// writeEntries appends n events to a new room, each with an outbox entry.
func writeEntries(t *testing.T, st store.Store, room string, n int) {
	t.Helper()
	ctx := context.Background()
	if err := st.Create(ctx, room, []byte("s"), []byte("e")); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		e, err := jobs.Entry(jobs.Job{Kind: jobs.KindFairplay, Key: fmt.Sprintf("%s:%d", room, i), Args: []byte(fmt.Sprint(i)), At: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := st.AppendOutbox(ctx, room, int64(1+i), nil, []store.OutboxEntry{e}, []byte("ev")); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRelayCrashBetweenInsertAndDone: a relay that queued the jobs but
// died before removing the entries leaves them; the next pass queues
// them again, the queue skips them, and each job is worked once.
func TestRelayCrashBetweenInsertAndDone(t *testing.T) {
	t.Parallel()
	st := &crashingOutbox{Store: memstore.New(memstore.Options{}), crash: true}
	defer st.Close()
	writeEntries(t, st, "ROOM", 5)
	q := jobs.NewMemory(jobs.Options{})
	relay := jobs.NewRelay(st, q, jobs.RelayOptions{})
	ctx := context.Background()
	if _, err := relay.Pass(ctx); err == nil {
		t.Fatal("the pass whose OutboxDone failed reported no error")
	}
	if n, _, _ := st.OutboxStats(ctx); n != 5 {
		t.Fatalf("entries after the crash = %d, want 5 (kept for the next pass)", n)
	}
	st.mu.Lock()
	st.crash = false
	st.mu.Unlock()
	if n, err := relay.Pass(ctx); err != nil || n != 5 {
		t.Fatalf("second pass = %d %v, want 5 entries", n, err)
	}
	if n, _, _ := st.OutboxStats(ctx); n != 0 {
		t.Fatalf("entries after the second pass = %d, want 0", n)
	}
	stats, _ := q.Stats(ctx)
	if len(stats) != 1 || stats[0].Pending != 5 {
		t.Fatalf("queue = %+v, want 5 fair-play jobs, each once", stats)
	}
}

// TestRelayBurst: a burst of entries far larger than a pass (or any
// buffer) is relayed and worked whole, each job once.
func TestRelayBurst(t *testing.T) {
	t.Parallel()
	st := memstore.New(memstore.Options{})
	defer st.Close()
	const rooms, each = 40, 50
	for r := range rooms {
		writeEntries(t, st, fmt.Sprintf("R%02d", r), each)
	}
	q := jobs.NewMemory(jobs.Options{})
	relay := jobs.NewRelay(st, q, jobs.RelayOptions{Batch: 300, Every: 10 * time.Millisecond})
	var mu sync.Mutex
	worked := map[string]int{}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { relay.Run(ctx) })
	wg.Go(func() {
		q.Run(ctx, jobs.Workers{jobs.KindFairplay: {Workers: 4, Handler: jobs.HandlerFunc(func(ctx context.Context, j jobs.Job) error {
			mu.Lock()
			worked[j.Key]++
			mu.Unlock()
			return nil
		})}})
	})
	defer func() {
		cancel()
		wg.Wait()
	}()
	deadline := time.Now().Add(60 * time.Second)
	for {
		mu.Lock()
		n := len(worked)
		mu.Unlock()
		if n == rooms*each {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("worked %d of %d jobs", n, rooms*each)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	for k, c := range worked {
		if c != 1 {
			t.Errorf("%s worked %d times", k, c)
		}
	}
}
