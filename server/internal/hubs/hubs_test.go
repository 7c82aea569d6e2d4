package hubs

import (
	"context"
	"errors"
	"log/slog"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"golfsolitaire/internal/testrun"
	"golfsolitaire/store"
	"golfsolitaire/store/memstore"
)

func TestMain(m *testing.M) { testrun.Main(m) }

// counter is a hub whose state is a count: each change appends one event
// and adds one; its snapshot is the count in decimal.
type counter struct {
	Core[struct{}]
	n, v    int64
	batches []int // sizes of the batches applied
	ticks   int
	tickC   chan struct{}
	// said is n as the loop last said it (Settled), read off the loop.
	said atomic.Int64
}

func (c *counter) Settled() { c.said.Store(c.n) }

func (c *counter) HubCore() *Core[struct{}] { return &c.Core }

func (c *counter) Load(ctx context.Context) error {
	n, v, err := LoadState(ctx, c.Store, c.Key, func(b []byte) (int64, error) { return strconv.ParseInt(string(b), 10, 64) })
	c.n, c.v = n, v
	return err
}

func (c *counter) Entry(e store.Entry) {
	if e.Version == c.v+1 {
		c.n, c.v = c.n+1, e.Version
		return
	}
	c.Check()
}

func (c *counter) Check() {
	if err := c.Load(context.Background()); err != nil {
		c.Log.Warn("check", "err", err)
	}
}

func (c *counter) Tick() {
	c.ticks++
	close(c.tickC)
}

func (c *counter) ApplyBatch(batch []*struct{}) {
	events := make([][]byte, len(batch))
	for i := range events {
		events[i] = []byte("+1")
	}
	n := c.n + int64(len(batch))
	v, err := c.Store.Append(context.Background(), c.Key, c.v, []byte(strconv.FormatInt(n, 10)), events...)
	if err != nil {
		c.Log.Warn("append", "err", err)
		return
	}
	c.n, c.v = n, v
	c.batches = append(c.batches, len(batch))
}

var _ Batcher[struct{}] = (*counter)(nil)

// instance is one server's registry of counters over a shared store.
func instance(t *testing.T, st *memstore.Store) (*Registry[*counter, struct{}], *sync.WaitGroup) {
	t.Helper()
	loops := &sync.WaitGroup{}
	env := Env{Store: st, Log: slog.New(slog.DiscardHandler), Now: time.Now, ResyncEvery: time.Hour, Loops: loops}
	return NewRegistry(env, func(key string) *counter {
		return &counter{Core: NewCore[struct{}](env, "counter", key), tickC: make(chan struct{})}
	}, nil), loops
}

func newStore(t *testing.T, keys ...string) *memstore.Store {
	t.Helper()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { st.Close() })
	for _, k := range keys {
		if err := st.Create(context.Background(), k, []byte("0"), []byte("create")); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

func count(t *testing.T, h *counter) int64 {
	t.Helper()
	n, err := Read(context.Background(), &h.Core, func() int64 { return h.n })
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRegistrySharesAndStops(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, loops := instance(t, newStore(t, "a"))
	h1, err := r.Acquire(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	h2, err := r.Acquire(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	if h1 != h2 || len(r.All()) != 1 {
		t.Fatalf("two acquires of one key: %p %p, %d live hubs", h1, h2, len(r.All()))
	}
	r.Release(h1)
	select {
	case <-h1.Done():
		t.Fatal("the hub stopped while a user still held it")
	default:
	}
	r.Release(h2)
	<-h2.Done()
	loops.Wait()
	if len(r.All()) != 0 {
		t.Fatalf("%d live hubs after the last release", len(r.All()))
	}
	if err := h1.Do(ctx, func() {}); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("Do on a stopped hub: %v, want ErrUnavailable", err)
	}
}

func TestAcquireUnknownKey(t *testing.T) {
	t.Parallel()
	r, _ := instance(t, newStore(t))
	if _, err := r.Acquire(context.Background(), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Acquire of an unknown key: %v, want ErrNotFound", err)
	}
	if len(r.All()) != 0 {
		t.Fatalf("a hub that failed to load stays registered")
	}
}

// Changes queued while the loop is busy are applied in fewer store
// appends than changes, and none is lost. synctest.Wait sees every queuer
// blocked on the loop before the loop is let go.
func TestQueuedChangesBatch(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		r, loops := instance(t, newStore(t, "a"))
		h, err := r.Acquire(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { r.Release(h); loops.Wait() }()
		const n = 50
		busy, free := make(chan struct{}), make(chan struct{})
		go h.Do(ctx, func() { close(busy); <-free })
		<-busy
		var queued sync.WaitGroup
		for range n {
			queued.Go(func() {
				if err := h.Queue(ctx, &struct{}{}); err != nil {
					t.Error(err)
				}
			})
		}
		synctest.Wait()
		close(free)
		queued.Wait()
		if got := count(t, h); got != n {
			t.Fatalf("count %d after %d changes", got, n)
		}
		batches, _ := Read(ctx, &h.Core, func() []int { return h.batches })
		total := 0
		for _, b := range batches {
			total += b
		}
		if total != n || len(batches) != 1 {
			t.Fatalf("batches %v: want the %d changes queued together in one append", batches, n)
		}
	})
}

// twoInstances are the hubs of key on two instances over one store,
// released (and their loops waited for) when the test ends.
func twoInstances(t *testing.T, key string) (*counter, *counter) {
	t.Helper()
	st := newStore(t, key)
	var hs [2]*counter
	for i := range hs {
		r, loops := instance(t, st)
		h, err := r.Acquire(context.Background(), key)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { r.Release(h); loops.Wait() })
		hs[i] = h
	}
	return hs[0], hs[1]
}

// A change on one instance reaches the hub of the same key on another
// through the store's bus.
func TestOtherInstanceEntry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h1, h2 := twoInstances(t, "a")
	if err := h1.Queue(ctx, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for count(t, h2) != 1 {
		if time.Now().After(deadline) {
			t.Fatal("the other instance never saw the change")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestSettled: after whatever the loop runs, a change of its own (a
// batch) or another instance's event, the hub says so (Settled) without
// being asked through the loop.
func TestSettled(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	h1, h2 := twoInstances(t, "a")
	for i := range 3 {
		if err := h1.Queue(ctx, &struct{}{}); err != nil {
			t.Fatal(err)
		}
		want := int64(i + 1)
		deadline := time.Now().Add(5 * time.Second)
		for h1.said.Load() != want || h2.said.Load() != want {
			if time.Now().After(deadline) {
				t.Fatalf("change %d: the hubs say %d and %d", want, h1.said.Load(), h2.said.Load())
			}
			time.Sleep(time.Millisecond)
		}
	}
}

func TestScheduleTicks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r, loops := instance(t, newStore(t, "a"))
	h, err := r.Acquire(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { r.Release(h); loops.Wait() }()
	if err := h.Do(ctx, func() { h.Schedule(time.Now(), true) }); err != nil {
		t.Fatal(err)
	}
	select {
	case <-h.tickC:
	case <-time.After(5 * time.Second):
		t.Fatal("the deadline never ticked")
	}
	if ticks, _ := Read(ctx, &h.Core, func() int { return h.ticks }); ticks != 1 {
		t.Fatalf("%d ticks, want 1", ticks)
	}
}
