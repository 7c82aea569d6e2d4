// Package hubs is the machine shared by every kind of hub the server
// keeps: one room (server/hub.go) or one tournament. A hub holds the
// state folded from the store's log on this instance, kept in step
// through a subscription to the log, changed and read by one goroutine,
// its loop. Core is that machine, after centrifuge's Hub: the Registry
// that starts a hub on first use and stops it with its last user,
// subscribe-then-load, commands run on the loop (typed reads, batched
// changes), the deadline timer, the resubscription after an outage and
// the periodic check for lost messages. What differs (how the state is
// decoded, changed, shown) is the hub's Logic.
package hubs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"golfsolitaire/store"
)

// maxBatch bounds how many queued changes a batching hub applies in one
// store append.
const maxBatch = 256

// Store is the part of the store a hub's core uses: the log it loads
// (and the hubs append to) and the bus that carries other instances'
// events.
type Store interface {
	store.RoomLog
	store.Bus
}

// Env is what the hubs of one server share: the store, the logger, the
// clock, how often a hub checks for lost messages, and the group that
// counts the running loops (so the server's Close can wait for them).
type Env struct {
	Store       Store
	Log         *slog.Logger
	Now         func() time.Time
	ResyncEvery time.Duration
	Loops       *sync.WaitGroup
}

// Core is the machine of one hub; a kind of hub embeds it.
type Core[B any] struct {
	env  Env
	what string // "room" or "tournament", in errors
	ops  chan op[B]
	stop chan struct{}
	done chan struct{}
	refs int // guarded by the registry's mu
	sub  store.Subscription
	subC <-chan store.Entry // nil while resubscribing after an outage
	// deadline fires at the state's next deadline (Schedule).
	deadline *time.Timer
	// heard is when the subscription last delivered an entry (Deferrer).
	heard time.Time

	// Store is the part of the store the core uses: the log it loads and
	// the bus it follows.
	Store Store
	// Key is the hub's key in the store's log.
	Key string
	// Log is the environment's logger, with the hub's kind and key.
	Log *slog.Logger
}

// op is work for a hub's loop: run, or a change (batch) that may share
// one store append with the changes queued after it.
type op[B any] struct {
	run func()
	// done, when set, is closed once run has run (Do).
	done  chan struct{}
	batch *B
}

// Logic is what every kind of hub adds to the core. Every method but
// Load runs on the hub's loop. A hub may add the optional capabilities
// below (Lifecycle, Timer, Batcher); the loop asks for them once.
type Logic[B any] interface {
	HubCore() *Core[B]
	// Load reads the state from the store (after the core subscribed, so
	// nothing is missed).
	Load(ctx context.Context) error
	// Entry applies an event another instance appended.
	Entry(e store.Entry)
	// Check runs every ResyncEvery (a Deferrer's may wait) and after a
	// resubscription: it brings the state in step with the store when a
	// message was lost.
	Check()
	// Tick runs when the deadline passes.
	Tick()
}

// Lifecycle is a hub with work of its own when its loop starts (Started
// runs first on the loop) and stops (Stopped runs last).
type Lifecycle interface {
	Started()
	Stopped()
}

// Settled is a hub with work to do whenever its loop has run something
// (an op or a batch, another instance's event, a tick, a timer, a
// check): Settled runs then, on the loop, before it waits again.
type Settled interface {
	Settled()
}

// Deferrer is a hub whose Check looks for what the subscription lost
// (besides work that needs no store, which PutOff does): while entries
// come through the subscription it is live, and a message lost before
// the latest entry showed as a gap in versions when that entry came (the
// hub's Entry resyncs on one). So the check waits until ResyncEvery after
// the latest entry, and PutOff runs in its place; it reports whether the
// check may wait (false: the hub has state to mend, and Check runs now).
// A lost message is still found within ResyncEvery of the entry before
// it, and a busy hub reads the store for it only when it goes quiet: at
// thousands of rooms, a store read a second for every five rooms saved.
type Deferrer interface {
	PutOff() bool
}

// Noticer is a hub that takes the notices sent to its key
// (store.Bus.NotifyRoom: entries of version 0 among its entries): Notice
// runs on the loop with each one's data. Other hubs drop them. A notice
// says nothing of the entries before it, so it does not put the check
// for lost messages off (Deferrer).
type Noticer interface {
	Notice(data []byte)
}

// Timer is a hub with a timer of its own besides the deadline: Timer is
// that timer (nil when unset), Fired runs when it fires.
type Timer interface {
	Timer() *time.Timer
	Fired()
}

// Batcher is a hub whose changes are queued as batches (Core.Queue):
// ApplyBatch applies the queued changes in one store append. Only hubs
// that batch are sent batches.
type Batcher[B any] interface {
	ApplyBatch(batch []*B)
}

// NewCore returns the core of a hub of kind what ("room", "tournament")
// under key.
func NewCore[B any](env Env, what, key string) Core[B] {
	return Core[B]{env: env, Store: env.Store, Key: key, what: what, ops: make(chan op[B]), stop: make(chan struct{}), done: make(chan struct{}),
		Log: env.Log.With(what, key)}
}

