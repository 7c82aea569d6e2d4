package hubs

import (
	"context"
	"errors"
	"log/slog"
	"slices"
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
	// checks and putOffs count the periodic checks made and put off
	// (Deferrer).
	checks, putOffs int
	// notices are the data of the notices to its key (Noticer).
	notices []string
}

func (c *counter) Notice(data []byte) { c.notices = append(c.notices, string(data)) }

func (c *counter) PutOff() bool {
	c.putOffs++
	return true
}

func (c *counter) Settled() { c.said.Store(c.n) }

func (c *counter) HubCore() *Core[struct{}] { return &c.Core }

func (c *counter) Load(ctx context.Context) error {
	n, v, err := LoadState(ctx, c.Store, c.Key, func(b []byte) (int64, error) { return strconv.ParseInt(string(b), 10, 64) })
	c.n, c.v = n, v
	return err
}

func (c *counter) Entry(e store.Entry) {
	if e.Version <= c.v {
		return // ours, applied already
	}
	if e.Version == c.v+1 {
		c.n, c.v = c.n+1, e.Version
		return
	}
	c.Check()
}

func (c *counter) Check() {
	c.checks++
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
	return instanceEvery(t, st, time.Hour)
}

// instanceEvery is instance with checks every resync.
func instanceEvery(t *testing.T, st *memstore.Store, resync time.Duration) (*Registry[*counter, struct{}], *sync.WaitGroup) {
	t.Helper()
	loops := &sync.WaitGroup{}
	env := Env{Store: st, Log: slog.New(slog.DiscardHandler), Now: time.Now, ResyncEvery: resync, Loops: loops}
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

// TestBusyHubPutsChecksOff: while the subscription delivers entries (here
// the echoes of the hub's own changes, one a second) a Deferrer's
// periodic check waits, PutOff running in its place; once the entries
// stop, the check comes ResyncEvery after the last one, so a message lost
// after it is still found within ResyncEvery. On the fake clock of
// synctest. A hub that is not a Deferrer, or whose subscription delivers
// nothing, checks every ResyncEvery.
func TestBusyHubPutsChecksOff(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		const every = 5 * time.Second
		r, loops := instanceEvery(t, newStore(t, "a"), every)
		h, err := r.Acquire(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { r.Release(h); loops.Wait() }()
		counts := func() [2]int {
			t.Helper()
			c, err := Read(ctx, &h.Core, func() [2]int { return [2]int{h.checks, h.putOffs} })
			if err != nil {
				t.Fatal(err)
			}
			return c
		}
		for range 60 {
			if err := h.Queue(ctx, &struct{}{}); err != nil {
				t.Fatal(err)
			}
			time.Sleep(time.Second)
			synctest.Wait()
		}
		if c := counts(); c[0] != 0 || c[1] < 60/5 {
			t.Fatalf("a minute of a change a second: %d checks and %d put off, want 0 and at least %d", c[0], c[1], 60/5)
		}
		// The last change was a second ago: its check is due in 4 s.
		time.Sleep(every - time.Second - time.Millisecond)
		synctest.Wait()
		if c := counts(); c[0] != 0 {
			t.Fatalf("%d checks before ResyncEvery after the last entry, want 0", c[0])
		}
		time.Sleep(2 * time.Millisecond)
		synctest.Wait()
		putOffs := counts()[1]
		if c := counts(); c[0] != 1 {
			t.Fatalf("%d checks at ResyncEvery after the last entry, want 1", c[0])
		}
		time.Sleep(3 * every)
		synctest.Wait()
		if c := counts(); c[0] != 4 || c[1] != putOffs {
			t.Fatalf("quiet for %v: %d checks and %d put off, want 4 and %d", 3*every, c[0], c[1], putOffs)
		}
	})
}

// TestNotices: notices to a hub's key (NotifyRoom) reach it on its loop,
// in order, and change nothing else: its state is the same, and a hub
// that hears notices alone still makes its checks for lost messages
// (a notice says nothing of the entries before it). Seen failing with
// the notices taken as entries (Deferrer: every check put off).
func TestNotices(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		const every = 5 * time.Second
		st := newStore(t, "a")
		r, loops := instanceEvery(t, st, every)
		h, err := r.Acquire(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { r.Release(h); loops.Wait() }()
		var sent []string
		for i := range 30 {
			msg := strconv.Itoa(i)
			if err := st.NotifyRoom(ctx, "a", []byte(msg)); err != nil {
				t.Fatal(err)
			}
			sent = append(sent, msg)
			time.Sleep(time.Second)
			synctest.Wait()
		}
		type seen struct {
			notices         []string
			n, v            int64
			checks, putOffs int
		}
		got, err := Read(ctx, &h.Core, func() seen { return seen{slices.Clone(h.notices), h.n, h.v, h.checks, h.putOffs} })
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.notices, sent) {
			t.Fatalf("notices %q, want %q", got.notices, sent)
		}
		if got.n != 0 || got.v != 1 {
			t.Fatalf("count %d at version %d after notices alone, want 0 at 1", got.n, got.v)
		}
		if got.checks < 30/5-1 || got.putOffs != 0 {
			t.Fatalf("30 s of a notice a second: %d checks and %d put off, want at least %d and 0", got.checks, got.putOffs, 30/5-1)
		}
	})
}

func TestPutOff(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		since, want time.Duration
	}{
		{0, 5 * time.Second},
		{time.Second, 4 * time.Second},
		{5*time.Second - 1, 1},
		{5 * time.Second, 0},
		{time.Hour, 0},
		{-time.Second, 0}, // a clock that went back: check now
	} {
		if got := putOff(tt.since, 5*time.Second); got != tt.want {
			t.Errorf("putOff(%v, 5s) = %v, want %v", tt.since, got, tt.want)
		}
	}
}

// outageStore is a memory store whose bus can go down: its subscriptions
// end, and new ones fail while it is down.
type outageStore struct {
	*memstore.Store
	t     *testing.T
	mu    sync.Mutex
	down  bool
	subs  []store.Subscription
	calls int
}

func (o *outageStore) Subscribe(ctx context.Context, key string) (store.Subscription, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.calls++; o.calls > 20 {
		// A hub that subscribes again and again; refused, so that the
		// test ends.
		o.t.Errorf("%d subscriptions", o.calls)
		return nil, errors.New("too many subscriptions")
	}
	if o.down {
		return nil, errors.New("the bus is down")
	}
	sub, err := o.Store.Subscribe(ctx, key)
	if err == nil {
		o.subs = append(o.subs, sub)
	}
	return sub, err
}

// fail takes the bus down (down) or up again.
func (o *outageStore) fail(down bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.down = down
	if down {
		for _, sub := range o.subs {
			sub.Close()
		}
		o.subs = nil
	}
}

// TestCheckAfterOutage: a hub whose subscription ended a second after its
// latest entry, and could not subscribe again at once, checks the store
// when the periodic check resubscribes, even though an entry came within
// ResyncEvery: what was appended while it had no subscription is in the
// store only. The new subscription then lasts: a later change comes
// through it, with no more subscriptions made (the resubscription's
// context once ended it as soon as it was made, and the loop subscribed
// again without end).
func TestCheckAfterOutage(t *testing.T) {
	t.Parallel()
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		const every = 5 * time.Second
		mem := newStore(t, "a")
		st := &outageStore{Store: mem, t: t}
		loops := &sync.WaitGroup{}
		env := Env{Store: st, Log: slog.New(slog.DiscardHandler), Now: time.Now, ResyncEvery: every, Loops: loops}
		r := NewRegistry(env, func(key string) *counter {
			return &counter{Core: NewCore[struct{}](env, "counter", key), tickC: make(chan struct{})}
		}, nil)
		h, err := r.Acquire(ctx, "a")
		if err != nil {
			t.Fatal(err)
		}
		defer func() { r.Release(h); loops.Wait() }()
		time.Sleep(3 * time.Second)
		if err := h.Queue(ctx, &struct{}{}); err != nil { // heard at 3 s
			t.Fatal(err)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		st.fail(true) // at 4 s: the subscription ends, and cannot be made again
		synctest.Wait()
		// Another instance's change while the bus is down.
		if _, err := mem.Append(ctx, "a", 2, []byte("2"), []byte("+1")); err != nil {
			t.Fatal(err)
		}
		st.fail(false)
		time.Sleep(every - 4*time.Second + time.Millisecond) // the periodic check, at 5 s
		synctest.Wait()
		if n := count(t, h); n != 2 {
			t.Fatalf("after the check that resubscribed: the hub counts %d, want 2 (the change appended during the outage)", n)
		}
		// Another instance's change, a second later: through the
		// subscription, before any check.
		time.Sleep(time.Second)
		if _, err := mem.Append(ctx, "a", 3, []byte("3"), []byte("+1")); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if c := counts(t, h); c.n != 3 || c.checks != 1 {
			t.Fatalf("a change after the outage: the hub counts %d after %d checks, want 3 after 1", c.n, c.checks)
		}
		st.mu.Lock()
		calls := st.calls
		st.mu.Unlock()
		if calls != 3 {
			t.Fatalf("%d subscriptions made, want 3 (the first, the one refused, the one that worked)", calls)
		}
	})
}

// hubCounts is what a counter hub has seen, read on its loop.
type hubCounts struct {
	n               int64
	checks, putOffs int
}

func counts(t *testing.T, h *counter) hubCounts {
	t.Helper()
	c, err := Read(context.Background(), &h.Core, func() hubCounts { return hubCounts{h.n, h.checks, h.putOffs} })
	if err != nil {
		t.Fatal(err)
	}
	return c
}