// Registry holds the live hubs of one kind, by key.
type Registry[H Logic[B], B any] struct {
	env  Env
	mu   sync.Mutex
	hubs map[string]H
	// make returns a new hub, not loaded.
	make func(key string) H
	// afterStart, when set, runs once the hub's loop has started.
	afterStart func(h H)
}

// NewRegistry returns a registry whose hubs make makes; afterStart, when
// not nil, runs once a hub's loop has started.
func NewRegistry[H Logic[B], B any](env Env, make func(string) H, afterStart func(H)) *Registry[H, B] {
	return &Registry[H, B]{env: env, hubs: map[string]H{}, make: make, afterStart: afterStart}
}

// Acquire returns the hub of key, starting it if needed. Call Release
// when done with it. Acquirers of a hub still loading wait on its ops
// channel, which the loop serves only once it is loaded.
func (r *Registry[H, B]) Acquire(ctx context.Context, key string) (H, error) {
	r.mu.Lock()
	if h, ok := r.hubs[key]; ok {
		h.HubCore().refs++
		r.mu.Unlock()
		return h, nil
	}
	h := r.make(key)
	c := h.HubCore()
	c.refs = 1
	r.hubs[key] = h
	r.mu.Unlock()
	if err := c.open(ctx, h); err != nil {
		r.mu.Lock()
		if cur, ok := r.hubs[key]; ok && cur.HubCore() == c {
			delete(r.hubs, key)
		}
		r.mu.Unlock()
		close(c.done)
		var zero H
		return zero, err
	}
	r.env.Loops.Go(func() { runLoop(h) })
	if r.afterStart != nil {
		r.afterStart(h)
	}
	return h, nil
}

// Release drops a reference; the last one stops the hub and waits for it.
func (r *Registry[H, B]) Release(h H) {
	c := h.HubCore()
	r.mu.Lock()
	c.refs--
	last := c.refs == 0
	if cur, ok := r.hubs[c.Key]; last && ok && cur.HubCore() == c {
		delete(r.hubs, c.Key)
	}
	r.mu.Unlock()
	if last {
		close(c.stop)
		<-c.done
	}
}

// All returns the live hubs.
func (r *Registry[H, B]) All() []H {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]H, 0, len(r.hubs))
	for _, h := range r.hubs {
		out = append(out, h)
	}
	return out
}

// open subscribes, then loads.
func (c *Core[B]) open(ctx context.Context, l Logic[B]) error {
	sub, err := c.Store.Subscribe(context.WithoutCancel(ctx), c.Key)
	if err != nil {
		return err
	}
	if err := l.Load(ctx); err != nil {
		sub.Close()
		return err
	}
	c.sub, c.subC = sub, sub.C()
	return nil
}

// LoadState reads a hub's state from the store's snapshot: on load and on
// every resync.
func LoadState[S any](ctx context.Context, st store.RoomLog, key string, decode func([]byte) (S, error)) (S, int64, error) {
	var zero S
	snap, err := st.Load(ctx, key)
	if err != nil {
		return zero, 0, err
	}
	state, err := decode(snap.Data)
	if err != nil {
		return zero, 0, err
	}
	return state, snap.Version, nil
}

func runLoop[B any](l Logic[B]) {
	c := l.HubCore()
	life, _ := l.(Lifecycle)
	own, _ := l.(Timer)
	settled, _ := l.(Settled)
	defer close(c.done)
	defer func() {
		if c.sub != nil {
			c.sub.Close()
		}
		if c.deadline != nil {
			c.deadline.Stop()
		}
		if life != nil {
			life.Stopped()
		}
	}()
	if life != nil {
		life.Started()
	}
	poll := time.NewTimer(c.env.ResyncEvery)
	defer poll.Stop()
	deferrer, _ := l.(Deferrer)
	noticer, _ := l.(Noticer)
	for {
		var deadlineC, timerC <-chan time.Time
		if c.deadline != nil {
			deadlineC = c.deadline.C
		}
		if own != nil {
			if t := own.Timer(); t != nil {
				timerC = t.C
			}
		}
		select {
		case <-c.stop:
			return
		case o := <-c.ops:
			c.handle(l, o)
		case e, ok := <-c.subC:
			switch {
			case ok && e.Version == 0:
				if noticer != nil {
					noticer.Notice(e.Data)
				}
			case ok:
				c.heard = time.Now()
				l.Entry(e)
			case c.resubscribe():
				l.Check()
			}
		case <-deadlineC:
			c.deadline = nil
			l.Tick()
		case <-timerC:
			own.Fired()
		case <-poll.C:
			poll.Reset(c.poll(l, deferrer))
		}
		if settled != nil {
			settled.Settled()
		}
	}
}

// poll runs the periodic check (resubscribing first after an outage,
// and then never putting it off: what came while there was no
// subscription is in the store only), or puts it off (Deferrer), and
// returns when the next one is due.
func (c *Core[B]) poll(l Logic[B], deferrer Deferrer) time.Duration {
	if c.subC == nil {
		c.resubscribe()
	} else if wait := putOff(time.Since(c.heard), c.env.ResyncEvery); wait > 0 && deferrer != nil && deferrer.PutOff() {
		return wait
	}
	l.Check()
	return c.env.ResyncEvery
}

// putOff is how long a check may wait when the latest entry came since
// ago: until every after it, 0 when that has passed (and when no entry
// came).
func putOff(since, every time.Duration) time.Duration {
	if since < 0 || since >= every {
		return 0
	}
	return every - since
}

// handle runs an op; a change takes whatever other changes are queued
// behind it (up to maxBatch) into one batch.
func (c *Core[B]) handle(l Logic[B], o op[B]) {
	if o.batch == nil {
		o.run()
		if o.done != nil {
			close(o.done)
		}
		return
	}
	batch := []*B{o.batch}
	var next *op[B]
drain:
	for len(batch) < maxBatch {
		select {
		case n := <-c.ops:
			if n.batch == nil {
				next = &n
				break drain
			}
			batch = append(batch, n.batch)
		default:
			break drain
		}
	}
	// Batches are sent to Batchers only (a hub that does not batch
	// queues run ops).
	l.(Batcher[B]).ApplyBatch(batch)
	if next != nil {
		c.handle(l, *next)
	}
}

// resubscribe replaces a subscription the store ended (an outage), within
// a timeout. Until it works, subC is nil (a nil channel never delivers)
// and the periodic check both keeps the state in step and tries again.
func (c *Core[B]) resubscribe() bool {
	if c.sub != nil {
		c.sub.Close()
		c.sub = nil
	}
	c.subC = nil
	// The subscription lasts as long as the context it is made with (the
	// stores end it when that ends), so this one has no end: with a
	// timeout's, cancelled on return, the new subscription ended at once,
	// and the loop, seeing it end, subscribed again, and again. The
	// stores bound the call themselves (the Redis client's timeouts).
	sub, err := c.Store.Subscribe(context.Background(), c.Key)
	if err != nil {
		c.Log.Warn("resubscribe failed", "err", err)
		return false
	}
	c.sub, c.subC = sub, sub.C()
	return true
}

// send queues an op on the loop.
func (c *Core[B]) send(ctx context.Context, o op[B]) error {
	select {
	case c.ops <- o:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-c.done:
		return fmt.Errorf("%w: %s closed on this instance", store.ErrUnavailable, c.what)
	}
}

// Queue queues a change on the loop, to be applied in a batch with the
// changes queued behind it (Batcher). It does not wait for it.
func (c *Core[B]) Queue(ctx context.Context, b *B) error {
	return c.send(ctx, op[B]{batch: b})
}

// Do runs f on the loop and waits for it.
func (c *Core[B]) Do(ctx context.Context, f func()) error {
	ran := make(chan struct{})
	if err := c.send(ctx, op[B]{run: f, done: ran}); err != nil {
		return err
	}
	select {
	case <-ran:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stopping is closed when the hub's last user released it: the loop is
// stopping.
func (c *Core[B]) Stopping() <-chan struct{} { return c.stop }

// Done is closed once the hub's loop has ended (or it failed to load).
func (c *Core[B]) Done() <-chan struct{} { return c.done }

// Read runs f on the hub's loop and returns what it returns.
func Read[T, B any](ctx context.Context, c *Core[B], f func() T) (T, error) {
	var v T
	if err := c.Do(ctx, func() { v = f() }); err != nil {
		var zero T
		return zero, err
	}
	return v, nil
}

// ReadErr is Read for an f that may refuse.
func ReadErr[T, B any](ctx context.Context, c *Core[B], f func() (T, error)) (T, error) {
	var v T
	var ferr error
	if err := c.Do(ctx, func() { v, ferr = f() }); err != nil {
		var zero T
		return zero, err
	}
	return v, ferr
}

// Schedule sets the deadline timer for t (when ok), a little after it.
func (c *Core[B]) Schedule(t time.Time, ok bool) {
	if c.deadline != nil {
		c.deadline.Stop()
		c.deadline = nil
	}
	if ok {
		c.deadline = time.NewTimer(max(t.Sub(c.env.Now()), 0) + 10*time.Millisecond)
	}
}

// CreateKey stores a new log under a fresh key: first makes the key's
// snapshot and first event; a key already taken is drawn again (a few
// times).
func CreateKey(ctx context.Context, st store.RoomLog, first func(key string) (snap, data []byte, err error), newKey func() string) (string, error) {
	for attempt := 0; ; attempt++ {
		key := newKey()
		snap, data, err := first(key)
		if err != nil {
			return "", err
		}
		err = st.Create(ctx, key, snap, data)
		if err == nil {
			return key, nil
		}
		if !errors.Is(err, store.ErrExists) || attempt > 5 {
			return "", err
		}
	}
}
